//! Offline transcription: faster-whisper with Whisper base (int8, CPU, beam 5, French,
//! VAD filter on), run as ONE long-lived Python worker (`worker.py`, embedded) that
//! speaks JSON lines on stdin/stdout.
//!
//! `scripts/install-whisper.sh` puts a venv and the assembled model in an install folder
//! (`.tools/whisper/` by default). Nothing starts until [`Transcriber::warm_up`] or the
//! first request; until the folder is complete every request answers
//! [`TranscribeError::NotAvailable`]. Each recording is written to a temporary file that
//! the worker decodes (PyAV) and measures: longer than [`MAX_AUDIO_SECONDS`] is refused.
//! Requests are serialised by a mutex; a worker that dies or exceeds the timeout is
//! killed and respawned on the next request.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Mutex;

use crate::ports::transcriber::{MAX_AUDIO_BYTES, MAX_AUDIO_SECONDS, TranscribeError, Transcriber};

/// The worker's source, run with `python -u -c`.
const WORKER: &str = include_str!("worker.py");

/// Default time allowed for one recording (a 60 s answer takes about 10 s on 2 cores).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Time allowed for the worker to import faster-whisper and load the model.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// What users and operators are told while the model is not installed.
pub const NOT_INSTALLED: &str =
    "the offline recogniser is still installing; run scripts/install-whisper.sh";

/// The offline transcriber: faster-whisper in a warm Python worker.
pub struct WhisperTranscriber {
    install_dir: PathBuf,
    timeout: Duration,
    worker: Mutex<Option<Worker>>,
}

impl std::fmt::Debug for WhisperTranscriber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WhisperTranscriber")
            .field("install_dir", &self.install_dir)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// One transcription with its measurements.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcription {
    /// The words spoken, trimmed; empty when nothing was said.
    pub text: String,
    /// The length of the recording, as decoded.
    pub audio_seconds: f64,
    /// Time spent decoding the recording, in the worker.
    pub decode: Duration,
    /// Time spent recognising speech, in the worker.
    pub recognise: Duration,
}

impl WhisperTranscriber {
    /// A transcriber using the venv and model in `install_dir` (as laid out by
    /// `scripts/install-whisper.sh`). Lazy: nothing is checked or started here.
    #[must_use]
    pub fn new(install_dir: PathBuf) -> Self {
        Self {
            install_dir,
            timeout: DEFAULT_TIMEOUT,
            worker: Mutex::new(None),
        }
    }

    /// The time allowed for one recording before the worker is killed (default 30 s).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The folder holding the venv and the model.
    #[must_use]
    pub fn install_dir(&self) -> &Path {
        &self.install_dir
    }

    /// The process id of the running worker, if one is running (diagnostics, tests).
    pub async fn worker_pid(&self) -> Option<u32> {
        let mut guard = self.worker.lock().await;
        let worker = guard.as_mut()?;
        if worker.is_alive() {
            worker.child.id()
        } else {
            None
        }
    }

    /// Whether `install_dir` holds a complete install (the installer's stamp, the venv's
    /// python and the assembled model). A quick check of a few files.
    #[must_use]
    pub fn is_installed(install_dir: &Path) -> bool {
        let model = install_dir.join("model");
        install_dir.join(".installed").is_file()
            && python_of(install_dir).is_file()
            && [
                "model.bin",
                "config.json",
                "tokenizer.json",
                "vocabulary.txt",
            ]
            .iter()
            .all(|f| model.join(f).is_file())
    }

    /// Transcribes `audio` (a WebM file) and reports the recording's length and timings.
    pub async fn transcribe_timed(&self, audio: &[u8]) -> Result<Transcription, TranscribeError> {
        if audio.is_empty() {
            return Err(TranscribeError::BadAudio("the recording is empty".into()));
        }
        if audio.len() > MAX_AUDIO_BYTES {
            return Err(TranscribeError::BadAudio(format!(
                "the recording is {} KB; the limit is {} KB",
                audio.len() / 1024,
                MAX_AUDIO_BYTES / 1024
            )));
        }
        if !Self::is_installed(&self.install_dir) {
            return Err(TranscribeError::NotAvailable(NOT_INSTALLED.into()));
        }
        let file = write_temp(audio.to_vec()).await?;
        let mut guard = self.worker.lock().await;
        let worker = self.ready_worker(&mut guard).await?;
        let failure = match tokio::time::timeout(self.timeout, worker.ask(file.path())).await {
            Ok(Ok(answer)) => return answer.into_result(),
            Ok(Err(e)) => e,
            Err(_) => TranscribeError::Timeout(millis(self.timeout)),
        };
        tracing::warn!(error = %failure, "whisper request failed; the worker is stopped and will be respawned");
        if let Some(mut worker) = guard.take() {
            worker.kill().await;
        }
        Err(failure)
    }

    /// The running worker, started (again) if there is none or it has exited.
    async fn ready_worker<'a>(
        &self,
        slot: &'a mut Option<Worker>,
    ) -> Result<&'a mut Worker, TranscribeError> {
        if slot.as_mut().is_some_and(|worker| !worker.is_alive()) {
            tracing::warn!("the whisper worker has exited; starting a new one");
            *slot = None;
        }
        match slot {
            Some(worker) => Ok(worker),
            None => Ok(slot.insert(Worker::spawn(&self.install_dir).await?)),
        }
    }
}

#[async_trait]
impl Transcriber for WhisperTranscriber {
    async fn transcribe(&self, audio: &[u8]) -> Result<String, TranscribeError> {
        let done = self.transcribe_timed(audio).await?;
        tracing::debug!(
            seconds = done.audio_seconds,
            decode_ms = done.decode.as_millis(),
            recognise_ms = done.recognise.as_millis(),
            "transcribed"
        );
        Ok(done.text)
    }

    async fn warm_up(&self) -> Result<(), TranscribeError> {
        if !Self::is_installed(&self.install_dir) {
            return Err(TranscribeError::NotAvailable(NOT_INSTALLED.into()));
        }
        let mut guard = self.worker.lock().await;
        self.ready_worker(&mut guard).await.map(|_| ())
    }
}

fn python_of(install_dir: &Path) -> PathBuf {
    install_dir.join("venv").join("bin").join("python")
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Writes the recording to a temporary `.webm` file, deleted when dropped.
async fn write_temp(audio: Vec<u8>) -> Result<tempfile::NamedTempFile, TranscribeError> {
    let written = tokio::task::spawn_blocking(move || {
        let mut file = tempfile::Builder::new()
            .prefix("tef-answer-")
            .suffix(".webm")
            .tempfile()?;
        file.write_all(&audio)?;
        file.flush()?;
        Ok::<_, std::io::Error>(file)
    })
    .await;
    match written {
        Ok(Ok(file)) => Ok(file),
        Ok(Err(e)) => Err(TranscribeError::Unavailable(format!(
            "cannot write the recording to a temporary file: {e}"
        ))),
        Err(e) => Err(TranscribeError::Unavailable(format!(
            "writing the recording: {e}"
        ))),
    }
}

pub mod wer {
    //! Word error rate, as the contract suite and `bench_transcriber` measure it: both
    //! texts are normalised (lowercase, apostrophes and hyphens split words, punctuation
    //! dropped, numbers written as French words, so "20" and "vingt" agree), then
    //! (substitutions + deletions + insertions) / words of the reference.

    /// The words of `text`, normalised for scoring.
    #[must_use]
    pub fn normalise(text: &str) -> Vec<String> {
        let lower = text.to_lowercase();
        // Digits grouped by spaces ("1 000", "1 000") are one number.
        let mut cleaned = String::with_capacity(lower.len());
        let chars: Vec<char> = lower.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            let joins_digits = matches!(c, ' ' | '\u{a0}' | '\u{202f}')
                && i > 0
                && chars[i - 1].is_ascii_digit()
                && chars
                    .get(i + 1..i + 4)
                    .is_some_and(|g| g.iter().all(char::is_ascii_digit))
                && chars.get(i + 4).is_none_or(|n| !n.is_ascii_digit());
            if joins_digits {
                continue;
            }
            if c.is_alphanumeric() {
                cleaned.push(c);
            } else {
                cleaned.push(' ');
            }
        }
        let mut words = Vec::new();
        for token in cleaned.split_whitespace() {
            match token.parse::<u64>() {
                Ok(n) if token.chars().all(|c| c.is_ascii_digit()) => {
                    words.extend(french_number(n).split_whitespace().map(str::to_owned));
                }
                _ => words.push(token.to_owned()),
            }
        }
        words
    }

    /// `n` in French words, hyphens as spaces ("quatre vingt dix sept"), up to billions.
    #[must_use]
    pub fn french_number(n: u64) -> String {
        if n == 0 {
            return "zéro".into();
        }
        let mut parts: Vec<String> = Vec::new();
        let mut rest = n;
        for (size, name) in [(1_000_000_000, "milliard"), (1_000_000, "million")] {
            let count = rest / size;
            rest %= size;
            if count > 0 {
                let plural = if count > 1 { "s" } else { "" };
                parts.push(format!("{} {name}{plural}", below_thousand(count, false)));
            }
        }
        let thousands = rest / 1000;
        rest %= 1000;
        if thousands == 1 {
            parts.push("mille".into());
        } else if thousands > 1 {
            parts.push(format!("{} mille", below_thousand(thousands, false)));
        }
        if rest > 0 {
            parts.push(below_thousand(rest, true));
        }
        parts.join(" ")
    }

    /// 1..=999 (and more, by hundreds) in words; `last`: nothing follows, so "cents" and
    /// "vingts" take their plural.
    fn below_thousand(n: u64, last: bool) -> String {
        const UNITS: [&str; 17] = [
            "", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
            "onze", "douze", "treize", "quatorze", "quinze", "seize",
        ];
        const TENS: [&str; 7] = [
            "",
            "dix",
            "vingt",
            "trente",
            "quarante",
            "cinquante",
            "soixante",
        ];
        let below_hundred = |n: u64, last: bool| -> String {
            let n = usize::try_from(n).unwrap_or(0);
            match n {
                0..=16 => UNITS[n].to_owned(),
                17..=19 => format!("dix {}", UNITS[n - 10]),
                20..=69 => {
                    let (t, u) = (n / 10, n % 10);
                    match u {
                        0 => TENS[t].to_owned(),
                        1 => format!("{} et un", TENS[t]),
                        _ => format!("{} {}", TENS[t], UNITS[u]),
                    }
                }
                70..=79 => {
                    if n == 71 {
                        "soixante et onze".into()
                    } else if n < 77 {
                        format!("soixante {}", UNITS[n - 60])
                    } else {
                        format!("soixante dix {}", UNITS[n - 70])
                    }
                }
                80 if last => "quatre vingts".into(),
                80 => "quatre vingt".into(),
                81..=96 => format!("quatre vingt {}", UNITS[n - 80]),
                _ => format!("quatre vingt dix {}", UNITS[n.saturating_sub(90)]),
            }
        };
        let (hundreds, rest) = (n / 100, n % 100);
        let mut out = match hundreds {
            0 => String::new(),
            1 => "cent".into(),
            h if rest == 0 && last => format!("{} cents", below_hundred(h, false)),
            h => format!("{} cent", below_hundred(h, false)),
        };
        if rest > 0 {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&below_hundred(rest, last));
        }
        out
    }

    /// Substitutions + deletions + insertions turning `reference` into `hypothesis`.
    #[must_use]
    pub fn word_errors(reference: &[String], hypothesis: &[String]) -> usize {
        let mut row: Vec<usize> = (0..=hypothesis.len()).collect();
        for (i, r) in reference.iter().enumerate() {
            let mut diagonal = row[0];
            row[0] = i + 1;
            for (j, h) in hypothesis.iter().enumerate() {
                let substitution = diagonal + usize::from(r != h);
                diagonal = row[j + 1];
                row[j + 1] = substitution.min(row[j + 1] + 1).min(row[j] + 1);
            }
        }
        row[hypothesis.len()]
    }

    /// The word error rate of `hypothesis` against `reference`, both normalised
    /// (0 for two empty texts; errors count in full against an empty reference).
    #[must_use]
    pub fn word_error_rate(reference: &str, hypothesis: &str) -> f64 {
        let (r, h) = (normalise(reference), normalise(hypothesis));
        let errors = word_errors(&r, &h);
        #[allow(clippy::cast_precision_loss)]
        let rate = errors as f64 / r.len().max(1) as f64;
        rate
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn numbers_are_written_in_french() {
            let cases = [
                (1, "un"),
                (17, "dix sept"),
                (21, "vingt et un"),
                (71, "soixante et onze"),
                (75, "soixante quinze"),
                (80, "quatre vingts"),
                (81, "quatre vingt un"),
                (97, "quatre vingt dix sept"),
                (200, "deux cents"),
                (250, "deux cent cinquante"),
                (1000, "mille"),
                (2024, "deux mille vingt quatre"),
                (80_000, "quatre vingt mille"),
                (1_500_000, "un million cinq cent mille"),
            ];
            for (n, words) in cases {
                assert_eq!(french_number(n), words, "{n}");
            }
        }

        #[test]
        fn normalisation_ignores_case_punctuation_and_digits() {
            assert_eq!(
                normalise("L’appartement coûte 1 200 dollars, n'est-ce pas ?"),
                [
                    "l",
                    "appartement",
                    "coûte",
                    "mille",
                    "deux",
                    "cents",
                    "dollars",
                    "n",
                    "est",
                    "ce",
                    "pas"
                ]
            );
            assert!((word_error_rate("Il a vingt ans.", "il a 20 ans") - 0.0).abs() < 1e-9);
        }

        #[test]
        fn errors_are_counted_by_edit_distance() {
            assert!(
                (word_error_rate("un deux trois quatre", "un trois quatre cinq") - 0.5).abs()
                    < 1e-9
            );
            assert!((word_error_rate("", "") - 0.0).abs() < 1e-9);
            assert!((word_error_rate("bonjour", "") - 1.0).abs() < 1e-9);
        }
    }
}

// ---------------------------------------------------------------------------------
// The worker process.

struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    next_id: u64,
}

#[derive(Serialize)]
struct WorkerRequest<'a> {
    id: u64,
    path: &'a str,
    max_seconds: f64,
}

#[derive(Deserialize)]
struct WorkerReady {
    ready: bool,
    #[serde(default)]
    load_ms: u64,
    #[serde(default)]
    threads: u32,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct WorkerAnswer {
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    seconds: f64,
    #[serde(default)]
    decode_ms: u64,
    #[serde(default)]
    transcribe_ms: u64,
    #[serde(default)]
    bad_audio: Option<String>,
    #[serde(default)]
    error: Option<String>,
}

impl WorkerAnswer {
    fn into_result(self) -> Result<Transcription, TranscribeError> {
        if let Some(reason) = self.bad_audio {
            return Err(TranscribeError::BadAudio(reason));
        }
        if let Some(error) = self.error {
            return Err(TranscribeError::Unavailable(format!(
                "whisper failed: {error}"
            )));
        }
        let Some(text) = self.text else {
            return Err(TranscribeError::Unavailable(
                "the whisper worker answered without a text".into(),
            ));
        };
        Ok(Transcription {
            text: text.trim().to_owned(),
            audio_seconds: self.seconds,
            decode: Duration::from_millis(self.decode_ms),
            recognise: Duration::from_millis(self.transcribe_ms),
        })
    }
}

impl Worker {
    async fn spawn(install_dir: &Path) -> Result<Self, TranscribeError> {
        let python = python_of(install_dir);
        let model = install_dir.join("model");
        let mut child = Command::new(&python)
            .arg("-u")
            .arg("-c")
            .arg(WORKER)
            .arg(&model)
            .env("PYTHONIOENCODING", "utf-8")
            .env("HF_HUB_OFFLINE", "1")
            .env("TOKENIZERS_PARALLELISM", "false")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                TranscribeError::NotAvailable(format!(
                    "cannot run {} ({e}); {NOT_INSTALLED}",
                    python.display()
                ))
            })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(TranscribeError::Unavailable(
                "the whisper worker has no pipes".into(),
            ));
        };
        let pid = child.id();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::warn!(pid, "whisper worker: {line}");
            }
        });
        let mut worker = Self {
            child,
            stdin,
            stdout: BufReader::new(stdout).lines(),
            next_id: 0,
        };
        let ready =
            match tokio::time::timeout(START_TIMEOUT, worker.read_json::<WorkerReady>()).await {
                Ok(Ok(ready)) => ready,
                Ok(Err(e)) => {
                    worker.kill().await;
                    return Err(e);
                }
                Err(_) => {
                    worker.kill().await;
                    return Err(TranscribeError::Timeout(millis(START_TIMEOUT)));
                }
            };
        if !ready.ready {
            worker.kill().await;
            return Err(TranscribeError::NotAvailable(format!(
                "the offline recogniser cannot start ({}); run scripts/install-whisper.sh",
                ready.error.unwrap_or_default()
            )));
        }
        tracing::info!(
            pid,
            load_ms = ready.load_ms,
            threads = ready.threads,
            "whisper worker ready"
        );
        Ok(worker)
    }

    fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    async fn kill(&mut self) {
        if let Err(e) = self.child.kill().await {
            tracing::debug!(error = %e, "killing the whisper worker");
        }
    }

    /// The next JSON line of stdout (lines that are not JSON objects are logged and skipped).
    async fn read_json<T: for<'de> Deserialize<'de>>(&mut self) -> Result<T, TranscribeError> {
        loop {
            let line = self
                .stdout
                .next_line()
                .await
                .map_err(|e| {
                    TranscribeError::Unavailable(format!("reading the whisper worker: {e}"))
                })?
                .ok_or_else(|| TranscribeError::Unavailable("the whisper worker exited".into()))?;
            if !line.trim_start().starts_with('{') {
                tracing::debug!("whisper worker stdout: {line}");
                continue;
            }
            return serde_json::from_str(&line).map_err(|e| {
                TranscribeError::Unavailable(format!("whisper worker line ({e}): {line}"))
            });
        }
    }

    async fn ask(&mut self, path: &Path) -> Result<WorkerAnswer, TranscribeError> {
        let path = path.to_str().ok_or_else(|| {
            TranscribeError::Unavailable(format!(
                "the temporary file's path is not UTF-8: {}",
                path.display()
            ))
        })?;
        self.next_id += 1;
        let id = self.next_id;
        let mut line = serde_json::to_vec(&WorkerRequest {
            id,
            path,
            max_seconds: MAX_AUDIO_SECONDS,
        })
        .map_err(|e| TranscribeError::Unavailable(format!("encoding the request: {e}")))?;
        line.push(b'\n');
        let sent = async {
            self.stdin.write_all(&line).await?;
            self.stdin.flush().await
        };
        sent.await.map_err(|e| {
            TranscribeError::Unavailable(format!("writing to the whisper worker: {e}"))
        })?;
        loop {
            let answer: WorkerAnswer = self.read_json().await?;
            match answer.id {
                Some(got) if got == id => return Ok(answer),
                other => tracing::warn!(?other, id, "skipping a stale whisper answer"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_missing_install_is_not_available() {
        let t = WhisperTranscriber::new(PathBuf::from("/nonexistent/whisper"));
        match t.transcribe(b"\x1aE\xdf\xa3 not really webm").await {
            Err(TranscribeError::NotAvailable(m)) => assert_eq!(m, NOT_INSTALLED),
            other => panic!("expected NotAvailable, got {other:?}"),
        }
        assert!(matches!(
            t.warm_up().await,
            Err(TranscribeError::NotAvailable(_))
        ));
    }

    #[tokio::test]
    async fn empty_and_oversized_uploads_are_bad_audio() {
        let t = WhisperTranscriber::new(PathBuf::from("/nonexistent/whisper"));
        assert!(matches!(
            t.transcribe(b"").await,
            Err(TranscribeError::BadAudio(_))
        ));
        let big = vec![0u8; MAX_AUDIO_BYTES + 1];
        assert!(matches!(
            t.transcribe(&big).await,
            Err(TranscribeError::BadAudio(_))
        ));
    }

    #[test]
    fn answers_map_to_results() {
        let bad = WorkerAnswer {
            bad_audio: Some("too long".into()),
            ..WorkerAnswer::default()
        };
        assert!(matches!(
            bad.into_result(),
            Err(TranscribeError::BadAudio(_))
        ));
        let failed = WorkerAnswer {
            error: Some("boom".into()),
            ..WorkerAnswer::default()
        };
        assert!(matches!(
            failed.into_result(),
            Err(TranscribeError::Unavailable(_))
        ));
        let ok = WorkerAnswer {
            text: Some("  Bonjour. ".into()),
            seconds: 2.0,
            ..WorkerAnswer::default()
        };
        assert_eq!(
            ok.into_result().map(|t| t.text).ok(),
            Some("Bonjour.".into())
        );
    }
}
