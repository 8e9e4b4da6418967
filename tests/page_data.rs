//! The page's data file (src/domain/page_data.rs): what `provide` accepts and that the readers
//! then use the provided text, not the built-in one (the page's own build has none). Its own test
//! binary: `provide` sets process-wide state once.
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::page_data::{built_in, part, provide, Part, URL};
use gpu_planner::domain::{model, Catalog};

/// FNV-1a 64 as published (offset basis 14695981039346656037, prime 1099511628211), written
/// out here rather than shared with build.rs, so a slip in either shows.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 14_695_981_039_346_656_037;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(1_099_511_628_211);
    }
    h
}

#[test]
fn fnv1a_matches_the_published_test_vectors() {
    // draft-eastlake-fnv test vectors: "" and "a" and "foobar".
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn the_url_carries_the_hash_of_the_built_in_text() {
    assert_eq!(URL, format!("page-data.jsonl?v={:016x}", fnv1a(built_in().as_bytes())));
}

#[test]
fn a_provided_file_replaces_the_built_in_data_and_only_three_lines_are_accepted() {
    // Three parts, a line each, as build.rs writes them.
    assert_eq!(built_in().lines().count(), 3);
    assert!(built_in().ends_with('\n'));
    // An HTML error page or a cut-off download is refused and leaves nothing provided.
    assert!(provide("<html>404</html>".into()).is_err());
    let two: String = built_in().lines().take(2).map(|l| format!("{l}\n")).collect();
    assert!(provide(two).is_err());
    assert_eq!(part(Part::Catalog), built_in().lines().next().unwrap_or_default());

    // A catalog of one card, the built-in models and vision rows.
    let full = part(Part::Catalog);
    let mut v: serde_json::Value = serde_json::from_str(full).unwrap_or_else(|e| panic!("{e}"));
    let first = v["gpus"][0].clone();
    v["gpus"] = serde_json::json!([first]);
    let rest: Vec<&str> = built_in().lines().skip(1).collect();
    provide(format!("{v}\n{}\n{}\n", rest[0], rest[1])).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Catalog::embedded().gpus.len(), 1);
    assert_eq!(Catalog::embedded().gpus[0].id, first["id"].as_str().unwrap_or_default());
    assert!(!model::presets().is_empty());
    // Only once.
    assert!(provide(built_in().to_string()).is_err());
}
