//! Helpers shared by the host tests.
#![allow(dead_code)]

pub mod fuzz;

use gpu_planner::domain::{plan, Catalog, Report, Scenario};

#[track_caller]
pub fn assert_close(actual: f64, expected: f64, rel: f64) {
    assert!(
        (actual - expected).abs() <= rel * expected.abs(),
        "expected {expected} ± {:.1}%, got {actual} ({:+.2}%)",
        rel * 100.0,
        (actual / expected - 1.0) * 100.0
    );
}

#[track_caller]
pub fn report(s: &Scenario) -> Report {
    match plan(s, Catalog::embedded()) {
        Ok(r) => r,
        Err(e) => panic!("plan failed: {e}"),
    }
}

/// Every number anywhere in a report's JSON, with its path.
pub fn numbers(r: &Report) -> Vec<(String, f64)> {
    fn walk(v: &serde_json::Value, path: &str, out: &mut Vec<(String, f64)>) {
        match v {
            serde_json::Value::Number(n) => out.push((path.to_string(), n.as_f64().unwrap_or(f64::NAN))),
            serde_json::Value::Array(a) => {
                a.iter().enumerate().for_each(|(i, x)| walk(x, &format!("{path}[{i}]"), out))
            }
            serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| walk(x, &format!("{path}.{k}"), out)),
            // serde_json writes NaN and infinity as null: a null where a number belongs is caught by
            // `no_nulls_for_numbers` in properties.rs through the Rust values instead.
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&serde_json::to_value(r).unwrap_or_default(), "", &mut out);
    out
}
