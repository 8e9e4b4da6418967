//! A direct answer to "with this budget, what is most practical?" ("预算只有5万内，但想跑7B模型
//! 微调，哪种方案最务实？"): the fastest purchase within it, the rental that runs the job the most
//! times, and a mix — buy the cheapest card that does the job for debugging, rent the best
//! rental for the real runs with what is left. Built from the per-card budget options
//! (`cost::budget_options`) and the ranking's verdicts; no figure of its own.

use super::cost::BudgetOption;
use super::verdict::CardVerdict;
use serde::{Deserialize, Serialize};

/// Cards bought within the budget: what they cost (the machine they go in included).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Purchase {
    pub gpu: String,
    pub name: String,
    pub cards: u32,
    pub cost: f64,
    /// The run's wall-clock hours on them (training).
    pub hours: Option<f64>,
    /// In the China market, the card's status there when it is not sold new (`cloud`: used
    /// only; `grey`: grey market or used), from the verdict's warning; the line says so.
    pub supply: Option<String>,
}

/// Cards rented on demand: the cost of one run (training) and how many runs the money pays for,
/// or (serving) the hours of service it pays for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rental {
    pub gpu: String,
    pub name: String,
    pub cards: u32,
    /// Training: one run at the rental price.
    pub cost_per_run: Option<f64>,
    /// Training: whole runs the money pays for.
    pub runs: Option<u32>,
    /// Serving: hours of the cards the money rents.
    pub hours: Option<f64>,
}

/// The budget's three answers; each is `None` when nothing qualifies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BudgetAnswer {
    pub budget: f64,
    pub buy: Option<Purchase>,
    pub rent: Option<Rental>,
    /// Training only: the cheapest purchase for debugging and the best rental with the rest of
    /// the budget, when the rest pays for at least one run on a card other than the one bought.
    pub mix: Option<(Purchase, Rental)>,
}

fn verdict<'a>(cards: &'a [CardVerdict], gpu: &str) -> Option<&'a CardVerdict> {
    cards.iter().find(|v| v.gpu == gpu)
}

/// Whole runs of `per_run` that `money` pays for (a run is paid in full or not at all).
fn runs(money: f64, per_run: f64) -> u32 {
    if per_run > 0.0 && money >= per_run {
        (money / per_run).floor().min(f64::from(u32::MAX)) as u32
    } else {
        0
    }
}

/// The answer for `budget` (in the scenario's currency, as the options are), from the options
/// and the ranking's verdicts.
#[must_use]
pub fn answer(budget: f64, options: &[BudgetOption], cards: &[CardVerdict], training: bool) -> BudgetAnswer {
    let purchase = |b: &BudgetOption| {
        let v = verdict(cards, &b.gpu)?;
        let supply = v.china_supply().map(String::from);
        Some(Purchase {
            gpu: b.gpu.clone(),
            name: v.name.clone(),
            cards: b.cards,
            cost: b.buy_cost?,
            hours: b.run_hours,
            supply,
        })
    };
    // Within the budget: the fastest purchase (at equal speed the cheaper; serving: the
    // cheapest), and the cheapest one, which leaves the most for renting in the mix.
    let bought: Vec<Purchase> = options.iter().filter_map(purchase).filter(|p| p.cost <= budget).collect();
    let h = |p: &Purchase| p.hours.unwrap_or(f64::MAX);
    let buy = bought.iter().min_by(|a, b| h(a).total_cmp(&h(b)).then(a.cost.total_cmp(&b.cost))).cloned();
    let cheapest = bought.iter().min_by(|a, b| a.cost.total_cmp(&b.cost).then(h(a).total_cmp(&h(b)))).cloned();
    // Training: the rental with the cheapest run (the most whole runs, at least one); serving:
    // the most hours of service for the money.
    let rental = |b: &BudgetOption, money: f64| {
        let v = verdict(cards, &b.gpu)?;
        let (cost_per_run, runs, hours) = if training {
            let per_run = v.cost?;
            let n = runs(money, per_run);
            if n == 0 {
                return None;
            }
            (Some(per_run), Some(n), None)
        } else {
            let hourly = v.rent_hourly.filter(|r| *r > 0.0)? * f64::from(b.cards);
            (None, None, Some(money / hourly))
        };
        Some(Rental { gpu: b.gpu.clone(), name: v.name.clone(), cards: b.cards, cost_per_run, runs, hours })
    };
    let best = |money: f64, except: Option<&str>| {
        options
            .iter()
            .filter(|b| Some(b.gpu.as_str()) != except && b.rent_hours.is_some())
            .filter_map(|b| rental(b, money))
            .min_by(|a, b| match (a.cost_per_run, b.cost_per_run) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                _ => b.hours.unwrap_or(0.0).total_cmp(&a.hours.unwrap_or(0.0)),
            })
    };
    let rent = best(budget, None);
    let mix =
        cheapest.as_ref().filter(|_| training).and_then(|p| Some((p.clone(), best(budget - p.cost, Some(&p.gpu))?)));
    BudgetAnswer { budget, buy, rent, mix }
}

/// The answer for the scenario's budget (typed in the ownership currency, read in the
/// scenario's), `None` without a budget.
#[must_use]
pub fn of(s: &super::Scenario, r: &super::Report) -> Option<BudgetAnswer> {
    let budget = super::pricing::convert(s, s.ownership.budget?, s.ownership.currency.code());
    Some(answer(budget, &r.budget, &r.cards, s.task.is_training()))
}

/// The answer in words, a line per option, in the page's language (the CLI's `budget` and the
/// page's rent-or-buy section).
#[must_use]
pub fn lines(a: &BudgetAnswer, cur: super::scenario::Currency, l: super::format::Lang) -> Vec<String> {
    use super::format::{hours, money, Lang};
    let zh = l == Lang::Zh;
    let m = |v: f64| money(v, cur);
    let took = |p: &Purchase| {
        p.hours.map_or(String::new(), |h| {
            if zh {
                format!("，跑一次 {}", hours(h, l))
            } else {
                format!("; one run takes {}", hours(h, l))
            }
        })
    };
    // Where a team in mainland China cannot buy the card new.
    let supply = |p: &Purchase| match (p.supply.as_deref(), zh) {
        (Some("grey"), true) => "（中国大陆只有水货或二手）",
        (Some("grey"), false) => " (in mainland China: grey market or used only)",
        (Some(_), true) => "（中国大陆已不售新卡：二手）",
        (Some(_), false) => " (not sold new in mainland China: used)",
        (None, _) => "",
    };
    let named = |gpu: &str, name: &str| super::format::card_name(gpu, name, l);
    let mut out = Vec::new();
    if let Some(p) = &a.buy {
        let (pn, n, sp, cost) = (named(&p.gpu, &p.name), p.cards, supply(p), m(p.cost));
        out.push(if zh {
            format!("买：{pn} × {n}{sp}，{cost}（含所需整机）{}", took(p))
        } else {
            format!("Buy: {pn} × {n}{sp} for {cost} (with the machine they go in){}", took(p))
        });
    }
    if let Some(r) = &a.rent {
        let (rn, k, total) = (named(&r.gpu, &r.name), r.cards, m(a.budget));
        out.push(match (r.runs, r.cost_per_run, r.hours, zh) {
            (Some(n), Some(c), _, true) => format!("租：{rn} × {k} 按需，每次 {}，{total} 可跑 {n} 次", m(c)),
            (Some(n), Some(c), _, false) => format!("Rent: {rn} × {k} on demand, {} a run: {n} runs for {total}", m(c)),
            (_, _, Some(h), true) => format!("租：{rn} × {k} 按需，{total} 可用 {}", hours(h, l)),
            (_, _, h, _) => {
                format!("Rent: {rn} × {k} on demand: {} of service for {total}", hours(h.unwrap_or(0.0), l))
            }
        });
    }
    if let Some((p, r)) = &a.mix {
        let (n, c) = (r.runs.unwrap_or(0), r.cost_per_run.unwrap_or(0.0));
        let rest = m(a.budget - p.cost);
        let (pn, rn) = (named(&p.gpu, &p.name), named(&r.gpu, &r.name));
        out.push(if zh {
            format!("混合：买 {pn} × {}{}（{}）做调试，余下 {rest} 租 {rn} × {} 跑正式训练 {n} 次（每次 {}）", p.cards, supply(p), m(p.cost), r.cards, m(c))
        } else {
            format!(
                "Mix: buy {pn} × {}{} ({}) for debugging and rent {rn} × {} for the real runs: {n} runs ({} each) with the remaining {rest}",
                p.cards, supply(p), m(p.cost), r.cards, m(c)
            )
        });
    }
    if out.is_empty() {
        out.push(if zh {
            format!("预算 {} 内买不到也租不到能跑这个任务的显卡", m(a.budget))
        } else {
            format!("Within {} no card that fits this job can be bought or rented for it", m(a.budget))
        });
    }
    out
}
