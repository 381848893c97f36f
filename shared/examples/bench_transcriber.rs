//! Benchmark of the offline recogniser (`WhisperTranscriber`): word error rate and
//! real-time factor on French speech, encoded as WebM/Opus like the browser's answers.
//! Method and figures: `bench/transcriber/README.md`.
//!
//! ```sh
//! cargo run -q -p shared --example bench_transcriber -- [--dir .tools/whisper] [--verbose]
//! ```
//!
//! (a) Twenty sentences of the kind a TEF Section A / B candidate says, synthesised by
//!     espeak-ng with two voices, transcribed one by one and as answers of five
//!     sentences (15 to 20 s).
//! (b) Recorded French with transcripts shipped by a registry package, when one can be
//!     had (`pytest-audioeval`'s French samples, fetched once with the venv's pip into
//!     `<dir>/samples/`).
//! (c) Latency of a warm worker on a 10 s answer, the worker's start and its memory.
//!
//! Exits 2 when the recogniser is not installed, 1 when it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use shared::adapters::WhisperTranscriber;
use shared::adapters::whisper::wer::{normalise, word_errors};
use shared::ports::transcriber::Transcriber;

/// Section A (asking about an advertisement) and Section B (convincing a friend).
const SENTENCES: [&str; 20] = [
    "Bonjour, j'appelle au sujet de votre annonce pour l'appartement.",
    "Est-ce que le loyer comprend le chauffage et l'électricité ?",
    "Quels sont les horaires d'ouverture de la bibliothèque ?",
    "Combien coûte l'inscription pour une année complète ?",
    "Est-ce qu'il faut apporter son propre matériel ?",
    "Y a-t-il un parking près du bâtiment ?",
    "Est-ce que les animaux sont acceptés dans l'immeuble ?",
    "À quelle date commence le prochain cours ?",
    "Est-ce qu'on peut payer en plusieurs fois ?",
    "Le loyer est-il de huit cents dollars par mois ?",
    "Je pense que tu devrais vraiment participer à ce voyage.",
    "C'est une excellente occasion de rencontrer de nouvelles personnes.",
    "En plus, le prix est très raisonnable pour une semaine entière.",
    "Tu pourras améliorer ton anglais et découvrir une autre culture.",
    "Je comprends que tu sois inquiet, mais l'organisation est sérieuse.",
    "Si tu veux, nous pouvons y aller ensemble le premier jour.",
    "Le club de sport propose aussi des activités pour les enfants.",
    "À mon avis, c'est le meilleur moyen de rester en bonne santé.",
    "Pense à tout l'argent que tu vas économiser chaque mois.",
    "Franchement, tu ne le regretteras pas.",
];

/// Two espeak-ng speakers: a male voice and a higher, slower female variant.
const VOICES: [(&str, &[&str]); 2] = [
    ("fr-fr", &["-s", "140"]),
    ("fr-fr+f3", &["-s", "130", "-p", "60"]),
];

/// The registry package whose French samples are used, pinned.
const SAMPLES_PACKAGE: &str = "pytest-audioeval==0.1.3";

/// Word errors, reference words, audio and processing time of a set of clips.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    errors: usize,
    words: usize,
    clips: usize,
    audio: f64,
    busy: Duration,
}

impl Tally {
    fn add(&mut self, reference: &str, heard: &str, audio: f64, busy: Duration) -> f64 {
        let (r, h) = (normalise(reference), normalise(heard));
        let errors = word_errors(&r, &h);
        self.errors += errors;
        self.words += r.len();
        self.clips += 1;
        self.audio += audio;
        self.busy += busy;
        ratio(errors, r.len())
    }

    fn line(&self, name: &str) -> String {
        format!(
            "{name:<44} WER {:>5.1} %  ({} errors / {} words, {} clips)   RTF {:.2}  ({:.0} s of audio)",
            100.0 * ratio(self.errors, self.words),
            self.errors,
            self.words,
            self.clips,
            self.busy.as_secs_f64() / self.audio.max(f64::EPSILON),
            self.audio
        )
    }
}

#[allow(clippy::cast_precision_loss)]
fn ratio(a: usize, b: usize) -> f64 {
    a as f64 / b.max(1) as f64
}

struct Args {
    dir: PathBuf,
    verbose: bool,
}

fn parse_args() -> Result<Args, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut args = Args {
        dir: root.join(".tools/whisper"),
        verbose: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--dir" => args.dir = it.next().ok_or("--dir needs a folder")?.into(),
            "--verbose" | "-v" => args.verbose = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// `input` (any audio file) as WebM/Opus 32 kbit/s mono, the browser's format.
fn to_webm(input: &Path, out: &Path) -> Result<Vec<u8>, String> {
    run(Command::new("ffmpeg")
        .args(["-loglevel", "error", "-y", "-i"])
        .arg(input)
        .args(["-ac", "1", "-c:a", "libopus", "-b:a", "32k"])
        .arg(out))?;
    std::fs::read(out).map_err(|e| format!("reading {}: {e}", out.display()))
}

fn speak(work: &Path, voice: &str, args: &[&str], text: &str) -> Result<Vec<u8>, String> {
    let wav = work.join("speech.wav");
    run(Command::new("espeak-ng")
        .args(["-v", voice])
        .args(args)
        .arg("-w")
        .arg(&wav)
        .arg(text))?;
    to_webm(&wav, &work.join("speech.webm"))
}

/// Transcribes and reports (text, seconds of audio, processing time).
async fn measure(t: &WhisperTranscriber, audio: &[u8]) -> Result<(String, f64, Duration), String> {
    let started = Instant::now();
    let done = t.transcribe_timed(audio).await.map_err(|e| e.to_string())?;
    Ok((done.text, done.audio_seconds, started.elapsed()))
}

/// The French samples of the registry package, (wav, transcript) pairs; fetched once.
fn french_samples(dir: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let samples = dir.join("samples");
    let french = samples.join("pytest_audioeval/samples/audio/fr");
    if !french.is_dir() {
        println!("  fetching {SAMPLES_PACKAGE} (4 MB) with the venv's pip…");
        let download = samples.join("download");
        run(Command::new(dir.join("venv/bin/pip"))
            .args(["download", "--no-deps", "--quiet", "-d"])
            .arg(&download)
            .arg(SAMPLES_PACKAGE))?;
        run(Command::new(dir.join("venv/bin/python"))
            .args([
                "-c",
                "import glob, sys, zipfile\n\
                 [zipfile.ZipFile(w).extractall(sys.argv[2]) for w in glob.glob(sys.argv[1] + '/*.whl')]",
            ])
            .arg(&download)
            .arg(&samples))?;
    }
    let mut pairs = Vec::new();
    let entries = std::fs::read_dir(&french).map_err(|e| format!("{}: {e}", french.display()))?;
    for entry in entries.flatten() {
        let wav = entry.path();
        if wav.extension().is_some_and(|e| e == "wav") {
            let text = std::fs::read_to_string(wav.with_extension("txt"))
                .map_err(|e| format!("transcript of {}: {e}", wav.display()))?;
            pairs.push((wav, text.trim().to_owned()));
        }
    }
    pairs.sort();
    Ok(pairs)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

/// The worker's peak resident memory, in MB (Linux).
fn peak_rss_mb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

async fn bench(args: &Args) -> Result<(), String> {
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    println!(
        "Whisper base int8, beam 5, French, VAD on; {cores} cores, load average {} at start",
        load_average()
    );
    let t = WhisperTranscriber::new(args.dir.clone()).with_timeout(Duration::from_secs(120));
    let started = Instant::now();
    t.warm_up().await.map_err(|e| e.to_string())?;
    println!(
        "worker start (imports, model, VAD): {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // (a) espeak-ng, sentence by sentence and as answers.
    println!(
        "\n(a) espeak-ng, {} sentences × {} voices",
        SENTENCES.len(),
        VOICES.len()
    );
    let mut all_sentences = Tally::default();
    let mut all_answers = Tally::default();
    for (voice, voice_args) in VOICES {
        let mut sentences = Tally::default();
        for sentence in SENTENCES {
            let audio = speak(work.path(), voice, voice_args, sentence)?;
            let (heard, seconds, busy) = measure(&t, &audio).await?;
            let wer = sentences.add(sentence, &heard, seconds, busy);
            if args.verbose {
                println!("  {:>4.0} %  {sentence}\n         → {heard}", 100.0 * wer);
            }
        }
        println!(
            "  {}",
            sentences.line(&format!("{voice}, one sentence a clip"))
        );
        let mut answers = Tally::default();
        for group in SENTENCES.chunks(5) {
            let text = group.join(" ");
            let audio = speak(work.path(), voice, voice_args, &text)?;
            let (heard, seconds, busy) = measure(&t, &audio).await?;
            let wer = answers.add(&text, &heard, seconds, busy);
            if args.verbose {
                println!("  {:>4.0} %  ({seconds:.0} s) → {heard}", 100.0 * wer);
            }
        }
        println!(
            "  {}",
            answers.line(&format!("{voice}, answers of five sentences"))
        );
        for (total, part) in [(&mut all_sentences, sentences), (&mut all_answers, answers)] {
            total.errors += part.errors;
            total.words += part.words;
            total.clips += part.clips;
            total.audio += part.audio;
            total.busy += part.busy;
        }
    }
    println!(
        "  {}",
        all_sentences.line("both voices, one sentence a clip")
    );
    println!(
        "  {}",
        all_answers.line("both voices, answers of five sentences")
    );

    // (b) Recorded French from a registry package.
    println!("\n(b) French samples with transcripts from a registry package ({SAMPLES_PACKAGE})");
    match french_samples(&args.dir) {
        Ok(pairs) if !pairs.is_empty() => {
            let mut tally = Tally::default();
            for (wav, text) in &pairs {
                let audio = to_webm(wav, &work.path().join("sample.webm"))?;
                let (heard, seconds, busy) = measure(&t, &audio).await?;
                let wer = tally.add(text, &heard, seconds, busy);
                println!("  {:>4.0} %  {text}\n         → {heard}", 100.0 * wer);
            }
            println!("  {}", tally.line("package samples"));
        }
        Ok(_) => println!("  no French samples found in the package"),
        Err(e) => println!("  not measured: {e}"),
    }

    // (c) Latency of a warm worker on a 10 s answer.
    let ten = "Bonjour, je vous appelle au sujet de votre annonce. Est-ce que le cours a lieu \
               le samedi matin ? Combien coûte l'inscription, et faut-il apporter son matériel ?";
    let audio = speak(work.path(), "fr-fr", &["-s", "140"], ten)?;
    let mut times = Vec::new();
    let mut length = 0.0;
    for _ in 0..3 {
        let (_, seconds, busy) = measure(&t, &audio).await?;
        length = seconds;
        times.push(busy);
    }
    times.sort();
    let median = times[times.len() / 2];
    println!(
        "\n(c) warm latency, {length:.1} s answer: median {:.2} s of 3 (min {:.2} s, max {:.2} s)",
        median.as_secs_f64(),
        times[0].as_secs_f64(),
        times[times.len() - 1].as_secs_f64()
    );
    if let Some(mb) = t.worker_pid().await.and_then(peak_rss_mb) {
        println!("    worker peak memory: {mb} MB resident");
    }
    println!("load average at the end: {}", load_average());
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}\nusage: bench_transcriber [--dir .tools/whisper] [--verbose]");
            return ExitCode::from(2);
        }
    };
    if !WhisperTranscriber::is_installed(&args.dir) {
        eprintln!(
            "the offline recogniser is not installed in {}: run scripts/install-whisper.sh",
            args.dir.display()
        );
        return ExitCode::from(2);
    }
    match bench(&args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench failed: {e}");
            ExitCode::FAILURE
        }
    }
}
