//! "Cheapest fix": every suggestion really fixes the plan it claims to, cheapest first.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::report;
use gpu_planner::domain::fix::{fixes, works};
use gpu_planner::domain::scenario::{CardFilter, Parallel, Search, Task};
use gpu_planner::domain::{Catalog, Scenario};

fn check_all(s: &Scenario) -> usize {
    let fs = fixes(s, Catalog::embedded());
    for f in &fs {
        let r = report(&f.scenario);
        let v = r.cards.iter().find(|c| c.gpu == f.gpu).unwrap_or_else(|| panic!("{} not planned", f.gpu));
        assert!(works(&f.scenario, v), "fix `{}` does not work: {v:?}", f.en);
        assert_eq!(v.gpus, f.gpus, "{}", f.en);
        assert_eq!(v.cost, f.cost, "{}", f.en);
    }
    for w in fs.windows(2) {
        assert!(w[0].cost.unwrap_or(f64::INFINITY) <= w[1].cost.unwrap_or(f64::INFINITY), "cheapest first");
    }
    fs.len()
}

/// A 70B full fine-tune forced onto `gpus` RTX 4090s: it does not fit on two.
fn seventy_b_on_4090s(gpus: u32) -> Scenario {
    Scenario {
        task: Task::FullFinetune,
        model: "llama-3.1-70b".into(),
        parallel: Parallel { gpus, ..Parallel::default() },
        cards: CardFilter { only: vec!["rtx-4090".into()], ..CardFilter::default() },
        ..Scenario::default()
    }
}

/// Llama 3.1 8B pre-trained on 20B tokens on 8 A100s, with a 3-day deadline it misses.
fn missed_deadline() -> Scenario {
    Scenario {
        task: Task::Pretrain,
        model: "llama-3.1-8b".into(),
        training: gpu_planner::domain::scenario::Training { tokens: 2e10, ..Default::default() },
        parallel: Parallel { gpus: 8, ..Parallel::default() },
        cards: CardFilter { only: vec!["a100-80gb-sxm4".into()], ..CardFilter::default() },
        search: Search { deadline_days: Some(3.0), budget: None, max_gpus: 512 },
        ..Scenario::default()
    }
}

#[test]
fn a_70b_full_fine_tune_on_two_4090s_gets_working_fixes() {
    let s = Scenario { search: Search { max_gpus: 256, ..Search::default() }, ..seventy_b_on_4090s(2) };
    assert!(!report(&s).cards[0].fits);
    let fs = fixes(&s, Catalog::embedded());
    let names: Vec<&str> = fs.iter().map(|f| f.en.as_str()).collect();
    assert!(names.iter().any(|n| n.starts_with("use ")), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with("instead")), "another card: {names:?}");
    assert!(check_all(&s) >= 2);
}

#[test]
fn a_missed_deadline_gets_more_cards_or_a_faster_card() {
    let s = missed_deadline();
    let v = &report(&s).cards[0];
    assert!(v.fits && v.hours.unwrap_or(0.0) > 72.0, "the plan misses the deadline: {:?}", v.hours);
    let fs = fixes(&s, Catalog::embedded());
    assert!(fs.iter().any(|f| f.en.starts_with("use ")), "{:?}", fs.iter().map(|f| &f.en).collect::<Vec<_>>());
    check_all(&s);
}

#[test]
fn a_working_plan_needs_no_fix() {
    assert!(fixes(&Scenario::default(), Catalog::embedded()).is_empty());
}

#[test]
fn inference_that_does_not_fit_suggests_quantization() {
    let mut s = Scenario {
        task: Task::Inference,
        model: "llama-3.1-70b".into(),
        parallel: Parallel { gpus: 2, ..Parallel::default() },
        cards: CardFilter { only: vec!["l40s".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    // Relaxed targets (an internal tool): on two L40S the INT4 weights then fit and serve in time.
    s.inference.ttft_p50_s = 5.0;
    s.inference.ttft_p99_s = 10.0;
    s.inference.tpot_p50_ms = 100.0;
    s.inference.tpot_p99_ms = 200.0;
    let fs = fixes(&s, Catalog::embedded());
    assert!(fs.iter().any(|f| f.en.contains("INT4")), "{:?}", fs.iter().map(|f| &f.en).collect::<Vec<_>>());
    check_all(&s);
}

/// The team on four H100s it already owns: 100 users of Qwen2.5-72B at 4k prompts miss
/// the latency targets there (the prefill alone needs more compute), so the plan does not "work"
/// and the fixes are the serving ones — more cards, lighter weights or cache, shorter prompts,
/// another card — each re-planned and meeting the targets, cheapest first.
#[test]
fn serving_that_misses_its_targets_gets_serving_fixes() {
    let mut s = Scenario {
        task: Task::Inference,
        model: "qwen2.5-72b".into(),
        parallel: Parallel { gpus: 4, ..Parallel::default() },
        cards: CardFilter { only: vec!["h100-sxm".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    s.inference.concurrent = 100;
    let v = &report(&s).cards[0];
    let c = v.serving.clone().unwrap_or_else(|| panic!("a serving plan"));
    assert!(v.fits && !c.meets, "{c:?}");
    assert!(!works(&s, v));
    let fs = fixes(&s, Catalog::embedded());
    let names: Vec<&str> = fs.iter().map(|f| f.en.as_str()).collect();
    assert!(names.iter().any(|n| n.starts_with("use ")), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("ZeRO") || n.contains("recompute")), "{names:?}");
    assert!(check_all(&s) >= 1);
    // A plan that meets its targets needs no fix.
    s.parallel.gpus = 0;
    assert!(fixes(&s, Catalog::embedded()).is_empty());
}

/// A vision service that misses its latency target is not a working plan, and the fixes say why
/// (`works` once ignored the vision target, so such a plan got no fixes). ResNet-50 at batch 1
/// on a T4 runs ~1.8 ms (timm's benchmark tables): a 0.1 ms target cannot be met.
#[test]
fn a_vision_service_that_misses_its_latency_target_is_not_working() {
    use gpu_planner::domain::fix::{shortfalls, Shortfall};
    let mut s = Scenario { task: Task::Inference, model: "resnet50".into(), ..Scenario::default() };
    s.vision.latency_ms = 0.1;
    let r = report(&s);
    let v = r.cards.iter().find(|c| c.vision.is_some() && c.fits).unwrap_or_else(|| panic!("a planned card"));
    assert!(v.vision.as_ref().is_some_and(|f| !f.meets), "the target is missed");
    assert!(!works(&s, v));
    assert_eq!(shortfalls(&s, v), vec![Shortfall::MissesTargets]);
    // With the default 200 ms target the same card works and has no shortfall.
    let d = Scenario { task: Task::Inference, model: "resnet50".into(), ..Scenario::default() };
    let r = report(&d);
    let v = r.cards.iter().find(|c| c.gpu == v.gpu).unwrap_or_else(|| panic!("same card"));
    assert!(works(&d, v) && shortfalls(&d, v).is_empty(), "{v:?}");
}

/// The shortfalls name the numbers the fixes heading prints: the memory needed against the
/// card's, and the run's hours against the deadline's.
#[test]
fn shortfalls_carry_the_figures_of_the_failure() {
    use gpu_planner::domain::fix::{shortfalls, Shortfall};
    let s = missed_deadline();
    let v = &report(&s).cards[0];
    assert_eq!(shortfalls(&s, v), vec![Shortfall::MissesDeadline { hours: v.hours, deadline_h: 72.0 }]);
    let big = seventy_b_on_4090s(2);
    let v = &report(&big).cards[0];
    assert_eq!(shortfalls(&big, v), vec![Shortfall::DoesNotFit { needed: v.memory.total, capacity: v.capacity }]);
    assert!(v.memory.total > v.capacity);
}
