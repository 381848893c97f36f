//! The crate's integration suites, one module per file, linked into one test binary:
//! one link and one binary on disk instead of one per file. Run one suite with
//! `cargo test -p shared --test integration <file>::`.

mod common;

mod checkout_contract;
mod corrector_contract;
mod examiner_contract;
mod lambda_edge;
mod media_contract;
mod openai_speaking;
mod paper_versions;
mod permissions;
mod provider_faults;
mod publish;
mod rate_limits;
mod speech_contract;
mod store_contract;
mod transcriber_contract;

/// A file in `tests/` that is neither a module here nor a `[[test]]` of Cargo.toml would never
/// run (the crate sets `autotests = false`): that fails here instead of being skipped in silence.
#[test]
fn every_test_file_runs() {
    let missing =
        testkit::suites::undeclared_test_files(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        missing.is_empty(),
        "test files that would never run: {missing:?}"
    );
}
