//! The page: one scenario signal → one report memo → results. Effects only sync the outside
//! world (local storage, the URL, the document language).

use super::accuracy::AccuracyView;
use super::autoplan::{AutoPlanForm, AutoPlanView};
use super::cards::{CardsForm, MoneyForm};
use super::forms::{ParallelForm, WorkloadForm};
use super::framework::FrameworkForm;
use super::i18n::{Key, Lang};
use super::infra::{Checklist, InfraForm, InfraView};
use super::ownership::{OwnershipForm, RentVsBuyView};
use super::results::{CardDetail, Ranking, Summary};
use super::scenarios::Scenarios;
use crate::domain::{plan, Catalog, Report, Scenario};
use crate::web;
use leptos::prelude::*;

/// The first scenario: the share link, else the saved one, else the demo; plus what went wrong
/// with the link and with storage.
fn initial(l: Lang) -> (Scenario, Option<String>, Option<String>) {
    let (saved, storage_msg) = match web::storage::load() {
        Ok(s) => (s.unwrap_or_default(), None),
        Err(e) => (Scenario::default(), Some(Key::from(e).text(l).to_string())),
    };
    match web::url::load() {
        Some(Ok(s)) => (s, None, storage_msg),
        Some(Err(e)) => (saved, Some(e.to_string()), storage_msg),
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

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let lang = RwSignal::new(initial_lang());
    let (first, link_error, storage_error) = initial(lang.get_untracked());
    let storage_msg = RwSignal::new(storage_error);
    let scenario = RwSignal::new(first);
    provide_context(scenario);
    provide_context(lang);
    let embed = query_flag("embed");
    let result = Memo::new(move |_| scenario.with(|s| plan(s, Catalog::embedded()).map_err(|e| e.to_string())));
    // An invalid scenario never replaces the last good report on screen.
    let last_good = Memo::new(move |prev: Option<&Option<Report>>| match result.get() {
        Ok(r) => Some(r),
        Err(_) => prev.cloned().flatten(),
    });
    let report: Signal<Option<Report>> = last_good.into();
    let selected = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        scenario.with(|s| {
            if let Err(e) = web::storage::save(s) {
                let e = Key::from(e).text(lang.get_untracked());
                if storage_msg.get_untracked().as_deref() != Some(e) {
                    storage_msg.set(Some(e.to_string()));
                }
            }
            web::url::replace(s);
        })
    });
    Effect::new(move |_| {
        let l = lang.get();
        web::storage::save_lang(l.tag());
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", l.tag());
        }
    });
    let t = move |k: Key| k.text(lang.get());
    let toggle_lang = move |_| lang.update(|l| *l = if *l == Lang::En { Lang::Zh } else { Lang::En });
    view! {
        <div class="app" class:embed=embed>
            <Show when=move || !embed>
                <header>
                    <h1>{move || t(Key::Title)}</h1>
                    <p>{move || t(Key::Tagline)}</p>
                    <button type="button" data-testid="lang" on:click=toggle_lang>
                        {move || t(Key::Language)}
                    </button>
                </header>
            </Show>
            {move || storage_msg.get().map(|e| view! { <p class="muted" role="status" data-testid="storage-status">{t(Key::StorageProblem)} ": " {e}</p> })}
            {link_error.map(|e| view! { <p class="error" role="alert" data-testid="link-error">{move || t(Key::LinkDamaged)} " (" {e.clone()} ")"</p> })}
            <div class="layout">
                <aside class="inputs" aria-label="inputs">
                    <WorkloadForm/>
                    <ParallelForm/>
                    <fieldset class="group"><FrameworkForm/></fieldset>
                    <AutoPlanForm/>
                    <CardsForm/>
                    <MoneyForm/>
                    <OwnershipForm report/>
                    <InfraForm/>
                </aside>
                <main class="results">
                    <Show when=move || embed>
                        <button type="button" class="embed-lang" data-testid="lang" on:click=toggle_lang>
                            {move || t(Key::Language)}
                        </button>
                    </Show>
                    {move || result.get().err().map(|e| view! { <p class="error" role="alert" data-testid="plan-error">{t(Key::PlanFailed)} ": " {e}</p> })}
                    <Summary report/>
                    <Ranking report selected/>
                    <CardDetail report selected/>
                    <AutoPlanView/>
                    <RentVsBuyView report/>
                    <InfraView report/>
                    <Checklist report/>
                    <AccuracyView/>
                </main>
            </div>
            <Show when=move || !embed>
                <Scenarios/>
                <footer><p class="muted">{move || t(Key::Footer)}</p></footer>
            </Show>
        </div>
    }
}
