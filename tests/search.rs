//! Auto-plan search: agrees with a brute-force enumeration through the engine, every plan it
//! returns fits by the engine's own accounting, and it covers more than 100,000 configurations.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::assert_close;
use gpu_planner::domain::compute::training_hours;
use gpu_planner::domain::memory::{self, Layout};
use gpu_planner::domain::scenario::{CardFilter, Offload, Recompute, Search, Task, Training};
use gpu_planner::domain::search::{fast_total, search};
use gpu_planner::domain::{Catalog, Scenario};
use proptest::prelude::*;

fn at_mb(s: &Scenario, mb: u32) -> Scenario {
    Scenario { training: Training { micro_batch: mb, ..s.training.clone() }, ..s.clone() }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn closed_form_memory_equals_the_engine(
        tp in prop::sample::select(vec![1u32, 2, 4, 8]), pp in prop::sample::select(vec![1u32, 2, 4, 8]),
        dp in prop::sample::select(vec![1u32, 2, 4, 16, 64]), zero in 0u8..4, mb in 1u32..8,
        ep in prop::sample::select(vec![1u32, 2, 8]), cp in prop::sample::select(vec![1u32, 2, 4]),
        rec in prop::sample::select(vec![Recompute::None, Recompute::Selective, Recompute::Full]),
        off in prop::sample::select(vec![Offload::None, Offload::Optimizer]),
        task in prop::sample::select(vec![Task::Pretrain, Task::FullFinetune, Task::Lora, Task::Qlora]),
        model in prop::sample::select(vec!["llama-3.1-8b", "qwen2.5-72b", "mixtral-8x7b", "deepseek-v3"]),
    ) {
        let s = Scenario { task, model: model.into(), ..Scenario::default() };
        let m = s.model_spec().map_err(|e| TestCaseError::fail(e.to_string()))?.clone();
        // Expert parallelism only for MoE models, and dp a multiple of it.
        let ep = if m.moe.is_some() { ep } else { 1 };
        let l = Layout { tp, pp, dp: dp * ep, zero, recompute: rec, offload: off, ep, cp };
        let engine = memory::training(&m, &at_mb(&s, mb), &l).total;
        let fast = fast_total(&m, &s, l, mb);
        prop_assert!((engine - fast).abs() <= 1e-9 * engine, "{engine} vs {fast}");
    }
}

fn small() -> Scenario {
    Scenario {
        task: Task::FullFinetune,
        model: "qwen2.5-7b".into(),
        training: Training { global_batch: 32, tokens: 2e9, ..Training::default() },
        cards: CardFilter { only: vec!["a100-80gb-sxm4".into(), "rtx-4090".into()], ..CardFilter::default() },
        search: Search { deadline_days: Some(3.0), budget: None, max_gpus: 16 },
        ..Scenario::default()
    }
}

/// The same space enumerated plainly through memory::training and compute::training_hours.
fn brute_force(s: &Scenario) -> (u64, Vec<(String, Layout, u32, f64)>) {
    let cat = Catalog::embedded();
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let mut searched = 0;
    let mut feasible = Vec::new();
    for id in &s.cards.only {
        let g = cat.gpu(id).unwrap_or_else(|| panic!("{id}"));
        // Plans fit within the card's memory less the scenario's stated headroom.
        let cap = g.memory_gb.unwrap_or(0.0) * gpu_planner::domain::units::GIB * (1.0 - s.parallel.memory_headroom);
        for tp in [1u32, 2, 4, 8].into_iter().filter(|&t| t <= g.nvlink_domain().min(8) && m.heads.is_multiple_of(t)) {
            for pp in [1u32, 2, 4, 8, 16, 32].into_iter().filter(|&p| p == 1 || p * 2 <= m.layers) {
                for zero in 0u8..=3 {
                    for offload in [Offload::None, Offload::Optimizer] {
                        for mb in [1u32, 2, 4, 8].into_iter().filter(|&b| b <= s.training.global_batch) {
                            for recompute in [Recompute::None, Recompute::Selective, Recompute::Full] {
                                let mut dp = 1;
                                while tp * pp * dp <= s.search.max_gpus && dp * mb <= s.training.global_batch {
                                    searched += 1;
                                    let l = Layout { tp, pp, dp, zero, recompute, offload, ep: 1, cp: 1 };
                                    let sm = at_mb(s, mb);
                                    if memory::training(&m, &sm, &l).total <= cap {
                                        let h = training_hours(&m, &sm, g, &l).unwrap_or(f64::INFINITY);
                                        if h <= s.search.deadline_days.unwrap_or(f64::INFINITY) * 24.0 {
                                            feasible.push((id.clone(), l, mb, h));
                                        }
                                    }
                                    dp *= 2;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    (searched, feasible)
}

#[test]
fn search_agrees_with_brute_force_on_a_small_case() {
    let s = small();
    let r = search(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let (searched, feasible) = brute_force(&s);
    assert_eq!(r.searched, searched);
    assert_eq!(r.feasible, feasible.len() as u64);
    let fastest = feasible.iter().map(|f| f.3).fold(f64::INFINITY, f64::min);
    assert_close(r.by_time[0].hours, fastest, 1e-9);
    // Without a deadline every plan that fits is feasible: the count of those that fit.
    let open = Scenario { search: Search { deadline_days: None, ..s.search.clone() }, ..s };
    let r = search(&open, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let (_, fitting) = brute_force(&open);
    assert!(fitting.len() > feasible.len());
    assert_eq!((r.fitting, r.feasible), (fitting.len() as u64, fitting.len() as u64));
}

#[test]
fn every_returned_plan_fits_and_meets_the_deadline_by_the_engine() {
    let s = small();
    let cat = Catalog::embedded();
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let r = search(&s, cat).unwrap_or_else(|e| panic!("{e}"));
    assert!(!r.by_cost.is_empty() && !r.pareto.is_empty());
    for c in r.by_cost.iter().chain(&r.by_time).chain(&r.pareto).chain(&r.per_card) {
        let g = cat.gpu(&c.gpu).unwrap_or_else(|| panic!("{}", c.gpu));
        let sm = at_mb(&s, c.micro_batch);
        let total = memory::training(&m, &sm, &c.layout).total;
        assert!(total <= c.capacity, "{c:?}");
        let h = training_hours(&m, &sm, g, &c.layout).unwrap_or(f64::INFINITY);
        assert_close(c.hours, h, 1e-9);
        assert!(h <= 3.0 * 24.0);
    }
    // The Pareto front is strictly faster-and-dearer along its length.
    for w in r.pareto.windows(2) {
        assert!(w[0].hours <= w[1].hours && w[0].cost() >= w[1].cost());
    }
}

#[test]
fn the_whole_catalog_search_covers_over_100k_configurations() {
    let s = Scenario { search: Search { deadline_days: Some(14.0), ..Search::default() }, ..Scenario::default() };
    let t = std::time::Instant::now();
    let r = search(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "searched {} ({} fit, {} feasible) in {:.1} ms native (debug build)",
        r.searched,
        r.fitting,
        r.feasible,
        t.elapsed().as_secs_f64() * 1e3
    );
    assert!(r.searched >= 100_000, "{}", r.searched);
    assert!(r.per_card.len() > 10);
}

/// The automatic card limit follows the task and the model (a 7B LoRA was once offered ×64 to
/// ×1,024 plans). Worked by hand:
/// - Qwen2.5-7B LoRA on 10⁸ tokens: ~15 GB of bf16 weights plus activations on one card is well
///   under one 80 GB card (× 8 → under 8), and 4·7.6e9·1e8 ≈ 3e18 FLOPs is far less than a day
///   at 989.4 TFLOPS × 0.4 (3.42e19 FLOPs per card-day): the floor, 8.
/// - Qwen2.5-7B full fine-tune on 10⁹ tokens: 16 B/param × 7.6e9 = 113 GiB of states plus
///   activations at 4,096 tokens without recompute is the summary's 174 GiB on one card, 2.2
///   cards of 80 GiB → × 8 ≈ 17 → the power of two 32 (more than 16: the states alone are 1.4
///   cards, × 8 = 11.3); time 6·7.6e9·1e9 ≈ 4.6e19 → 2 × 1.3 card-days ≈ 3 cards, less.
/// - Llama 3.1 70B pre-training on 15·10¹² tokens: 6·70.6e9·15e12 ≈ 6.4e24 FLOPs = 1.9e5
///   card-days → the ceiling, 16,384 (Llama 3 405B's 16K H100s).
///
/// A limit the user typed is kept as typed.
#[test]
fn the_card_limit_follows_the_task_and_the_model() {
    use gpu_planner::domain::search::card_limit;
    let at = |task: Task, model: &str, tokens: f64| {
        let mut s = Scenario { task, model: model.into(), ..Scenario::default() };
        s.training.tokens = tokens;
        s
    };
    assert_eq!(card_limit(&at(Task::Lora, "qwen2.5-7b", 1e8)), 8);
    assert_eq!(card_limit(&at(Task::FullFinetune, "qwen2.5-7b", 1e9)), 32);
    assert_eq!(card_limit(&at(Task::Pretrain, "llama-3.1-70b", 15e12)), 16_384);
    let mut typed = at(Task::Lora, "qwen2.5-7b", 1e8);
    typed.search.max_gpus = 300;
    assert_eq!(card_limit(&typed), 300);
    // The search keeps to it: no LoRA plan of a 7B model on more than 8 cards.
    let r = search(&at(Task::Lora, "qwen2.5-7b", 1e8), Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    assert!(!r.by_cost.is_empty());
    assert!(r.by_cost.iter().chain(&r.by_time).chain(&r.per_card).all(|c| c.layout.gpus() <= 8));
}

/// The cheapest and fastest lists hold no two plans that differ only in the ZeRO stage or the
/// micro-batch (same card, count and split): they once repeated near-identical rows.
#[test]
fn the_lists_collapse_plans_that_differ_only_in_zero_or_micro_batch() {
    let s = Scenario { task: Task::FullFinetune, model: "qwen2.5-7b".into(), ..Scenario::default() };
    let r = search(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    for list in [&r.by_cost, &r.by_time] {
        assert!(list.len() >= 5, "{}", list.len());
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                let shape =
                    |c: &gpu_planner::domain::search::Candidate| (c.gpu.clone(), Layout { zero: 0, ..c.layout });
                assert_ne!(shape(a), shape(b), "{a:?}\n{b:?}");
            }
        }
    }
    // Each card's plan, the cheapest card first (the catalog lists them otherwise).
    let cost = |c: &gpu_planner::domain::search::Candidate| c.cost().unwrap_or(f64::INFINITY);
    assert!(r.per_card.len() > 5, "{}", r.per_card.len());
    assert!(
        r.per_card.windows(2).all(|w| cost(&w[0]) <= cost(&w[1])),
        "{:?}",
        r.per_card.iter().map(cost).collect::<Vec<_>>()
    );
    // Still the cheapest: the first row is the cheapest plan of all the per-card ones.
    let cheapest =
        r.per_card.iter().filter_map(gpu_planner::domain::search::Candidate::cost).fold(f64::INFINITY, f64::min);
    assert_close(r.by_cost[0].cost().unwrap_or(f64::NAN), cheapest, 1e-12);
}

/// Rent for a brute-force plan: the card's hourly rate × hours × cards.
fn rent(s: &Scenario, id: &str, l: &Layout, hours: f64) -> f64 {
    let hourly =
        gpu_planner::domain::pricing::rent_hourly(s, Catalog::embedded(), id).unwrap_or_else(|| panic!("{id}"));
    hourly * hours * f64::from(l.gpus())
}

/// The best of each shape (card, split; ZeRO stage and micro-batch aside) by `key`, the 15 best
/// of those, as the lists should hold them.
fn best_shapes(
    plans: &[(String, Layout, u32, f64, f64)],
    key: impl Fn(&(String, Layout, u32, f64, f64)) -> f64,
) -> Vec<f64> {
    let mut best: Vec<((String, Layout), f64)> = Vec::new();
    for p in plans {
        let shape = (p.0.clone(), Layout { zero: 0, ..p.1 });
        match best.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, k)) => *k = k.min(key(p)),
            None => best.push((shape, key(p))),
        }
    }
    let mut keys: Vec<f64> = best.into_iter().map(|(_, k)| k).collect();
    keys.sort_by(f64::total_cmp);
    keys.truncate(15);
    keys
}

/// The cheapest list, the fastest list, the Pareto front and each card's plan against the
/// brute-force enumeration with its rents worked out plainly (hourly rate × hours × cards), with
/// and without a budget: the lists hold each shape's best, in order; the front is exactly the
/// plans no other plan beats on both time and cost; a budget drops exactly the dearer plans.
#[test]
fn the_lists_and_the_front_match_brute_force() {
    // None, an infinite budget, one a third of the way up the plans' costs, one that leaves nine.
    for budget in [None, Some(f64::INFINITY), Some(0.0), Some(1.0)] {
        let mut s = small();
        let (_, all) = brute_force(&s);
        let mut plans: Vec<(String, Layout, u32, f64, f64)> =
            all.into_iter().map(|(id, l, mb, h)| (id.clone(), l, mb, h, rent(&s, &id, &l, h))).collect();
        // A budget between the cheapest and the dearest plan.
        let budget = budget.map(|b: f64| {
            let mut c: Vec<f64> = plans.iter().map(|p| p.4).collect();
            c.sort_by(f64::total_cmp);
            match b {
                0.0 => c[c.len() / 3],
                1.0 => c[8],
                _ => b,
            }
        });
        if let Some(b) = budget {
            plans.retain(|p| p.4 <= b);
        }
        s.search.budget = budget.filter(|b| b.is_finite());
        let r = search(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.feasible, plans.len() as u64, "budget {budget:?}");
        assert!(plans.len() >= 9, "{}", plans.len());
        let got = |v: &[gpu_planner::domain::search::Candidate],
                   f: fn(&gpu_planner::domain::search::Candidate) -> f64| {
            v.iter().map(f).collect::<Vec<f64>>()
        };
        let close = |a: &[f64], b: &[f64], what: &str| {
            assert_eq!(a.len(), b.len(), "{what}: {a:?} vs {b:?}");
            for (x, y) in a.iter().zip(b) {
                assert!((x / y - 1.0).abs() < 1e-9, "{what}: {a:?} vs {b:?}");
            }
        };
        close(&got(&r.by_cost, |c| c.cost().unwrap_or(f64::NAN)), &best_shapes(&plans, |p| p.4), "by cost");
        close(&got(&r.by_time, |c| c.hours), &best_shapes(&plans, |p| p.3), "by time");
        // The front: plans not beaten on both counts (ties kept once), by time.
        let mut front: Vec<(f64, f64)> = plans
            .iter()
            .filter(|p| !plans.iter().any(|q| (q.3 < p.3 && q.4 <= p.4) || (q.3 <= p.3 && q.4 < p.4)))
            .map(|p| (p.3, p.4))
            .collect();
        front.sort_by(|a, b| a.0.total_cmp(&b.0));
        front.dedup_by(|a, b| (a.0 / b.0 - 1.0).abs() < 1e-12 && (a.1 / b.1 - 1.0).abs() < 1e-12);
        close(&got(&r.pareto, |c| c.hours), &front.iter().map(|f| f.0).collect::<Vec<_>>(), "front hours");
        close(
            &got(&r.pareto, |c| c.cost().unwrap_or(f64::NAN)),
            &front.iter().map(|f| f.1).collect::<Vec<_>>(),
            "front cost",
        );
        // Each card's plan is its cheapest, the cheaper card first.
        let mut per_card: Vec<f64> = s
            .cards
            .only
            .iter()
            .filter_map(|id| plans.iter().filter(|p| p.0 == *id).map(|p| p.4).min_by(f64::total_cmp))
            .collect();
        per_card.sort_by(f64::total_cmp);
        close(&got(&r.per_card, |c| c.cost().unwrap_or(f64::NAN)), &per_card, "per card");
        for c in r.by_cost.iter().chain(&r.per_card) {
            assert_eq!(c.cost(), c.rent_cost, "a rented card ranks by its rent");
        }
    }
}

/// The limit's time term, worked by hand: Qwen2.5-7B (7.61e9 parameters, 28 layers, width
/// 3,584) fully fine-tuned on 10¹⁰ tokens of 4,096 is (6·7.61e9 + 12·28·4,096·3,584)·10¹⁰ ≈
/// 5.06e20 FLOPs; a card at 989.4 TFLOPS × 0.4 does 3.42e19 a day, so 14.8 card-days, × 2 →
/// 30 → 32. Within a quarter-day deadline four times as many: 118 → 128; half a day: 64. A
/// deadline longer than a day counts as a day. Serving has no training to size: the fixed 1,024.
#[test]
fn the_card_limit_counts_the_run_within_its_deadline() {
    use gpu_planner::domain::search::card_limit;
    let mut s = Scenario { task: Task::FullFinetune, model: "qwen2.5-7b".into(), ..Scenario::default() };
    s.training.tokens = 1e10;
    s.training.seq_len = 4096;
    assert_eq!(card_limit(&s), 32);
    for (days, want) in [(0.25, 128), (0.5, 64), (1.0, 32), (7.0, 32)] {
        s.search.deadline_days = Some(days);
        assert_eq!(card_limit(&s), want, "{days} days");
    }
    s.task = Task::Inference;
    assert_eq!(card_limit(&s), 1024);
}

/// The price typed for the card one owns prices that card's owned cost in the search, and only
/// that card's: an RTX 4090 typed at ten times its catalog price costs more to own per plan,
/// the A100 beside it not at all.
#[test]
fn a_typed_purchase_price_prices_only_its_own_card() {
    let own = |s: &Scenario, id: &str| {
        let r = search(s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
        r.per_card.iter().find(|c| c.gpu == id).and_then(|c| c.own_cost.map(|o| (c.layout, c.micro_batch, o)))
    };
    let base = small();
    let catalog_price = gpu_planner::domain::cost::card_price(&base, Catalog::embedded(), "rtx-4090", false)
        .unwrap_or_else(|| panic!("a catalog price"));
    let mut typed = small();
    typed.ownership.gpu = "rtx-4090".into();
    typed.ownership.card_price = Some(catalog_price * 10.0);
    let (a0, a1) = (own(&base, "a100-80gb-sxm4"), own(&typed, "a100-80gb-sxm4"));
    assert_eq!(a0, a1, "the A100 is not the owned card");
    let (g0, g1) = (own(&base, "rtx-4090"), own(&typed, "rtx-4090"));
    let ((l0, m0, c0), (l1, m1, c1)) = (g0.unwrap_or_else(|| panic!("4090")), g1.unwrap_or_else(|| panic!("4090")));
    assert_eq!((l0, m0), (l1, m1), "the same plan");
    assert!(c1 > c0 * 1.5, "{c1} vs {c0}");
}

/// With context parallelism in the space (sequences of 16,384 and more), every plan still fits
/// by the engine's own accounting — the logits split over tp·cp ranks — and none uses more
/// cards than the limit counting the context ranks.
#[test]
fn context_parallel_plans_fit_and_keep_to_the_limit() {
    let s = Scenario {
        task: Task::Pretrain,
        model: "llama-3.1-8b".into(),
        training: Training { seq_len: 65_536, global_batch: 16, tokens: 1e9, ..Training::default() },
        cards: CardFilter { only: vec!["h100-sxm".into()], ..CardFilter::default() },
        search: Search { deadline_days: None, budget: None, max_gpus: 32 },
        ..Scenario::default()
    };
    let cat = Catalog::embedded();
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let r = search(&s, cat).unwrap_or_else(|e| panic!("{e}"));
    let plans: Vec<_> = r.by_cost.iter().chain(&r.by_time).chain(&r.pareto).chain(&r.per_card).collect();
    assert!(plans.iter().any(|c| c.layout.cp > 1 && c.layout.tp > 1), "context and tensor parallel plans: {plans:?}");
    for c in plans {
        assert!(c.layout.gpus() <= 32, "{c:?}");
        let sm = at_mb(&s, c.micro_batch);
        let total = memory::training(&m, &sm, &c.layout).total;
        assert!((c.memory / total - 1.0).abs() < 1e-9, "{} vs {total}: {c:?}", c.memory);
        // Timed and rented on all its cards, the context ranks included.
        let g = cat.gpu("h100-sxm").unwrap_or_else(|| panic!("h100"));
        assert_close(c.hours, training_hours(&m, &sm, g, &c.layout).unwrap_or(f64::NAN), 1e-9);
        let hourly = gpu_planner::domain::pricing::rent_hourly(&s, cat, "h100-sxm").unwrap_or(f64::NAN);
        assert_close(c.rent_cost.unwrap_or(f64::NAN), hourly * c.hours * f64::from(c.layout.gpus()), 1e-9);
        let n = c.layout.gpus();
        let price = gpu_planner::domain::cost::card_price(&s, cat, "h100-sxm", false).unwrap_or(f64::NAN);
        let per_card_hour = gpu_planner::domain::cost::own_costs(&s, g, n, price).per_gpu_hour(s.ownership.utilisation);
        assert_close(c.own_cost.unwrap_or(f64::NAN), per_card_hour * c.hours * f64::from(n), 1e-9);
    }
}

/// A vision job's auto-plan against its plain enumeration: each card at 1, 2, 4, … cards up to
/// the limit (stopping where the card has no time), timed by the ranking's own verdict, owned at
/// the card's price (the typed one for the owned card) per card-hour × hours × cards, kept when
/// it meets a deadline in days × 24 h and the budget; each card's plan is its fewest cards that
/// do.
#[test]
fn a_vision_search_matches_its_enumeration() {
    use gpu_planner::domain::cost::{card_price, own_costs};
    use gpu_planner::domain::search::card_limit;
    use gpu_planner::domain::vision;
    let cat = Catalog::embedded();
    let ids = ["rtx-4090", "a100-80gb-sxm4", "l40s", "rtx-3090"];
    let mut s = Scenario { model: "yolov8x".into(), task: Task::FullFinetune, ..Scenario::default() };
    s.vision.resolution = 640;
    s.cards = CardFilter { only: ids.iter().map(|x| (*x).to_string()).collect(), ..CardFilter::default() };
    s.ownership.gpu = "l40s".into();
    s.ownership.card_price = Some(123_456.0);
    let v = vision::model(&s.model).unwrap_or_else(|| panic!("yolov8x"));
    for (days, budget) in [(Some(1.5), None), (Some(0.4), None), (None, Some(100.0)), (Some(3.0), Some(150.0))] {
        s.search.deadline_days = days;
        s.search.budget = budget;
        let r = search(&s, cat).unwrap_or_else(|e| panic!("{e}"));
        let (mut searched, mut fitting, mut feasible) = (0u64, 0u64, 0u64);
        let mut per_card: Vec<(String, u32, f64, Option<f64>)> = Vec::new();
        for id in ids {
            let g = cat.gpu(id).unwrap_or_else(|| panic!("{id}"));
            let price = card_price(&s, cat, id, id == "l40s");
            let mut n = 1;
            let mut first = None;
            while n <= card_limit(&s) {
                searched += 1;
                let mut at = s.clone();
                at.parallel.gpus = n;
                let Some(c) = vision::verdict(v, &at, g, cat) else { break };
                let Some(h) = c.hours else { break };
                fitting += 1;
                let own =
                    price.map(|p| own_costs(&s, g, n, p).per_gpu_hour(s.ownership.utilisation) * h * f64::from(n));
                let cost = c.cost.or(own);
                if days.is_none_or(|d| h <= d * 24.0) && budget.is_none_or(|b| cost.is_some_and(|x| x <= b)) {
                    feasible += 1;
                    first = first.or(Some((id.to_string(), n, h, own)));
                }
                n *= 2;
            }
            per_card.extend(first);
        }
        assert_eq!((r.searched, r.fitting, r.feasible), (searched, fitting, feasible), "{days:?} {budget:?}");
        assert!(feasible > 0 && feasible < fitting, "{days:?} {budget:?}: {feasible} of {fitting}");
        assert_eq!(r.per_card.len(), per_card.len());
        for (id, n, h, own) in &per_card {
            let got = r.per_card.iter().find(|c| c.gpu == *id).unwrap_or_else(|| panic!("{id}"));
            assert_eq!(got.layout.dp, *n, "{id}: fewest cards that meet it");
            assert_close(got.hours, *h, 1e-9);
            assert_close(got.own_cost.unwrap_or(f64::NAN), own.unwrap_or(f64::NAN), 1e-9);
        }
    }
}
