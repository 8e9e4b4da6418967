//! Calibration from the user's own benchmark (domain/calibrate.rs): the engine reproduces the
//! measurement on the benchmark's card and re-predicts every other card through the same model.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use gpu_planner::domain::calibrate::{calibrated, predicted_tokens_s};
use gpu_planner::domain::scenario::{Benchmark, Task};
use gpu_planner::domain::tier::Tier;
use gpu_planner::domain::{Catalog, Scenario};

fn finetune() -> Scenario {
    let mut s = Scenario { model: "qwen2.5-7b".into(), task: Task::FullFinetune, ..Scenario::default() };
    s.cards.only = ["a100-80gb-sxm4", "h100-sxm", "l40s", "mi300x"].map(String::from).to_vec();
    s
}

#[test]
fn a_benchmark_is_reproduced_on_its_card_and_moves_the_others() {
    let catalog = Catalog::embedded();
    let s = finetune();
    let before = |id: &str| predicted_tokens_s(&s, catalog, id).expect(id);
    let (a100, h100, l40s) = (before("a100-80gb-sxm4"), before("h100-sxm"), before("l40s"));
    // The team measured 30% below the engine's A100 figure.
    let mut b = s.clone();
    b.efficiency.benchmark = Some(Benchmark { gpu: "a100-80gb-sxm4".into(), tokens_per_s_gpu: 0.7 * a100 });
    let c = calibrated(&b, catalog);
    assert!(c.efficiency.kernel_scale < 0.75 && c.efficiency.kernel_scale > 0.5, "{}", c.efficiency.kernel_scale);
    let after = |id: &str| predicted_tokens_s(&c, catalog, id).expect(id);
    common::assert_close(after("a100-80gb-sxm4"), 0.7 * a100, 0.01);
    // Every other card slows too, through its own compute and communication.
    for (id, was) in [("h100-sxm", h100), ("l40s", l40s)] {
        let ratio = after(id) / was;
        assert!(ratio > 0.6 && ratio < 0.8, "{id}: {ratio}");
    }
    // The report marks each card's time as calibrated on the A100 and keeps the user's input.
    let r = common::report(&b);
    assert_eq!(r.cards.len(), 4);
    for v in r.cards.iter().filter(|v| v.hours.is_some()) {
        assert_eq!(v.tier, Some(Tier::Calibrated { on: "a100-80gb-sxm4".into() }), "{}", v.gpu);
        let (lo, hi) = v.hours_band.expect("band");
        let h = v.hours.unwrap_or(0.0);
        assert!(lo < h && h < hi, "{}: {lo} {h} {hi}", v.gpu);
    }
    assert!(b.efficiency.benchmark.is_some() && (b.efficiency.kernel_scale - 1.0).abs() < 1e-12);
}

#[test]
fn without_a_benchmark_each_card_says_where_its_time_comes_from() {
    let r = common::report(&finetune());
    let tier = |id: &str| r.cards.iter().find(|v| v.gpu == id).and_then(|v| v.tier.clone());
    assert_eq!(tier("a100-80gb-sxm4"), Some(Tier::Measured));
    // The L40S has measured GEMMs of its own (domain/kernels.rs).
    assert_eq!(tier("l40s"), Some(Tier::Measured));
    assert_eq!(tier("mi300x"), Some(Tier::Roofline));
    // The band is the measured tier's p90 around an A100's time: published / (1 ± p90).
    let v = r.cards.iter().find(|v| v.gpu == "a100-80gb-sxm4").expect("a100");
    let (lo, hi) = v.hours_band.expect("band");
    let h = v.hours.expect("hours");
    common::assert_close(lo, h / 1.221, 1e-9);
    common::assert_close(hi, h / (1.0 - 0.221), 1e-9);
}

#[test]
fn a_benchmark_on_a_card_without_a_time_changes_nothing() {
    let catalog = Catalog::embedded();
    let mut s = finetune();
    s.efficiency.benchmark = Some(Benchmark { gpu: "no-such-card".into(), tokens_per_s_gpu: 1000.0 });
    assert!((calibrated(&s, catalog).efficiency.kernel_scale - 1.0).abs() < 1e-12);
    // A measured MFU replaces the prediction on every card: nothing to calibrate.
    s.efficiency.benchmark = Some(Benchmark { gpu: "a100-80gb-sxm4".into(), tokens_per_s_gpu: 500.0 });
    s.efficiency.mfu = Some(0.4);
    assert!((calibrated(&s, catalog).efficiency.kernel_scale - 1.0).abs() < 1e-12);
    s.efficiency.mfu = None;
    assert!((calibrated(&s, catalog).efficiency.kernel_scale - 1.0).abs() > 0.1, "the same benchmark calibrates");
    // Serving is not calibrated by a training speed.
    s.task = Task::Inference;
    assert!((calibrated(&s, catalog).efficiency.kernel_scale - 1.0).abs() < 1e-12);
    s.task = Task::FullFinetune;
    s.efficiency.benchmark = Some(Benchmark { gpu: "a100-80gb-sxm4".into(), tokens_per_s_gpu: -5.0 });
    assert!(s.validate().is_err(), "a negative speed is refused");
    assert!((calibrated(&s, catalog).efficiency.kernel_scale - 1.0).abs() < 1e-12);
}

/// "How this was computed" states the time's goodput (from the run's scale and length) and its
/// tier and band, the same figures the row shows, in both languages.
#[test]
fn the_explanation_states_goodput_tier_and_band() {
    use gpu_planner::domain::explain::explain;
    use gpu_planner::domain::format::{hours_band, tier, Lang};
    use gpu_planner::domain::goodput;
    let s = finetune();
    let r = common::report(&s);
    let v = r.cards.iter().find(|v| v.gpu == "a100-80gb-sxm4").expect("a100");
    for lang in [Lang::En, Lang::Zh] {
        let lines = explain(&s, Catalog::embedded(), v, lang);
        let band = lines.iter().find(|e| e.id == "time_band").expect("band line");
        assert_eq!(band.result, hours_band(v.hours_band.expect("band"), v.hours.expect("time"), lang));
        assert!(band.formula.contains(&tier(v.tier.as_ref().expect("tier"), lang)), "{}", band.formula);
        // The measured tier's p90 (tier::BAND_P90, itself held to the validation rows).
        let p90 = gpu_planner::domain::tier::p90(&Tier::Measured, "a100-80gb-sxm4");
        assert!((p90 - 0.221).abs() < 1e-12 && band.formula.contains("22%"), "{}", band.formula);
        let time = lines.iter().find(|e| e.id == "time").expect("time line");
        let g = goodput::from_wall(None, v.gpus, v.hours.expect("hours"));
        assert!(time.formula.contains(&format!("{:.0}%", g.share * 100.0)), "{}", time.formula);
    }
}

/// A benchmark on the user's own card (a custom card in the scenario) calibrates like one from
/// the catalog.
#[test]
fn a_benchmark_on_a_custom_card_is_reproduced() {
    let catalog = Catalog::embedded();
    let mut s = finetune();
    let mut mine = catalog.gpu("a100-80gb-sxm4").expect("a100").clone();
    mine.id = "our-a100".into();
    mine.name = "Our A100".into();
    s.custom_gpus.push(mine);
    s.cards.only.push("our-a100".into());
    let was = predicted_tokens_s(&s, catalog, "our-a100").expect("custom card time");
    s.efficiency.benchmark = Some(Benchmark { gpu: "our-a100".into(), tokens_per_s_gpu: 1.25 * was });
    let c = calibrated(&s, catalog);
    assert!(c.efficiency.kernel_scale > 1.1, "{}", c.efficiency.kernel_scale);
    common::assert_close(predicted_tokens_s(&c, catalog, "our-a100").expect("time"), 1.25 * was, 0.01);
}
