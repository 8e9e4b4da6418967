//! Whole-run goodput from the run's scale and length (domain/goodput.rs), held to published
//! reliability figures. The failure rate is read from Llama 3's interruption count; the other
//! figures below are independent reports. docs/research/2026-12-01-goodput-and-lora-speed.md
//! quotes each source.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use gpu_planner::domain::goodput::{of, wall_hours, FAILURES_PER_GPU_HOUR};
use gpu_planner::domain::Scenario;

fn failures(gpus: f64, hours: f64) -> f64 {
    gpus * hours * FAILURES_PER_GPU_HOUR
}

/// Llama 3 (Dubey et al. 2024, §3.3.4): "higher than 90% effective training time" on 16,384
/// H100s over a 54-day snapshot. The rate comes from the same section's 419 unexpected
/// interruptions; the checkpoint stall and restart time come from other sources.
#[test]
fn a_16k_gpu_run_for_54_days_trains_more_than_90_percent_of_the_time() {
    let g = of(None, 16_384, 54.0 * 24.0 * 0.9);
    assert!(g.share > 0.90 && g.share < 0.95, "{g:?}");
    let mttf = g.mttf_h.unwrap_or(0.0);
    assert!((mttf - 3.09).abs() < 0.05, "one unexpected interruption every ~3.1 h: {mttf}");
}

/// MegaScale (Jiang et al. 2024, §6.2–6.3): more than 10,000 GPUs for "several weeks", "training
/// restarts over 100 times", "over 90% effective training time rate".
#[test]
fn megascale_restarts_and_effective_time() {
    let four_weeks = 28.0 * 24.0;
    assert!(failures(10_000.0, four_weeks) > 100.0, "{}", failures(10_000.0, four_weeks));
    assert!(failures(10_000.0, 2.0 * 7.0 * 24.0) < 100.0, "not already in two weeks");
    assert!(of(None, 10_000, four_weeks).share > 0.90);
}

/// BLOOM (Bekman, "The Technology Behind BLOOM Training"): "about 400 GPUs, on average we were
/// getting 1-2 GPU failures a week" (384 A100s).
#[test]
fn bloom_saw_one_or_two_failures_a_week() {
    let week = failures(384.0, 7.0 * 24.0);
    assert!((1.0..=2.0).contains(&week), "{week}");
}

/// Kokolis et al. 2024: r_f ≈ 5 × 10⁻³ failures per node-day on Meta's RSC clusters (8 GPUs a
/// node). The Llama 3 rate is within a third of it.
#[test]
fn the_failure_rate_agrees_with_meta_research_clusters() {
    let per_node_day = FAILURES_PER_GPU_HOUR * 8.0 * 24.0;
    assert!((per_node_day / 5e-3 - 1.0).abs() < 1.0 / 3.0, "{per_node_day}");
}

/// Short, small runs almost never fail: a day on 8 cards loses well under 1%; goodput falls as
/// the scale grows, and a stated goodput replaces the model.
#[test]
fn short_small_runs_are_near_one_and_scale_costs_goodput() {
    let small = of(None, 8, 24.0).share;
    assert!(small > 0.995 && small < 1.0, "{small}");
    // An hour on 8 cards is shorter than Young's interval (~6 h here): no checkpoint on the way,
    // and a failure (one in 6,300 h) costs half the run and the restart.
    let hour = of(None, 8, 1.0);
    assert_eq!(hour.interval_h, Some(1.0));
    let expected = 1.0 / (1.0 + (0.5 + 600.0 / 3600.0) * 8.0 * FAILURES_PER_GPU_HOUR);
    assert!((hour.share - expected).abs() < 1e-12, "{} vs {expected}", hour.share);
    let mut last = 1.0;
    for gpus in [1, 8, 64, 512, 4096, 32_768] {
        let g = of(None, gpus, 500.0).share;
        assert!(g < last, "{gpus}: {g} after {last}");
        last = g;
    }
    assert!((wall_hours(Some(0.8), 1024, 100.0) - 125.0).abs() < 1e-9);
    assert!((wall_hours(None, 1, 10.0) - 10.0 / of(None, 1, 10.0).share).abs() < 1e-12);
}

/// The page's training time uses it: the default scenario's hours are its steady hours over
/// the goodput the model gives for its card count and length.
#[test]
fn the_report_divides_steady_hours_by_the_runs_goodput() {
    let mut s = Scenario { model: "llama-3.1-8b".into(), ..Scenario::default() };
    s.cards.only = vec!["h100-sxm".into()];
    s.efficiency.goodput = Some(1.0);
    let steady = common::report(&s).cards[0].clone();
    s.efficiency.goodput = None;
    let run = common::report(&s).cards[0].clone();
    let h = steady.hours.unwrap_or(f64::NAN);
    let expected = h / of(None, steady.gpus, h).share;
    common::assert_close(run.hours.unwrap_or(0.0), expected, 1e-9);
    assert!(run.hours > steady.hours);
}

/// Kokolis et al. 2024 (RSC-1: 6.5 failures per 1,000 node-days, restart overhead u0 ≈ 5–20
/// min): "To reach ETTR of 0.9 for the largest feasible training runs on RSC-1 (∼12,000 GPUs
/// …), checkpoint write time overhead needs to be on the order of ∼10 seconds". With a 10 s
/// stall the band over u0 holds 0.9; with RSC's typical 5-minute write (w_cp ≈ 5 min) no u0
/// reaches it.
#[test]
fn kokolis_needs_ten_second_checkpoints_for_ninety_percent_at_12k_gpus() {
    use gpu_planner::domain::goodput::{of_cluster, Reliability};
    let rsc = |checkpoint_s: f64, restart_s: f64| {
        let r = Reliability { failures_per_gpu_hour: 6.5e-3 / (8.0 * 24.0), checkpoint_s, restart_s };
        of_cluster(&r, 12_000, 2000.0).share
    };
    let (fast_low, fast_high) = (rsc(10.0, 1200.0), rsc(10.0, 300.0));
    assert!(fast_low < 0.9 && 0.9 < fast_high, "{fast_low}..{fast_high}");
    assert!(rsc(300.0, 300.0) < 0.85, "{}", rsc(300.0, 300.0));
}

/// "How this was computed" words the goodput from the wall time it explains: the share is the
/// fixed point of steady = wall × share, and the failure and checkpoint intervals are read in
/// minutes, hours or days.
#[test]
fn the_explanation_reads_the_goodput_back_from_the_wall_time() {
    use gpu_planner::domain::goodput::{describe, from_wall};
    let wall = 54.0 * 24.0;
    let g = from_wall(None, 16_384, wall);
    let again = of(None, 16_384, wall * g.share).share;
    assert!((g.share - again).abs() < 1e-9, "{} vs {again}", g.share);
    assert_eq!(describe(&g), "goodput 91% (one failure per 3.1 h on these cards, checkpoints every 8 min)");
    // A one-hour run on 8 cards: no checkpoint on the way (the interval is the run).
    let short = from_wall(None, 8, 1.0 / of(None, 8, 1.0).share);
    assert_eq!(describe(&short), "goodput 100% (one failure per 264 d on these cards, checkpoints every 1.0 h)");
    // Two days on one card: a failure every 1 / 1.97e-5 h = 2,112 days, Young's interval
    // √(2 · 10 s · 50,700 h) = 16.8 h.
    assert_eq!(
        describe(&from_wall(None, 1, 48.0)),
        "goodput 100% (one failure per 2112 d on these cards, checkpoints every 16.8 h)"
    );
    assert_eq!(describe(&from_wall(Some(0.8), 64, 100.0)), "goodput 80% (yours)");
}
