//! Rent or buy: the ownership assumptions form and the view of the report's `rent_vs_buy`
//! (key figures, cumulative and annual charts, hybrid plan, budget filter).

use super::bind::{enum_get, enum_set, get, num, set};
use super::fields::{num_row, Num, NumField, NumFields, SelectField};
use super::i18n::{card_name, tr, Key, Lang};
use crate::chart::RentLabels;
use crate::domain::cost::{BuyVerdict, RentVsBuy, IDLE_UTILISATION};
use crate::domain::host::{host, use_as_custom, HostClass};
use crate::domain::pricing::Quote;
use crate::domain::scenario::ranges::*;
use crate::domain::scenario::{DemandError, Ownership, DEMAND_MAX, DEMAND_MONTHS};
use crate::domain::sites::{site, SITES};
use crate::domain::{format, Catalog, Report, Scenario};
use leptos::{html::Canvas, prelude::*};

/// A percent field over a 0–1 share.
fn pct(
    sc: RwSignal<Scenario>,
    get_: fn(&Scenario) -> f64,
    set_: fn(&mut Scenario, f64),
) -> (Signal<Option<f64>>, Callback<f64>) {
    (
        Signal::derive(move || sc.with(|s| Some((get_(s) * 1000.0).round() / 10.0))),
        Callback::new(move |v: f64| sc.update(|s| set_(s, v / 100.0))),
    )
}

/// An optional amount: empty clears it.
fn opt(
    sc: RwSignal<Scenario>,
    get_: fn(&Scenario) -> Option<f64>,
    set_: fn(&mut Scenario, Option<f64>),
) -> (Signal<Option<f64>>, Callback<f64>, Callback<()>) {
    (
        get(sc, get_),
        Callback::new(move |v: f64| sc.update(|s| set_(s, Some(v)))),
        Callback::new(move |()| sc.update(|s| set_(s, None))),
    )
}

/// Where a price comes from, beside the figure: its date for a current price page, "price from
/// 2024-10, report" when it is stale or from a press report, "your quote" for the user's own.
#[must_use]
pub fn price_note(q: &Quote, l: Lang) -> String {
    if q.market == "my_quotes" {
        return Key::MyQuote.text(l).into();
    }
    if !q.flagged() {
        return q.date.clone();
    }
    let mut s = format!("{} {}", Key::PriceFrom.text(l), q.date.get(..7).unwrap_or(&q.date));
    if q.report() {
        s.push_str(if l == Lang::Zh { "，" } else { ", " });
        s.push_str(Key::PressReport.text(l));
    }
    s
}

/// The ownership assumptions.
#[component]
pub fn OwnershipForm(report: Signal<Option<Report>>) -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let (bu, set_bu, clear_bu) = opt(sc, |s| s.ownership.budget, |s, v| s.ownership.budget = v);
    view! {
        <fieldset class="group own-form" id="rent-buy">
            <legend>{tr(lang, Key::RentVsBuy)}</legend>
            <button type="button" data-testid="own-seed" on:click=move |_| sc.update(Scenario::apply_seed_a100_server)>{tr(lang, Key::SeedPreset)}</button>
            <PurchaseFields report=report/>
            <RunningFields/>
            <DemandField/>
            <NumField label=Key::Budget testid="own-budget" limits=OWNERSHIP_BUDGET.shown(1.0) value=bu on_change=set_bu on_empty=clear_bu/>
        </fieldset>
    }
}

/// The card, count, currency, price and the machine they are priced in.
#[component]
fn PurchaseFields(report: Signal<Option<Report>>) -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let cards: Signal<Vec<(String, String)>> = Memo::new(move |_| {
        let mut v = vec![(String::new(), Key::BestFitting.text(lang.get()).to_string())];
        v.extend(
            report
                .get()
                .map(|r| r.cards)
                .unwrap_or_default()
                .into_iter()
                .filter(|c| c.fits)
                .map(|c| (c.plan.gpu, c.plan.name)),
        );
        v
    })
    .into();
    let currencies =
        Signal::derive(|| vec![("CNY".to_string(), "CNY ¥".to_string()), ("USD".to_string(), "USD $".to_string())]);
    let (price, set_price, clear_price) = opt(sc, |s| s.ownership.card_price, |s, v| s.ownership.card_price = v);
    let (ops, set_ops) = pct(sc, |s| s.ownership.ops_share, |s, v| s.ownership.ops_share = v);
    let profiles = Signal::derive(move || {
        let l = lang.get();
        let mut v = vec![(String::new(), Key::ProfileAuto.text(l).to_string())];
        v.extend(
            [HostClass::Workstation, HostClass::PcieServer, HostClass::BoardServer]
                .map(|c| (c.code().to_string(), format::host_class(c, l).to_string())),
        );
        v.push(("custom".into(), Key::ProfileCustom.text(l).into()));
        v
    });
    // The purchase's card and count as rent-vs-buy prices them.
    let bought =
        move || report.with(|r| r.as_ref().and_then(|r| r.rent_vs_buy.as_ref().map(|b| (b.gpu.clone(), b.own.cards))));
    let custom = Memo::new(move |_| sc.with(|s| s.ownership.profile == "custom"));
    // "My figures" starts from the figures the purchase was priced with.
    let on_profile = Callback::new(move |code: String| {
        let from = bought();
        sc.update(|s| {
            let g = from.as_ref().and_then(|(id, _)| s.gpu(Catalog::embedded(), id).cloned());
            match g.filter(|_| code == "custom") {
                Some(g) => {
                    let h = host(s, &g, from.as_ref().map_or(1, |x| x.1));
                    use_as_custom(s, &h);
                }
                None => s.ownership.profile = code,
            }
        });
    });
    let host_line = move || {
        let l = lang.get();
        let (id, n) = bought()?;
        sc.with(|s| {
            let g = s.gpu(Catalog::embedded(), &id)?;
            let h = host(s, g, n);
            let cur = s.money.currency;
            let money = |v: f64| if v > 0.0 { format::money(v, cur) } else { Key::Nothing.text(l).to_string() };
            Some(
                Key::ProfileLine
                    .text(l)
                    .replace("{class}", format::host_class(h.class, l))
                    .replace("{card}", g.name_in(l == Lang::Zh))
                    .replace("{host}", &money(h.price))
                    .replace("{net}", &money(h.network))
                    .replace("{rack}", &money(h.rack_per_month))
                    .replace("{ops}", &format!("{:.0}%", h.ops_share * 100.0))
                    .replace("{w}", &format::grouped(h.watts, 0))
                    .replace("{per}", &h.cards_per_host.to_string()),
            )
        })
    };
    view! {
        <SelectField label=Key::CardToBuy testid="own-gpu" options=cards value=get(sc, |s| s.ownership.gpu.clone()) on_change=set(sc, |s, v| s.ownership.gpu = v)/>
        <NumField label=Key::CardsToBuy testid="own-cards" limits=OWNERSHIP_CARDS.shown(1.0) value=num(sc, |s| f64::from(s.ownership.cards)) on_change=set(sc, |s, v: f64| s.ownership.cards = v as u32)/>
        <SelectField label=Key::OwnCurrency testid="own-currency" options=currencies value=enum_get(sc, |s| s.ownership.currency) on_change=enum_set(sc, |s, v| s.ownership.currency = v)/>
        <NumField label=Key::CardPrice testid="own-price" limits=OWNERSHIP_CARD_PRICE.shown(1.0) value=price on_change=set_price on_empty=clear_price/>
        <SelectField label=Key::Profile testid="own-profile" options=profiles value=get(sc, |s| s.ownership.profile.clone()) on_change=on_profile/>
        <p class="muted" data-testid="own-host" hidden=move || custom.get()>{host_line}</p>
        <div hidden=move || !custom.get()>
            <NumFields rows=OWNERSHIP_COSTS/>
            <NumField label=Key::OpsShare testid="own-ops" limits=OWNERSHIP_OPS_SHARE.shown(100.0) value=ops on_change=set_ops/>
            <NumField label=Key::CardsPerHost testid="own-per-host" limits=OWNERSHIP_CARDS_PER_HOST.shown(1.0) value=num(sc, |s| f64::from(s.ownership.cards_per_host.max(1)))
                on_change=set(sc, |s, v: f64| s.ownership.cards_per_host = v as u32)/>
        </div>
    }
}

/// The site, running costs, depreciation, use and the rental prices compared.
#[component]
fn RunningFields() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let sites = Signal::derive(move || {
        let l = lang.get();
        let mut v: Vec<(String, String)> = SITES
            .iter()
            .map(|s| (s.id.to_string(), if l == Lang::Zh { s.name_zh } else { s.name_en }.to_string()))
            .collect();
        v.push(("custom".into(), Key::CustomSite.text(l).into()));
        v
    });
    let on_site = Callback::new(move |id: String| {
        sc.update(|s| match site(&id) {
            Some(p) => {
                let rate = s.money.cny_per_usd;
                s.ownership.apply_site(p, rate);
            }
            None => s.ownership.site = id,
        })
    });
    let (rh, set_rh, clear_rh) = opt(sc, |s| s.ownership.rent_hourly, |s, v| s.ownership.rent_hourly = v);
    let (rm, set_rm, clear_rm) = opt(sc, |s| s.ownership.rent_monthly, |s, v| s.ownership.rent_monthly = v);
    let (ry, set_ry, clear_ry) = opt(sc, |s| s.ownership.rent_yearly, |s, v| s.ownership.rent_yearly = v);
    let (lw, set_lw, clear_lw) = opt(sc, |s| s.ownership.lead_weeks, |s, v| s.ownership.lead_weeks = v);
    let (util, set_util) = pct(sc, |s| s.ownership.utilisation, |s, v| s.ownership.utilisation = v);
    let (mnt, set_mnt) = pct(sc, |s| s.ownership.maintenance_per_year, |s, v| s.ownership.maintenance_per_year = v);
    let (res, set_res) = pct(sc, |s| s.ownership.residual, |s, v| s.ownership.residual = v);
    let (disc, set_disc) = pct(sc, |s| s.ownership.discount_rate, |s, v| s.ownership.discount_rate = v);
    view! {
        <SelectField label=Key::Site testid="own-site" options=sites value=get(sc, |s| s.ownership.site.clone()) on_change=on_site/>
        <NumFields rows=OWNERSHIP_SITE/>
        <NumField label=Key::Maintenance testid="own-maint" limits=OWNERSHIP_MAINTENANCE_PER_YEAR.shown(100.0) value=mnt on_change=set_mnt/>
        <NumField label=Key::Depreciation testid="own-years" limits=OWNERSHIP_DEPRECIATION_YEARS.shown(1.0) value=num(sc, |s| s.ownership.depreciation_years) on_change=set(sc, |s, v| s.ownership.depreciation_years = v)/>
        <NumField label=Key::Residual testid="own-residual" limits=OWNERSHIP_RESIDUAL.shown(100.0) value=res on_change=set_res/>
        <NumField label=Key::Discount testid="own-discount" limits=OWNERSHIP_DISCOUNT_RATE.shown(100.0) value=disc on_change=set_disc/>
        <NumField label=Key::Utilisation testid="own-util" limits=OWNERSHIP_UTILISATION.shown(100.0) value=util on_change=set_util/>
        <NumField label=Key::RentHourly testid="own-rent-h" limits=OWNERSHIP_RENT_HOURLY.shown(1.0) value=rh on_change=set_rh on_empty=clear_rh/>
        <NumField label=Key::RentMonthly testid="own-rent-m" limits=OWNERSHIP_RENT_MONTHLY.shown(1.0) value=rm on_change=set_rm on_empty=clear_rm/>
        <NumField label=Key::RentYearly testid="own-rent-y" limits=OWNERSHIP_RENT_YEARLY.shown(1.0) value=ry on_change=set_ry on_empty=clear_ry/>
        <NumField label=Key::LeadWeeks testid="own-lead" limits=OWNERSHIP_LEAD_WEEKS.shown(1.0) value=lw on_change=set_lw on_empty=clear_lw/>
        <NumField label=Key::Months testid="own-months" limits=OWNERSHIP_MONTHS.shown(1.0) value=num(sc, |s| f64::from(s.ownership.months)) on_change=set(sc, |s, v: f64| s.ownership.months = v as u32)/>
    }
}

/// The monthly demand profile, read by the domain (`Ownership::parse_demand`), with the reason
/// a typed profile was refused.
#[component]
fn DemandField() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let demand_err = RwSignal::new(None::<DemandError>);
    view! {
        <label class="field"><span>{tr(lang, Key::Demand)}</span>
            <input type="text" data-testid="own-demand" aria-invalid=move || demand_err.get().is_some().to_string()
                prop:value=move || sc.with(|s| s.ownership.demand.iter().map(|v| format!("{v}")).collect::<Vec<_>>().join(", "))
                on:input=move |ev| match Ownership::parse_demand(&event_target_value(&ev)) {
                    Ok(v) => { demand_err.set(None); sc.update(|s| s.ownership.demand = v) }
                    Err(e) => demand_err.set(Some(e)),
                }/>
            {move || demand_err.get().map(|e| {
                let l = lang.get();
                let text = match e {
                    DemandError::BadNumber => Key::InvalidNumber.text(l).replace("{min}", "0").replace("{max}", &crate::domain::format::grouped(DEMAND_MAX, 0)),
                    DemandError::TooManyMonths => Key::TooManyMonths.text(l).replace("{n}", &DEMAND_MONTHS.to_string()),
                };
                view! { <span class="field-error" role="alert" data-testid="own-demand-error">{text}</span> }
            })}
        </label>
    }
}

/// Key figures, the two charts, the hybrid plan and the budget filter.
#[component]
pub fn RentVsBuyView(report: Signal<Option<Report>>) -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let rvb = Memo::new(move |_| report.get().and_then(|r| r.rent_vs_buy));
    let (cum, ann) = (NodeRef::<Canvas>::new(), NodeRef::<Canvas>::new());
    Effect::new(move |_| {
        let l = lang.get();
        let Some(r) = rvb.get() else { return };
        let cur = sc.with(|s| s.money.currency.label());
        for (node, annual, title, x, unit) in [
            (cum, false, Key::CumulativeTitle, Key::MonthsAxis, Key::MonthN),
            (ann, true, Key::AnnualTitle, Key::HoursAxis, Key::HoursPerYear),
        ] {
            let Some(el) = node.get() else { continue };
            let labels = RentLabels {
                title: title.text(l),
                x: x.text(l),
                y: cur,
                own: Key::OwnCash.text(l),
                own_net: Key::OwnNet.text(l),
                on_demand: Key::OnDemand.text(l),
                monthly: Key::MonthlyRent.text(l),
                yearly: Key::YearlyRent.text(l),
                breakeven: Key::BreakevenMark.text(l),
                unit: unit.text(l),
            };
            if let Err(e) = crate::web::canvas::draw_rent(el, &r, &labels, annual) {
                leptos::logging::warn!("rent chart: {e}");
            }
        }
    });
    let figures = move || {
        let l = lang.get();
        match rvb.get() {
            Some(r) => sc.with(|s| figures(&r, s, l)),
            None => view! { <p class="muted" data-testid="rvb-none">{Key::NoPrice.text(l)}</p> }.into_any(),
        }
    };
    let budget = move || {
        let l = lang.get();
        let cur = sc.with(|s| s.money.currency);
        let r = report.get()?;
        let name =
            |id: &str| r.cards.iter().find(|c| c.gpu == id).map_or(id.to_string(), |c| card_name(&c.gpu, &c.name, l));
        // The direct answer first (buy, rent, or both), then every card the budget allows.
        // No budget, no section.
        let said = sc.with(|s| crate::domain::budget::of(s, &r).map(|a| crate::domain::budget::lines(&a, cur, l)))?;
        Some(view! {
            <h3>{Key::BudgetFits.text(l)}</h3>
            <ul class="budget-answer" data-testid="budget-answer">{said.into_iter().map(|x| view! { <li>{x}</li> }).collect_view()}</ul>
            <ul data-testid="budget" hidden=r.budget.is_empty()>{r.budget.iter().map(|b| view! { <li>{format!("{} × {}", name(&b.gpu), b.cards)} ": "
                {b.buy_ok.then(|| format!("{} {} ", Key::Buy.text(l), b.buy_cost.map(|c| format::money(c, cur)).unwrap_or_default()))}
                {b.rent_ok.then(|| format!("{} {}", Key::RentFor.text(l), b.rent_hours.map(|h| format::hours(h, l)).unwrap_or_default()))}</li> }).collect_view()}</ul>
        })
    };
    view! {
        <section class="rvb" data-testid="rvb">
            <h2>{tr(lang, Key::RentVsBuy)}</h2>
            {figures}
            <Show when=move || rvb.with(Option::is_some)>
                <canvas node_ref=cum data-testid="chart-cumulative" width="900" height="360" role="img" aria-label=tr(lang, Key::CumulativeTitle)></canvas>
                <canvas node_ref=ann data-testid="chart-annual" width="900" height="360" role="img" aria-label=tr(lang, Key::AnnualTitle)></canvas>
            </Show>
            {budget}
        </section>
    }
}

/// The rent-or-buy figures with their formulas, lead time, bridge, hybrid plan and verdict.
fn figures(r: &RentVsBuy, s: &Scenario, l: Lang) -> AnyView {
    let m = |v: f64| format::money(v, s.money.currency);
    let note = |q: &Option<Quote>| q.as_ref().map(|q| format!(" ({})", price_note(q, l))).unwrap_or_default();
    // No rental price: nothing to break even against (not "never").
    let never = if r.rent.hourly.is_some() { Key::Never } else { Key::NoRentPrice }.text(l);
    let rows = vec![
        (Key::Card, format!("{} × {}", card_name(&r.gpu, &r.name, l), r.own.cards)),
        (Key::Hardware, format!("{}{}", m(r.own.hardware), note(&r.buy_quote))),
        (Key::AnnualFixed, m(r.own.annual_fixed)),
        (Key::PowerPerHour, m(r.own.power_per_hour)),
        (Key::OwnPerGpuHour, format!("{} ({:.0}%)", m(r.own_per_gpu_hour), r.utilisation * 100.0)),
        (
            Key::RentPerGpuHour,
            r.rent.hourly.map_or(Key::NoRentPrice.text(l).into(), |h| format!("{}{}", m(h), note(&r.rent_quote))),
        ),
        (
            Key::BreakevenHours,
            r.breakeven_hours
                .map_or(never.into(), |h| format!("{} {}", format::grouped(h, 0), Key::HoursPerYear.text(l))),
        ),
        (Key::BreakevenMonth, r.breakeven_month.map_or(never.into(), |x| format!("{x:.1} {}", Key::MonthN.text(l)))),
    ];
    let lead = [
        (
            Key::LeadTime,
            format!(
                "{} {} ({})",
                format::grouped(r.lead_weeks, 1),
                Key::Weeks.text(l),
                if r.lead_date.is_empty() { Key::Assumed.text(l) } else { &r.lead_date }
            ),
            r.lead_source.clone(),
        ),
        (
            Key::Bridge,
            r.bridge.map_or(Key::NoRentPrice.text(l).into(), m),
            crate::domain::explain::bridge_formula(l).to_string(),
        ),
    ];
    let no_demand = s.ownership.demand.is_empty();
    let hybrid = match r.hybrid.as_ref() {
        Some(h) => Some((
            Key::HybridBest,
            format!("{} ({} {})", h.best_cards, m(h.best_annual), Key::PerYear.text(l)),
            crate::domain::explain::hybrid_formula(l).to_string(),
        )),
        None if no_demand => Some((Key::HybridBest, Key::HybridNeedsDemand.text(l).to_string(), String::new())),
        None => None,
    };
    let how = crate::domain::explain::rent_vs_buy_formulas(s, r, l);
    view! {
        <table class="figures" data-testid="rvb-figures"><tbody>
            {rows.into_iter().zip(how).map(|((k, v), f)| (k, v, f)).chain(lead).chain(hybrid).map(|(k, v, f)| view! {
                <tr><th>{k.text(l)}</th><td>{v}</td><td class="muted mono how">{f}</td></tr>
            }).collect_view()}
        </tbody></table>
        <p data-testid="rvb-rules">{buy_text(BuyVerdict::of(r), l)}</p>
        {[(r.rent_first, Key::RentFirst), (r.utilisation < IDLE_UTILISATION, Key::IdleWarning)].into_iter().filter(|w| w.0).map(|w| view! { <p class="warn">{w.1.text(l)}</p> }).collect_view()}
    }
    .into_any()
}

/// "Buying beats on-demand renting above 3,100 h a year; yours: 5,256 h ✓ · or when …".
fn buy_text(v: BuyVerdict, l: Lang) -> String {
    let h = |x: f64| format!("{} {}", format::grouped(x, 0), Key::HoursPerYear.text(l));
    let mark = if v.buy() { "✓" } else { "✗" };
    let head = match v {
        BuyVerdict::Breakeven { breakeven, busy } => {
            Key::BuyAbove.text(l).replace("{h}", &h(breakeven)).replace("{yours}", &h(busy))
        }
        BuyVerdict::NeverCheaper { busy } => Key::BuyNever.text(l).replace("{yours}", &h(busy)),
        BuyVerdict::RuleOfThumb { busy } => format!("{} {} {}", Key::BuyWhen.text(l), Key::RuleHours.text(l), h(busy)),
    };
    format!("{head} {mark} · {}", Key::RuleRetrain.text(l))
}

/// Plain numeric inputs of this form, rendered by one loop (fields.rs `NumFields`).
const OWNERSHIP_COSTS: &[Num] = &[
    num_row(
        Key::ServerPrice,
        "own-server",
        OWNERSHIP_SERVER_PRICE.shown(1.0),
        |s| s.ownership.server_price,
        |s, v| s.ownership.server_price = v,
    ),
    num_row(
        Key::NetworkPerServer,
        "own-net",
        OWNERSHIP_NETWORK_PER_SERVER.shown(1.0),
        |s| s.ownership.network_per_server,
        |s, v| s.ownership.network_per_server = v,
    ),
    num_row(
        Key::RackPerMonth,
        "own-rack",
        OWNERSHIP_RACK_PER_MONTH.shown(1.0),
        |s| s.ownership.rack_per_month,
        |s, v| s.ownership.rack_per_month = v,
    ),
    num_row(
        Key::HostWatts,
        "own-host-w",
        OWNERSHIP_HOST_WATTS.shown(1.0),
        |s| s.ownership.host_watts,
        |s, v| s.ownership.host_watts = v,
    ),
];

/// Plain numeric inputs of this form, rendered by one loop (fields.rs `NumFields`).
const OWNERSHIP_SITE: &[Num] = &[
    num_row(
        Key::Electricity,
        "own-kwh",
        OWNERSHIP_ELECTRICITY_PER_KWH.shown(1.0),
        |s| s.ownership.electricity_per_kwh,
        |s, v| {
            s.ownership.electricity_per_kwh = v;
            s.ownership.site = "custom".into()
        },
    ),
    num_row(
        Key::Pue,
        "own-pue",
        OWNERSHIP_PUE.shown(1.0),
        |s| s.ownership.pue,
        |s, v| {
            s.ownership.pue = v;
            s.ownership.site = "custom".into()
        },
    ),
    num_row(
        Key::OpsSalary,
        "own-salary",
        OWNERSHIP_OPS_SALARY_PER_YEAR.shown(1.0),
        |s| s.ownership.ops_salary_per_year,
        |s, v| s.ownership.ops_salary_per_year = v,
    ),
];
