//! Model presets: every preset in src/domain/models.json names its published source, and the
//! page's copy (build.rs) differs from the file only in the notes and source links it drops.
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::model::{presets, ModelSpec, MODELS_JSON};

#[test]
fn every_preset_has_a_source_and_the_page_copy_drops_only_notes_and_sources() {
    let file: Vec<ModelSpec> = gpu_planner::domain::json::parse(MODELS_JSON).unwrap_or_else(|e| panic!("{e}"));
    assert!(file.len() >= 26);
    for m in &file {
        assert!(m.source.starts_with("http"), "{} has no source", m.id);
        assert!(m.validate().is_ok(), "{}", m.id);
    }
    let stripped: Vec<ModelSpec> =
        file.into_iter().map(|m| ModelSpec { source: String::new(), notes: String::new(), ..m }).collect();
    assert_eq!(presets(), stripped.as_slice());
}
