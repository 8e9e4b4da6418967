//! Market prices: the market choice picks the price, stale and press prices are flagged and never
//! rank a card first silently, used cards lower capital, lead time adds bridge rental.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::{assert_close, report};
use gpu_planner::domain::cost::{own_costs, DEFAULT_LEAD_WEEKS, USED_FAILURE_PER_YEAR};
use gpu_planner::domain::error::PlanError;
use gpu_planner::domain::pricing::quote;
use gpu_planner::domain::scenario::{CardFilter, PriceOverride, Task};
use gpu_planner::domain::{plan, Catalog, Scenario};

fn only(ids: &[&str]) -> Scenario {
    Scenario {
        cards: CardFilter { only: ids.iter().map(|s| (*s).to_string()).collect(), ..CardFilter::default() },
        ..Scenario::default()
    }
}

/// A800's only rental price (¥5.98, 2024-10) is cheaper than A100 80GB's current one but more than
/// 12 months old at the catalog's date: it must not rank the A800 first.
#[test]
fn a_card_whose_only_price_is_stale_ranks_after_fresh_ones() {
    let r = report(&only(&["a800-80gb-sxm4", "a100-80gb-sxm4"]));
    assert!(
        r.cards.iter().all(|c| c.fits && c.cost.is_some()),
        "{:?}",
        r.cards.iter().map(|c| (&c.gpu, c.cost)).collect::<Vec<_>>()
    );
    assert_eq!(r.cards[0].gpu, "a100-80gb-sxm4", "stale A800 price ranked first");
}

#[test]
fn the_row_of_a_stale_price_carries_its_date_source_and_flag() {
    let r = report(&only(&["a800-80gb-sxm4", "h800-sxm", "l40s"]));
    let price = |id: &str| {
        r.cards
            .iter()
            .find(|c| c.gpu == id)
            .and_then(|c| c.price.clone())
            .unwrap_or_else(|| panic!("{id} has no price"))
    };
    let a800 = price("a800-80gb-sxm4");
    assert_eq!(a800.date, "2024-10");
    assert!(a800.source.starts_with("https://"));
    assert!(a800.stale && !a800.report() && a800.flagged(), "{a800:?}");
    assert_eq!(a800.age_months, 25); // 2024-10 to the catalog's 2026-11
    let h800 = price("h800-sxm");
    assert!(h800.report() && h800.flagged(), "a press report is flagged: {h800:?}");
    let l40s = price("l40s");
    assert!(!l40s.flagged(), "{l40s:?}");
    // Flagged prices never rank first at equal fit.
    let first_flagged = r.cards.iter().position(|c| c.price.as_ref().is_some_and(|q| q.flagged()));
    assert!(first_flagged > r.cards.iter().position(|c| c.gpu == "l40s"));
}

#[test]
fn the_market_choice_changes_the_chosen_price() {
    let cost = |market: &str| {
        let mut s = only(&["l40s"]);
        s.money.rent_market = market.into();
        let c = report(&s).cards.remove(0);
        (c.rent_hourly, c.price.map(|q| (q.market, q.source, q.date)))
    };
    let any = cost("");
    let hyperscaler = cost("hyperscaler");
    let market = cost("global_marketplace");
    // L40S: $0.79 on a marketplace (2026-09), $1.861 at a hyperscaler (2025-08).
    assert_close(any.0.unwrap_or(f64::NAN), 0.79 * 7.1, 1e-9);
    assert_eq!(any, market, "the lowest known price is a marketplace's");
    assert_close(hyperscaler.0.unwrap_or(f64::NAN), 1.861 * 7.1, 1e-9);
    let (m, src, date) = hyperscaler.1.unwrap_or_default();
    assert_eq!((m.as_str(), date.as_str()), ("hyperscaler", "2025-08-12"));
    assert!(src.contains("modal.com"), "{src}");
    // A market without a record for the card leaves it unpriced; "my quotes" takes only the user's.
    assert_eq!(cost("china_cloud").0, None);
    assert_eq!(cost("my_quotes").0, None);
    let mut s = only(&["l40s"]);
    s.money.rent_market = "my_quotes".into();
    s.money.overrides.push(PriceOverride { gpu: "l40s".into(), rent_hourly: 4.2 });
    let c = report(&s).cards.remove(0);
    assert_eq!(c.rent_hourly, Some(4.2));
    assert_eq!(c.price.map(|q| q.market), Some("my_quotes".into()));
}

#[test]
fn an_unknown_market_is_refused() {
    let mut s = Scenario::default();
    s.money.rent_market = "moon".into();
    assert!(matches!(plan(&s, Catalog::embedded()), Err(PlanError::UnknownChoice { .. })));
}

/// V100 SXM2 32GB: a new listing at $1,981 (2025-08) and a used one at ¥900 (2024-07, report).
#[test]
fn used_cards_lower_capital_and_resale_and_add_a_failure_allowance() {
    let rvb = |used: bool| {
        let mut s = only(&["v100-sxm2-32gb"]);
        s.task = Task::Lora;
        s.ownership.gpu = "v100-sxm2-32gb".into();
        s.money.used = used;
        report(&s).rent_vs_buy.unwrap_or_else(|| panic!("used {used}: no rent-vs-buy"))
    };
    let (new, used) = (rvb(false), rvb(true));
    assert_close(new.own.card_price, 1_981.0 * 7.1, 1e-9);
    assert_close(used.own.card_price, 900.0, 1e-9);
    assert!(used.own.hardware < new.own.hardware);
    assert!(used.own.residual < new.own.residual, "{} vs {}", used.own.residual, new.own.residual);
    let q = used.buy_quote.unwrap_or_else(|| panic!("used quote"));
    assert!(q.report() && q.date == "2024-07-07", "{q:?}");
    // Same hardware price: used costs more a year (failures, lower resale).
    let g = Catalog::embedded().gpu("v100-sxm2-32gb").unwrap_or_else(|| panic!("v100"));
    let mut s = Scenario::default();
    let a = own_costs(&s, g, 8, 10_000.0);
    s.money.used = true;
    let b = own_costs(&s, g, 8, 10_000.0);
    assert_close(b.hardware, a.hardware, 1e-12);
    assert!(b.annual_fixed > a.annual_fixed + 8.0 * 10_000.0 * USED_FAILURE_PER_YEAR * 0.99);
}

#[test]
fn lead_time_adds_bridge_rental_and_a_near_deadline_says_rent_first() {
    let rvb = |weeks: Option<f64>, deadline: Option<f64>| {
        let mut s = only(&["a100-80gb-sxm4"]);
        s.ownership.gpu = "a100-80gb-sxm4".into();
        s.ownership.lead_weeks = weeks;
        s.ownership.cards = 8;
        s.ownership.utilisation = 0.9;
        s.search.deadline_days = deadline;
        report(&s).rent_vs_buy.unwrap_or_else(|| panic!("no rent-vs-buy"))
    };
    let (now, later) = (rvb(Some(0.0), None), rvb(Some(12.0), None));
    assert_eq!(now.bridge, Some(0.0));
    let hourly = later.rent.hourly.unwrap_or(f64::NAN);
    let busy = 12.0 * 168.0 * later.utilisation;
    assert_close(
        later.bridge.unwrap_or(f64::NAN),
        hourly * f64::from(later.own.cards) * busy + later.rent.storage_month * 12.0 * 168.0 / 730.0,
        1e-9,
    );
    // Owning pays the bridge rental before delivery, so it breaks even later by the lead time.
    let at = |r: &gpu_planner::domain::cost::RentVsBuy, m: f64| {
        r.cumulative.iter().find(|p| (p.month - m).abs() < 1e-9).map_or(f64::NAN, |p| p.own)
    };
    assert!(at(&later, 2.0) > at(&now, 2.0));
    let (b0, b1) = (now.breakeven_month.unwrap_or(f64::NAN), later.breakeven_month.unwrap_or(f64::NAN));
    assert!((b1 - b0 - 12.0 * 168.0 / 730.0).abs() <= 0.5, "{b0} → {b1}");
    assert!(!later.rent_first);
    assert!(rvb(Some(12.0), Some(30.0)).rent_first, "a 30-day deadline falls before 12 weeks");
    assert!(!rvb(Some(2.0), Some(30.0)).rent_first);
    // Without the user's figure: the catalog's observation for H100 SXM, else the default.
    let mut s = only(&["h100-sxm"]);
    s.ownership.gpu = "h100-sxm".into();
    s.ownership.card_price = Some(200_000.0);
    let h100 = report(&s).rent_vs_buy.unwrap_or_else(|| panic!("h100"));
    assert_eq!(h100.lead_date, "2026-05-18");
    assert!(h100.lead_source.contains("cliffcenter.com"), "{}", h100.lead_source);
    assert_close(h100.lead_weeks, 44.0, 1e-12);
    assert_close(rvb(None, None).lead_weeks, DEFAULT_LEAD_WEEKS, 1e-12);
}

/// RTX 4090: every purchase record is stale or a report; the newest one is used, not the
/// 2022 launch price.
#[test]
fn when_every_price_is_flagged_the_newest_is_used() {
    let q = quote(&Scenario::default(), Catalog::embedded(), "rtx-4090", "purchase")
        .unwrap_or_else(|| panic!("rtx-4090 has purchase prices"));
    assert_eq!(q.date, "2025-08-21");
    assert_close(q.amount, 3_129.99 * 7.1, 1e-9);
    assert!(q.stale && q.flagged(), "{q:?}");
}
