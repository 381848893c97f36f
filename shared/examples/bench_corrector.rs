//! Benchmark of the offline corrector (`GrammalecteCorrector`) on the annotated
//! learner corpus (`bench/corrector/corpus.json`; format and scoring rules in
//! `bench/corrector/README.md`).
//!
//! ```sh
//! cargo run -q -p shared --example bench_corrector -- [corpus.json] [--python /usr/bin/python3] [--verbose]
//! ```
//!
//! Prints precision, recall (overall, per L1, per kind), correction accuracy, false
//! alarms on the error-free texts, and milliseconds per text (warm). A finding is an
//! item's `original_phrase`, located in the text (items are in text order), with its
//! `corrected_phrase` as the replacement. Exits 2 when the corpus is missing or
//! malformed, 1 when the corrector fails.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

use serde::Deserialize;
use shared::adapters::GrammalecteCorrector;
use shared::ports::corrector::{CorrectionItem, CorrectionRequest, Corrector, Section};

#[derive(Debug, Deserialize)]
struct Corpus {
    texts: Vec<Text>,
}

#[derive(Debug, Deserialize)]
struct Text {
    id: String,
    l1: String,
    section: String,
    text: String,
    errors: Vec<Annotation>,
}

#[derive(Debug, Deserialize)]
struct Annotation {
    original: String,
    corrected: String,
    kind: String,
}

/// Detected / all, per group.
#[derive(Debug, Default, Clone, Copy)]
struct Ratio {
    hit: usize,
    all: usize,
}

impl Ratio {
    fn add(&mut self, hit: bool) {
        self.all += 1;
        self.hit += usize::from(hit);
    }

    fn show(self) -> String {
        if self.all == 0 {
            return "n/a".into();
        }
        format!(
            "{:5.1} % ({}/{})",
            100.0 * self.hit as f64 / self.all as f64,
            self.hit,
            self.all
        )
    }
}

struct Args {
    corpus: String,
    python: String,
    verbose: bool,
}

fn args() -> Result<Args, String> {
    let mut out = Args {
        corpus: "bench/corrector/corpus.json".into(),
        python: "/usr/bin/python3".into(),
        verbose: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--python" => out.python = it.next().ok_or("--python needs a path")?,
            "--verbose" | "-v" => out.verbose = true,
            "-h" | "--help" => {
                return Err(
                    "usage: bench_corrector [corpus.json] [--python /usr/bin/python3] [--verbose]"
                        .into(),
                );
            }
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            other => out.corpus = other.into(),
        }
    }
    Ok(out)
}

/// Loads and checks the corpus: every annotation occurs in its text.
fn load(path: &str) -> Result<Vec<Text>, String> {
    let raw =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read the corpus {path}: {e}"))?;
    let corpus: Corpus =
        serde_json::from_str(&raw).map_err(|e| format!("malformed corpus {path}: {e}"))?;
    if corpus.texts.is_empty() {
        return Err(format!("malformed corpus {path}: no texts"));
    }
    for t in &corpus.texts {
        if Section::parse(&t.section).is_none() {
            return Err(format!(
                "malformed corpus: {} has section {:?}",
                t.id, t.section
            ));
        }
        if t.text.trim().is_empty() {
            return Err(format!("malformed corpus: {} has no text", t.id));
        }
        for a in &t.errors {
            match t.text.matches(&a.original).count() {
                0 => {
                    return Err(format!(
                        "malformed corpus: {} does not contain {:?}",
                        t.id, a.original
                    ));
                }
                1 => {}
                n => eprintln!(
                    "warning: {} contains {:?} {n} times; the first is scored",
                    t.id, a.original
                ),
            }
        }
    }
    Ok(corpus.texts)
}

/// The byte spans of the items, located in order.
fn locate(text: &str, items: &[CorrectionItem]) -> Vec<Option<(usize, usize)>> {
    let mut from = 0;
    items
        .iter()
        .map(|item| {
            let found = text[from..]
                .find(&item.original_phrase)
                .map(|i| i + from)
                .or_else(|| text.find(&item.original_phrase));
            found.map(|start| {
                let end = start + item.original_phrase.len();
                from = end;
                (start, end)
            })
        })
        .collect()
}

/// Whether a finding fixes an annotation exactly: over the union of both spans, the
/// text with the finding's replacement equals the text with the annotation's correction.
fn fixes(
    text: &str,
    finding: (usize, usize),
    replacement: &str,
    annotation: (usize, usize),
    corrected: &str,
) -> bool {
    let (start, end) = (finding.0.min(annotation.0), finding.1.max(annotation.1));
    let by_finding = format!(
        "{}{}{}",
        &text[start..finding.0],
        replacement,
        &text[finding.1..end]
    );
    let by_annotation = format!(
        "{}{}{}",
        &text[start..annotation.0],
        corrected,
        &text[annotation.1..end]
    );
    by_finding == by_annotation
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[tokio::main]
async fn main() -> ExitCode {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let texts = match load(&args.corpus) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let corrector = match GrammalecteCorrector::start(&args.python).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot start the corrector: {e}");
            return ExitCode::from(1);
        }
    };
    let start_ms = started.elapsed().as_secs_f64() * 1000.0;

    let mut findings = Ratio::default(); // true-positive findings / all findings
    let mut recall = Ratio::default();
    let mut right = 0usize; // annotations fixed exactly
    let mut per_l1: BTreeMap<String, Ratio> = BTreeMap::new();
    let mut per_kind: BTreeMap<String, Ratio> = BTreeMap::new();
    let mut fixed_kind: BTreeMap<String, usize> = BTreeMap::new();
    let (mut native_alarms, mut native_words, mut native_texts) = (0usize, 0usize, 0usize);
    let mut times: Vec<f64> = Vec::new();
    let mut times_b: Vec<f64> = Vec::new();
    let mut words_b = 0usize;

    for t in &texts {
        let section = Section::parse(&t.section).unwrap_or(Section::A);
        let request = CorrectionRequest {
            section,
            text: t.text.clone(),
            prompt: String::new(),
            document: String::new(),
        };
        let clock = Instant::now();
        let correction = match corrector.correct(&request).await {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{}: the corrector failed: {e}", t.id);
                return ExitCode::from(1);
            }
        };
        let ms = clock.elapsed().as_secs_f64() * 1000.0;
        times.push(ms);
        let words = t.text.split_whitespace().count();
        if section == Section::B {
            times_b.push(ms);
            words_b += words;
        }
        let spans = locate(&t.text, &correction.corrections);
        let annotations: Vec<(usize, usize)> = t
            .errors
            .iter()
            .map(|a| {
                t.text
                    .find(&a.original)
                    .map_or((0, 0), |s| (s, s + a.original.len()))
            })
            .collect();
        if args.verbose {
            println!("── {} ({} words, {:.0} ms)", t.id, words, ms);
        }
        for (item, span) in correction.corrections.iter().zip(&spans) {
            let Some(span) = span else {
                eprintln!(
                    "{}: item {:?} is not in the text",
                    t.id, item.original_phrase
                );
                findings.add(false);
                continue;
            };
            let hit = annotations.iter().any(|a| span.0 < a.1 && a.0 < span.1);
            findings.add(hit);
            if args.verbose {
                println!(
                    "   {} {:?} → {:?}  ({})",
                    if hit { "TP" } else { "FP" },
                    item.original_phrase,
                    item.corrected_phrase,
                    item.explanation
                );
            }
        }
        if t.l1 == "native" {
            native_texts += 1;
            native_words += words;
            native_alarms += correction.corrections.len();
        }
        for (a, span) in t.errors.iter().zip(&annotations) {
            let covering: Vec<usize> = spans
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.filter(|s| s.0 < span.1 && span.0 < s.1).map(|_| i))
                .collect();
            let hit = !covering.is_empty();
            let fixed = covering.iter().any(|i| {
                spans[*i].is_some_and(|s| {
                    fixes(
                        &t.text,
                        s,
                        &correction.corrections[*i].corrected_phrase,
                        *span,
                        &a.corrected,
                    )
                })
            });
            recall.add(hit);
            right += usize::from(fixed);
            per_l1.entry(t.l1.clone()).or_default().add(hit);
            per_kind.entry(a.kind.clone()).or_default().add(hit);
            *fixed_kind.entry(a.kind.clone()).or_default() += usize::from(fixed);
            if args.verbose && !hit {
                println!("   MISS {:?} → {:?} ({})", a.original, a.corrected, a.kind);
            } else if args.verbose && !fixed {
                println!("   WRONG FIX for {:?} → {:?}", a.original, a.corrected);
            }
        }
    }

    println!(
        "Corpus: {} ({} texts, {} annotated errors)",
        args.corpus,
        texts.len(),
        recall.all
    );
    println!("Corrector: Grammalecte worker started in {start_ms:.0} ms");
    println!();
    println!("precision            {}", findings.show());
    println!("recall               {}", recall.show());
    println!(
        "correction accuracy  {}  of detected",
        Ratio {
            hit: right,
            all: recall.hit
        }
        .show()
    );
    println!(
        "                     {}  of all annotations",
        Ratio {
            hit: right,
            all: recall.all
        }
        .show()
    );
    println!(
        "false alarms         {native_alarms} on {native_texts} error-free texts: {:.2} per text, {:.2} per 100 words",
        native_alarms as f64 / native_texts.max(1) as f64,
        100.0 * native_alarms as f64 / native_words.max(1) as f64
    );
    println!();
    println!("recall per L1");
    for (l1, r) in &per_l1 {
        if r.all > 0 {
            println!("  {l1:<8} {}", r.show());
        }
    }
    println!("recall per kind (right corrections)");
    for (kind, r) in &per_kind {
        println!(
            "  {kind:<12} {}  fixed {}",
            r.show(),
            fixed_kind.get(kind).copied().unwrap_or(0)
        );
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let mean = |v: &[f64]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    println!();
    println!(
        "ms per text (warm)   mean {:.0}, p95 {:.0}, max {:.0}",
        mean(&times),
        percentile(&sorted, 95.0),
        sorted.last().copied().unwrap_or(0.0)
    );
    let mut sorted_b = times_b.clone();
    sorted_b.sort_by(f64::total_cmp);
    println!(
        "ms per section B text (~{} words)  mean {:.0}, p95 {:.0}, max {:.0}  (budget: 300 ms)",
        words_b / times_b.len().max(1),
        mean(&times_b),
        percentile(&sorted_b, 95.0),
        sorted_b.last().copied().unwrap_or(0.0)
    );
    ExitCode::SUCCESS
}
