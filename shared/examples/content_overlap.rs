//! Key and prompt overlap with the source sentence that holds the answer
//! (issue 14, "understanding, not matching"; `content/FORMAT.md`).
//!
//! cargo run -q -p shared --example content_overlap -- content/reading/test-03.json [more files]
//!     prints every level-7+ item over a bound, then the paper's counts;
//! add `--all` to print every level-7+ item's figures and the distribution
//! (percentiles) over the files given, or over the whole bank when none is.

use std::path::{Path, PathBuf};

use shared::domain::content::overlap::{Overlap, item_overlaps};
use shared::domain::content::{KEY_OVERLAP_MAX, PROMPT_OVERLAP_MAX, Test, revision};

fn bank() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let mut paths = Vec::new();
    for category in ["reading", "listening"] {
        for id in 1..=10 {
            paths.push(root.join(format!("{category}/test-{id:02}.json")));
        }
    }
    paths
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn over(part: &str, o: &Overlap) -> (bool, bool) {
    (o.key_over(part), o.prompt_over())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let all = args.iter().any(|a| a == "--all");
    // One tab-separated line per level-7+ item, for analysis.
    let tsv = args.iter().any(|a| a == "--tsv");
    let mut files: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if files.is_empty() {
        files = bank();
    }
    let (mut keys, mut prompts) = (Vec::new(), Vec::new());
    let mut summary = Vec::new();
    for path in &files {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let test: Test =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rev = revision(&text).unwrap_or(0);
        let name = format!("{:?} {}", test.category, test.id).to_lowercase();
        let items = item_overlaps(&test);
        let (mut n_key, mut n_prompt, mut n_either, mut n_contrast) = (0, 0, 0, 0);
        for (q, o) in &items {
            let (k, p) = over(&q.part, o);
            n_key += usize::from(k);
            n_prompt += usize::from(p);
            n_either += usize::from(k || p);
            n_contrast += usize::from(o.contrast);
            keys.push(o.key_overlap);
            prompts.push(o.prompt_overlap);
            if tsv {
                println!(
                    "{name}\t{}\t{}\t{}\t{:.3}\t{}\t{:.3}\t{}\t{}\t{}\t{}\t{}\t{}",
                    q.number,
                    q.part,
                    q.level,
                    o.key_overlap,
                    o.key_words,
                    o.prompt_overlap,
                    o.prompt_words,
                    o.contrast,
                    o.heading,
                    q.key().unwrap_or(""),
                    q.prompt,
                    o.sentence
                );
                continue;
            }
            if all || k || p {
                println!(
                    "{name} Q{} level {}: key {:.2} ({} words){}  prompt {:.2} ({} words){}{}",
                    q.number,
                    q.level,
                    o.key_overlap,
                    o.key_words,
                    if k { " OVER" } else { "" },
                    o.prompt_overlap,
                    o.prompt_words,
                    if p { " OVER" } else { "" },
                    if o.contrast {
                        "  [after a contrast]"
                    } else {
                        ""
                    },
                );
                if k || p {
                    println!("    key:      {}", q.key().unwrap_or(""));
                    println!("    prompt:   {}", q.prompt);
                    println!("    sentence: {}", o.sentence);
                    if let Some(ps) = &o.prompt_sentence {
                        println!("    prompt's sentence: {ps}");
                    }
                }
            }
        }
        summary.push(format!(
            "{name} (revision {rev}): {} items level 7+ measured; key over {KEY_OVERLAP_MAX}: {n_key}; prompt over {PROMPT_OVERLAP_MAX}: {n_prompt}; either: {n_either}; after a contrast: {n_contrast}",
            items.len()
        ));
    }
    println!();
    for line in &summary {
        println!("{line}");
    }
    if all {
        keys.sort_by(f64::total_cmp);
        prompts.sort_by(f64::total_cmp);
        println!("\n{} items of level 7+ with a text source", keys.len());
        for (label, v) in [("key_overlap", &keys), ("prompt_overlap", &prompts)] {
            println!(
                "{label:15} p10 {:.2}  p25 {:.2}  p50 {:.2}  p75 {:.2}  p90 {:.2}  p95 {:.2}  max {:.2}",
                percentile(v, 0.10),
                percentile(v, 0.25),
                percentile(v, 0.50),
                percentile(v, 0.75),
                percentile(v, 0.90),
                percentile(v, 0.95),
                percentile(v, 1.0),
            );
        }
    }
}
