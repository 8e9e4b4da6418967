//! Auto-plan: deadline/budget inputs, the search results (debounced so typing never waits for
//! it), the Pareto chart and the cheapest fixes with an "apply" button.

use super::bind::{get, num, set};
use super::fields::NumField;
use super::i18n::{tr, Key, Lang};
use crate::chart::ParetoLabels;
use crate::domain::fix::{diagnose, Diagnosis, Shortfall};
use crate::domain::scenario::ranges::*;
use crate::domain::search::{self, search, Candidate, SearchReport};
use crate::domain::{format, Catalog, Scenario};
use leptos::{html::Canvas, prelude::*};
use std::time::Duration;

/// Deadline, budget and the largest card count.
#[component]
pub fn AutoPlanForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    view! {
        <fieldset class="group" id="autoplan">
            <legend>{tr(lang, Key::AutoPlan)}</legend>
            <NumField label=Key::Deadline testid="deadline" limits=SEARCH_DEADLINE_DAYS.shown(1.0) value=get(sc, |s| s.search.deadline_days)
                on_change=set(sc, |s, v| s.search.deadline_days = Some(v)) on_empty=Callback::new(move |()| sc.update(|s| s.search.deadline_days = None))/>
            <NumField label=Key::SearchBudget testid="search-budget" limits=SEARCH_BUDGET.shown(1.0) value=get(sc, |s| s.search.budget)
                on_change=set(sc, |s, v| s.search.budget = Some(v)) on_empty=Callback::new(move |()| sc.update(|s| s.search.budget = None))/>
            <NumField label=Key::MaxGpus testid="max-gpus" limits=SEARCH_MAX_GPUS.shown(1.0) value=num(sc, |s| f64::from(s.search.max_gpus))
                on_change=set(sc, |s, v: f64| s.search.max_gpus = v as u32)/>
            {move || sc.with(|s| (s.search.max_gpus == 0 && s.task.is_training()).then(|| search::card_limit(s))).map(|n| view! {
                <p class="muted" data-testid="max-gpus-auto">{Key::MaxGpusAuto.text(lang.get()).replace("{n}", &format::grouped(f64::from(n), 0))}</p>
            })}
        </fieldset>
    }
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The split of a plan, without the card (the card has its own column).
fn layout_text(l: &crate::domain::memory::Layout, micro_batch: u32, lang: Lang) -> String {
    use crate::domain::scenario::Offload;
    let t = |k: Key| k.text(lang);
    format!(
        "TP{} PP{} DP{} ZeRO-{} · {} · {} {}{}",
        l.tp,
        l.pp,
        l.dp,
        l.zero,
        t(Key::from(l.recompute)),
        t(Key::MicroBatch),
        micro_batch,
        if l.offload == Offload::None { String::new() } else { format!(" · {}", t(Key::OffloadLabel)) }
    )
}

/// One table of plans; the three lists share its columns.
fn table(
    caption: Key,
    testid: &'static str,
    list: &[Candidate],
    n: usize,
    l: Lang,
    cur: crate::domain::scenario::Currency,
) -> impl IntoView {
    let rows = list.iter().take(n).map(|c| view! {
        <tr><td>{super::i18n::card_name(&c.gpu, &c.name, l)}</td><td>{c.layout.gpus()}</td><td>{layout_text(&c.layout, c.micro_batch, l)}</td><td>{format::hours(c.hours, l)}</td>
            <td>{c.rent_cost.map_or("—".into(), |v| format::money(v, cur))}</td><td>{c.own_cost.map_or("—".into(), |v| format::money(v, cur))}</td></tr>
    }).collect_view();
    view! {
        <div class="table-wrap"><table class="ranking" data-testid=testid><caption>{caption.text(l)}</caption>
            <thead><tr><th>{Key::Card.text(l)}</th><th>{Key::Cards.text(l)}</th><th>{Key::Layout.text(l)}</th><th>{Key::Time.text(l)}</th>
                <th>{Key::Cost.text(l)}</th><th>{Key::OwnCostRun.text(l)}</th></tr></thead>
            <tbody>{rows}</tbody></table></div>
    }
}

/// "Your plan: 2 × RTX 4090, TP1 … — does not fit: needs 612 GiB per card, has 24 GiB".
fn current_text(d: &Diagnosis, s: &Scenario, l: Lang) -> String {
    let v = &d.current;
    let name =
        s.gpu(Catalog::embedded(), &v.gpu).map_or_else(|| v.gpu.clone(), |g| g.name_in(l == Lang::Zh).to_string());
    let why: Vec<String> = d
        .shortfalls
        .iter()
        .map(|x| match x {
            Shortfall::DoesNotFit { needed, capacity } => Key::ShortNoFit
                .text(l)
                .replace("{need}", &format::gib(*needed))
                .replace("{cap}", &format::gib(*capacity)),
            Shortfall::MissesDeadline { hours: Some(h), deadline_h } => Key::ShortDeadline
                .text(l)
                .replace("{h}", &format::hours(*h, l))
                .replace("{d}", &format::hours(*deadline_h, l)),
            Shortfall::MissesDeadline { hours: None, .. } => Key::ShortNoSpeed.text(l).to_string(),
            Shortfall::MissesTargets => Key::ShortTargets.text(l).to_string(),
        })
        .collect();
    let split = if v.vision.is_some() || !s.task.is_training() {
        String::new()
    } else {
        format!(", {}", layout_text(&v.layout, s.training.micro_batch, l))
    };
    format!(
        "{}: {} × {name}{split} — {}",
        Key::YourPlan.text(l),
        v.gpus,
        why.join(if l == Lang::Zh { "；" } else { "; " })
    )
}

/// Searches 200 ms after the last edit (and when a vision job's engine arrives, web/lazy.rs).
fn searches(sc: RwSignal<Scenario>, result: RwSignal<Option<(SearchReport, Option<Diagnosis>, f64)>>) {
    let generation = StoredValue::new(0u64);
    let engines = use_context::<crate::web::lazy::Engines>();
    Effect::new(move |_| {
        engines.into_iter().for_each(crate::web::lazy::Engines::track);
        let s = sc.get();
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        set_timeout(
            move || {
                // `try_`: the panel may have been unmounted within the 200 ms (a disposed
                // value read with `get` panics, and a wasm panic stops the whole page).
                if generation.try_get_value() != Some(mine) {
                    return; // a newer edit is pending, or the panel is gone
                }
                let t = now_ms();
                let Ok(r) = search(&s, Catalog::embedded()) else {
                    result.try_set(None);
                    return;
                };
                let ms = now_ms() - t;
                result.try_set(Some((r, diagnose(&s, Catalog::embedded()), ms)));
            },
            Duration::from_millis(200),
        );
    });
}

/// The search results and fixes, recomputed 200 ms after the last edit.
#[component]
pub fn AutoPlanView() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let result = RwSignal::new(None::<(SearchReport, Option<Diagnosis>, f64)>);
    searches(sc, result);
    let canvas = NodeRef::<Canvas>::new();
    Effect::new(move |_| {
        let l = lang.get();
        result.with(|r| {
            let (Some((rep, _, _)), Some(el)) = (r.as_ref(), canvas.get()) else { return };
            let cur = sc.with_untracked(|s| s.money.currency.label());
            let labels = ParetoLabels {
                title: Key::ParetoTitle.text(l),
                x: Key::DaysAxis.text(l),
                y: cur,
                plans: Key::Plans.text(l),
                front: Key::Front.text(l),
            };
            if let Err(e) = crate::web::canvas::draw_pareto(el, rep, &labels) {
                leptos::logging::warn!("pareto chart: {e}");
            }
        });
    });
    // Memos: the tables below re-render when the search result, currency or task change,
    // not on every keystroke.
    let currency = Memo::new(move |_| sc.with(|s| s.money.currency));
    let training = Memo::new(move |_| sc.with(|s| s.task.is_training()));
    let body = move || {
        let l = lang.get();
        let cur = currency.get();
        if !training.get() {
            return view! { <p class="muted">{Key::TrainingOnly.text(l)}</p> }.into_any();
        }
        result.with(|r| match r {
            None => view! { <p class="muted">"…"</p> }.into_any(),
            Some((rep, fx, ms)) => view! {
                <p data-testid="search-summary">{format::grouped(rep.searched as f64, 0)} " " {Key::Searched.text(l)} ", "
                    {format::grouped(rep.fitting as f64, 0)} " " {Key::FitCount.text(l)} ", " {format::grouped(rep.feasible as f64, 0)} " "
                    {Key::Feasible.text(l)} " (" {format!("{ms:.1}")} " " {Key::SearchMs.text(l)} ")"</p>
                {(rep.feasible == 0).then(|| view! { <p class="warn">{Key::NoFeasible.text(l)}</p> })}
                {fx.as_ref().map(|d| view! {
                    <h3>{Key::Fixes.text(l)}</h3>
                    <p class="warn" data-testid="current-plan">{sc.with_untracked(|s| current_text(d, s, l))}</p>
                    <ul class="fixes" data-testid="fixes">{d.fixes.iter().map(|f| { let next = f.scenario.clone(); view! {
                        <li>{f.change.label(l)} ": " {f.gpus} " × " {sc.with_untracked(|s| s.gpu(Catalog::embedded(), &f.gpu).map_or_else(|| f.gpu.clone(), |g| g.name_in(l == Lang::Zh).to_string()))} ", "
                            {f.hours.map(|h| format::hours(h, l)).unwrap_or_default()} ", " {f.cost.map_or("—".into(), |c| format::money(c, cur))} " "
                            <button type="button" on:click=move |_| sc.set(next.clone())>{Key::Apply.text(l)}</button></li>
                    }}).collect_view()}</ul>
                })}
                {table(Key::PerCardBest, "per-card", &rep.per_card, 50, l, cur)}
                {table(Key::Cheapest, "cheapest", &rep.by_cost, 5, l, cur)}
                {table(Key::Fastest, "fastest", &rep.by_time, 5, l, cur)}
            }.into_any(),
        })
    };
    view! {
        <section class="autoplan" data-testid="autoplan">
            <h2>{tr(lang, Key::AutoPlan)}</h2>
            {body}
            // Hidden, not removed, when there is nothing to schedule (serving): the chart's
            // effect keeps its canvas.
            <canvas node_ref=canvas data-testid="chart-pareto" width="900" height="360" role="img" hidden=move || !training.get()
                aria-label=tr(lang, Key::ParetoTitle)></canvas>
        </section>
    }
}
