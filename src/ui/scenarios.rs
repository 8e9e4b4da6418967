//! Saved scenarios: save and share from a bar at the top of the page; below, the panel to
//! rename, duplicate, delete and open them, compare two or three side by side, export/import JSON.

use super::i18n::{tr, Key, Lang};
use crate::domain::saved::{self, Removed, Saved};
use crate::domain::{format, plan, Catalog, Scenario};
use crate::web::{files, storage};
use leptos::prelude::*;

/// The scenario's name, or — left empty, as a new scenario's is — its model and task in the
/// page's language ("Qwen2.5-7B 全参数微调"): what a save files it under and a link shows.
#[must_use]
pub fn shown_name(s: &Scenario, l: Lang) -> String {
    if !s.name.trim().is_empty() {
        return s.name.clone();
    }
    let model = s
        .model_spec()
        .map(|m| m.name.clone())
        .ok()
        .or_else(|| crate::domain::vision_data::model(&s.model).map(|v| v.name.clone()));
    saved::clip_name(&format!("{} {}", model.unwrap_or_else(|| s.model.clone()), Key::from(s.task).text(l)))
}

fn now_id() -> u64 {
    js_sys::Date::now() as u64
}

/// The saved list plus a message for storage problems, worded in the reader's language; one per
/// page (a context), shared by the bar and the panel.
#[derive(Clone, Copy)]
pub struct Store {
    list: RwSignal<Vec<Saved>>,
    problem: RwSignal<Option<String>>,
    lang: RwSignal<Lang>,
}

impl Store {
    /// Reads the saved scenarios from local storage.
    #[must_use]
    pub fn load(lang: RwSignal<Lang>) -> Self {
        let l = lang.get_untracked();
        let (list, problem) = match storage::load_saved() {
            Ok((l, 0)) => (l, None),
            Ok((list, n)) => (list, Some(Key::StoreSkipped.text(l).replace("{n}", &n.to_string()))),
            Err(e) => (Vec::new(), Some(Key::from(e).text(l).to_string())),
        };
        Self { list: RwSignal::new(list), problem: RwSignal::new(problem), lang }
    }
    fn say(&self, k: Key) {
        self.problem.set(Some(k.text(self.lang.get_untracked()).to_string()));
    }
    fn edit(&self, f: impl FnOnce(&mut Vec<Saved>)) {
        self.list.update(f);
        if let Err(e) = self.list.with(|l| storage::store_saved(l)) {
            self.say(e.into());
        }
    }
}

/// Save and share at the top of the page: the share link carries the card whose details are
/// open; the link to the panel counts the saved scenarios (a save shows there at once).
#[component]
pub fn ScenarioBar(card: RwSignal<Option<String>>) -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let store = expect_context::<Store>();
    // "Link copied", or the link itself to copy by hand (the clipboard can be off in an iframe).
    let copied = RwSignal::new(None::<Result<(), String>>);
    let t = move |k: Key| k.text(lang.get());
    // What the last save did: a save never overwrites another scenario of the same name.
    let outcome = RwSignal::new(None::<(saved::SaveOutcome, String)>);
    let save = move |_| {
        let mut s = sc.get();
        s.name = shown_name(&s, lang.get_untracked());
        let mut out = None;
        store.edit(|l| out = Some(saved::save(l, &s, now_id())));
        if let Some(o) = out {
            if let saved::SaveOutcome::Beside { name, .. } = &o {
                let name = name.clone();
                sc.update(|s| s.name = name);
            }
            outcome.set(Some((o, saved::clip_name(&s.name))));
        }
    };
    let replace = move |_| {
        if let Some((saved::SaveOutcome::Beside { id, kept, .. }, old)) = outcome.get_untracked() {
            store.edit(|l| saved::replace(l, id, kept));
            sc.update(|s| s.name = old);
            outcome.set(None);
        }
    };
    let said = move || {
        outcome.get().map(|(o, old)| {
            let l = lang.get();
            let (text, beside) = match &o {
                saved::SaveOutcome::New(_) => (Key::SavedNew.text(l).replace("{name}", &old), false),
                saved::SaveOutcome::Unchanged(_) => (Key::SavedSame.text(l).replace("{name}", &old), false),
                saved::SaveOutcome::Beside { name, .. } => {
                    (Key::SavedBeside.text(l).replace("{name}", name).replace("{old}", &old), true)
                }
            };
            let button = beside.then(|| {
                view! { <button type="button" class="link" data-testid="sc-replace" on:click=replace>{Key::ReplaceInstead.text(l).replace("{old}", &old)}</button> }
            });
            view! { <span class="ok" role="status" data-testid="sc-saved">{text} " " {button}</span> }
        })
    };
    let copy_link = move |_| {
        // The address bar's answer snapshot (`r=`) is written after the paint: bring it up to date.
        crate::web::url::flush();
        let url = files::page_url(&sc.with(|s| {
            crate::web::url::query(s, card.get().as_deref(), crate::web::url::current_snapshot().as_deref())
        }));
        copied.set(Some(if files::copy(&url) { Ok(()) } else { Err(url) }));
    };
    view! {
        <div class="toolbar">
            <button type="button" data-testid="sc-save" on:click=save>{tr(lang, Key::Save)}</button>
            <button type="button" data-testid="copy-link" on:click=copy_link>{tr(lang, Key::CopyLink)}</button>
            <a href="#scenarios">{tr(lang, Key::Scenarios)} " (" {move || store.list.with(Vec::len)} ") ↓"</a>
            {said}
            <span class="copied" data-testid="copied" class:ok=move || copied.with(|c| matches!(c, Some(Ok(()))))>{move || match copied.get() {
                None => String::new(),
                Some(Ok(())) => t(Key::Copied).to_string(),
                Some(Err(url)) => format!("{} {url}", t(Key::CopyManually)),
            }}</span>
        </div>
    }
}

/// The scenarios panel.
#[component]
pub fn Scenarios() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let store = expect_context::<Store>();
    let compare = RwSignal::new(Vec::<u64>::new());
    // The last deleted entry, until it is restored or another one is deleted.
    let undo = RwSignal::new(None::<Removed>);
    let t = move |k: Key| k.text(lang.get());
    let restore = move |_| {
        if let Some(r) = undo.get() {
            undo.set(None);
            store.edit(|l| {
                saved::restore(l, r, now_id());
            });
        }
    };
    let export = move |_| {
        let text = store.list.with(|l| crate::domain::json::write(l, true).unwrap_or_default());
        if files::download("gpu-planner-scenarios.json", &text).is_err() {
            store.say(Key::Export);
        }
    };
    // How many scenarios the last import added (said beside the buttons).
    let imported = RwSignal::new(None::<usize>);
    let import = move |ev: leptos::ev::Event| {
        let Some(file) = files::picked(&ev) else { return };
        wasm_bindgen_futures::spawn_local(async move {
            let text = files::read_text(file).await;
            match store.list.with_untracked(|l| saved::import(&text, l, now_id())) {
                Ok(items) => {
                    let n = items.len();
                    store.edit(|l| l.extend(items));
                    imported.set(Some(n));
                }
                Err(_) => store.say(Key::ImportFailed),
            }
        });
    };
    view! {
        <section class="scenarios group" id="scenarios" data-testid="scenarios">
            <h2>{tr(lang, Key::Scenarios)}</h2>
            <div class="row">
                <label class="field"><span>{tr(lang, Key::ScenarioName)}</span>
                    <input type="text" data-testid="sc-name" prop:value=move || sc.with(|s| s.name.clone())
                        placeholder=move || sc.with(|s| shown_name(s, lang.get()))
                        on:input=move |ev| { let v = event_target_value(&ev); sc.update(|s| s.name = saved::clip_name(&v)) } /></label>
                <button type="button" data-testid="sc-export" on:click=export>{tr(lang, Key::Export)}</button>
                <label class="button">{tr(lang, Key::Import)}<input type="file" accept="application/json,.json" data-testid="sc-import" class="visually-hidden" on:change=import/></label>
            </div>
            {move || imported.get().map(|n| view! { <p class="ok" role="status" data-testid="sc-imported">{t(Key::Imported).replace("{n}", &n.to_string())}</p> })}
            {move || store.problem.get().map(|p| view! { <p class="error" data-testid="storage-error">{t(Key::StorageProblem)} ": " {p}</p> })}
            <ul class="saved" data-testid="saved-list">{move || store.list.get().into_iter().map(|x| saved_row(x, store, compare, undo, sc, lang)).collect_view()}</ul>
            {move || undo.get().map(|r| view! {
                <p class="ok" role="status" data-testid="sc-deleted">{t(Key::Deleted).replace("{name}", &r.entry.name)} " "
                    <button type="button" class="link" data-testid="sc-undo" on:click=restore>{t(Key::Undo)}</button></p>
            })}
            <p class="muted">{tr(lang, Key::CompareHint)}</p>
            <CompareTable store=store.list compare/>
        </section>
    }
}

fn saved_row(
    x: Saved,
    store: Store,
    compare: RwSignal<Vec<u64>>,
    undo: RwSignal<Option<Removed>>,
    sc: RwSignal<Scenario>,
    lang: RwSignal<Lang>,
) -> impl IntoView {
    let t = move |k: Key| k.text(lang.get());
    let id = x.id;
    let open = x.scenario.clone();
    view! {
        <li>
            <input type="checkbox" aria-label=move || t(Key::Compare) prop:checked=move || compare.with(|c| c.contains(&id))
                on:change=move |ev| { let on = event_target_checked(&ev); compare.update(|c| { c.retain(|v| *v != id); if on { c.push(id); c.truncate(3); } }) }/>
            <span class="name">{x.name.clone()}</span>
            <button type="button" data-testid="sc-open" on:click=move |_| sc.set(open.clone())>{tr(lang, Key::Load)}</button>
            <button type="button" on:click=move |_| { let name = sc.with(|s| shown_name(s, lang.get_untracked())); store.edit(|l| saved::rename(l, id, &name)) }>{tr(lang, Key::Rename)}</button>
            <button type="button" data-testid="sc-duplicate" on:click=move |_| store.edit(|l| { saved::duplicate(l, id, now_id()); })>{tr(lang, Key::Duplicate)}</button>
            <button type="button" data-testid="sc-delete" on:click=move |_| {
                let mut removed = None;
                store.edit(|l| removed = saved::remove(l, id));
                if removed.is_some() { undo.set(removed) }
                compare.update(|c| c.retain(|v| *v != id));
            }>{tr(lang, Key::Delete)}</button>
        </li>
    }
}

/// Two or three saved scenarios side by side: task, model, memory, the card each scenario chose
/// (its purchase card, else its best fitting one), its count, time or serving speed, cost, and
/// what buying it costs.
#[component]
fn CompareTable(store: RwSignal<Vec<Saved>>, compare: RwSignal<Vec<u64>>) -> impl IntoView {
    use crate::domain::verdict::{focus, CardVerdict};
    use crate::domain::{Report, Scenario as S};
    let lang = expect_context::<RwSignal<Lang>>();
    let engines = use_context::<crate::web::lazy::Engines>();
    move || {
        let l = lang.get();
        let picked: Vec<Saved> =
            store.with(|list| compare.with(|c| list.iter().filter(|s| c.contains(&s.id)).cloned().collect()));
        (picked.len() >= 2).then(|| {
            // A saved scenario may need an engine the page's own does not.
            if let Some(engines) = engines {
                picked.iter().filter_map(|s| crate::domain::report::needed(&s.scenario)).for_each(|e| engines.need(e));
                engines.track();
            }
            let cols: Vec<_> = picked.iter().map(|s| (s.name.clone(), s.scenario.clone(), plan(&s.scenario, Catalog::embedded()))).collect();
            let cell = |f: &dyn Fn(&S, &Report, Option<&CardVerdict>) -> String| {
                cols.iter().map(|(_, s, r)| {
                    let text = match r {
                        Ok(r) => f(s, r, focus(s, &r.cards)),
                        Err(e) => format::plan_error(e, l),
                    };
                    view! { <td>{text}</td> }
                }).collect_view()
            };
            let dash = || "—".to_string();
            let task = |s: &S| Key::from(s.task).text(l).to_string();
            view! {
                <table class="compare" data-testid="compare"><thead><tr><th></th>
                    {cols.iter().map(|(n, _, _)| view! { <th>{n.clone()}</th> }).collect_view()}</tr></thead>
                <tbody>
                    <tr><th>{Key::Task.text(l)}</th>{cols.iter().map(|(_, s, _)| view! { <td>{task(s)}</td> }).collect_view()}</tr>
                    <tr><th>{Key::Model.text(l)}</th>{cell(&|_, r, _| r.model.clone())}</tr>
                    <tr><th>{Key::MemorySingle.text(l)}</th>{cell(&|_, r, _| format::gib(r.memory_single.total))}</tr>
                    <tr><th>{Key::Card.text(l)}</th>{cell(&|_, _, c| c.map_or_else(dash, |c| format!("{} × {}", super::i18n::card_name(&c.gpu, &c.name, l), c.gpus)))}</tr>
                    <tr><th>{Key::Fits.text(l)}</th>{cell(&|_, _, c| c.map_or_else(dash, |c| format!("{} ({})", if c.fits { "✓" } else { "✗" }, format::gib(c.memory.total))))}</tr>
                    <tr><th>{Key::Time.text(l)}</th>{cell(&|_, _, c| c.map_or_else(dash, |c| match (&c.serving, c.hours) {
                        (Some(x), _) => format!("{}: {}", Key::TokensS.text(l), format::grouped(x.tokens_s, 0)),
                        (None, Some(h)) => format::hours(h, l),
                        (None, None) => dash(),
                    }))}</tr>
                    <tr><th>{Key::Cost.text(l)}</th>{cell(&|s, _, c| c.and_then(|c| c.cost).map_or_else(dash, |v| format::money(v, s.money.currency)))}</tr>
                    <tr><th>{Key::Hardware.text(l)}</th>{cell(&|s, r, _| r.rent_vs_buy.as_ref().map_or_else(dash, |b| format!("{} × {}: {}", b.name, b.own.cards, format::money(b.own.hardware, s.ownership.currency))))}</tr>
                </tbody></table>
            }
        })
    }
}
