//! Owning versus renting: annualised cost of owned cards (hardware, power × PUE, rack, staff,
//! maintenance, depreciation, residual value, optional discount rate) against on-demand and
//! committed rental; breakeven in hours per year and in months; hybrid own-base/rent-peaks plan;
//! budget filter.

use super::catalog::{Catalog, Gpu};
use super::pricing::{self, Quote};
use super::scenario::Scenario;
use super::verdict::CardVerdict;
use serde::{Deserialize, Serialize};

mod own;
pub use own::*;

/// Hours in a year and in an average month.
pub const YEAR_H: f64 = 8760.0;
pub const MONTH_H: f64 = 730.0;

/// The seeds' buying rules: buy when the cards are busy more than ~4,000 hours a year (or a
/// model is retrained three or more times a week); below ~30% planned use they sit idle.
pub const SEED_BUY_HOURS: f64 = 4_000.0;
pub const IDLE_UTILISATION: f64 = 0.3;

/// Whether buying suits the planned use, from the same breakeven the table shows: the rule of
/// thumb only when there is no rental price to compare with (it once said "✓" beside a
/// breakeven of "never").
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BuyVerdict {
    /// Owning is cheaper above `breakeven` busy hours a year.
    Breakeven { breakeven: f64, busy: f64 },
    /// On-demand renting stays cheaper at any utilisation.
    NeverCheaper { busy: f64 },
    /// No rental price: the seeds' ~4,000 h rule.
    RuleOfThumb { busy: f64 },
}

impl BuyVerdict {
    #[must_use]
    pub fn of(r: &RentVsBuy) -> Self {
        let busy = r.utilisation * YEAR_H;
        match (r.rent.hourly, r.breakeven_hours) {
            (None, _) => BuyVerdict::RuleOfThumb { busy },
            (Some(_), Some(h)) => BuyVerdict::Breakeven { breakeven: h, busy },
            (Some(_), None) => BuyVerdict::NeverCheaper { busy },
        }
    }

    /// Buying suits the planned use.
    #[must_use]
    pub fn buy(self) -> bool {
        match self {
            BuyVerdict::Breakeven { breakeven, busy } => busy > breakeven,
            BuyVerdict::NeverCheaper { .. } => false,
            BuyVerdict::RuleOfThumb { busy } => busy > SEED_BUY_HOURS,
        }
    }
}

/// Used (二手) cards, stated assumptions. No transferable vendor warranty, so failures are paid
/// for: Meta saw 148 faulty-GPU and 72 HBM3 interruptions in 54 days on 16,384 H100 (Dubey et
/// al. 2024, *The Llama 3 Herd of Models*, §3.3.4 Table 5), ≈ 9% of cards a year under full
/// load; not every interruption kills a card, so a used card carries half that, 5% of its price
/// a year, on top of the maintenance share.
pub const USED_FAILURE_PER_YEAR: f64 = 0.05;
/// A used card is resold at least a generation later: its resale share is half the new-card
/// share (the catalog's used V100 SXM2 32GB sold at ¥900 in 2024, ~6% of a $1,981 new listing).
pub const USED_RESIDUAL_FACTOR: f64 = 0.5;

/// Weeks from order to delivery when neither the user nor the catalog gives one: OEM GPU-server
/// lead times were 8–12 weeks in 2024 (Dell Taiwan via UDN, in catalog.json `lead_times`).
pub const DEFAULT_LEAD_WEEKS: f64 = 8.0;

/// Rental prices per card in the scenario currency.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Rent {
    pub hourly: Option<f64>,
    pub monthly: Option<f64>,
    pub yearly: Option<f64>,
    /// Rented storage for checkpoints and data, per month, added to every rental option.
    pub storage_month: f64,
}

fn rent(s: &Scenario, catalog: &Catalog, gpu: &str) -> Rent {
    let o = &s.ownership;
    let cur = o.currency.code();
    let conv = |v: Option<f64>| v.map(|x| pricing::convert(s, x, cur));
    let monthly = conv(o.rent_monthly).or_else(|| pricing::quote(s, catalog, gpu, "rent_monthly").map(|q| q.amount));
    let storage_month = s.model_spec().map_or(0.0, |m| super::infra::storage_costs(m, s).1);
    Rent {
        hourly: conv(o.rent_hourly).or_else(|| pricing::rent_hourly(s, catalog, gpu)),
        monthly,
        yearly: conv(o.rent_yearly),
        storage_month,
    }
}

/// One point of the cumulative-cost chart.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MonthPoint {
    pub month: f64,
    /// Owning, cash out: hardware up front + running costs so far.
    pub own: f64,
    /// Owning net of the resale value the hardware would fetch at that month.
    pub own_net: f64,
    pub on_demand: Option<f64>,
    pub monthly: Option<f64>,
    pub yearly: Option<f64>,
}

/// One point of the annual-cost-against-use chart.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HoursPoint {
    pub hours: f64,
    pub own: f64,
    pub rent: Option<f64>,
}

/// Own N cards, rent the rest of a monthly demand profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hybrid {
    pub best_cards: u32,
    pub best_annual: f64,
    /// (cards owned, annual cost) for every N tried.
    pub by_cards: Vec<(u32, f64)>,
}

/// One card's answer to "what can this budget buy or rent".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BudgetOption {
    pub gpu: String,
    pub cards: u32,
    pub buy_cost: Option<f64>,
    pub buy_ok: bool,
    /// Wall-clock hours of `cards` cards the budget rents on demand.
    pub rent_hours: Option<f64>,
    /// The run's wall-clock hours on `cards` cards.
    pub run_hours: Option<f64>,
    pub rent_ok: bool,
}

/// Everything the rent-vs-buy view shows, for one card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RentVsBuy {
    pub gpu: String,
    pub name: String,
    pub own: OwnCosts,
    pub rent: Rent,
    pub utilisation: f64,
    /// Owned cost per card-hour at the chosen utilisation.
    pub own_per_gpu_hour: f64,
    /// Busy hours a year above which owning is cheaper than on-demand renting.
    pub breakeven_hours: Option<f64>,
    /// Month at which the cash spent on owning falls below on-demand rental (at the chosen
    /// utilisation): hardware / (monthly rent − monthly running cost).
    pub breakeven_month: Option<f64>,
    pub breakeven_month_monthly: Option<f64>,
    pub cumulative: Vec<MonthPoint>,
    pub by_hours: Vec<HoursPoint>,
    pub hybrid: Option<Hybrid>,
    /// The catalog purchase price used; `None` when the user typed the card price.
    pub buy_quote: Option<Quote>,
    /// The on-demand price used; `None` when typed in the ownership form.
    pub rent_quote: Option<Quote>,
    /// Weeks from order to delivery: `ownership.lead_weeks`, else the middle of the catalog
    /// observation `lead_source`, else [`DEFAULT_LEAD_WEEKS`].
    pub lead_weeks: f64,
    /// Date and url of that observation; empty for the user's figure or the default.
    pub lead_date: String,
    pub lead_source: String,
    /// On-demand rental of the planned busy hours until the cards arrive (counted in the
    /// cumulative owning cost); `None` without a rental price.
    pub bridge: Option<f64>,
    /// The auto-plan deadline falls before the cards arrive: rent first.
    pub rent_first: bool,
}

/// Busy hours a year at which owning and on-demand renting cost the same:
/// annual_fixed + power·h = hourly·cards·h + rented storage per year.
#[must_use]
pub fn breakeven_hours(own: &OwnCosts, hourly: f64, rent_fixed_year: f64) -> Option<f64> {
    let margin = hourly * f64::from(own.cards) - own.power_per_hour;
    (margin > 0.0)
        .then(|| ((own.annual_fixed - rent_fixed_year) / margin).max(0.0))
        .filter(|h| h.is_finite() && *h <= YEAR_H)
}

/// Cumulative cash: owning pays the hardware at the order, rents the busy hours on demand until
/// delivery (`lead` months), then pays its running costs.
fn cumulative(s: &Scenario, own: &OwnCosts, rent: &Rent, lead: f64) -> Vec<MonthPoint> {
    let u = s.ownership.utilisation;
    let n = f64::from(own.cards);
    let busy = MONTH_H * u;
    let o = &s.ownership;
    // Cash running costs per month: the fixed costs other than capital, plus power.
    let capital = annualised_capital(own.hardware, own.residual, o.depreciation_years, o.discount_rate);
    let running = (own.annual_fixed - capital) / 12.0 + own.power_per_hour * busy;
    let bridge = rent.hourly.map_or(0.0, |h| h * n * busy + rent.storage_month);
    (0..=o.months * 4)
        .map(|q| {
            let m = f64::from(q) / 4.0;
            let paid = own.hardware + bridge * m.min(lead) + running * (m - lead).max(0.0);
            MonthPoint {
                month: m,
                own: paid,
                own_net: paid - own.resale(s, m),
                on_demand: rent.hourly.map(|h| h * n * busy * m + rent.storage_month * m),
                monthly: rent.monthly.map(|p| p * n * m.ceil() + rent.storage_month * m),
                yearly: rent.yearly.map(|p| p * n * (m / 12.0).ceil() + rent.storage_month * m),
            }
        })
        .collect()
}

fn first_cheaper(points: &[MonthPoint], other: impl Fn(&MonthPoint) -> Option<f64>) -> Option<f64> {
    points.iter().skip(1).find(|p| other(p).is_some_and(|r| p.own <= r)).map(|p| p.month)
}

fn hybrid(s: &Scenario, g: &Gpu, card_price: f64, hourly: Option<f64>) -> Option<Hybrid> {
    let demand = &s.ownership.demand;
    let hourly = hourly?;
    if demand.is_empty() {
        return None;
    }
    let peak = demand.iter().copied().fold(0.0, f64::max);
    let max_n = ((peak / MONTH_H).ceil() as u32).min(4096);
    // A profile shorter than a year is repeated.
    let scale = 12.0 / demand.len() as f64;
    // Owned cards the purchase budget allows (the hardware of n cards within it).
    let by_cards: Vec<(u32, f64)> = (0..=max_n)
        .map(|n| (n, (n > 0).then(|| own_costs(s, g, n, card_price))))
        .take_while(|(_, c)| c.is_none_or(|c| s.ownership.budget.is_none_or(|b| c.hardware <= b)))
        .map(|(n, c)| {
            let cap = f64::from(n) * MONTH_H;
            let (owned, rented) = demand.iter().fold((0.0, 0.0), |(o, r), d| (o + d.min(cap), r + (d - cap).max(0.0)));
            let (fixed, power_per_card_hour) =
                c.map_or((0.0, 0.0), |c| (c.annual_fixed, c.power_per_hour / f64::from(n)));
            (n, fixed + (power_per_card_hour * owned + hourly * rented) * scale)
        })
        .collect();
    let (best_cards, best_annual) = by_cards.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1))?;
    Some(Hybrid { best_cards, best_annual, by_cards })
}

/// The rent-vs-buy analysis for the focus card (`ownership.gpu`, else the first fitting card
/// with the best-evidenced purchase price: a current one, else a recent press report, else an
/// old one), or `None` when no card has a price.
#[must_use]
pub fn rent_vs_buy(s: &Scenario, catalog: &Catalog, cards: &[CardVerdict]) -> Option<RentVsBuy> {
    let o = &s.ownership;
    let v = if o.gpu.is_empty() {
        // 0: a current price (or the user's), 1: a recent press report, 2: over 12 months old.
        let evidence = |v: &CardVerdict| {
            if o.card_price.is_some() {
                return Some(0);
            }
            pricing::quote(s, catalog, &v.gpu, "purchase")
                .map(|q| if q.stale { 2 } else { u8::from(q.market == "press") })
        };
        cards.iter().filter(|v| v.fits).filter_map(|v| evidence(v).map(|e| (e, v))).min_by_key(|(e, _)| *e)?.1
    } else {
        cards.iter().find(|v| v.gpu == o.gpu)?
    };
    let g = s.gpu(catalog, &v.gpu)?;
    let price = card_price(s, catalog, &g.id, true)?;
    let n = if o.cards > 0 { o.cards } else { v.gpus.max(1) };
    let own = own_costs(s, g, n, price);
    let rent = rent(s, catalog, &g.id);
    let lead_source = if o.lead_weeks.is_none() { pricing::lead_time(s, catalog, &g.id) } else { None };
    let lead_weeks = o
        .lead_weeks
        .or(lead_source.and_then(|l| Some((l.weeks_min? + l.weeks_max?) / 2.0)))
        .unwrap_or(DEFAULT_LEAD_WEEKS);
    let lead = lead_weeks * 168.0 / MONTH_H;
    let cumulative = cumulative(s, &own, &rent, lead);
    let by_hours = (0..=24)
        .map(|i| {
            let h = YEAR_H * f64::from(i) / 24.0;
            HoursPoint {
                hours: h,
                own: own.annual(h),
                rent: rent.hourly.map(|r| r * f64::from(n) * h + rent.storage_month * 12.0),
            }
        })
        .collect();
    Some(RentVsBuy {
        gpu: g.id.clone(),
        name: g.name.clone(),
        own_per_gpu_hour: own.per_gpu_hour(o.utilisation),
        breakeven_hours: rent.hourly.and_then(|h| breakeven_hours(&own, h, rent.storage_month * 12.0)),
        breakeven_month: first_cheaper(&cumulative, |p| p.on_demand),
        breakeven_month_monthly: first_cheaper(&cumulative, |p| p.monthly),
        hybrid: hybrid(s, g, price, rent.hourly),
        buy_quote: o.card_price.is_none().then(|| pricing::quote(s, catalog, &g.id, "purchase")).flatten(),
        rent_quote: o.rent_hourly.is_none().then(|| pricing::quote(s, catalog, &g.id, "rent_hourly")).flatten(),
        lead_weeks,
        lead_date: lead_source.map(|l| l.date.clone()).unwrap_or_default(),
        lead_source: lead_source.map(|l| l.source.clone()).unwrap_or_default(),
        bridge: rent.hourly.map(|h| (h * f64::from(n) * MONTH_H * o.utilisation + rent.storage_month) * lead),
        rent_first: s.search.deadline_days.is_some_and(|d| d < lead_weeks * 7.0),
        own,
        rent,
        utilisation: o.utilisation,
        cumulative,
        by_hours,
    })
}

/// Owned cost of a training run on one card type: run GPU-hours × owned cost per card-hour; for
/// serving, the owned cost of a million output tokens with the cards busy around the clock.
#[must_use]
pub fn own_cost_of_run(s: &Scenario, catalog: &Catalog, g: &Gpu, v: &super::verdict::CardPlan) -> Option<f64> {
    let price = card_price(s, catalog, &g.id, s.ownership.gpu == g.id)?;
    let own = own_costs(s, g, v.gpus.max(1), price);
    if let Some(c) = v.serving.as_ref().filter(|c| c.tokens_s > 0.0) {
        // Serving runs around the clock: a million output tokens at full use.
        return Some(own.per_gpu_hour(1.0) * f64::from(v.gpus) / (c.tokens_s * 3600.0) * 1e6);
    }
    if let Some(x) = v.vision.as_ref().filter(|_| !s.task.is_training()) {
        // Vision serving likewise: a million images (an hour of audio) at the rate served.
        let unit = super::vision::model(&s.model).map_or(1e6, super::vision::VisionModel::cost_unit);
        let served = s.vision.rate.min(x.samples_s * f64::from(v.gpus));
        return (served > 0.0).then(|| own.per_gpu_hour(1.0) * f64::from(v.gpus) / (served * 3600.0) * unit);
    }
    v.gpu_hours.map(|gh| gh * own.per_gpu_hour(s.ownership.utilisation))
}

/// For a budget: which fitting cards can be bought, or rented for long enough to finish the run.
#[must_use]
pub fn budget_options(s: &Scenario, catalog: &Catalog, cards: &[CardVerdict]) -> Vec<BudgetOption> {
    let Some(budget) = s.ownership.budget.map(|b| pricing::convert(s, b, s.ownership.currency.code())) else {
        return Vec::new();
    };
    cards
        .iter()
        .filter(|v| v.fits)
        .filter_map(|v| {
            let g = s.gpu(catalog, &v.gpu)?;
            // The price the user typed for the card to buy counts here too.
            let buy_cost =
                card_price(s, catalog, &g.id, s.ownership.gpu == g.id).map(|p| own_costs(s, g, v.gpus, p).hardware);
            let rent_hours = v.rent_hourly.filter(|r| *r > 0.0).map(|r| budget / (r * f64::from(v.gpus)));
            // Training must fit the run into the rented hours; a run of unknown length cannot be
            // said to fit (it was once counted as 0 h, so ¥1 "rented" it).
            let run_hours = v.hours.filter(|_| s.task.is_training());
            Some(BudgetOption {
                gpu: v.gpu.clone(),
                cards: v.gpus,
                buy_ok: buy_cost.is_some_and(|c| c <= budget),
                rent_ok: match (rent_hours, run_hours) {
                    (Some(r), Some(h)) => r >= h,
                    (Some(_), None) => !s.task.is_training(),
                    _ => false,
                },
                buy_cost,
                rent_hours,
                run_hours,
            })
        })
        .filter(|b| b.buy_ok || b.rent_ok)
        .collect()
}
