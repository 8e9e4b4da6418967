//! What owning costs: hardware with its hidden costs, capital annualised over the years of use.

use super::{USED_FAILURE_PER_YEAR, USED_RESIDUAL_FACTOR, YEAR_H};
use crate::domain::catalog::{Catalog, Gpu};
use crate::domain::pricing;
use crate::domain::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// What owning `cards` of one card costs, in the scenario currency.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OwnCosts {
    pub cards: u32,
    pub servers: u32,
    pub card_price: f64,
    /// Cards + servers + network, paid up front.
    pub hardware: f64,
    /// Yearly cost that does not depend on use: capital (depreciation or capital recovery),
    /// rack, staff, maintenance.
    pub annual_fixed: f64,
    /// Electricity per hour with every card busy: (cards × TDP + servers × host W) × PUE × price.
    pub power_per_hour: f64,
    /// Resale share of the hardware at the end of depreciation (lower for used cards).
    pub residual: f64,
}

impl OwnCosts {
    /// Annual cost when the cards are busy `hours` a year.
    #[must_use]
    pub fn annual(&self, hours: f64) -> f64 {
        self.annual_fixed + self.power_per_hour * hours
    }
    /// Cost per card-hour at a utilisation (share of the year busy).
    #[must_use]
    pub fn per_gpu_hour(&self, utilisation: f64) -> f64 {
        let h = YEAR_H * utilisation.max(1e-6);
        self.annual(h) / (f64::from(self.cards.max(1)) * h)
    }
    /// Resale value after `months` (straight line down to the residual share).
    #[must_use]
    pub fn resale(&self, s: &Scenario, months: f64) -> f64 {
        let life = s.ownership.depreciation_years * 12.0;
        let left = (1.0 - months / life).max(0.0);
        self.hardware * (self.residual + (1.0 - self.residual) * left)
    }
}

/// Capital cost per year: straight-line depreciation to the residual value, or with a discount
/// rate r the capital recovery factor r / (1 − (1 + r)^−n) on the price less the discounted resale.
#[must_use]
pub fn annualised_capital(hardware: f64, residual: f64, years: f64, rate: f64) -> f64 {
    if rate <= 0.0 {
        return hardware * (1.0 - residual) / years;
    }
    let pv_resale = hardware * residual / (1.0 + rate).powf(years);
    (hardware - pv_resale) * rate / (1.0 - (1.0 + rate).powf(-years))
}

/// Purchase price per card in the scenario currency: the user's figure, else the catalog's
/// lowest new or used one (`pricing::quote`).
#[must_use]
pub fn card_price(s: &Scenario, catalog: &Catalog, gpu: &str, focus: bool) -> Option<f64> {
    let o = &s.ownership;
    if focus {
        if let Some(p) = o.card_price {
            return Some(pricing::convert(s, p, o.currency.code()));
        }
    }
    pricing::quote(s, catalog, gpu, "purchase").map(|q| q.amount)
}

/// Costs of owning `cards` of `g` at the scenario's ownership assumptions.
#[must_use]
pub fn own_costs(s: &Scenario, g: &Gpu, cards: u32, card_price: f64) -> OwnCosts {
    let o = &s.ownership;
    let cur = o.currency.code();
    let conv = |v: f64| pricing::convert(s, v, cur);
    // The machine the cards go in, by the purchase profile (domain/host.rs).
    let h = crate::domain::host::host(s, g, cards);
    let servers = cards.div_ceil(h.cards_per_host.max(1)).max(1);
    let n = f64::from(cards);
    let sv = f64::from(servers);
    // Checkpoint and dataset storage is bought with the servers (infra.rs).
    let storage = s.model_spec().map_or(0.0, |m| crate::domain::infra::storage_costs(m, s).0);
    let hardware = n * card_price + sv * (h.price + h.network) + storage;
    // Used cards: a lower resale share on the cards and a failure allowance (constants above).
    let used = if s.money.used { n * card_price } else { 0.0 };
    let residual =
        if hardware > 0.0 { o.residual * (1.0 - (1.0 - USED_RESIDUAL_FACTOR) * used / hardware) } else { o.residual };
    let capital = annualised_capital(hardware, residual, o.depreciation_years, o.discount_rate);
    let annual_fixed = capital
        + sv * h.rack_per_month * 12.0
        + conv(o.ops_salary_per_year) * h.ops_share
        + hardware * o.maintenance_per_year
        + used * USED_FAILURE_PER_YEAR;
    let kw = (n * g.power().watts() + sv * h.watts) / 1000.0;
    OwnCosts {
        cards,
        servers,
        card_price,
        hardware,
        annual_fixed,
        power_per_hour: kw * o.pue * conv(o.electricity_per_kwh),
        residual,
    }
}
