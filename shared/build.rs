//! Embeds the exam content (`../content`) into every binary that links this
//! crate, so a Lambda function needs no file access to serve a test.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let content = Path::new(&manifest).join("../content");
    println!("cargo:rerun-if-changed={}", content.display());

    let mut files: Vec<(String, String)> = Vec::new();
    let voices = content.join("voices.json");
    if voices.is_file() {
        files.push(("voices.json".into(), abs(&voices)));
    }
    for category in ["reading", "listening", "writing", "speaking"] {
        let dir = content.join(category);
        println!("cargo:rerun-if-changed={}", dir.display());
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "json") {
                println!("cargo:rerun-if-changed={}", p.display());
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                files.push((format!("{category}/{name}"), abs(&p)));
            }
        }
    }

    let mut out = String::from(
        "/// Content files embedded at build time: (path under content/, text).\npub static FILES: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &files {
        let _ = writeln!(out, "    ({name:?}, include_str!({path:?})),");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()))
        .join("content_files.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}

fn abs(p: &Path) -> String {
    p.canonicalize()
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}
