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
    let f = rent_vs_buy_formulas(&s, &rvb, Lang::En);
    assert!(f[1].contains("¥68,750"), "{}", f[1]);
    assert!(f[3].contains(&format!("PUE {}", s.ownership.pue)), "{}", f[3]);
}

/// The bytes per parameter a training line prints, times this GPU's Ψ/(tp·pp), give back the
/// figure beside it (the QLoRA line once said "2 B × Ψ" beside 18.8 GiB). Checked for every
/// framework and training task.
#[test]
fn printed_bytes_per_parameter_reproduce_the_figures() {
    use gpu_planner::domain::framework::Framework;
    for framework in Framework::ALL {
        for task in [Task::Pretrain, Task::FullFinetune, Task::Lora, Task::Qlora] {
            let mut s = Scenario { task, ..Scenario::default() };
            s.training.set_framework(framework);
            let r = report(&s);
            let v = &r.cards[0];
            let psi_gpu = r.params / f64::from(v.layout.tp * v.layout.pp);
            let lines = explain(&s, Catalog::embedded(), v, Lang::En);
            let leading = |id: &str| -> f64 {
                let e = lines.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id} line"));
                e.formula.split(" B").next().and_then(|x| x.parse().ok()).unwrap_or_else(|| panic!("{}", e.formula))
            };
            let close = |printed: f64, bytes: f64| (printed * psi_gpu - bytes).abs() <= 0.0005 * psi_gpu + 1e-9 * bytes;
            assert!(close(leading("weights"), v.memory.weights), "{framework:?} {task:?} weights");
            if matches!(task, Task::Pretrain | Task::FullFinetune) {
                assert!(close(leading("gradients"), v.memory.gradients), "{framework:?} {task:?} gradients");
                assert!(close(leading("optimizer"), v.memory.optimizer), "{framework:?} {task:?} optimizer");
                assert!(close(leading("master"), v.memory.master_weights), "{framework:?} {task:?} master");
            }
            let fw = lines.iter().find(|e| e.id == "framework").unwrap_or_else(|| panic!("framework line"));
            let states = v.memory.weights + v.memory.gradients + v.memory.optimizer + v.memory.master_weights;
            assert_eq!(fw.result, format::gib(states + v.memory.buffers));
        }
    }
}

/// The predicted MFU is shown with its factors, and their product is the MFU the time uses.
#[test]
fn mfu_line_shows_factors_whose_product_is_the_mfu() {
    let r = report(&Scenario::default());
    let v = &r.cards[0];
    let u = v.utilisation.as_ref().unwrap_or_else(|| panic!("training has an MFU"));
    let product = u.kernel * u.pipeline * u.recompute * u.communication * u.offload;
    assert!((product - v.mfu).abs() < 1e-12, "{product} vs {}", v.mfu);
    let lines = explain(&Scenario::default(), Catalog::embedded(), v, Lang::En);
    let e = lines.iter().find(|e| e.id == "mfu").unwrap_or_else(|| panic!("mfu line"));
    assert!(
        e.formula.contains(&format!("kernel {:.2}", u.kernel)) && e.formula.contains("communication"),
        "{}",
        e.formula
    );
    assert_eq!(e.result, format!("{:.1}%", v.mfu * 100.0));
}
