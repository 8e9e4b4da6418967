//! Reference prices: the user's own quotes first, else the newest dated catalog price,
//! converted to the scenario currency.

use super::catalog::{Catalog, Price};
use super::scenario::{Currency, Scenario};

/// Converts `amount` in `from` ("CNY"/"USD") to the scenario currency.
#[must_use]
pub fn convert(s: &Scenario, amount: f64, from: &str) -> f64 {
    match (from, s.money.currency) {
        ("USD", Currency::CNY) => amount * s.money.cny_per_usd,
        ("CNY", Currency::USD) => amount / s.money.cny_per_usd,
        _ => amount,
    }
}

/// The newest catalog price of `kind` for a card, preferring the scenario currency's market.
#[must_use]
pub fn latest<'a>(s: &Scenario, catalog: &'a Catalog, gpu: &str, kind: &str) -> Option<&'a Price> {
    let want = match s.money.currency {
        Currency::CNY => "CNY",
        Currency::USD => "USD",
    };
    catalog
        .prices
        .iter()
        .filter(|p| p.gpu == gpu && p.kind == kind)
        .max_by(|a, b| (a.currency == want, &a.date).cmp(&(b.currency == want, &b.date)))
}

/// Rental price per card-hour in the scenario currency.
#[must_use]
pub fn rent_hourly(s: &Scenario, catalog: &Catalog, gpu: &str) -> Option<f64> {
    if let Some(o) = s.money.overrides.iter().find(|o| o.gpu == gpu && o.rent_hourly > 0.0) {
        return Some(o.rent_hourly);
    }
    latest(s, catalog, gpu, "rent_hourly").map(|p| convert(s, p.amount, &p.currency))
}
