//! Publishing exam media into the media store: the content's images as they
//! are, and the listening scripts rendered to audio by the speech port.
//!
//! Audio is cached by a hash of the script, the voices and the engine: a
//! rerun renders nothing that already exists. The same code publishes to the
//! local folder (`make run`) and to S3 (deployment).

use std::path::Path;

use bytes::Bytes;
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
    h.update(b"\x00mp3-48k-loudnorm-18\x00");
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

/// Renders every listening question whose audio is missing from the store.
pub async fn render_audio(
    catalogue: &Catalogue,
    synth: &dyn SpeechSynth,
    media: &dyn MediaStore,
    progress: &mut (dyn FnMut(Progress<'_>) + Send),
) -> Result<Report, PublishError> {
    let jobs: Vec<(&Test, &Question)> = catalogue
        .tests(Paper::Listening)
        .flat_map(|t| t.questions.iter().map(move |q| (t, q)))
        .filter(|(_, q)| q.audio.is_some())
        .collect();
    let total = jobs.len();
    let mut report = Report::default();
    for (done, (test, q)) in jobs.into_iter().enumerate() {
        let Some(key) = audio_key(test, q, &catalogue.cast, synth.engine_id()) else {
            continue;
        };
        let rendered = if media.exists(&key).await? {
            report.unchanged += 1;
            false
        } else {
            let audio = render_question(test, q, &catalogue.cast, synth).await?;
            media.put(&key, audio).await?;
            report.written += 1;
            true
        };
        progress(Progress {
            done: done + 1,
            total,
            key: &key,
            rendered,
        });
    }
    Ok(report)
}

/// Speaks every turn, then joins them with short silences, evens out the
/// loudness and encodes MP3 (mono, 48 kbit/s) with ffmpeg.
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
    let out = dir.path().join("out.mp3");
    let mut cmd = Command::new("ffmpeg");
    cmd.args(["-hide_banner", "-loglevel", "error", "-y"]);
    for input in &inputs {
        cmd.arg("-i").arg(input);
    }
    let mut filter = String::new();
    for i in 0..inputs.len() {
        filter.push_str(&format!(
            "[{i}]aresample=24000,aformat=channel_layouts=mono,apad=pad_dur={GAP_SECONDS}[a{i}];"
        ));
    }
    for i in 0..inputs.len() {
        filter.push_str(&format!("[a{i}]"));
    }
    filter.push_str(&format!(
        "concat=n={}:v=0:a=1,adelay={}:all=1,loudnorm=I=-18:TP=-2:LRA=11,aresample=24000[out]",
        inputs.len(),
        (GAP_SECONDS * 1000.0) as u32
    ));
    let status = cmd
        .args([
            "-filter_complex",
            &filter,
            "-map",
            "[out]",
            "-ac",
            "1",
            "-ar",
            "24000",
        ])
        .args(["-c:a", "libmp3lame", "-b:a", "48k"])
        .arg(&out)
        .kill_on_drop(true)
        .output()
        .await
        .map_err(|e| {
            PublishError::Encode(format!(
                "cannot run ffmpeg ({e}); install it with `apt-get install ffmpeg`"
            ))
        })?;
    if !status.status.success() {
        return Err(PublishError::Encode(format!(
            "ffmpeg exited with {}: {}",
            status.status,
            String::from_utf8_lossy(&status.stderr).trim()
        )));
    }
    let bytes = tokio::fs::read(&out)
        .await
        .map_err(|e| PublishError::Encode(e.to_string()))?;
    Ok(Bytes::from(bytes))
}
