//! Decode operators for cards that were not measured (serving/measured.rs `ops_for`): the
//! measured card nearest in memory bandwidth lends its floors and shares, read through the
//! borrower's own bandwidth; its module times stretch for a slower card and never shrink for a
//! faster one; the plan says where its figures come from. The MI355X rows of the accuracy table
//! (held out, set nothing here) judge the borrowing.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use gpu_planner::domain::catalog::Gpu;
use gpu_planner::domain::format::{serving_tier, Lang};
use gpu_planner::domain::scenario::{Precision, Task, WeightQuant};
use gpu_planner::domain::serving::measured::{ops_for, DecodeOps, Source};
use gpu_planner::domain::tier::Tier;
use gpu_planner::domain::{Catalog, Scenario};

fn card(id: &str) -> Gpu {
    Catalog::embedded().gpu(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

fn source(id: &str) -> Option<Source> {
    ops_for(&card(id)).map(|(_, s)| s)
}

/// Measured cards use their own figures; the others the measured card nearest in bandwidth:
/// MI355X (8.0 TB/s) B200 (7.7), MI300X (5.3) H200 (4.8), L40S (0.86) A100 (2.0), H20 (4.0)
/// H100 (3.35: |ln 4.0/3.35| = 0.177 < |ln 4.8/4.0| = 0.182). Unknown bandwidth: none.
#[test]
fn each_card_borrows_the_measured_card_nearest_in_bandwidth() {
    for own in ["h100-sxm", "h200-sxm", "b200-hgx", "a100-80gb-sxm4"] {
        assert_eq!(source(own), Some(Source::Own), "{own}");
    }
    assert_eq!(source("mi355x"), Some(Source::Borrowed("b200-hgx")));
    assert_eq!(source("mi300x"), Some(Source::Borrowed("h200-sxm")));
    assert_eq!(source("l40s"), Some(Source::Borrowed("a100-80gb-sxm4")));
    assert_eq!(source("h20"), Some(Source::Borrowed("h100-sxm")));
    let mut unknown = card("mi355x");
    unknown.memory_bandwidth_gb_s = None;
    assert!(ops_for(&unknown).is_none());
    // A zero bandwidth is no bandwidth (every distance from it would be infinite).
    unknown.memory_bandwidth_gb_s = Some(0.0);
    assert!(ops_for(&unknown).is_none());
}

/// DeepSeek-R1's decode step (FP8, TP8) on a B200 whose bandwidth is changed: slower (6.8 TB/s,
/// still nearest the B200) stretches the measured MLA and MoE modules by 7.7/6.8 and reads the
/// Linear weights slower, so the step grows by nearly 7.7/6.8 and no more; faster (9 TB/s) reads
/// the weights faster while the modules keep their measured times, so the step barely shrinks.
#[test]
fn a_borrower_stretches_for_a_slower_card_and_keeps_the_floors_for_a_faster_one() {
    let s = Scenario { task: Task::Inference, model: "deepseek-r1".into(), ..Scenario::default() };
    let m = s.model_spec().expect("deepseek-r1").clone();
    let step = |bw: Option<f64>| {
        let mut g = card("b200-hgx");
        if let Some(b) = bw {
            g.id = "b200-variant".into();
            g.memory_bandwidth_gb_s = Some(b);
        }
        let o = DecodeOps::new(&m, &g, 1.0, true, 1.0, 8, 8).expect("figures");
        (o.step(16.0, 16.0 * 1024.0, 16.0, 1.0), o.source())
    };
    let (own, src) = step(None);
    assert_eq!(src, Source::Own);
    let (slow, src) = step(Some(6800.0));
    assert_eq!(src, Source::Borrowed("b200-hgx"));
    // The modules are most of a 16-request step (1.114× here): every part stretches but the floors.
    assert!(slow > 1.1 * own && slow <= own * 7700.0 / 6800.0 + 1e-12, "{slow} vs {own}");
    let (fast, _) = step(Some(9000.0));
    // The modules keep their measured times: a faster card gains only on the Linear reads.
    assert!(fast < own && fast > 0.99 * own, "{fast} vs {own}");
}

/// The plan carries the tier, and the page's words for it: measured on the H200, borrowed from
/// the B200 on the MI355X, from the H100 on the A100 (its own figures have no MLA module).
#[test]
fn the_serving_plan_says_where_its_operators_come_from() {
    let mut s = Scenario { task: Task::Inference, model: "deepseek-r1".into(), ..Scenario::default() };
    s.precision = Precision::Fp8;
    s.weight_quant = WeightQuant::Fp8;
    s.inference.context = 1024;
    s.inference.output_tokens = 256;
    s.inference.concurrent = 4;
    s.cards.only = vec!["h200-sxm".into(), "mi355x".into(), "a100-80gb-sxm4".into()];
    let r = common::report(&s);
    let tier = |id: &str| {
        r.cards
            .iter()
            .find(|c| c.gpu == id)
            .and_then(|c| c.serving.as_ref())
            .map(|c| c.tier.clone())
            .unwrap_or_else(|| panic!("a plan on {id}"))
    };
    assert_eq!(tier("h200-sxm"), Tier::Measured);
    assert_eq!(tier("mi355x"), Tier::Borrowed { from: "b200-hgx".into() });
    assert_eq!(tier("a100-80gb-sxm4"), Tier::Borrowed { from: "h100-sxm".into() });
    assert_eq!(serving_tier(&tier("h200-sxm"), Lang::En), "decode operators measured on this card");
    assert!(serving_tier(&tier("mi355x"), Lang::En).starts_with("decode operators borrowed from NVIDIA"));
    assert!(serving_tier(&tier("mi355x"), Lang::Zh).starts_with("解码算子借用"));
    assert_eq!(serving_tier(&Tier::Roofline, Lang::Zh), "仅屋顶线估算");
}
