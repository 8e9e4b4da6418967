//! The CLI prints the same Report as JSON for a file, a share URL, or the default.
#![cfg(not(target_arch = "wasm32"))] // host only: proptest and processes

use gpu_planner::domain::{plan, share, Catalog, Report, Scenario};
use std::process::Command;

fn cli(args: &[&str]) -> (bool, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_gpu-planner")).args(args).output().unwrap_or_else(|e| panic!("run cli: {e}"));
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn report_of_a_share_url_equals_plan_of_the_scenario() {
    let s = Scenario {
        model: "llama-3.1-70b".into(),
        task: gpu_planner::domain::scenario::Task::Lora,
        ..Scenario::default()
    };
    let url = format!("https://example/gpu/?s={}", share::encode(&s));
    let (ok, out, err) = cli(&["report", &url]);
    assert!(ok, "{err}");
    let printed: Report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(Ok(printed), plan(&s, Catalog::embedded()));
}

#[test]
fn report_of_a_scenario_file() {
    let dir = std::env::temp_dir().join(format!("gpu-planner-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.join("s.json");
    std::fs::write(&file, r#"{"task":"inference","model":"qwen2.5-7b"}"#).unwrap_or_else(|e| panic!("{e}"));
    let (ok, out, err) = cli(&["report", file.to_str().unwrap_or_default()]);
    assert!(ok, "{err}");
    assert!(out.contains("\"task\": \"inference\""));
}

#[test]
fn bad_input_exits_with_a_message_not_a_panic() {
    let (ok, _, err) = cli(&["report", "v9.xyz"]);
    assert!(!ok && err.contains("unsupported link version"), "{err}");
    let (ok, _, err) = cli(&["report", "/nonexistent/s.json"]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    let (ok, _, err) = cli(&[]);
    assert!(!ok && err.contains("usage"), "{err}");
}

#[test]
fn matrix_covers_every_preset_and_task_without_errors() {
    let (ok, out, err) = cli(&["matrix"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), gpu_planner::domain::model::presets().len() * 5);
    assert!(!out.contains("error:"), "{out}");
}

#[test]
fn accuracy_prints_every_case_and_the_score() {
    let (ok, out, err) = cli(&["accuracy"]);
    assert!(ok, "{err}");
    let rows = gpu_planner::domain::accuracy::table(Catalog::embedded());
    for r in &rows {
        assert!(out.contains(&r.case.id), "{} missing", r.case.id);
    }
    let (within, all) = gpu_planner::domain::accuracy::headline(&rows);
    let (_, counted) = gpu_planner::domain::accuracy::score(&rows);
    assert!(out.contains(&format!("{within} of {all} cases within tolerance ({counted} expressible")), "{out}");
    for g in gpu_planner::domain::accuracy::groups(&rows) {
        let line =
            format!("{:<12} {:<14} {:>4}  {:>6}", format!("{:?}", g.role), format!("{:?}", g.kind), g.rows, g.within);
        assert!(out.contains(&line), "{line} missing");
    }
}

/// The report names each card's price with its source and date, in the chosen market.
#[test]
fn report_carries_the_chosen_markets_price_with_source_and_date() {
    let s = Scenario {
        money: gpu_planner::domain::scenario::Money { rent_market: "hyperscaler".into(), ..Default::default() },
        ..Scenario::default()
    };
    let (ok, out, err) = cli(&["report", &share::encode(&s)]);
    assert!(ok, "{err}");
    let r: Report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let priced: Vec<_> = r.cards.iter().filter_map(|c| c.price.as_ref()).collect();
    assert!(!priced.is_empty());
    for q in priced {
        assert_eq!(q.market, "hyperscaler");
        assert!(q.source.starts_with("http") && !q.date.is_empty(), "{q:?}");
    }
    assert!(out.contains("\"source\"") && out.contains("\"date\""));
}

/// A scenario made from a model's config.json plans like the preset of the same model.
#[test]
fn from_config_makes_a_scenario_that_plans_like_the_preset() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/configs/llama-3.1-8b.json");
    let (ok, out, err) = cli(&["from-config", path]);
    assert!(ok, "{err}");
    let s: Scenario = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let from_config = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let preset = plan(&Scenario { model: "llama-3.1-8b".into(), ..Scenario::default() }, Catalog::embedded())
        .unwrap_or_else(|e| panic!("{e}"));
    let rel = (from_config.params / preset.params - 1.0).abs();
    assert!(rel < 0.01, "{} vs {}", from_config.params, preset.params);
    let (bad, _, err) = cli(&["from-config", concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")]);
    assert!(!bad && !err.is_empty());
}

/// An encoder–decoder config (Whisper large-v3) read by the CLI, written to a file and reported:
/// the same parameters as the preset, and the encoder in the printed scenario.
#[test]
fn report_of_a_scenario_whose_model_came_from_an_encoder_decoder_config() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/configs/whisper-large-v3.json");
    let (ok, out, err) = cli(&["from-config", path]);
    assert!(ok, "{err}");
    assert!(err.contains("encoder–decoder (whisper)"), "{err}");
    let file = std::env::temp_dir().join(format!("whisper-scenario-{}.json", std::process::id()));
    std::fs::write(&file, &out).unwrap_or_else(|e| panic!("{e}"));
    let (ok, report_out, err) = cli(&["report", file.to_str().unwrap_or_default()]);
    let _ = std::fs::remove_file(&file);
    assert!(ok, "{err}");
    let printed: Report = serde_json::from_str(&report_out).unwrap_or_else(|e| panic!("{e}: {report_out}"));
    let preset = plan(&Scenario { model: "whisper-large-v3".into(), ..Scenario::default() }, Catalog::embedded())
        .unwrap_or_else(|e| panic!("{e}"));
    let computed = gpu_planner::domain::model::preset("whisper-large-v3").map(|m| m.computed_params().total);
    assert_eq!(Some(printed.params), computed, "the config's own count");
    assert!((printed.params / preset.params - 1.0).abs() < 0.02, "{} vs {}", printed.params, preset.params);
    let s: Scenario = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.custom_model.encoder.map(|e| e.seq), Some(1500));
}

/// A vision job travels as a share link and the CLI prints its per-card images/s and latency.
#[test]
fn report_of_a_vision_job_link() {
    let mut s = Scenario {
        model: "yolo11s".into(),
        task: gpu_planner::domain::scenario::Task::Inference,
        ..Scenario::default()
    };
    s.vision.rate = 200.0;
    s.vision.latency_ms = 100.0;
    let url = format!("https://example/gpu/?s={}", share::encode(&s));
    let (ok, out, err) = cli(&["report", &url]);
    assert!(ok, "{err}");
    let printed: Report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(Ok(printed.clone()), plan(&s, Catalog::embedded()));
    let l4 = printed.cards.iter().find(|c| c.gpu == "l4").and_then(|c| c.vision.clone());
    assert!(l4.is_some_and(|x| x.samples_s > 0.0 && x.latency_ms.is_some_and(|ms| ms <= 100.0)));
}
