//! Helpers shared by the host tests.
#![allow(dead_code)]

pub mod floats;
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

/// Every number anywhere in a report, with its path, NaN and infinity included (a JSON walk
/// cannot see them: serde_json writes them as null).
pub fn numbers(r: &Report) -> Vec<(String, f64)> {
    floats::floats(r)
}
