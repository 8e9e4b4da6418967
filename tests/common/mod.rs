//! Helpers shared by the host tests.
#![allow(dead_code)]

pub mod floats;
pub mod fuzz;

use gpu_planner::domain::{plan, Catalog, Report, Scenario};

/// Qwen2.5-72B served on H100 SXM cards: `context`-token prompts (p90 `p90`, or all equal) and
/// `output`-token answers.
pub fn qwen72b_on_h100(context: u32, output: u32, p90: Option<u32>) -> Scenario {
    let mut s = Scenario {
        task: gpu_planner::domain::scenario::Task::Inference,
        model: "qwen2.5-72b".into(),
        cards: gpu_planner::domain::scenario::CardFilter { only: vec!["h100-sxm".into()], ..Default::default() },
        ..Scenario::default()
    };
    s.inference.context = context;
    s.inference.context_p90 = p90;
    s.inference.output_tokens = output;
    s
}

/// The quantization read from a small Llama-shaped config.json carrying `q` as its
/// `quantization_config`.
#[track_caller]
pub fn quantization_of(q: &str) -> Option<gpu_planner::domain::config::Quantization> {
    let base = r#"{"num_hidden_layers": 32, "hidden_size": 4096, "intermediate_size": 11008,
        "num_attention_heads": 32, "vocab_size": 32000"#;
    gpu_planner::domain::config::read_config(&format!("{base}, \"quantization_config\": {q}}}"))
        .unwrap_or_else(|e| panic!("{e}"))
        .quantization
}

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
