//! Reference prices: the user's own quote first, else the lowest dated catalog price of the
//! chosen rental market (`money.rent_market`) or purchase condition (`money.used`),
//! converted to the scenario currency, with its source, date and age. A price more than
//! [`STALE_MONTHS`] old at the catalog's date, or taken from a press report, is flagged; a
//! flagged price is only chosen when the card has no other (then the newest), and the ranking
//! puts such cards after those with current prices (plan.rs).

use super::catalog::{Catalog, LeadTime, Price};
use super::scenario::{Currency, Scenario};
use serde::{Deserialize, Serialize};

/// Rental-market choices: any, China GPU clouds, global marketplaces, hyperscalers, only the
/// user's own quotes.
pub use super::scenario::RENT_MARKETS;

/// A price older than this (whole months to the catalog's `updated` date) is stale.
pub const STALE_MONTHS: u32 = 12;

/// The price a figure uses, with where it comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Quote {
    /// Per card-hour (rental) or per card (purchase), in the scenario currency.
    pub amount: f64,
    /// The record's url; empty for the user's own quote.
    pub source: String,
    /// `YYYY-MM[-DD]`; empty for the user's own quote.
    pub date: String,
    /// The record's market (`press` = a news report); `my_quotes` for the user's own.
    pub market: String,
    /// Whole months from `date` to the catalog's date.
    pub age_months: u32,
    /// Older than [`STALE_MONTHS`].
    pub stale: bool,
}

impl Quote {
    /// From a press report rather than a price page.
    #[must_use]
    pub fn report(&self) -> bool {
        self.market == "press"
    }
    /// Stale or from a report: the page says so beside the figure.
    #[must_use]
    pub fn flagged(&self) -> bool {
        self.stale || self.report()
    }
}

/// Converts `amount` in `from` ("CNY"/"USD") to the scenario currency.
#[must_use]
pub fn convert(s: &Scenario, amount: f64, from: &str) -> f64 {
    match (from, s.money.currency) {
        ("USD", Currency::CNY) => amount * s.money.cny_per_usd,
        ("CNY", Currency::USD) => amount / s.money.cny_per_usd,
        _ => amount,
    }
}

/// `YYYY-MM[-DD]` as a month count.
fn months(date: &str) -> Option<u32> {
    let y: u32 = date.get(..4)?.parse().ok()?;
    let m: u32 = date.get(5..7)?.parse().ok()?;
    Some(y * 12 + m)
}

/// The price of `kind` a card gets: for rentals the user's quote (`money.overrides`, hourly),
/// else — unless the market is `my_quotes` — the lowest catalog price in the chosen market; for
/// purchases the lowest new or used one (`money.used`). Unflagged prices win over flagged ones.
#[must_use]
pub fn quote(s: &Scenario, catalog: &Catalog, gpu: &str, kind: &str) -> Option<Quote> {
    let market = s.money.rent_market.as_str();
    let rental = kind != "purchase";
    if kind == "rent_hourly" {
        if let Some(o) = s.money.overrides.iter().find(|o| o.gpu == gpu && o.rent_hourly > 0.0) {
            return Some(Quote { amount: o.rent_hourly, market: "my_quotes".into(), ..Quote::default() });
        }
    }
    if rental && market == "my_quotes" {
        return None;
    }
    let now = months(&catalog.updated);
    // (flagged, age when flagged, amount, age): the lowest current price; failing that the newest
    // flagged one (an old low price is the weakest evidence of today's market), the lowest on ties;
    // of equal prices the newer observation is cited.
    let mut best: Option<(bool, u32, f64, u32, &Price)> = None;
    // Most prices are other cards': that test first, then the rest (this runs for every card).
    for p in catalog.prices.iter().filter(|p| p.gpu == gpu) {
        let fits =
            if rental { market.is_empty() || p.market == market } else { (p.condition == "used") == s.money.used };
        if p.kind != kind || !fits {
            continue;
        }
        let age = now.zip(months(&p.date)).map_or(0, |(n, d)| n.saturating_sub(d));
        let flagged = age > STALE_MONTHS || p.market == "press";
        let key = (flagged, if flagged { age } else { 0 }, convert(s, p.amount, &p.currency), age, p);
        if best.is_none_or(|b| (key.0, key.1, key.2, key.3) < (b.0, b.1, b.2, b.3)) {
            best = Some(key);
        }
    }
    best.map(|(_, _, amount, age_months, p)| Quote {
        amount,
        source: p.source.clone(),
        date: p.date.clone(),
        market: p.market.clone(),
        age_months,
        stale: age_months > STALE_MONTHS,
    })
}

/// Rental price per card-hour in the scenario currency.
#[must_use]
pub fn rent_hourly(s: &Scenario, catalog: &Catalog, gpu: &str) -> Option<f64> {
    quote(s, catalog, gpu, "rent_hourly").map(|q| q.amount)
}

/// The newest catalog lead-time observation for a card, preferring the market of the scenario
/// currency (CNY → `china`).
#[must_use]
pub fn lead_time<'a>(s: &Scenario, catalog: &'a Catalog, gpu: &str) -> Option<&'a LeadTime> {
    let want = if s.money.currency == Currency::CNY { "china" } else { "global" };
    catalog
        .lead_times
        .iter()
        .filter(|l| l.gpu == gpu)
        .max_by(|a, b| (a.market == want, &a.date).cmp(&(b.market == want, &b.date)))
}
