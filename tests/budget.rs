//! The direct budget answer (domain/budget.rs): "预算只有5万内，但想跑7B模型微调，哪种方案最务实？"
//! — the fastest purchase within the budget, the rental with the most runs, and a mix of the
//! cheapest purchase for debugging with rented runs — worked by hand on three made-up cards,
//! then on the seed's own question.
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::budget::{answer, lines, of};
use gpu_planner::domain::cost::BudgetOption;
use gpu_planner::domain::format::Lang;
use gpu_planner::domain::scenario::{Currency, Task};
use gpu_planner::domain::verdict::CardPlan;
use gpu_planner::domain::{plan, CardVerdict, Catalog, Scenario};

/// Three cards from a real report, renamed and re-priced: A buys for ¥30,000 and runs in 100 h
/// (¥500 a rented run), B buys for ¥45,000 and runs in 50 h (¥200 a run), C is rented only
/// (¥150 a run).
fn three_cards() -> (Vec<BudgetOption>, Vec<CardVerdict>) {
    let s = Scenario { model: "qwen2.5-7b".into(), task: Task::Lora, ..Scenario::default() };
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let base = r.cards[0].clone();
    let card = |id: &str, cost: f64| CardVerdict {
        plan: CardPlan {
            gpu: id.into(),
            name: format!("Card {id}"),
            cost: Some(cost),
            rent_hourly: Some(1.0),
            ..base.plan.clone()
        },
        ..base.clone()
    };
    let opt = |id: &str, buy: Option<f64>, run_hours: f64| BudgetOption {
        gpu: id.into(),
        cards: 1,
        buy_cost: buy,
        buy_ok: buy.is_some(),
        rent_hours: Some(50_000.0),
        run_hours: Some(run_hours),
        rent_ok: true,
    };
    (
        vec![opt("a", Some(30_000.0), 100.0), opt("b", Some(45_000.0), 50.0), opt("c", None, 80.0)],
        vec![card("a", 500.0), card("b", 200.0), card("c", 150.0)],
    )
}

#[test]
fn the_answer_is_the_fastest_purchase_the_most_runs_and_a_mix() {
    let (options, cards) = three_cards();
    let a = answer(50_000.0, &options, &cards, true);
    let buy = a.buy.unwrap_or_else(|| panic!("no purchase"));
    assert_eq!((buy.gpu.as_str(), buy.cost, buy.hours), ("b", 45_000.0, Some(50.0)), "the fastest within the budget");
    let rent = a.rent.unwrap_or_else(|| panic!("no rental"));
    // ¥50,000 / ¥150 = 333.3: 333 whole runs on C.
    assert_eq!((rent.gpu.as_str(), rent.runs, rent.cost_per_run), ("c", Some(333), Some(150.0)));
    let (p, r) = a.mix.unwrap_or_else(|| panic!("no mix"));
    // The cheapest purchase (A, ¥30,000) leaves ¥20,000: 133 runs of C at ¥150.
    assert_eq!((p.gpu.as_str(), r.gpu.as_str(), r.runs), ("a", "c", Some(133)));
    assert!(p.cost + f64::from(r.runs.unwrap_or(0)) * r.cost_per_run.unwrap_or(0.0) <= 50_000.0);
    // Too little left for one run: no mix; too little for anything: a plain "nothing".
    assert!(answer(30_100.0, &options, &cards, true).mix.is_none());
    let none = answer(100.0, &options, &cards, true);
    assert!(none.buy.is_none() && none.rent.is_none() && none.mix.is_none());
    let said = lines(&none, Currency::CNY, Lang::En).join("\n");
    assert!(said.contains("¥100") && said.contains("no card"), "{said}");
}

#[test]
fn the_answer_is_worded_with_its_figures_in_both_languages() {
    let (options, cards) = three_cards();
    let a = answer(50_000.0, &options, &cards, true);
    let en = lines(&a, Currency::CNY, Lang::En);
    assert_eq!(en.len(), 3, "{en:?}");
    assert!(en[0].starts_with("Buy: Card b × 1 for ¥45,000"), "{}", en[0]);
    assert!(en[1].contains("¥150 a run: 333 runs for ¥50,000"), "{}", en[1]);
    assert!(en[2].contains("133 runs") && en[2].contains("remaining ¥20,000"), "{}", en[2]);
    let zh = lines(&a, Currency::CNY, Lang::Zh);
    assert!(zh[0].starts_with("买：Card b × 1，¥45,000"), "{}", zh[0]);
    assert!(zh[1].contains("可跑 333 次") && zh[2].contains("余下 ¥20,000") && zh[2].contains("133 次"), "{zh:?}");
}

/// The seed's question on the catalog: a 7B LoRA with ¥50,000 has a purchase (a one-card
/// workstation), a rental and a mix, each within the budget, in the CLI's words too.
#[test]
fn fifty_thousand_yuan_for_a_7b_lora_is_answered_three_ways() {
    let mut s = Scenario { model: "qwen2.5-7b".into(), task: Task::Lora, ..Scenario::default() };
    s.ownership.budget = Some(50_000.0);
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let a = of(&s, &r).unwrap_or_else(|| panic!("no answer"));
    let buy = a.buy.as_ref().unwrap_or_else(|| panic!("no purchase"));
    assert!(buy.cards == 1 && buy.cost <= 50_000.0, "{buy:?}");
    // The fastest of the purchases the per-card list allows.
    let fastest = r.budget.iter().filter(|b| b.buy_ok).filter_map(|b| b.run_hours).fold(f64::MAX, f64::min);
    assert_eq!(buy.hours, Some(fastest));
    let rent = a.rent.as_ref().unwrap_or_else(|| panic!("no rental"));
    assert!(
        rent.runs.is_some_and(|n| n >= 1)
            && rent.cost_per_run.is_some_and(|c| c * f64::from(rent.runs.unwrap_or(0)) <= 50_000.0)
    );
    let (p, m) = a.mix.as_ref().unwrap_or_else(|| panic!("no mix"));
    assert!(p.cost + m.cost_per_run.unwrap_or(f64::MAX) * f64::from(m.runs.unwrap_or(0)) <= 50_000.0);
    assert!(s.ownership.budget.is_some() && of(&Scenario::default(), &r).is_none(), "no budget, no answer");
}

/// Serving has no runs: the rental is the most hours of service for the money (¥50,000 at
/// ¥1 a card-hour: 50,000 h on one card, 25,000 h on two), and there is no mix.
#[test]
fn serving_rents_hours_of_service_and_mixes_nothing() {
    let (mut options, cards) = three_cards();
    options[2].cards = 2;
    let a = answer(50_000.0, &options, &cards, false);
    let rent = a.rent.clone().unwrap_or_else(|| panic!("no rental"));
    assert_eq!((rent.runs, rent.cost_per_run), (None, None));
    assert_eq!(rent.hours, Some(50_000.0));
    assert_ne!(rent.gpu, "c", "two cards give half the hours");
    assert!(a.mix.is_none());
    let en = lines(&a, Currency::CNY, Lang::En);
    assert!(en[1].contains("of service for ¥50,000"), "{en:?}");
}

/// Edge cases a price list can hold: a run priced at ¥0 or a card rented at ¥0 an hour is no
/// rental (not "infinitely many runs"), and the mix never rents the card it bought — when the
/// cheapest purchase is also the cheapest rental, the mix rents the next one.
#[test]
fn free_prices_rent_nothing_and_the_mix_rents_another_card() {
    let (options, mut cards) = three_cards();
    cards[2].cost = Some(0.0); // C's run free
    let a = answer(50_000.0, &options, &cards, true);
    assert_eq!(a.rent.as_ref().map(|r| r.gpu.as_str()), Some("b"), "{:?}", a.rent);
    let mut serving = cards.clone();
    for c in &mut serving {
        c.rent_hourly = Some(0.0);
    }
    assert!(answer(50_000.0, &options, &serving, false).rent.is_none());
    // A, the cheapest to buy, now also the cheapest to rent: the mix rents C.
    let (options, mut cards) = three_cards();
    cards[0].cost = Some(100.0);
    let (p, r) = answer(50_000.0, &options, &cards, true).mix.unwrap_or_else(|| panic!("no mix"));
    assert_eq!((p.gpu.as_str(), r.gpu.as_str(), r.runs), ("a", "c", Some(133)));
    // A card with no rental price is never rented, whatever its row's cost says.
    let (mut options, cards) = three_cards();
    options[2].rent_hours = None;
    let a = answer(50_000.0, &options, &cards, true);
    assert_eq!(a.rent.as_ref().map(|r| r.gpu.as_str()), Some("b"), "{:?}", a.rent);
}

/// In China's market the same question says which purchase a team there cannot buy new: the
/// answer's card carries its catalog status (an RTX 5090 is grey market there since 2025-01,
/// an RTX 4090 not sold new since 2023-11-17), and the line says so in both languages; outside
/// that market no line does.
#[test]
fn in_china_a_purchase_says_when_it_is_grey_market_or_used_only() {
    use gpu_planner::domain::budget::lines;
    use gpu_planner::domain::format::Lang;
    let mut s = Scenario { model: "qwen2.5-7b".into(), task: Task::Lora, ..Scenario::china_default() };
    s.ownership.budget = Some(50_000.0);
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let a = of(&s, &r).unwrap_or_else(|| panic!("no answer"));
    let bought = [a.buy.clone(), a.mix.clone().map(|(p, _)| p)];
    let mut noted = 0;
    for p in bought.iter().flatten() {
        let status = Catalog::embedded().china(&p.gpu).map(|c| c.kind.clone()).filter(|k| k != "sold");
        assert_eq!(p.supply, status, "{}", p.gpu);
        noted += usize::from(status.is_some());
    }
    assert!(noted > 0, "the test needs a purchase not sold new in China: {bought:?}");
    let (en, zh) = (lines(&a, s.money.currency, Lang::En).join("\n"), lines(&a, s.money.currency, Lang::Zh).join("\n"));
    assert!(en.contains("mainland China") && (zh.contains("水货") || zh.contains("已不售新卡")), "{en}\n{zh}");
    s.money.rent_market = String::new();
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let a = of(&s, &r).unwrap_or_else(|| panic!("no answer"));
    assert!(!lines(&a, s.money.currency, Lang::En).join("\n").contains("mainland China"));
}

/// The budget's answer names a Chinese card as the Chinese page does (华为昇腾 910B3) in every
/// line, buy, rent and mix, and by its catalog name in English.
#[test]
fn the_budget_lines_name_chinese_cards_in_chinese_on_the_chinese_page() {
    use gpu_planner::domain::budget::{lines, BudgetAnswer, Purchase, Rental};
    use gpu_planner::domain::format::Lang;
    use gpu_planner::domain::scenario::Currency;
    let id = "huawei-ascend-910b3";
    let english = Catalog::embedded().gpu(id).map(|g| g.name.clone()).unwrap_or_default();
    let p = Purchase { gpu: id.into(), name: english.clone(), cards: 1, cost: 90_000.0, hours: None, supply: None };
    let r = Rental {
        gpu: id.into(),
        name: english.clone(),
        cards: 4,
        cost_per_run: Some(900.0),
        runs: Some(10),
        hours: None,
    };
    let a = BudgetAnswer { budget: 100_000.0, buy: Some(p.clone()), rent: Some(r.clone()), mix: Some((p, r)) };
    let zh = lines(&a, Currency::CNY, Lang::Zh);
    assert_eq!(zh.len(), 3, "{zh:?}");
    for line in &zh {
        assert!(line.contains("华为昇腾 910B3") && !line.contains("Huawei"), "{line}");
    }
    assert!(lines(&a, Currency::CNY, Lang::En).iter().all(|line| line.contains(&english)));
}
