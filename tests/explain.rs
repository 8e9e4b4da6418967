//! "How this was computed" shows the same figures as the report, with the inputs in the formula.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::report;
use gpu_planner::domain::explain::{explain, rent_vs_buy_formulas};
use gpu_planner::domain::format::{self, Lang};
use gpu_planner::domain::scenario::{Ownership, Task};
use gpu_planner::domain::{Catalog, Scenario};

#[test]
fn card_explanations_match_the_report_figures() {
    for task in [Task::FullFinetune, Task::Lora, Task::Inference] {
        let s = Scenario { task, ..Scenario::default() };
        let r = report(&s);
        let v = &r.cards[0];
        let lines = explain(&s, Catalog::embedded(), v, Lang::En);
        let find = |id: &str| lines.iter().find(|e| e.id == id).map(|e| e.result.clone());
        assert_eq!(find("weights"), Some(format::gib(v.memory.weights)), "{task:?}");
        assert_eq!(find("overhead"), Some(format::gib(v.memory.overhead)), "{task:?}");
        if task.is_training() {
            assert_eq!(find("activations"), Some(format::gib(v.memory.activations)));
            assert!(lines.iter().any(|e| e.id == "activations" && e.formula.contains("s=4096")));
        } else {
            assert_eq!(find("kv_cache"), Some(format::gib(v.memory.kv_cache)));
        }
        assert!(lines.iter().all(|e| !e.source.is_empty() && !e.label(Lang::Zh).is_empty()));
    }
}

#[test]
fn rent_vs_buy_formulas_carry_the_inputs() {
    let s = Scenario {
        ownership: Ownership { rent_hourly: Some(12.0), ..Ownership::seed_a100_server() },
        ..Scenario::default()
    };
    let rvb = report(&s).rent_vs_buy.unwrap_or_else(|| panic!("rvb"));
    let f = rent_vs_buy_formulas(&s, &rvb);
    assert!(f[1].contains("¥68,750"), "{}", f[1]);
    assert!(f[3].contains(&format!("PUE {}", s.ownership.pue)), "{}", f[3]);
}
