//! The data the page reads (cards and prices, model presets, vision measurements) as the three
//! compact texts build.rs writes: one JSON Lines file, a line each for the catalog, the models
//! and the vision rows.
//!
//! Native builds (the CLI, the tests, the browser tests) compile the file in. The page's own
//! build (`--features fetch-data`, index.html) leaves it out and fetches `page-data.jsonl` beside
//! the wasm instead: DESIGN.md §5 lets data ship as same-origin files (≤ 200 kB gz), and the
//! code a first visit loads is ~18 kB gz smaller. `web::data` hands the fetched text to
//! [`provide`] before the app mounts; every reader below is lazy, so none runs earlier.

use std::sync::OnceLock;

/// Where the page fetches the file, relative to the page (works under a sub-path and in an
/// iframe). The `?v=` tag is the text's FNV-1a hash (build.rs), so a new build never reads a
/// cached older file. postbuild.py starts the
/// same download from index.html; this URL serves a page built without it (`web::data`).
pub const URL: &str = concat!("page-data.jsonl?v=", env!("PAGE_DATA_HASH"));

#[cfg(not(feature = "fetch-data"))]
const BUILT_IN: &str = include_str!(concat!(env!("OUT_DIR"), "/page-data.jsonl"));
#[cfg(feature = "fetch-data")]
const BUILT_IN: &str = "";

static PROVIDED: OnceLock<String> = OnceLock::new();

/// The file's lines, in order.
#[derive(Clone, Copy)]
pub enum Part {
    Catalog = 0,
    Models = 1,
    Vision = 2,
}

/// Keeps the fetched file for the readers.
///
/// # Errors
/// When the text does not hold the three lines (an error page or a truncated download), or a
/// text was already provided.
pub fn provide(text: String) -> Result<(), String> {
    let lines = data_lines(&text).count();
    if lines != 3 {
        return Err(format!("page-data.jsonl holds {lines} lines of data, not 3 (catalog, models, vision)"));
    }
    PROVIDED.set(text).map_err(|_| "page-data.jsonl was already read".to_string())
}

/// One part's JSON text: the provided file's, else the built-in one (empty in the page's build
/// until [`provide`]; its readers then fall back to an empty catalog, which plan() reports).
#[must_use]
pub fn part(p: Part) -> &'static str {
    data_lines(PROVIDED.get().map_or(BUILT_IN, String::as_str)).nth(p as usize).unwrap_or("")
}

/// The lines that hold data: [`provide`] counts the same lines [`part`] reads, so a blank line
/// in a served copy cannot shift the parts.
fn data_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.trim().is_empty())
}

/// The file as compiled in (empty in the page's build): `gpu-planner page-data` writes it to
/// public/page-data.jsonl, which tests/golden.rs holds to it.
#[must_use]
pub fn built_in() -> &'static str {
    BUILT_IN
}
