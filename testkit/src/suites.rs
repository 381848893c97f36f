//! The shape of a crate's integration tests: each crate links its suites into one binary
//! (`tests/integration.rs`, `autotests = false`), so a file nobody declares would never run.

use std::path::Path;

/// The files of `<crate>/tests/` that are neither a module of `tests/integration.rs` nor a
/// `[[test]]` of the crate's Cargo.toml: they would never be compiled or run.
pub fn undeclared_test_files(crate_dir: &Path) -> Vec<String> {
    let root = std::fs::read_to_string(crate_dir.join("tests/integration.rs")).unwrap_or_default();
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).unwrap_or_default();
    let Ok(entries) = std::fs::read_dir(crate_dir.join("tests")) else {
        return vec!["tests/ cannot be read".into()];
    };
    let mut missing: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| {
            name.strip_suffix(".rs").is_some_and(|stem| {
                !root.contains(&format!("\nmod {stem};"))
                    && !manifest.contains(&format!("path = \"tests/{name}\""))
            })
        })
        .collect();
    missing.sort();
    missing
}
