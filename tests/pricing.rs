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

/// The embedded catalog with these cards' rental records cut to the ones named by source host:
/// the checks below keep their meaning when newer prices are added to catalog.json.
fn with_rentals(keep: &[(&str, &str)]) -> Catalog {
    let mut c = Catalog::embedded().clone();
    c.prices.retain(|p| {
        let rental = p.kind.starts_with("rent");
        let listed = keep.iter().filter(|(g, _)| *g == p.gpu).collect::<Vec<_>>();
        !rental || listed.is_empty() || listed.iter().any(|(_, host)| p.source.contains(host))
    });
    c
}

fn report_in(s: &Scenario, c: &Catalog) -> gpu_planner::domain::Report {
    gpu_planner::domain::report::report(s, c).unwrap_or_else(|e| panic!("{e}"))
}

/// A800's ¥5.98 an hour (2024-10, AITNT) is cheaper than A100 80GB's current price but more than
/// 12 months old at the catalog's date: it must not rank the A800 first.
#[test]
fn a_card_whose_only_price_is_stale_ranks_after_fresh_ones() {
    let c = with_rentals(&[("a800-80gb-sxm4", "aitntnews.com")]);
    let r = report_in(&only(&["a800-80gb-sxm4", "a100-80gb-sxm4"]), &c);
    assert!(
        r.cards.iter().all(|c| c.fits && c.cost.is_some()),
        "{:?}",
        r.cards.iter().map(|c| (&c.gpu, c.cost)).collect::<Vec<_>>()
    );
    let a800 = r.cards.iter().find(|c| c.gpu == "a800-80gb-sxm4").and_then(|c| c.rent_hourly);
    assert!(a800 < r.cards.iter().find(|c| c.gpu == "a100-80gb-sxm4").and_then(|c| c.rent_hourly));
    assert_eq!(r.cards[0].gpu, "a100-80gb-sxm4", "stale A800 price ranked first");
}

#[test]
fn the_row_of_a_stale_price_carries_its_date_source_and_flag() {
    let c = with_rentals(&[("a800-80gb-sxm4", "aitntnews.com"), ("h800-sxm", "hzurl.com"), ("l40s", "silybench-data")]);
    let r = report_in(&only(&["a800-80gb-sxm4", "h800-sxm", "l40s"]), &c);
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
    assert_eq!(a800.age_months, 26); // 2024-10 to the catalog's 2026-12
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
        (c.rent_hourly, c.plan.price.map(|q| (q.market, q.source, q.date)))
    };
    let any = cost("");
    let hyperscaler = cost("hyperscaler");
    let market = cost("global_marketplace");
    let china = cost("china_cloud");
    // L40S: $0.79 on a marketplace (2026-09), $1.861 at a hyperscaler (2025-08), ¥2.99 at a
    // Chinese cloud (CFGPU, 2026-07): any market takes the lowest current one.
    assert_close(market.0.unwrap_or(f64::NAN), 0.79 * 7.1, 1e-9);
    assert_close(china.0.unwrap_or(f64::NAN), 2.99, 1e-9);
    assert_eq!(any, china, "the lowest known price is a Chinese cloud's");
    assert_close(hyperscaler.0.unwrap_or(f64::NAN), 1.861 * 7.1, 1e-9);
    let (m, src, date) = hyperscaler.1.unwrap_or_default();
    assert_eq!((m.as_str(), date.as_str()), ("hyperscaler", "2025-08-12"));
    assert!(src.contains("modal.com"), "{src}");
    // A market without a record for the card leaves it unpriced; "my quotes" takes only the user's.
    let mut s = only(&["a30"]);
    s.money.rent_market = "china_cloud".into();
    assert_eq!(report(&s).cards.remove(0).rent_hourly, None);
    assert_eq!(cost("my_quotes").0, None);
    let mut s = only(&["l40s"]);
    s.money.rent_market = "my_quotes".into();
    s.money.overrides.push(PriceOverride { gpu: "l40s".into(), rent_hourly: 4.2 });
    let c = report(&s).cards.remove(0);
    assert_eq!(c.rent_hourly, Some(4.2));
    assert_eq!(c.plan.price.map(|q| q.market), Some("my_quotes".into()));
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
    // By hand, with the stated used-card assumptions (5% of the cards' price a year for failures,
    // half the usual resale share on the cards) and the defaults (20% resale, 3 years, straight
    // line): ¥80,000 of cards add 80,000 × 0.05 = ¥4,000 a year of failures, and their resale
    // falls by 80,000 × 0.2 × 0.5 = ¥8,000, i.e. ¥2,666.67 a year more depreciation: ¥6,666.67.
    assert_close(b.annual_fixed - a.annual_fixed, 6_666.666_667, 1e-9);
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

/// A hand-made catalog dated 2026-06-15, one card "x", worked by hand:
/// - rentals: $2.00 (2026-01, global marketplace), ¥12.00 (2025-06, china cloud: 12 months old,
///   not stale), ¥9.00 (2025-05, china cloud: 13 months, stale), ¥8.00 (2026-05, a press report);
/// - purchases: $10,000 new (2026-03), ¥50,000 used (2026-02).
///
/// At ¥7.1 per $: any market → the $2.00 record as ¥14.20 loses to ¥12.00 (current, cheaper);
/// the global market → ¥14.20, 5 months old; in USD the ¥12.00 is $1.690…; the stale and press
/// records are never chosen while a current one exists, and alone the newest flagged one is.
/// Purchase new → ¥71,000; used → ¥50,000. Your own hourly quote wins, in any market; the
/// `my_quotes` market without one has no rental price.
fn hand_catalog() -> Catalog {
    use gpu_planner::domain::catalog::Price;
    let p = |kind: &str, amount: f64, currency: &str, date: &str, market: &str, condition: &str| Price {
        gpu: "x".into(),
        kind: kind.into(),
        amount,
        currency: currency.into(),
        date: date.into(),
        market: market.into(),
        condition: condition.into(),
        source: format!("https://example.org/{date}"),
        ..Price::default()
    };
    let mut c = Catalog::embedded().clone();
    c.updated = "2026-06-15".into();
    c.prices = vec![
        p("rent_hourly", 2.0, "USD", "2026-01", "global_marketplace", ""),
        p("rent_hourly", 12.0, "CNY", "2025-06", "china_cloud", ""),
        p("rent_hourly", 9.0, "CNY", "2025-05-20", "china_cloud", ""),
        p("rent_hourly", 8.0, "CNY", "2026-05", "press", ""),
        p("purchase", 10_000.0, "USD", "2026-03", "retail", ""),
        p("purchase", 50_000.0, "CNY", "2026-02", "retail", "used"),
    ];
    c
}

#[test]
fn prices_are_chosen_converted_and_aged_as_worked_by_hand() {
    let c = hand_catalog();
    let mut s = Scenario::default();
    s.money.cny_per_usd = 7.1;
    let q = quote(&s, &c, "x", "rent_hourly").unwrap_or_else(|| panic!("a price"));
    assert_close(q.amount, 12.0, 1e-12);
    assert_eq!((q.age_months, q.stale, q.market.as_str(), q.date.as_str()), (12, false, "china_cloud", "2025-06"));
    s.money.rent_market = "global_marketplace".into();
    let q = quote(&s, &c, "x", "rent_hourly").unwrap_or_else(|| panic!("a price"));
    assert_close(q.amount, 14.2, 1e-12);
    assert_eq!((q.age_months, q.source.as_str()), (5, "https://example.org/2026-01"));
    s.money.rent_market = String::new();
    s.money.currency = gpu_planner::domain::scenario::Currency::USD;
    assert_close(quote(&s, &c, "x", "rent_hourly").map_or(0.0, |q| q.amount), 12.0 / 7.1, 1e-12);
    assert_close(quote(&s, &c, "x", "purchase").map_or(0.0, |q| q.amount), 10_000.0, 1e-12);
    s.money.currency = gpu_planner::domain::scenario::Currency::CNY;
    assert_close(quote(&s, &c, "x", "purchase").map_or(0.0, |q| q.amount), 71_000.0, 1e-9);
    s.money.used = true;
    assert_close(quote(&s, &c, "x", "purchase").map_or(0.0, |q| q.amount), 50_000.0, 1e-12);

    // Only flagged records left: the newest (the press report), flagged as one; a stale record is
    // flagged by its age.
    let mut flagged = c.clone();
    flagged.prices.retain(|p| p.kind == "rent_hourly" && (p.market == "press" || p.date.starts_with("2025-05")));
    let q = quote(&s, &flagged, "x", "rent_hourly").unwrap_or_else(|| panic!("a price"));
    assert!(q.report() && q.flagged() && !q.stale, "{q:?}");
    assert_close(q.amount, 8.0, 1e-12);
    flagged.prices.retain(|p| p.market != "press");
    let q = quote(&s, &flagged, "x", "rent_hourly").unwrap_or_else(|| panic!("a price"));
    assert!(q.stale && q.flagged() && !q.report() && q.age_months == 13, "{q:?}");

    // Of two equal current prices the newer observation is cited, whichever is listed first.
    let mut equal = c.clone();
    equal.prices.retain(|p| p.kind == "rent_hourly" && p.market == "china_cloud" && p.date == "2025-06");
    let mut newer = equal.prices[0].clone();
    newer.date = "2026-04".into();
    equal.prices.push(newer);
    let q = quote(&s, &equal, "x", "rent_hourly").unwrap_or_else(|| panic!("a price"));
    assert_eq!((q.date.as_str(), q.age_months), ("2026-04", 2));
    equal.prices.reverse();
    assert_eq!(quote(&s, &equal, "x", "rent_hourly").map(|q| q.date), Some("2026-04".to_string()));

    // Your quote first, in any market; my_quotes alone has none without one.
    s.money.rent_market = "my_quotes".into();
    assert!(quote(&s, &c, "x", "rent_hourly").is_none());
    s.money.overrides = vec![PriceOverride { gpu: "x".into(), rent_hourly: 3.5 }];
    let q = quote(&s, &c, "x", "rent_hourly").unwrap_or_else(|| panic!("your quote"));
    assert_eq!((q.amount, q.market.as_str(), q.source.as_str()), (3.5, "my_quotes", ""));
    // A quote of 0 is no quote.
    s.money.overrides[0].rent_hourly = 0.0;
    s.money.rent_market = String::new();
    assert_close(quote(&s, &c, "x", "rent_hourly").map_or(0.0, |q| q.amount), 12.0, 1e-12);
}

/// Lead times: the newest observation in the scenario currency's market (CNY → china), else the
/// newest of any market.
#[test]
fn the_lead_time_is_the_newest_in_the_currencys_market() {
    use gpu_planner::domain::catalog::Price;
    use gpu_planner::domain::pricing::lead_time;
    let l = |market: &str, date: &str, weeks: f64| Price {
        gpu: "x".into(),
        market: market.into(),
        date: date.into(),
        weeks_min: Some(weeks),
        weeks_max: Some(weeks),
        ..Price::default()
    };
    let mut c = hand_catalog();
    c.lead_times = vec![l("china", "2025-01", 20.0), l("china", "2025-09", 12.0), l("global", "2026-03", 4.0)];
    let mut s = Scenario::default();
    assert_eq!(lead_time(&s, &c, "x").and_then(|t| t.weeks_min), Some(12.0));
    s.money.currency = gpu_planner::domain::scenario::Currency::USD;
    assert_eq!(lead_time(&s, &c, "x").and_then(|t| t.weeks_min), Some(4.0));
    c.lead_times.retain(|t| t.market == "china");
    assert_eq!(lead_time(&s, &c, "x").and_then(|t| t.weeks_min), Some(12.0));
    assert!(lead_time(&s, &c, "y").is_none());
}
