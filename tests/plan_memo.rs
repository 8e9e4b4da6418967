//! The layout search shares memory totals between the cards of one report (plan.rs `Totals`):
//! sound only while memory does not depend on the card. Each card's verdict with the shared
//! table must equal its verdict with every layout sized afresh (a key that dropped a field fails).

use gpu_planner::domain::memory::Layout;
use gpu_planner::domain::plan::{memory_for, verdict, Totals};
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
    let base = Layout { tp: 2, pp: 2, dp: 2, zero: 1, ep: 2, cp: 1, ..Layout::single() };
    let layouts = [
        base,
        Layout { tp: 4, ..base },
        Layout { pp: 4, ..base },
        Layout { dp: 4, ..base },
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
    }
    // and they all differ, so a shared slot would show
    let mut totals: Vec<f64> = layouts.iter().map(|l| memory_for(m, &s, l).total).collect();
    totals.sort_by(f64::total_cmp);
    totals.dedup();
    assert_eq!(totals.len(), layouts.len());
}
