//! Logging setup: `tracing` everywhere, JSON lines on Lambda (CloudWatch),
//! readable lines locally. `RUST_LOG` filters; the default is `info`.

use tracing_subscriber::EnvFilter;

fn filter() -> EnvFilter {
    EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"))
}

/// For Lambda: JSON, no ANSI colours, no timestamps (CloudWatch adds them).
pub fn init_json() {
    let _ = tracing_subscriber::fmt()
        .json()
        .with_env_filter(filter())
        .with_current_span(false)
        .with_ansi(false)
        .without_time()
        .with_target(false)
        .try_init();
}

/// For the local server and tools.
pub fn init_pretty() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter())
        .with_target(false)
        .try_init();
}
