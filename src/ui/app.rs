//! The page: inputs → scenario signal → report memo → results. Effects only sync the outside world.

use super::i18n::{Key, Lang};
use crate::domain::{format, model, plan, scenario::Task, Catalog, Report, Scenario};
use crate::web;
use leptos::prelude::*;

/// The first scenario: the share link, else the saved one, else the demo. Also says what went wrong.
fn initial() -> (Scenario, Option<String>) {
    match web::url::load() {
        Some(Ok(s)) => return (s, None),
        Some(Err(e)) => return (web::storage::load().ok().flatten().unwrap_or_default(), Some(e.to_string())),
        None => {}
    }
    (web::storage::load().ok().flatten().unwrap_or_default(), None)
}

fn browser_lang() -> Lang {
    web_sys::window().and_then(|w| w.navigator().language()).map_or(Lang::En, |t| Lang::from_tag(&t))
}

fn task_key(t: Task) -> Key {
    match t {
        Task::Pretrain => Key::Pretrain,
        Task::FullFinetune => Key::FullFinetune,
        Task::Lora => Key::Lora,
        Task::Qlora => Key::Qlora,
        Task::Inference => Key::Inference,
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (first, link_error) = initial();
    let scenario = RwSignal::new(first);
    let lang = RwSignal::new(browser_lang());
    let report = Memo::new(move |_| scenario.with(|s| plan(s, Catalog::embedded()).map_err(|e| e.to_string())));
    Effect::new(move |_| {
        scenario.with(|s| {
            let _ = web::storage::save(s);
            web::url::replace(s);
        })
    });
    let t = move |k: Key| k.text(lang.get());
    view! {
        <main class="app">
            <header>
                <h1>{move || t(Key::Title)}</h1>
                <p>{move || t(Key::Tagline)}</p>
                <button data-testid="lang" on:click=move |_| lang.update(|l| *l = if *l == Lang::En { Lang::Zh } else { Lang::En })>
                    {move || t(Key::Language)}
                </button>
            </header>
            {link_error.map(|e| view! { <p class="error" data-testid="link-error">{move || t(Key::LinkDamaged)} ": " {e.clone()}</p> })}
            <section class="inputs">
                <label>{move || t(Key::Task)}
                    <select data-testid="task" on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some(task) = Task::ALL.into_iter().find(|t| format!("{t:?}") == v) { scenario.update(|s| s.task = task) }
                    }>
                        {Task::ALL.into_iter().map(|tk| view! {
                            <option value=format!("{tk:?}") selected=move || scenario.with(|s| s.task == tk)>{move || t(task_key(tk))}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>{move || t(Key::Model)}
                    <select data-testid="model" on:change=move |ev| { let v = event_target_value(&ev); scenario.update(|s| s.model = v) }>
                        {model::presets().iter().map(|m| { let id = m.id.clone(); view! {
                            <option value=m.id.clone() selected=move || scenario.with(|s| s.model == id)>{m.name.clone()}</option>
                        }}).collect_view()}
                    </select>
                </label>
                <SeqField scenario lang/>
            </section>
            {move || match report.get() {
                Ok(r) => view! { <Results report=r lang=lang.get() currency=scenario.with(|s| s.money.currency)/> }.into_any(),
                Err(e) => view! { <p class="error" data-testid="plan-error">{e}</p> }.into_any(),
            }}
        </main>
    }
}

/// Sequence length: parsed where typed; an invalid value shows a message and keeps the last result.
#[component]
fn SeqField(scenario: RwSignal<Scenario>, lang: RwSignal<Lang>) -> impl IntoView {
    let error = RwSignal::new(false);
    view! {
        <label>{move || Key::SeqLen.text(lang.get())}
            <input data-testid="seq" type="number" min="1" inputmode="numeric"
                prop:value=move || scenario.with(|s| s.training.seq_len.to_string())
                on:input=move |ev| {
                    match event_target_value(&ev).trim().parse::<u32>() {
                        Ok(v) if (1..=2_097_152).contains(&v) => { error.set(false); scenario.update(|s| s.training.seq_len = v) }
                        _ => error.set(true),
                    }
                } />
            <Show when=move || error.get()>
                <span class="field-error" data-testid="seq-error">
                    {move || Key::InvalidNumber.text(lang.get()).replace("{min}", "1").replace("{max}", "2097152")}
                </span>
            </Show>
        </label>
    }
}

/// The report: headline numbers and the card ranking.
#[component]
fn Results(report: Report, lang: Lang, currency: crate::domain::scenario::Currency) -> impl IntoView {
    let t = |k: Key| k.text(lang);
    let rows = report
        .cards
        .iter()
        .map(|c| {
            let time = c.hours.map_or_else(
                || {
                    c.throughput
                        .map_or("—".to_string(), |th| format!("{} tok/s", format::grouped(th.decode_tokens_s, 0)))
                },
                |h| format::hours(h, lang),
            );
            let cost = c.cost.map_or("—".to_string(), |v| format::money(v, currency));
            let layout = format!(
                "TP{} PP{} DP{} ZeRO-{} {:?}",
                c.layout.tp, c.layout.pp, c.layout.dp, c.layout.zero, c.layout.recompute
            );
            let warnings = c.warnings.iter().map(|w| format::warning(w, lang)).collect::<Vec<_>>().join("; ");
            view! {
                <tr data-testid=format!("card-{}", c.gpu) class=if c.fits { "fits" } else { "nofit" }>
                    <td>{c.name.clone()}</td>
                    <td>{if c.fits { t(Key::Yes) } else { t(Key::No) }}</td>
                    <td>{c.gpus}</td>
                    <td>{layout}</td>
                    <td>{format::gib(c.memory.total)} " / " {format::gib(c.capacity)}</td>
                    <td>{time}</td>
                    <td>{cost}</td>
                    <td class="warn">{warnings}</td>
                </tr>
            }
        })
        .collect_view();
    let q = report.quick_rule;
    view! {
        <section class="summary">
            <p>{t(Key::Params)} ": " <b data-testid="params">{format!("{:.2} B", report.params / 1e9)}</b></p>
            <p>{t(Key::MemorySingle)} ": " <b data-testid="memory-total">{format::gib(report.memory_single.total)}</b></p>
            <p>{t(Key::QuickRule)} ": " {format!("{} – {}", format::gib(q.low), format::gib(q.high))}</p>
            {report.training_flops.map(|f| view! { <p>{t(Key::Flops)} ": " {format::flops(f)}</p> })}
        </section>
        <div class="table-wrap"><table class="ranking" data-testid="ranking">
            <thead><tr>
                <th>{t(Key::Card)}</th><th>{t(Key::Fits)}</th><th>{t(Key::Cards)}</th><th>{t(Key::Layout)}</th>
                <th>{t(Key::MemoryPerCard)}</th><th>{t(Key::Time)}</th><th>{t(Key::Cost)}</th><th>{t(Key::Warnings)}</th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table></div>
    }
}
