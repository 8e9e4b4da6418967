//! Writes the data the page reads (`page-data.jsonl`: src/domain/page_data.rs). First the copy of
//! `catalog.json`: the same cards, figures, prices with their
//! dates and source links, without what the page never shows (card notes, the cards' spec
//! sources, price and lead-time notes), as compact JSON. The whole file ships beside the page
//! (index.html copies it; the footer links it), the CLI and the tests read it whole, and
//! tests/catalog.rs checks the two differ in nothing else. Keeps the page's data ~20 KB smaller.

use serde_json::Value;

fn main() {
    println!("cargo:rerun-if-changed=catalog.json");
    println!("cargo:rerun-if-changed=build.rs");
    let text = std::fs::read_to_string("catalog.json").expect("catalog.json next to Cargo.toml");
    // A malformed file is left to tests/catalog.rs to report with its line and column; the page
    // then embeds an empty catalog and says "no cards".
    let catalog = match serde_json::from_str::<Value>(&text) {
        Ok(mut v) => {
            strip(&mut v);
            v.to_string()
        }
        Err(_) => "{}".to_string(),
    };
    // The model presets likewise, without their notes and source links (the page never shows
    // them; src/domain/models.json keeps them and tests/models.rs checks every preset has one).
    println!("cargo:rerun-if-changed=src/domain/models.json");
    let text = std::fs::read_to_string("src/domain/models.json").expect("src/domain/models.json");
    let models = match serde_json::from_str::<Value>(&text) {
        Ok(mut v) => {
            for m in v.as_array_mut().into_iter().flatten() {
                if let Some(o) = m.as_object_mut() {
                    o.remove("notes");
                    o.remove("source");
                }
            }
            v.to_string()
        }
        Err(_) => "[]".to_string(),
    };
    // The vision measurements as rows of values in a fixed order (`VISION_MODEL` and
    // `VISION_ROW` in src/domain/vision.rs), sources in one list that rows point into; without
    // quotes, notes and frameworks. A third of the text, and reading by position instead of by
    // key compiles to less code.
    println!("cargo:rerun-if-changed=src/domain/vision.json");
    let text = std::fs::read_to_string("src/domain/vision.json").expect("src/domain/vision.json");
    let vision = match serde_json::from_str::<Value>(&text) {
        Ok(v) => compact_vision(&v).to_string(),
        Err(_) => "{}".to_string(),
    };
    // The three texts as one JSON Lines file, the form the page fetches beside its wasm
    // (public/page-data.jsonl, `gpu-planner page-data`; DESIGN.md §5 lets data ship as files).
    // Compact JSON never holds a raw newline, so each text is one line. Its FNV-1a hash goes in
    // the fetched URL (`?v=`) so a new build never reads a cached older file; postbuild.py
    // computes the same hash for the URL its script fetches.
    let lines = format!("{catalog}\n{models}\n{vision}\n");
    println!("cargo:rustc-env=PAGE_DATA_HASH={:016x}", fnv1a(lines.as_bytes()));
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(std::path::Path::new(&out_dir).join("page-data.jsonl"), lines).expect("write page-data.jsonl");
}

/// FNV-1a, 64 bits (Fowler, Noll, Vo; the IETF draft-eastlake-fnv): a cache-busting tag, not a
/// security check. scripts/postbuild.py has the same function.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn strip(v: &mut Value) {
    if let Some(o) = v.as_object_mut() {
        o.remove("about");
    }
    for g in v.get_mut("gpus").and_then(Value::as_array_mut).into_iter().flatten() {
        if let Some(o) = g.as_object_mut() {
            // Fields no page code reads (the INT8 rate is for catalog readers; the form factor
            // stays: it sets the machine a purchase is priced in, domain/host.rs).
            for k in ["notes", "sources", "int8_tops"] {
                o.remove(k);
            }
        }
    }
    for key in ["prices", "lead_times", "availability"] {
        for p in v.get_mut(key).and_then(Value::as_array_mut).into_iter().flatten() {
            if let Some(o) = p.as_object_mut() {
                o.remove("notes");
                o.remove("region");
                // The page words a card's status and its date; the rule's source is in catalog.json.
                if key == "availability" {
                    o.remove("source");
                }
            }
        }
    }
}

/// Field order of a vision model row and of a measurement row (src/domain/vision.rs reads them).
const VISION_MODEL: [&str; 15] = [
    "id",
    "name",
    "family",
    "arch",
    "params_m",
    "frozen_m",
    "gflops",
    "resolution",
    "steps",
    "parts",
    "nchw_over_nhwc_train",
    "nchw_over_nhwc_infer",
    "guidance",
    "global_heads",
    "patch",
];
const VISION_ROW: [&str; 17] = [
    "model",
    "card",
    "mode",
    "precision",
    "batch",
    "resolution",
    "steps",
    "samples_s",
    "latency_ms",
    "memory_gib",
    "optimizer",
    "gpus",
    "peak_tflops",
    "bandwidth_gb_s",
    "date",
    "memory_format",
    "engine",
];

fn compact_vision(v: &Value) -> Value {
    let mut sources: Vec<String> = Vec::new();
    let mut rows = |key: &str, fields: &[&str]| -> Vec<Value> {
        v[key]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                let mut out: Vec<Value> = fields.iter().map(|f| r[*f].clone()).collect();
                let src = r["source"].as_str().unwrap_or_default().to_string();
                let i = sources.iter().position(|s| *s == src).unwrap_or_else(|| {
                    sources.push(src);
                    sources.len() - 1
                });
                out.push(Value::from(i));
                Value::Array(out)
            })
            .collect()
    };
    let models = rows("models", &VISION_MODEL);
    let measurements = rows("measurements", &VISION_ROW);
    serde_json::json!({ "models": models, "measurements": measurements, "sources": sources })
}
