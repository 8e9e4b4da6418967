//! Writes the copy of `catalog.json` the page embeds: the same cards, figures, prices, dates and
//! source links, without the prose the page never shows (card notes, source titles, price and
//! lead-time notes), as compact JSON. That prose stays in catalog.json, which the CLI and the
//! tests read whole; tests/catalog.rs checks the two differ in nothing else. Keeps the wasm
//! ~16 KB smaller.

use serde_json::Value;

fn main() {
    println!("cargo:rerun-if-changed=catalog.json");
    println!("cargo:rerun-if-changed=build.rs");
    let text = std::fs::read_to_string("catalog.json").expect("catalog.json next to Cargo.toml");
    // A malformed file is left to tests/catalog.rs to report with its line and column; the page
    // then embeds an empty catalog and says "no cards".
    let page = match serde_json::from_str::<Value>(&text) {
        Ok(mut v) => {
            strip(&mut v);
            v.to_string()
        }
        Err(_) => "{}".to_string(),
    };
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("catalog.page.json");
    std::fs::write(out, page).expect("write catalog.page.json");
}

fn strip(v: &mut Value) {
    if let Some(o) = v.as_object_mut() {
        o.remove("about");
    }
    for g in v.get_mut("gpus").and_then(Value::as_array_mut).into_iter().flatten() {
        if let Some(o) = g.as_object_mut() {
            o.remove("notes");
        }
        for s in g.get_mut("sources").and_then(Value::as_array_mut).into_iter().flatten() {
            if let Some(o) = s.as_object_mut() {
                o.remove("title");
            }
        }
    }
    for key in ["prices", "lead_times"] {
        for p in v.get_mut(key).and_then(Value::as_array_mut).into_iter().flatten() {
            if let Some(o) = p.as_object_mut() {
                o.remove("notes");
            }
        }
    }
}
