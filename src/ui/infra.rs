//! Beyond the card: storage/network/power inputs, the report's `infra` figures, and the
//! printable procurement checklist of the focus card.

use super::bind::{get, set};
use super::fields::{num_row, Num, NumFields, SelectField};
use super::i18n::{card_name, tr, Key, Lang};
use crate::domain::checklist::checklist;
use crate::domain::scenario::ranges::*;
use crate::domain::verdict::focus;
use crate::domain::{format, format::Lang as L, Catalog, Report, Scenario};
use leptos::prelude::*;

/// Storage, network and room inputs.
#[component]
pub fn InfraForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let rooms = Signal::derive(move || {
        let l = lang.get();
        vec![
            ("datacenter".to_string(), Key::RoomDc.text(l).to_string()),
            ("office".to_string(), Key::RoomOffice.text(l).to_string()),
        ]
    });
    // Checkpoints, tokenized datasets and fabric sizing follow language-model training.
    view! {
        <fieldset class="group" id="infra" hidden=super::vision::vision_job(sc)>
            <legend>{tr(lang, Key::Beyond)}</legend>
            <NumFields rows=INFRA_FIELDS/>
            <SelectField label=Key::Room testid="room" options=rooms value=get(sc, |s| s.infra.room.clone()) on_change=set(sc, |s, v| s.infra.room = v)/>
        </fieldset>
    }
}

fn bytes_gb(b: f64) -> String {
    if b >= 1e12 {
        format!("{:.2} TB", b / 1e12)
    } else {
        format!("{:.1} GB", b / 1e9)
    }
}

/// Storage, network and power figures of the focus card's plan.
#[component]
pub fn InfraView(report: Signal<Option<Report>>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let sc = expect_context::<RwSignal<Scenario>>();
    move || {
        let l = lang.get();
        let cur = sc.with(|s| s.money.currency);
        let r = report.get()?;
        let i = r.infra?;
        let name = r
            .cards
            .iter()
            .find(|c| c.gpu == i.gpu)
            .map(|c| format!("{} × {}", card_name(&c.gpu, &c.name, l), c.gpus))
            .unwrap_or_default();
        let p = i.power;
        let mut rows = vec![
            (Key::Card, name),
            (Key::CkptWeights, bytes_gb(i.checkpoint_weights)),
            (Key::CkptFull, bytes_gb(i.checkpoint_full)),
            (Key::Dataset, bytes_gb(i.dataset)),
            (
                Key::StorageTotal,
                format!(
                    "{} ({} {} / {} {})",
                    bytes_gb(i.storage),
                    format::money(i.storage_own_cost, cur),
                    Key::ToBuy.text(l),
                    format::money(i.storage_rent_month, cur),
                    Key::PerMonthRented.text(l)
                ),
            ),
            (Key::CkptWrite, format!("{:.0} s", i.checkpoint_write_s)),
            (Key::CkptShare, format!("{:.1}%", i.checkpoint_overhead * 100.0)),
        ];
        rows.push((
            Key::NetNeeded,
            i.network.map_or(Key::NetNone.text(l).to_string(), |n| {
                format!("{:.1} Gb/s / {:.0} Gb/s ({:.0}%)", n.needed_gbit, n.fabric_gbit, n.comm_share * 100.0)
            }),
        ));
        rows.extend([
            (
                Key::ServerPower,
                format!(
                    "{} W ({} × {} + {})",
                    format::grouped(p.server_w, 0),
                    p.cards_per_server,
                    format::card_power(p.card_power, l),
                    Key::Host.text(l)
                ),
            ),
            (Key::RackPower, format!("{:.1} kW", p.rack_w / 1000.0)),
            (Key::ItLoad, format!("{:.1} kW ({} × {})", p.it_kw, p.servers, format::grouped(p.server_w, 0) + " W")),
            (Key::Psu, format!("{} W", format::grouped(p.psu_w, 0))),
            (Key::Ups, format!("{:.1} kVA", p.ups_kva)),
            (Key::Heat, format!("{} BTU/h, {:.1} RT", format::grouped(p.heat_btu_h, 0), p.cooling_tons)),
            (Key::FacilityPower, format!("{:.1} kW", p.facility_kw)),
        ]);
        Some(view! {
            <section class="infra" data-testid="infra">
                <h2>{Key::Beyond.text(l)}</h2>
                <table class="figures"><tbody>{rows.into_iter().map(|(k, v)| view! { <tr><th>{k.text(l)}</th><td>{v}</td></tr> }).collect_view()}</tbody></table>
                {i.warnings.iter().map(|w| view! { <p class="warn">{format::warning(w, l)}</p> }).collect_view()}
            </section>
        })
    }
}

/// The focus card's procurement checklist, in the page language, printable.
#[component]
pub fn Checklist(report: Signal<Option<Report>>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let sc = expect_context::<RwSignal<Scenario>>();
    // Rebuilt only when the focus card changes, not on every keystroke.
    let card = Memo::new(move |_| {
        // The infrastructure's card, else (vision jobs have no infrastructure sizing) the focus card.
        sc.with(|s| {
            let id = report.with(|r| {
                let r = r.as_ref()?;
                r.infra.as_ref().map(|i| i.gpu.clone()).or_else(|| focus(s, &r.cards).map(|v| v.gpu.clone()))
            })?;
            s.gpu(Catalog::embedded(), &id).cloned()
        })
    });
    move || {
        let l = lang.get();
        let g = card.get()?;
        let items = checklist(&g, Catalog::embedded());
        Some(view! {
            <section class="checklist" data-testid="checklist">
                <h2>{Key::Checklist.text(l)} " — " {g.name_in(l == Lang::Zh).to_string()}
                    <button type="button" class="print" on:click=|_| { let _ = web_sys::window().map(|w| w.print()); }>{Key::Print.text(l)}</button></h2>
                <ul>{items.into_iter().map(|i| view! {
                    <li><label><input type="checkbox"/> " " <b>{if l == L::Zh { i.topic_zh } else { i.topic_en }}</b> ": " {if l == L::Zh { i.zh } else { i.en }}</label></li>
                }).collect_view()}</ul>
            </section>
        })
    }
}

/// Plain numeric inputs of this form, rendered by one loop (fields.rs `NumFields`).
const INFRA_FIELDS: &[Num] = &[
    num_row(
        Key::CkptEvery,
        "ckpt-every",
        INFRA_CHECKPOINT_EVERY_HOURS.shown(1.0),
        |s| s.infra.checkpoint_every_hours,
        |s, v| s.infra.checkpoint_every_hours = v,
    ),
    num_row(
        Key::CkptKept,
        "ckpt-kept",
        INFRA_CHECKPOINTS_KEPT.shown(1.0),
        |s| f64::from(s.infra.checkpoints_kept),
        |s, v| s.infra.checkpoints_kept = v as u32,
    ),
    num_row(
        Key::StorageGbs,
        "storage-gbs",
        INFRA_STORAGE_GB_S.shown(1.0),
        |s| s.infra.storage_gb_s,
        |s, v| s.infra.storage_gb_s = v,
    ),
    num_row(
        Key::BytesPerToken,
        "bytes-token",
        INFRA_DATASET_BYTES_PER_TOKEN.shown(1.0),
        |s| s.infra.dataset_bytes_per_token,
        |s, v| s.infra.dataset_bytes_per_token = v,
    ),
    num_row(
        Key::StoragePrice,
        "storage-price",
        INFRA_STORAGE_PRICE_PER_TB.shown(1.0),
        |s| s.infra.storage_price_per_tb,
        |s, v| s.infra.storage_price_per_tb = v,
    ),
    num_row(
        Key::StorageRent,
        "storage-rent",
        INFRA_STORAGE_RENT_PER_TB_MONTH.shown(1.0),
        |s| s.infra.storage_rent_per_tb_month,
        |s, v| s.infra.storage_rent_per_tb_month = v,
    ),
    num_row(
        Key::Fabric,
        "fabric",
        INFRA_FABRIC_GBIT_PER_GPU.shown(1.0),
        |s| s.infra.fabric_gbit_per_gpu,
        |s, v| s.infra.fabric_gbit_per_gpu = v,
    ),
    num_row(
        Key::ServersPerRack,
        "per-rack",
        INFRA_SERVERS_PER_RACK.shown(1.0),
        |s| f64::from(s.infra.servers_per_rack),
        |s, v| s.infra.servers_per_rack = v as u32,
    ),
    num_row(
        Key::RackKw,
        "rack-kw",
        INFRA_RACK_KW_LIMIT.shown(1.0),
        |s| s.infra.rack_kw_limit,
        |s, v| s.infra.rack_kw_limit = v,
    ),
];
