//! The page: one scenario signal → one report memo → results. Effects only sync the outside
//! world (local storage, the URL, the document language).
//!
//! The answer comes first: the summary and the ranking render on the first frame; every other
//! panel mounts on the frame after it. Each section puts its inputs beside its results (a column
//! on the left on a wide screen, just above them on a narrow one; the answer's own inputs follow it).

use super::accuracy::AccuracyView;
use super::autoplan::{AutoPlanForm, AutoPlanView};
use super::cards::{CardsForm, MoneyForm};
use super::forms::{ParallelForm, WorkloadForm};
use super::framework::FrameworkForm;
use super::i18n::{tr, Key, Lang};
use super::infra::{Checklist, InfraForm, InfraView};
use super::ownership::{OwnershipForm, RentVsBuyView};
use super::results::{Ranking, Summary};
use super::scenarios::{ScenarioBar, Scenarios, Store};
use super::serving::ServingSection;
use crate::domain::error::Engine;
use crate::domain::{plan, Catalog, PlanError, Report, Scenario};
use crate::web;
use crate::web::lazy::{Engines, State};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The first scenario: the share link, else the saved one, else the demo; plus what went wrong
/// with the link and with storage.
/// The scenario to open: the link's, else (on the full page) the one being worked on. An
/// embedded view never reads or writes storage: it shows its link, and a wiki reader's own work
/// on the full page is not theirs to see or overwrite.
fn initial(l: Lang, embed: bool) -> (Scenario, Option<crate::domain::error::DecodeError>, Option<String>) {
    let stored = if embed { Ok(None) } else { web::storage::load() };
    let (saved, storage_msg) = match stored {
        Ok(s) => (s.unwrap_or_else(|| super::prerender::first_visit(l)), None),
        Err(e) => (super::prerender::first_visit(l), Some(Key::from(e).text(l).to_string())),
    };
    match web::url::load() {
        Some(Ok(s)) => (s, None, storage_msg),
        Some(Err(e)) => (saved, Some(e), storage_msg),
        None => (saved, None, storage_msg),
    }
}

/// Remembered choice, else the browser's language.
fn initial_lang() -> Lang {
    if let Some(tag) = web::storage::load_lang() {
        return Lang::from_tag(&tag);
    }
    web_sys::window().and_then(|w| w.navigator().language()).map_or(Lang::En, |t| Lang::from_tag(&t))
}

fn query_flag(name: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| q.trim_start_matches('?').split('&').any(|kv| kv == format!("{name}=1") || kv == name))
}

/// Keeps a panel where the eye is when a click in it changes what is above it (an applied
/// auto-plan fix re-ranks the cards): after the update, scrolls by as much as the clicked
/// element's section moved. Runs in the capture phase: before the click changes anything.
fn hold_in_place(ev: leptos::ev::MouseEvent) {
    let section = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("section").ok().flatten());
    let Some(el) = section.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) else { return };
    let before = el.offset_top();
    request_animation_frame(move || {
        let moved = el.offset_top() - before;
        if let (Some(w), true) = (web_sys::window(), moved != 0) {
            w.scroll_by_with_x_and_y(0.0, f64::from(moved));
        }
    });
}

/// The page's sections as links in a bar that stays at the top (issue 29 item 10: rent or buy
/// started ~4,200 px down): each section's inputs open with their results beside them.
#[component]
fn PageIndex(embed: bool, serving: Signal<bool>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let link = move |href: &'static str, k: Key| view! { <a href=href>{tr(lang, k)}</a> };
    view! {
        <nav class="page-index" data-testid="page-index" aria-label=tr(lang, Key::PageSections)>
            {link("#answer", Key::Answer)}
            <Show when=move || serving.get()>{link("#serving", Key::ServingTitle)}</Show>
            {link("#autoplan", Key::AutoPlanNav)}
            {link("#rent-buy", Key::RentVsBuy)}
            {link("#infra", Key::Infrastructure)}
            {link("#accuracy", Key::AccuracyNav)}
            {(!embed).then(|| link("#scenarios", Key::Scenarios))}
        </nav>
    }
}

/// The top of the current answer for a link (`r=`), in the page's language.
fn link_answer(report: Signal<Option<Report>>, s: &Scenario, l: Lang) -> Option<String> {
    report.with(|r| r.as_ref().map(|r| super::prerender::snapshot(r, s, l)))
}

/// Every change of the scenario (or the open card) is saved (not when embedded) and written
/// into the address bar; a storage failure is said once, in the page's language.
fn persist(
    (scenario, report): (RwSignal<Scenario>, Signal<Option<Report>>),
    selected: RwSignal<Option<String>>,
    (lang, storage_msg): (RwSignal<Lang>, RwSignal<Option<String>>),
    embed: bool,
) {
    Effect::new(move |_| {
        scenario.with(|s| {
            if let Err(e) = if embed { Ok(()) } else { web::storage::save(s) } {
                let e = Key::from(e).text(lang.get_untracked());
                if storage_msg.get_untracked().as_deref() != Some(e) {
                    storage_msg.set(Some(e.to_string()));
                }
            }
            // The link carries the top of this answer for its recipient's first paint.
            let snap = link_answer(report, s, lang.get());
            web::url::replace(s, selected.get().as_deref(), snap.as_deref());
        })
    });
}

/// The chosen language is remembered and set on the document (screen readers, fonts).
fn follow_lang(lang: RwSignal<Lang>) {
    Effect::new(move |_| {
        let l = lang.get();
        web::storage::save_lang(l.tag());
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", l.tag());
        }
    });
}

/// Why there is no plan: an engine on its way (or not downloaded), or the scenario's fault.
fn plan_status(e: PlanError, engines: Engines, lang: RwSignal<Lang>) -> AnyView {
    let t = move |k: Key| k.text(lang.get());
    match e {
        PlanError::NotLoaded(which) if engines.state(which) == State::Failed => {
            let what = if which == Engine::Serving { Key::ServingUnloaded } else { Key::VisionUnloaded };
            view! { <p class="error" role="alert" data-testid="engine-unloaded">{t(what)} " "
                <button type="button" data-testid="engine-retry" on:click=move |_| engines.retry(which)>{t(Key::TryAgain)}</button></p> }
            .into_any()
        }
        PlanError::NotLoaded(which) => {
            let what = if which == Engine::Serving { Key::ServingLoading } else { Key::VisionLoading };
            view! { <p class="muted" role="status" data-testid="engine-loading">{t(what)}</p> }.into_any()
        }
        e => view! { <p class="error" role="alert" data-testid="plan-error">{t(Key::PlanFailed)} ": " {crate::domain::format::plan_error(&e, lang.get())}</p> }.into_any(),
    }
}

/// Set once the answer is painted (the second frame): everything below it mounts then. An
/// inference or vision link's answer waits for its engine (web/lazy.rs), and so does the lower
/// half, so that building it does not delay the answer.
fn after_the_answer(engines: Engines, scenario: RwSignal<Scenario>) -> RwSignal<bool> {
    let later = RwSignal::new(false);
    Effect::new(move |started: Option<bool>| {
        if started == Some(true) || engines.waiting(scenario) {
            return started.unwrap_or(false);
        }
        request_animation_frame(move || request_animation_frame(move || later.set(true)));
        true
    });
    later
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let lang = RwSignal::new(initial_lang());
    let embed = query_flag("embed");
    let (first, link_error, storage_error) = initial(lang.get_untracked(), embed);
    web::trace::mark("scenario");
    // Opened from a link: its scenario's name and open card are said above the answer (a
    // recipient would otherwise find the name only in the scenarios panel at the bottom).
    let from_link =
        (link_error.is_none() && web::url::load().is_some()).then(|| (first.clone(), web::url::load_card()));
    let storage_msg = RwSignal::new(storage_error);
    let scenario = RwSignal::new(first);
    provide_context(scenario);
    provide_context(lang);
    // Inference and vision scenarios wait for their engine (web/lazy.rs); the plan re-runs when
    // it is in.
    let engines = Engines::new(scenario);
    provide_context(engines);
    let result = Memo::new(move |old: Option<&_>| {
        engines.track();
        let r = scenario.with(|s| web::trace::measure("plan", || plan(s, Catalog::embedded())));
        if old.is_none() {
            web::trace::mark("plan");
        }
        r
    });
    // A scenario that cannot be planned shows its reason and no figures: the last plan's table
    // under the new model's name would be another model's answer. (A field's invalid text is
    // never written to the scenario, so typing keeps the last good result; ui/fields.rs.)
    let report: Signal<Option<Report>> = Memo::new(move |_| result.get().ok()).into();
    // The card whose details are open; the share link carries it.
    let selected = RwSignal::new(web::url::load_card());
    persist((scenario, report), selected, (lang, storage_msg), embed);
    if !embed {
        provide_context(Store::load(lang));
    }
    let later = after_the_answer(engines, scenario);
    follow_lang(lang);
    let t = move |k: Key| k.text(lang.get());
    // Vision jobs have no tensor/pipeline layout (domain/vision.rs: data parallel only).
    let vision = super::vision::vision_job(scenario);
    let toggle_lang = move |_| lang.update(|l| *l = if *l == Lang::En { Lang::Zh } else { Lang::En });
    let lang_button = move || view! { <button type="button" data-testid="lang" on:click=toggle_lang>{tr(lang, Key::Language)}</button> };
    // In a wiki iframe: the same scenario and open card on the full page, in a new tab.
    let full = move || {
        web::files::page_url(&scenario.with(|s| {
            let snap = link_answer(report, s, lang.get());
            web::url::query(s, selected.get().as_deref(), snap.as_deref())
        }))
    };
    view! {
        <div class="app" class:embed=embed>
            {if embed {
                view! { <div class="toolbar embed-bar"><a data-testid="open-full" href=full target="_blank" rel="noopener">{tr(lang, Key::OpenFull)}</a>{lang_button}</div> }.into_any()
            } else {
                view! { <header><h1>{tr(lang, Key::Title)}</h1><p>{tr(lang, Key::Tagline)}</p><ScenarioBar card=selected/>{lang_button}</header> }.into_any()
            }}
            <PageIndex embed serving=Signal::derive(move || scenario.with(|s| !s.task.is_training()))/>
            {move || storage_msg.get().map(|e| view! { <p class="muted" role="status" data-testid="storage-status">{t(Key::StorageProblem)} ": " {e}</p> })}
            {link_error.map(|e| view! { <p class="error" role="alert" data-testid="link-error">{tr(lang, Key::LinkDamaged)} " (" {move || crate::domain::format::decode_error(&e, lang.get())} ")"</p> })}
            // [inputs | results] pairs on a two-column grid: the answer first in the page order
            // (on a narrow screen it comes before its inputs), then each form and its results.
            <div class="pairs" on:click:capture=hold_in_place>
                <main class="results" id="answer">
                    {from_link.map(|(sent, card)| {
                        let name = move || super::scenarios::shown_name(&sent, lang.get());
                        let card = move || card.as_ref().and_then(|id| report.with(|r| r.as_ref()?.cards.iter().find(|c| &c.gpu == id).map(|c| super::i18n::card_name(&c.gpu, &c.name, lang.get()))));
                        view! { <p class="muted" data-testid="link-name">{tr(lang, Key::FromLink)} " «" {name} "»"
                            {move || card().map(|c| format!(" · {}: {c}", Key::Card.text(lang.get())))}</p> }
                    })}
                    {move || result.get().err().map(|e| plan_status(e, engines, lang))}
                    <Summary report/>
                    <Ranking report selected/>
                </main>
                {move || later.get().then(|| view! {
                    <aside class="inputs" aria-label="inputs">
                        <WorkloadForm/>
                        <details class="fold-group" hidden=vision><summary>{tr(lang, Key::Parallelism)}</summary>
                            <ParallelForm/><fieldset class="group"><FrameworkForm/></fieldset></details>
                        <details class="fold-group"><summary>{tr(lang, Key::CardsToConsider)}</summary><CardsForm/></details>
                        <details class="fold-group"><summary>{tr(lang, Key::Money)}</summary><MoneyForm/></details>
                    </aside>
                    <ServingSection report selected/>
                    <AutoPlanForm/><AutoPlanView/>
                    <OwnershipForm report/><RentVsBuyView report/>
                    <InfraForm/><InfraView report/><Checklist report/>
                    <AccuracyView/>
                    {(!embed).then(|| view! { <Scenarios/><footer><p class="muted">{tr(lang, Key::Footer)} " " <a href="catalog.json" target="_blank" rel="noopener" data-testid="catalog-link">"catalog.json"</a></p></footer> })}
                })}
            </div>
        </div>
    }
}
