//! The layout search shares memory totals between the cards of one report (plan.rs `Totals`):
//! sound only while memory does not depend on the card. Each card's verdict with the shared
//! table must equal its verdict with every layout sized afresh (a key that dropped a field fails).

use gpu_planner::domain::plan::{verdict, Totals};
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
