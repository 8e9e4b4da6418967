//! Golden files: the committed `public/accuracy.html` (with `accuracy::SCORE`) and
//! `public/prerender.html` are what the engine computes now. They fail on any change of any
//! number, fixes and bugs alike, so they tell a developer to regenerate, not whether a change is
//! right: kept in their own target so that mutation runs, which pick test targets with
//! `-C --test=…`, leave them out (issue 30). Regenerate with
//! `cargo run --release --bin gpu-planner -- accuracy --html > public/accuracy.html` and
//! `… -- prerender > public/prerender.html`, and set `SCORE` in src/domain/accuracy.rs.
//! `public/page-data.jsonl` (the data the page fetches) follows `catalog.json` and the models and
//! vision files: `… -- page-data > public/page-data.jsonl`.
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::accuracy::{groups, headline, shown, shown_headline, table, SCORE};
use gpu_planner::domain::Catalog;

#[test]
fn golden_accuracy_page_and_score_are_current() {
    let rows = table(Catalog::embedded());
    let fresh = shown(&rows);
    assert_eq!(SCORE, shown_headline(&fresh), "update accuracy::SCORE");
    let (within, all) = headline(&rows);
    assert_eq!((SCORE.0, SCORE.1), (within, all));
    let file =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/public/accuracy.html")).unwrap_or_default();
    assert!(
        file.trim_end() == gpu_planner::ui::accuracy::page(&fresh, &groups(&rows)).trim_end(),
        "regenerate public/accuracy.html"
    );
}

#[test]
fn golden_prerender_is_current() {
    let file = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/public/prerender.html"))
        .unwrap_or_else(|e| panic!("public/prerender.html: {e}"));
    assert!(
        file.trim_end() == gpu_planner::ui::prerender::document().trim_end(),
        "public/prerender.html is stale: run `cargo run --release --bin gpu-planner -- prerender > public/prerender.html`"
    );
}

#[test]
fn golden_page_data_is_current() {
    let file = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/public/page-data.jsonl"))
        .unwrap_or_else(|e| panic!("public/page-data.jsonl: {e}"));
    // Byte for byte: the page fetches it under the built-in text's hash (page_data::URL).
    assert!(
        file == gpu_planner::domain::page_data::built_in(),
        "public/page-data.jsonl is stale: run `cargo run --release --bin gpu-planner -- page-data > public/page-data.jsonl`"
    );
}
