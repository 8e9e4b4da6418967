//! How the rent-vs-buy figures are computed, with the inputs filled in.

use super::zh::zh_words;
use crate::domain::catalog::CardPower;
use crate::domain::cost::{self, RentVsBuy};
use crate::domain::format::{self, Lang};
use crate::domain::scenario::Scenario;

/// How each rent-vs-buy figure is computed, with the scenario's inputs filled in, in the order
/// the page shows them: card, hardware, fixed per year, power per hour, owned per card-hour,
/// rent per card-hour, breakeven hours, breakeven month.
#[must_use]
pub fn rent_vs_buy_formulas(s: &Scenario, r: &RentVsBuy, lang: Lang) -> [String; 8] {
    let o = &s.ownership;
    let n = r.own.cards;
    let cur = s.money.currency;
    let m = |v: f64| format::money(v, cur);
    let capital = cost::annualised_capital(r.own.hardware, r.own.residual, o.depreciation_years, o.discount_rate);
    let t = |en: &'static str, zh: &'static str| if lang == Lang::Zh { zh } else { en };
    let g = s.gpu(crate::domain::Catalog::embedded(), &r.gpu);
    // The machine the costs were computed with (domain/host.rs).
    let h = g.map_or_else(
        || crate::domain::host::host(s, &crate::domain::catalog::Gpu::default(), n),
        |g| crate::domain::host::host(s, g, n),
    );
    [
        format!(
            "{n} cards in {} × {} of up to {} cards",
            r.own.servers,
            format::host_class(h.class, lang),
            h.cards_per_host
        ),
        format!(
            "{n} × {} + {} × ({} host + {} network) + storage",
            m(r.own.card_price),
            r.own.servers,
            m(h.price),
            m(h.network)
        ),
        format!(
            "capital {} ({} y, resale {:.0}%, r {:.0}%) + {} × {}/month rack + {:.0}% engineer + {:.0}% maintenance",
            m(capital),
            o.depreciation_years,
            r.own.residual * 100.0,
            o.discount_rate * 100.0,
            r.own.servers,
            m(h.rack_per_month),
            h.ops_share * 100.0,
            o.maintenance_per_year * 100.0
        ),
        format!(
            "({n} × {} + {} × {} W) × PUE {} × {}/kWh",
            g.map_or_else(|| format::card_power(CardPower::Unknown, lang), |g| format::card_power(g.power(), lang)),
            r.own.servers,
            h.watts,
            o.pue,
            format::money(o.electricity_per_kwh, o.currency)
        ),
        format!("(fixed + power × {h} h) / ({n} × {h} h)", h = format::grouped(8760.0 * r.utilisation, 0)),
        t("your quote, else the lowest dated price in the chosen market", "你的报价，否则用所选市场中注明日期的最低价")
            .into(),
        t(
            "(fixed − rented storage/yr) / (rent × cards − power per hour)",
            "(固定成本 − 每年存储租金) / (租金 × 卡数 − 每小时电费)",
        )
        .into(),
        t(
            "lead time + hardware / (monthly rent − monthly running cost), at the utilisation",
            "交付周期 + 硬件 / (月租金 − 每月运行成本)，按利用率",
        )
        .into(),
    ]
    .map(|f| if lang == Lang::Zh { zh_words(&f) } else { f })
}

/// How renting until the owned cards arrive is costed.
#[must_use]
pub fn bridge_formula(lang: Lang) -> &'static str {
    if lang == Lang::Zh {
        "租金 × 卡数 × 忙碌小时"
    } else {
        "rent × cards × busy hours"
    }
}

/// How the hybrid plan's card count is chosen.
#[must_use]
pub fn hybrid_formula(lang: Lang) -> &'static str {
    if lang == Lang::Zh {
        "argmin_N 固定成本(N) + 电费 × 自有小时 + 租金 × 租用小时"
    } else {
        "argmin over N of fixed(N) + power × owned hours + rent × rented hours"
    }
}
