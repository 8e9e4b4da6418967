//! The machine a purchase is priced in: a workstation for one to four PCIe cards, a PCIe server
//! for more, the card's own board server for SXM/OAM/module cards; and the ≤ ¥50k question a
//! team asks ("预算只有5万内，但想跑7B模型微调"), which a ¥150k server per purchase made
//! unanswerable.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::{assert_close, report};
use gpu_planner::domain::cost::own_costs;
use gpu_planner::domain::host::{auto_class, host, HostClass};
use gpu_planner::domain::infra::{power, storage_costs};
use gpu_planner::domain::scenario::Task;
use gpu_planner::domain::{Catalog, Scenario};

fn card(id: &str) -> &'static gpu_planner::domain::catalog::Gpu {
    Catalog::embedded().gpu(id).unwrap_or_else(|| panic!("{id}"))
}

#[test]
fn the_class_follows_the_form_factor_and_the_count() {
    assert_eq!(auto_class(card("rtx-4090"), 1), HostClass::Workstation);
    assert_eq!(auto_class(card("l40s"), 4), HostClass::Workstation);
    assert_eq!(auto_class(card("rtx-4090"), 5), HostClass::PcieServer);
    assert_eq!(auto_class(card("a100-80gb-pcie"), 8), HostClass::PcieServer);
    // SXM, OAM and modules need their board, even one card of them.
    for id in ["h100-sxm", "a800-80gb-sxm4", "mi300x", "huawei-ascend-910b3", "kunlunxin-p800"] {
        assert_eq!(auto_class(card(id), 1), HostClass::BoardServer, "{id}");
    }
}

/// One RTX 4090 at ¥15,000 in a workstation: hardware = ¥15,000 + the ¥18,000 host (+ storage);
/// per year: capital (33,000 × 0.8 / 3 = ¥8,800 plus storage's share) + 3% maintenance, no rack and
/// no engineer share; power (450 W + 350 W) × PUE × price. The old server-for-everything costs
/// were ¥150,000 + ¥30,000, ¥72,000 a year of rack and 10% of a ¥400,000 engineer.
#[test]
fn one_geforce_card_is_priced_as_a_workstation() {
    let s = Scenario { task: Task::Lora, ..Scenario::default() };
    let g = card("rtx-4090");
    let h = host(&s, g, 1);
    assert_eq!((h.class, h.cards_per_host), (HostClass::Workstation, 4));
    let c = own_costs(&s, g, 1, 15_000.0);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    let storage = storage_costs(m, &s).0;
    assert_close(c.hardware - storage, 33_000.0, 1e-12);
    let o = &s.ownership;
    let capital = c.hardware * (1.0 - o.residual) / o.depreciation_years;
    assert_close(c.annual_fixed, capital + c.hardware * o.maintenance_per_year, 1e-12);
    assert_close(c.power_per_hour, (450.0 + 350.0) / 1000.0 * o.pue * o.electricity_per_kwh, 1e-12);
    assert_eq!(power(&s, g, 1).servers, 1);
    // Nine cards: two 8-slot PCIe servers, each ¥80,000 + ¥10,000 network.
    let nine = own_costs(&s, g, 9, 15_000.0);
    assert_eq!(nine.servers, 2);
    assert_close(nine.hardware - storage, 9.0 * 15_000.0 + 2.0 * 90_000.0, 1e-12);
}

/// A chosen profile or "my figures" wins over the automatic class.
#[test]
fn a_chosen_profile_overrides_the_automatic_class() {
    let mut s = Scenario::default();
    let g = card("rtx-4090");
    s.ownership.profile = "board_server".into();
    assert_close(host(&s, g, 1).price, 150_000.0, 1e-12);
    s.ownership.profile = "custom".into();
    s.ownership.server_price = 25_000.0;
    s.ownership.cards_per_host = 2;
    let h = host(&s, g, 3);
    assert_eq!((h.class, h.cards_per_host), (HostClass::Custom, 2));
    assert_close(h.price, 25_000.0, 1e-12);
    assert_eq!(own_costs(&s, g, 3, 1.0).servers, 2);
    // Custom figures without a count per host take the plan's cards per server.
    s.ownership.cards_per_host = 0;
    s.parallel.gpus_per_server = 8;
    assert_eq!(host(&s, g, 3).cards_per_host, 8);
    // In dollars the preset's yuan are converted at the scenario's rate.
    let mut usd = Scenario::default();
    usd.money.currency = gpu_planner::domain::scenario::Currency::USD;
    assert_close(host(&usd, g, 1).price, 18_000.0 / usd.money.cny_per_usd, 1e-12);
}

/// "预算只有5万内，但想跑7B模型微调": a 7B LoRA with ¥50,000. A one-card workstation with a new RTX
/// 4090 (the catalog's CNY retail prices: ¥12,999–26,000) is within it; the budget also rents
/// cards for the run.
#[test]
fn fifty_thousand_yuan_buys_a_workstation_for_a_7b_lora() {
    let mut s = Scenario { model: "qwen2.5-7b".into(), task: Task::Lora, ..Scenario::default() };
    s.ownership.budget = Some(50_000.0);
    let r = report(&s);
    let bought: Vec<_> = r.budget.iter().filter(|b| b.buy_ok).collect();
    assert!(bought.iter().any(|b| b.gpu.starts_with("rtx-4090") && b.cards == 1), "{:?}", r.budget);
    for b in &bought {
        assert!(b.buy_cost.is_some_and(|c| c <= 50_000.0));
    }
    assert!(r.budget.iter().any(|b| b.rent_ok), "and renting for the run");
}

/// The budget list uses the price typed for the card to buy (an L40S at ¥30,000 was once listed
/// only as rentable), and a training run of unknown length is never "rented" within a budget.
#[test]
fn the_budget_uses_the_typed_price_and_never_rents_an_unknown_run() {
    let mut s = Scenario { model: "qwen2.5-7b".into(), task: Task::Lora, ..Scenario::default() };
    s.ownership.budget = Some(50_000.0);
    s.ownership.gpu = "l40s".into();
    s.ownership.card_price = Some(30_000.0);
    let r = report(&s);
    let l40s = r.budget.iter().find(|b| b.gpu == "l40s").unwrap_or_else(|| panic!("{:?}", r.budget));
    assert!(l40s.buy_ok, "¥30,000 + the ¥18,000 workstation is within ¥50,000: {l40s:?}");
    for b in &r.budget {
        if b.rent_ok {
            assert!(b.run_hours.is_some(), "{b:?}");
        }
    }
}
