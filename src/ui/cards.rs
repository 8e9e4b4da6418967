//! Cards to consider (filters, custom cards) and money (currency, rate, own price quotes).

use super::bind::{enum_get, enum_set, get, num, set};
use super::fields::{NumField, SelectField};
use super::i18n::{tr, Key, Lang};
use crate::domain::edit::{CardField, CardInput};
use crate::domain::scenario::ranges::*;
use crate::domain::scenario::PriceOverride;
use crate::domain::{Catalog, Scenario};
use leptos::prelude::*;

fn toggle(list: &mut Vec<String>, item: &str, on: bool) {
    list.retain(|x| x != item);
    if on {
        list.push(item.to_string());
    }
}

/// Segment / vendor / memory / interconnect filters and the custom-card form.
#[component]
pub fn CardsForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let mut vendors: Vec<String> = Catalog::embedded().gpus.iter().map(|g| g.vendor.clone()).collect();
    vendors.dedup();
    crate::domain::units::sort_stable_by(&mut vendors, Ord::cmp);
    vendors.dedup();
    let segments = [("datacenter", Key::Datacenter), ("workstation", Key::Workstation), ("consumer", Key::Consumer)];
    let links = Signal::derive(move || {
        let l = lang.get();
        vec![
            ("".into(), Key::Any.text(l).into()),
            ("fast".into(), Key::FastLink.text(l).into()),
            ("pcie".into(), Key::PcieOnly.text(l).into()),
        ]
    });
    view! {
        <fieldset class="group">
            <legend>{tr(lang, Key::CardsToConsider)}</legend>
            <div class="field"><span>{tr(lang, Key::Segment)}</span>
                <div class="chips">{segments.into_iter().map(|(seg, key)| view! {
                    <label class="check"><input type="checkbox" data-testid=format!("seg-{seg}")
                        prop:checked=move || sc.with(|s| s.cards.segments.is_empty() || s.cards.segments.iter().any(|x| x == seg))
                        on:change=move |ev| { let on = event_target_checked(&ev); sc.update(|s| {
                            if s.cards.segments.is_empty() { s.cards.segments = segments.iter().map(|(x, _)| x.to_string()).collect(); }
                            toggle(&mut s.cards.segments, seg, on);
                            if s.cards.segments.len() == segments.len() { s.cards.segments.clear(); }
                        }) } />
                        <span>{move || key.text(lang.get())}</span></label>
                }).collect_view()}</div>
            </div>
            <div class="field"><span>{tr(lang, Key::Vendor)}</span>
                <div class="chips">{vendors.clone().into_iter().map(|v| { let v2 = v.clone(); let v3 = v.clone(); let all = vendors.clone(); view! {
                    <label class="check"><input type="checkbox"
                        prop:checked=move || sc.with(|s| s.cards.vendors.is_empty() || s.cards.vendors.contains(&v2))
                        on:change=move |ev| { let on = event_target_checked(&ev); sc.update(|s| {
                            if s.cards.vendors.is_empty() { s.cards.vendors = all.clone(); }
                            toggle(&mut s.cards.vendors, &v3, on);
                            if s.cards.vendors.len() == all.len() { s.cards.vendors.clear(); }
                        }) } />
                        <span>{v}</span></label>
                }}).collect_view()}</div>
            </div>
            <NumField label=Key::MinMemory testid="min-mem" limits=CARDS_MIN_MEMORY_GB.shown(1.0) value=num(sc, |s| s.cards.min_memory_gb) on_change=set(sc, |s, v| s.cards.min_memory_gb = v)/>
            <SelectField label=Key::InterconnectLabel testid="link" options=links value=get(sc, |s| s.cards.interconnect.clone()) on_change=set(sc, |s, v| s.cards.interconnect = v)/>
            <CustomCard/>
        </fieldset>
    }
}

/// Adds a user's own card (saved in the scenario, shown in the ranking). Ids and limits come
/// from the domain (`edit.rs`).
#[component]
fn CustomCard() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let card = RwSignal::new(CardInput::default());
    let add = move |_| {
        let c = card.get();
        let mut added = false;
        sc.update(|s| added = s.add_custom_gpu(Catalog::embedded(), &c).is_ok());
        if added {
            card.update(|c| c.name.clear());
        }
    };
    let field = move |f: CardField, label: Key, testid: &'static str| {
        let (_, min, max) = f.limits();
        view! { <NumField label testid limits=(min, max, false) value=Signal::derive(move || Some(card.with(|c| f.get(c))))
        on_change=Callback::new(move |v| card.update(|c| f.set(c, v)))/> }
    };
    view! {
        <details class="custom-card">
            <summary>{tr(lang, Key::AddCustomCard)}</summary>
            <label class="field"><span>{tr(lang, Key::CardName)}</span>
                <input type="text" data-testid="cc-name" prop:value=move || card.with(|c| c.name.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); card.update(|c| c.name = v) }/></label>
            {field(CardField::MemoryGb, Key::MemoryGb, "cc-mem")}
            {field(CardField::Bf16Tflops, Key::Bf16Tflops, "cc-tflops")}
            {field(CardField::BandwidthGbS, Key::BandwidthGbs, "cc-bw")}
            {field(CardField::TdpW, Key::TdpW, "cc-tdp")}
            <button type="button" data-testid="cc-add" on:click=add>{tr(lang, Key::Add)}</button>
            <ul data-testid="cc-list">{move || sc.with(|s| s.custom_gpus.iter().map(|g| { let id = g.id.clone(); view! {
                <li>{g.name.clone()} " " <button type="button" on:click=move |_| sc.update(|s| s.remove_custom_gpu(&id))>{tr(lang, Key::Remove)}</button></li>
            }}).collect_view())}</ul>
        </details>
    }
}

/// Currency, exchange rate and the user's own hourly quotes.
#[component]
pub fn MoneyForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let currencies =
        Signal::derive(|| vec![("CNY".to_string(), "CNY ¥".to_string()), ("USD".to_string(), "USD $".to_string())]);
    // A memo: the list only changes when custom cards do, not on every keystroke.
    let cards: Signal<Vec<(String, String)>> = Memo::new(move |_| {
        let zh = lang.get() == Lang::Zh;
        sc.with(|s| {
            Catalog::embedded()
                .gpus
                .iter()
                .chain(s.custom_gpus.iter())
                .map(|g| (g.id.clone(), g.name_in(zh).to_string()))
                .collect::<Vec<_>>()
        })
    })
    .into();
    let pick = RwSignal::new("h100-sxm".to_string());
    let price = RwSignal::new(None::<f64>);
    let choices = |keys: &'static [(&'static str, Key)]| {
        Signal::derive(move || keys.iter().map(|(v, k)| (v.to_string(), k.text(lang.get()).to_string())).collect())
    };
    let markets = choices(&[
        ("", Key::MarketAny),
        ("china_cloud", Key::MarketChinaCloud),
        ("global_marketplace", Key::MarketGlobal),
        ("hyperscaler", Key::MarketHyperscaler),
        ("my_quotes", Key::MarketMine),
    ]);
    let conditions = choices(&[("new", Key::CondNew), ("used", Key::CondUsed)]);
    view! {
        <fieldset class="group">
            <legend>{tr(lang, Key::Money)}</legend>
            <SelectField label=Key::Currency testid="currency" options=currencies value=enum_get(sc, |s| s.money.currency) on_change=enum_set(sc, |s, v| s.money.currency = v)/>
            <NumField label=Key::CnyPerUsd testid="cny-per-usd" limits=MONEY_CNY_PER_USD.shown(1.0) value=num(sc, |s| s.money.cny_per_usd) on_change=set(sc, |s, v| s.money.cny_per_usd = v)/>
            <SelectField label=Key::RentMarket testid="market" options=markets value=get(sc, |s| s.money.rent_market.clone()) on_change=set(sc, |s, v| s.money.rent_market = v)/>
            <SelectField label=Key::Condition testid="condition" options=conditions value=get(sc, |s| if s.money.used { "used" } else { "new" }.to_string()) on_change=set(sc, |s, v: String| s.money.used = v == "used")/>
            <div class="override">
                <SelectField label=Key::Card testid="ov-card" options=cards value=pick.into() on_change=Callback::new(move |v| pick.set(v))/>
                <NumField label=Key::PriceOverride testid="ov-price" limits=MONEY_OVERRIDES_RENT_HOURLY.shown(1.0) value=price.into() on_change=Callback::new(move |v| price.set(Some(v)))/>
                <button type="button" data-testid="ov-add" on:click=move |_| if let Some(p) = price.get() {
                    let g = pick.get();
                    sc.update(|s| { s.money.overrides.retain(|o| o.gpu != g); s.money.overrides.push(PriceOverride { gpu: g, rent_hourly: p }); });
                }>{tr(lang, Key::Add)}</button>
            </div>
            <ul>{move || sc.with(|s| s.money.overrides.iter().map(|o| { let id = o.gpu.clone(); view! {
                <li>{format!("{}: {}", s.gpu(Catalog::embedded(), &o.gpu).map_or(o.gpu.as_str(), |g| g.name_in(lang.get() == Lang::Zh)), crate::domain::format::money(o.rent_hourly, s.money.currency))} " "
                    <button type="button" on:click=move |_| sc.update(|s| s.money.overrides.retain(|x| x.gpu != id))>{tr(lang, Key::Remove)}</button></li>
            }}).collect_view())}</ul>
        </fieldset>
    }
}
