//! The transcription port's contract, run against `WhisperTranscriber`.
//!
//! - Without an install (a folder that does not exist): `NotAvailable`, always run.
//! - With the install named by `TEF_TEST_WHISPER_DIR` (`make test` installs it with
//!   `scripts/install-whisper.sh` and sets the variable): French speech synthesised by
//!   espeak-ng, encoded as WebM/Opus like the browser's, is transcribed within a measured
//!   word error rate; silence gives an empty text; 70 s and garbage bytes are `BadAudio`;
//!   a killed worker is replaced; requests from several tasks are served one at a time.
//!   When the variable names a folder that is not a complete install, the test fails.
//!   When the variable is not set, the test fails and says how to run it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use shared::adapters::WhisperTranscriber;
use shared::adapters::whisper::wer::word_error_rate;
use shared::ports::transcriber::{TranscribeError, Transcriber};

/// Two answers of the kind a Section B candidate gives (convincing a friend), spoken by
/// two espeak-ng voices. espeak-ng is hard for Whisper base (robotic prosody): measured
/// on these passages, WER 0.23 to 0.38 (2026-11-26; see bench/transcriber/README.md).
const PASSAGES: [(&str, &[&str], &str); 2] = [
    (
        "fr-fr+f3",
        &["-s", "130", "-p", "60"],
        "Je pense que tu devrais vraiment participer à ce voyage. C'est une excellente \
         occasion de rencontrer de nouvelles personnes. En plus, le prix est très raisonnable \
         pour une semaine entière. Je comprends que tu sois inquiet, mais l'organisation est \
         sérieuse.",
    ),
    (
        "fr-fr",
        &["-s", "140"],
        "Si tu veux, nous pouvons y aller ensemble le premier jour. Le club de sport propose \
         aussi des activités pour les enfants. À mon avis, c'est le meilleur moyen de rester \
         en bonne santé. Franchement, tu ne le regretteras pas.",
    ),
];

/// The bound on the word error rate over both passages (measured about 0.3; margin for
/// other CPUs and versions of the libraries).
const MAX_WER: f64 = 0.55;

fn run(cmd: &mut Command) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// WebM/Opus bytes, as the browser's MediaRecorder sends them, from ffmpeg input args.
fn webm(dir: &Path, name: &str, input: &[&str]) -> Vec<u8> {
    let path = dir.join(format!("{name}.webm"));
    run(Command::new("ffmpeg")
        .args(["-loglevel", "error", "-y"])
        .args(input)
        .args(["-ac", "1", "-c:a", "libopus", "-b:a", "32k"])
        .arg(&path));
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// French speech by espeak-ng, as WebM/Opus.
fn speech(dir: &Path, name: &str, voice: &str, args: &[&str], text: &str) -> Vec<u8> {
    let wav = dir.join(format!("{name}.wav"));
    run(Command::new("espeak-ng")
        .args(["-v", voice])
        .args(args)
        .arg("-w")
        .arg(&wav)
        .arg(text));
    let wav = wav.to_string_lossy().into_owned();
    webm(dir, name, &["-i", &wav])
}

fn silence(dir: &Path, name: &str, seconds: f64) -> Vec<u8> {
    let seconds = seconds.to_string();
    webm(
        dir,
        name,
        &[
            "-f",
            "lavfi",
            "-i",
            "anullsrc=r=48000:cl=mono",
            "-t",
            &seconds,
        ],
    )
}

#[tokio::test]
async fn without_an_install_the_recogniser_is_not_available() {
    let t = WhisperTranscriber::new(PathBuf::from("/nonexistent/tef-whisper"));
    for audio in [&b"\x1aE\xdf\xa3 some webm"[..], &[0u8; 1000][..]] {
        match t.transcribe(audio).await {
            Err(TranscribeError::NotAvailable(message)) => assert_eq!(
                message,
                "the offline recogniser is still installing; run scripts/install-whisper.sh"
            ),
            other => panic!("expected NotAvailable, got {other:?}"),
        }
    }
    assert!(matches!(
        t.warm_up().await,
        Err(TranscribeError::NotAvailable(_))
    ));
    assert_eq!(t.worker_pid().await, None, "nothing may be started");
}

#[tokio::test]
async fn an_incomplete_install_is_not_available() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("venv/bin")).unwrap();
    std::fs::create_dir_all(dir.path().join("model")).unwrap();
    std::fs::write(dir.path().join("model/config.json"), "{}").unwrap();
    let t = WhisperTranscriber::new(dir.path().to_path_buf());
    assert!(matches!(
        t.transcribe(b"\x1aE\xdf\xa3 some webm").await,
        Err(TranscribeError::NotAvailable(_))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whisper_meets_the_contract() {
    // Like the DynamoDB suites without moto: never a silent skip.
    let Some(install) = std::env::var_os("TEF_TEST_WHISPER_DIR") else {
        panic!(
            "TEF_TEST_WHISPER_DIR is not set: run `make test` (it installs the offline recogniser \
             with scripts/install-whisper.sh and sets the variable)"
        );
    };
    let install = PathBuf::from(install);
    assert!(
        WhisperTranscriber::is_installed(&install),
        "TEF_TEST_WHISPER_DIR={} is not a complete install of the offline recogniser: \
         run scripts/install-whisper.sh {}",
        install.display(),
        install.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let clock = Instant::now();
    let step = |name: &str| eprintln!("{:>6.1} s  {name}", clock.elapsed().as_secs_f64());
    let t = Arc::new(WhisperTranscriber::new(install.clone()));

    // Lazy until warmed up.
    assert_eq!(t.worker_pid().await, None);
    let started = Instant::now();
    t.warm_up().await.unwrap();
    eprintln!("warm-up: {:?}", started.elapsed());
    let first_pid = t.worker_pid().await.expect("a worker after warm_up");

    // French speech within the measured word error rate.
    let (mut errors, mut words) = (0.0, 0.0);
    for (i, (voice, args, text)) in PASSAGES.iter().enumerate() {
        let audio = speech(dir.path(), &format!("passage{i}"), voice, args, text);
        let started = Instant::now();
        let heard = t.transcribe(&audio).await.unwrap();
        let wer = word_error_rate(text, &heard);
        let n = shared::adapters::whisper::wer::normalise(text).len() as f64;
        eprintln!(
            "passage {i} ({voice}): WER {wer:.2} in {:?}: {heard}",
            started.elapsed()
        );
        assert_eq!(heard, heard.trim(), "the text is trimmed");
        errors += wer * n;
        words += n;
    }
    let wer = errors / words;
    assert!(
        wer < MAX_WER,
        "word error rate {wer:.2} is above {MAX_WER} on espeak-ng speech"
    );

    step("passages");

    // Silence, and a recording too short to hold a word, are empty texts.
    for (name, seconds) in [("silence", 3.0), ("blip", 0.05)] {
        let audio = silence(dir.path(), name, seconds);
        assert_eq!(t.transcribe(&audio).await.unwrap(), "", "{name}");
    }

    step("silence");

    // Longer than MAX_AUDIO_SECONDS: refused (the file is small: silence compresses).
    let long = silence(dir.path(), "long", 70.0);
    match t.transcribe(&long).await {
        Err(TranscribeError::BadAudio(reason)) => assert!(reason.contains("70"), "{reason}"),
        other => panic!("a 70 s recording must be BadAudio, got {other:?}"),
    }

    step("70 s");

    // Garbage and an empty upload: BadAudio, and the worker survives them.
    for garbage in [
        &b"this is not a webm file at all"[..],
        &[0x1a, 0x45, 0xdf, 0xa3, 0, 1, 2][..],
        &[],
    ] {
        assert!(
            matches!(
                t.transcribe(garbage).await,
                Err(TranscribeError::BadAudio(_))
            ),
            "{garbage:?}"
        );
    }
    assert_eq!(
        t.worker_pid().await,
        Some(first_pid),
        "bad audio must not cost the worker"
    );

    step("garbage");

    // A worker that dies is replaced on the next request.
    run(Command::new("kill").args(["-9", &first_pid.to_string()]));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let short = speech(
        dir.path(),
        "short",
        "fr-fr",
        &["-s", "140"],
        "Je pense que tu devrais vraiment participer à ce voyage.",
    );
    let heard = t.transcribe(&short).await.unwrap();
    eprintln!("after a crash: {heard}");
    assert!(!heard.is_empty(), "after a crash the worker must answer");
    let second_pid = t.worker_pid().await.expect("a new worker");
    assert_ne!(second_pid, first_pid);

    step("respawn");

    // Requests from several tasks are served one at a time by the one worker.
    let tasks: Vec<_> = (0..2)
        .map(|_| {
            let t = Arc::clone(&t);
            let audio = short.clone();
            tokio::spawn(async move { t.transcribe(&audio).await })
        })
        .collect();
    for task in tasks {
        assert_eq!(
            task.await.unwrap().unwrap(),
            heard,
            "the same audio gives the same text"
        );
    }
    assert_eq!(t.worker_pid().await, Some(second_pid));

    step("concurrent");

    // A request that exceeds its time is a Timeout, and the worker is replaced.
    let hasty = WhisperTranscriber::new(install).with_timeout(Duration::from_millis(1));
    hasty.warm_up().await.unwrap();
    let hasty_pid = hasty.worker_pid().await;
    assert!(matches!(
        hasty.transcribe(&short).await,
        Err(TranscribeError::Timeout(1))
    ));
    assert_eq!(
        hasty.worker_pid().await,
        None,
        "a timed-out worker is stopped"
    );
    assert_ne!(hasty_pid, None);
    step("timeout");
}
