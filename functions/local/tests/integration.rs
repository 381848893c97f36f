//! The crate's integration suites, one module per file, linked into one test binary:
//! one link and one binary on disk instead of one per file. Run one suite with
//! `cargo test -p local --test integration <file>::`.

mod common;

mod api;
mod bad_input;
mod exams;
mod faults;
mod grant;
mod media_link_function;
mod payments;
mod provider_faults;
mod runtime_api;
mod spa_fallback;
mod speaking;
mod template_routes;
mod writing;

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
