//! The layout search shares memory totals between the cards of one report (plan.rs `Totals`):
//! sound only while memory does not depend on the card. Each card's verdict with the shared
//! table must equal its verdict with every layout sized afresh (a key that dropped a field fails).

use gpu_planner::domain::memory::Layout;
use gpu_planner::domain::plan::{memory_for, min_dp, verdict, Totals};
use gpu_planner::domain::scenario::{Offload, Recompute};
use gpu_planner::domain::scenario::{Parallel, Task};
use gpu_planner::domain::{Catalog, Scenario};

#[test]
fn a_shared_memory_table_gives_every_card_the_verdict_it_gets_alone() {
    let cat = Catalog::embedded();
    let scenarios = [
        Scenario::default(),
        Scenario { task: Task::Pretrain, model: "llama-3.1-405b".into(), ..Scenario::default() },
        Scenario { task: Task::Pretrain, model: "deepseek-v3".into(), ..Scenario::default() },
        Scenario {
            task: Task::Lora,
            model: "qwen2.5-72b".into(),
            parallel: Parallel { gpus: 16, ..Parallel::default() },
            ..Scenario::default()
        },
        Scenario { task: Task::Inference, model: "qwen2.5-72b".into(), ..Scenario::default() },
    ];
    for s in &scenarios {
        let m = s.model_spec().expect("preset");
        let shared = Totals::default();
        let mut fitting = 0;
        for g in &cat.gpus {
            let a = verdict(m, s, g, cat, &shared);
            let b = verdict(m, s, g, cat, &Totals::unkept());
            assert_eq!(a, b, "{} on {}", s.model, g.id);
            fitting += usize::from(a.is_some_and(|v| v.fits));
        }
        assert!(fitting > 5, "{}: only {fitting} cards fit", s.model);
    }
}

/// Layouts that differ in one field each, asked of one table in turn, get each its own total:
/// the table's key holds every field of the layout (a dropped or shifted field makes two of
/// them share a slot).
#[test]
fn the_table_tells_apart_layouts_that_differ_in_one_field() {
    let s = Scenario { task: Task::Pretrain, model: "deepseek-v3".into(), ..Scenario::default() };
    let m = s.model_spec().expect("preset");
    // dp 4, so that ep 4 still divides it (ep 4 over dp 2 folds over tp × dp and holds the same
    // 1/4 of the experts as ep 2 split by tp 2).
    let base = Layout { tp: 2, pp: 2, dp: 4, zero: 1, ep: 2, cp: 1, ..Layout::single() };
    let layouts = [
        base,
        Layout { tp: 4, ..base },
        Layout { pp: 4, ..base },
        Layout { dp: 8, ..base },
        Layout { ep: 4, ..base },
        Layout { cp: 2, ..base },
        Layout { zero: 3, ..base },
        Layout { recompute: Recompute::Full, ..base },
        Layout { offload: Offload::Optimizer, ..base },
    ];
    let table = Totals::default();
    for _ in 0..2 {
        for l in &layouts {
            assert_eq!(table.total(m, &s, l).to_bits(), memory_for(m, &s, l).total.to_bits(), "{l:?}");
        }
        // Asked twice, each layout is kept once: the second round finds them.
        assert_eq!(table.kept(), layouts.len());
    }
    // and they all differ, so a shared slot would show
    let mut totals: Vec<f64> = layouts.iter().map(|l| memory_for(m, &s, l).total).collect();
    totals.sort_by(f64::total_cmp);
    totals.dedup();
    assert_eq!(totals.len(), layouts.len());
}

/// The least data-parallel width the search takes is the first that fits: galloping up from one
/// rank and bisecting gives, at every memory cap, what a rank-by-rank scan gives (Qwen2.5-7B and
/// Llama 3.1 70B under ZeRO-3, where memory keeps falling with dp, and under ZeRO-1; one and two
/// expert-parallel ranks of Mixtral).
#[test]
fn the_least_width_is_the_first_that_fits() {
    let gib = 1024.0_f64.powi(3);
    let cases = [
        ("qwen2.5-7b", Layout { zero: 3, ..Layout::single() }),
        ("qwen2.5-7b", Layout { zero: 1, ..Layout::single() }),
        ("llama-3.1-70b", Layout { zero: 3, tp: 2, ..Layout::single() }),
        ("mixtral-8x7b", Layout { zero: 3, ep: 2, ..Layout::single() }),
    ];
    let limit = 256;
    for (model, layout) in cases {
        let s = Scenario { task: Task::Pretrain, model: model.into(), ..Scenario::default() };
        let m = s.model_spec().expect("preset");
        let ep = layout.ep.max(1);
        let mut found = 0;
        for cap_gib in [4.0, 12.0, 16.0, 20.0, 24.0, 30.0, 40.0, 48.0, 64.0, 80.0, 141.0, 1000.0] {
            let cap = cap_gib * gib;
            let scan =
                (1..=limit / ep).map(|k| k * ep).find(|&dp| memory_for(m, &s, &Layout { dp, ..layout }).total <= cap);
            assert_eq!(
                min_dp(m, &s, layout, cap, limit, &Totals::default()),
                scan,
                "{model} {layout:?} at {cap_gib} GiB"
            );
            assert_eq!(min_dp(m, &s, layout, cap, limit, &Totals::unkept()), scan);
            found += usize::from(scan.is_some_and(|dp| dp > 2 * ep));
        }
        if layout.zero == 3 {
            assert!(found >= 2, "{model}: the caps never needed more than two ranks");
        }
    }
}

/// Once a card has a fitting layout, the search sizes another layout only up to the width at which
/// it could still match that card count (plan.rs `choose`): the default job over the catalog then
/// sizes 418 layouts (session 34) where searching every layout to its rank limit sized 1,022. The
/// bound leaves room for a growing catalog; the verdicts themselves are held to the unshared
/// table's above.
#[test]
fn the_search_sizes_only_layouts_that_can_still_win() {
    let cat = Catalog::embedded();
    let s = Scenario::default();
    let m = s.model_spec().expect("preset");
    let table = Totals::default();
    for g in &cat.gpus {
        let _ = verdict(m, &s, g, cat, &table);
    }
    assert!(table.kept() < 700, "{} layouts sized", table.kept());
}
