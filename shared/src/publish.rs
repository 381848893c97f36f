//! Publishing exam media into the media store: the content's images as they
//! are, and the listening scripts rendered to audio by the speech port.
//!
//! Audio is cached by a hash of the script, the voices and the engine: a
//! rerun renders nothing that already exists. The same code publishes to the
//! local folder (`make run`) and to S3 (deployment).

use std::path::Path;

use bytes::Bytes;
use futures_util::{StreamExt, stream};
use sha2::{Digest, Sha256};
use thiserror::Error;
use tokio::process::Command;

use crate::catalogue::Catalogue;
use crate::domain::content::{Cast, Question, Test};
use crate::domain::scoring::Paper;
use crate::ports::media::{MediaError, MediaKey, MediaStore};
use crate::ports::speech::{SpeechError, SpeechSynth};

/// Silence between two turns of speech, and before the first.
const GAP_SECONDS: f32 = 0.45;
/// Sample rate of the published audio (mono).
const RATE: u32 = 24_000;
/// Integrated loudness of every clip (EBU R128), so no question is quieter than another.
pub const TARGET_LUFS: f32 = -18.0;
/// Sample peak ceiling after the gain, -3 dBFS: MP3 encoding adds up to
/// about 1.5 dB, and the published peaks must stay below -1 dBFS.
const PEAK_LIMIT: f32 = 0.708;
/// Below this, a rendered clip holds no speech.
const SILENCE_LUFS: f32 = -60.0;

#[derive(Debug, Error)]
pub enum PublishError {
    #[error(transparent)]
    Media(#[from] MediaError),
    #[error(transparent)]
    Speech(#[from] SpeechError),
    #[error("question {question} of listening test {test}: speaker {speaker} is not in the cast")]
    UnknownSpeaker {
        test: u32,
        question: u32,
        speaker: String,
    },
    #[error("audio encoding failed: {0}")]
    Encode(String),
    #[error("cannot read {path}: {detail}")]
    Read { path: String, detail: String },
}

/// The media key of a question's audio: `listening/<test>/qNN-<hash>.mp3`.
pub fn audio_key(test: &Test, q: &Question, cast: &Cast, engine_id: &str) -> Option<MediaKey> {
    let lines = q.audio.as_ref()?;
    let mut h = Sha256::new();
    h.update(engine_id.as_bytes());
    h.update(b"\x00mp3-48k-r128-18-limit-3\x00");
    for line in lines {
        let voice = cast.voices.get(&line.speaker);
        h.update(serde_json::to_vec(&voice).unwrap_or_default());
        h.update(b"\x00");
        h.update(line.text.as_bytes());
        h.update(b"\x00");
    }
    let hex: String = h.finalize()[..6]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    MediaKey::parse(&format!("listening/{}/q{:02}-{hex}.mp3", test.id, q.number)).ok()
}

/// What a publishing run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    pub written: usize,
    pub unchanged: usize,
}

/// Copies every file under `content/media` into the store, skipping identical ones.
pub async fn publish_images(
    media_dir: &Path,
    media: &dyn MediaStore,
) -> Result<Report, PublishError> {
    let mut report = Report::default();
    let mut stack = vec![media_dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(mut entries) = tokio::fs::read_dir(&dir).await else {
            continue;
        };
        while let Ok(Some(entry)) = entries.next_entry().await {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(media_dir)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            let Ok(key) = MediaKey::parse(&rel) else {
                tracing::warn!(file = %path.display(), "skipped: not a valid media key");
                continue;
            };
            let bytes = tokio::fs::read(&path)
                .await
                .map_err(|e| PublishError::Read {
                    path: path.display().to_string(),
                    detail: e.to_string(),
                })?;
            if media.get(&key).await?.as_deref() == Some(&bytes[..]) {
                report.unchanged += 1;
            } else {
                media.put(&key, Bytes::from(bytes)).await?;
                report.written += 1;
            }
        }
    }
    Ok(report)
}

/// One step of an audio rendering run, for progress display.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    pub done: usize,
    pub total: usize,
    pub key: &'a MediaKey,
    pub rendered: bool,
}

/// Renders every listening question whose audio is missing from the store,
/// several at a time (one per core: each render runs espeak-ng and ffmpeg).
pub async fn render_audio(
    catalogue: &Catalogue,
    synth: &dyn SpeechSynth,
    media: &dyn MediaStore,
    progress: &mut (dyn FnMut(Progress<'_>) + Send),
) -> Result<Report, PublishError> {
    let jobs: Vec<(&Test, &Question, MediaKey)> = catalogue
        .tests(Paper::Listening)
        .flat_map(|t| t.questions.iter().map(move |q| (t, q)))
        .filter_map(|(t, q)| Some((t, q, audio_key(t, q, &catalogue.cast, synth.engine_id())?)))
        .collect();
    let total = jobs.len();
    let parallel = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 8));
    let mut runs = stream::iter(jobs)
        .map(|(test, q, key)| async move {
            if media.exists(&key).await? {
                return Ok::<_, PublishError>((key, false));
            }
            let audio = render_question(test, q, &catalogue.cast, synth).await?;
            media.put(&key, audio).await?;
            Ok((key, true))
        })
        .buffer_unordered(parallel);
    let mut report = Report::default();
    let mut done = 0;
    while let Some(run) = runs.next().await {
        let (key, rendered) = run?;
        done += 1;
        if rendered {
            report.written += 1;
        } else {
            report.unchanged += 1;
        }
        progress(Progress {
            done,
            total,
            key: &key,
            rendered,
        });
    }
    Ok(report)
}

/// Speaks every turn, joins the turns with short silences and measures the
/// loudness (EBU R128) in one ffmpeg pass, then sets it to `TARGET_LUFS`,
/// limits the peaks and encodes MP3 (mono, 48 kbit/s) in a second.
pub async fn render_question(
    test: &Test,
    q: &Question,
    cast: &Cast,
    synth: &dyn SpeechSynth,
) -> Result<Bytes, PublishError> {
    let lines = q.audio.as_deref().unwrap_or_default();
    let dir = tempfile::tempdir().map_err(|e| PublishError::Encode(e.to_string()))?;
    let mut inputs = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let voice = cast
            .voices
            .get(&line.speaker)
            .ok_or_else(|| PublishError::UnknownSpeaker {
                test: test.id,
                question: q.number,
                speaker: line.speaker.clone(),
            })?;
        let wav = synth.synthesize(&line.text, voice).await?;
        let path = dir.path().join(format!("turn{i:03}.wav"));
        tokio::fs::write(&path, &wav)
            .await
            .map_err(|e| PublishError::Encode(e.to_string()))?;
        inputs.push(path);
    }

    let joined = dir.path().join("joined.wav");
    let mut join = Command::new("ffmpeg");
    join.args(["-hide_banner", "-nostats", "-loglevel", "info", "-y"]);
    for input in &inputs {
        join.arg("-i").arg(input);
    }
    let mut filter = String::new();
    for i in 0..inputs.len() {
        filter.push_str(&format!(
            "[{i}]aresample={RATE},aformat=channel_layouts=mono,apad=pad_dur={GAP_SECONDS}[a{i}];"
        ));
    }
    for i in 0..inputs.len() {
        filter.push_str(&format!("[a{i}]"));
    }
    filter.push_str(&format!(
        "concat=n={}:v=0:a=1,adelay={}:all=1,ebur128[out]",
        inputs.len(),
        (GAP_SECONDS * 1000.0) as u32
    ));
    join.args(["-filter_complex", &filter, "-map", "[out]"])
        .args(["-c:a", "pcm_s16le"])
        .arg(&joined);
    let log = ffmpeg(join).await?;
    let loudness = integrated_loudness(&log).ok_or_else(|| {
        PublishError::Encode(format!(
            "question {} of listening test {}: no loudness in ffmpeg's report",
            q.number, test.id
        ))
    })?;
    if loudness < SILENCE_LUFS {
        return Err(PublishError::Encode(format!(
            "question {} of listening test {} is silent ({loudness} LUFS)",
            q.number, test.id
        )));
    }

    let out = dir.path().join("out.mp3");
    let mut encode = Command::new("ffmpeg");
    encode
        .args(["-hide_banner", "-nostats", "-loglevel", "error", "-y", "-i"])
        .arg(&joined)
        .args([
            "-af",
            &format!(
                "volume={:.2}dB,alimiter=limit={PEAK_LIMIT}:level=false",
                TARGET_LUFS - loudness
            ),
        ])
        .args(["-ac", "1", "-ar", &RATE.to_string()])
        .args(["-c:a", "libmp3lame", "-b:a", "48k"])
        .arg(&out);
    ffmpeg(encode).await?;
    let bytes = tokio::fs::read(&out)
        .await
        .map_err(|e| PublishError::Encode(e.to_string()))?;
    Ok(Bytes::from(bytes))
}

/// Runs ffmpeg and returns what it logged.
async fn ffmpeg(mut cmd: Command) -> Result<String, PublishError> {
    let output = cmd.kill_on_drop(true).output().await.map_err(|e| {
        PublishError::Encode(format!(
            "cannot run ffmpeg ({e}); install it with `apt-get install ffmpeg`"
        ))
    })?;
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    if !output.status.success() {
        return Err(PublishError::Encode(format!(
            "ffmpeg exited with {}: {}",
            output.status,
            log.trim()
        )));
    }
    Ok(log)
}

/// The integrated loudness from the summary that ffmpeg's `ebur128` filter
/// logs at the end ("    I:         -22.1 LUFS").
fn integrated_loudness(log: &str) -> Option<f32> {
    log.lines()
        .filter_map(|l| l.trim().strip_prefix("I:")?.trim().strip_suffix("LUFS"))
        .next_back()?
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loudness_is_read_from_the_last_summary() {
        let log = [
            "[Parsed_ebur128_8 @ 0x1] t: 0.1 M: -120.7 S: -120.7 I: -70.0 LUFS LRA: 0.0 LU",
            "[Parsed_ebur128_8 @ 0x1] Summary:",
            "  Integrated loudness:",
            "    I:         -22.1 LUFS",
            "    Threshold: -32.4 LUFS",
        ]
        .join("\n");
        assert_eq!(integrated_loudness(&log), Some(-22.1));
        // Silence: below any threshold, so it is refused.
        assert_eq!(
            integrated_loudness("    I:           -inf LUFS"),
            Some(f32::NEG_INFINITY)
        );
        assert_eq!(integrated_loudness("no summary"), None);
    }
}
