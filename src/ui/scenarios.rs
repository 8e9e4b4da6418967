//! Saved scenarios (save, rename, duplicate, delete, open), side-by-side comparison,
//! JSON export/import and the share link.

use super::i18n::{Key, Lang};
use crate::domain::{format, plan, share, Catalog, Scenario};
use crate::web::{files, storage, storage::Saved};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

fn now_id() -> u64 {
    js_sys::Date::now() as u64
}

/// The saved list plus a message for storage problems.
#[derive(Clone, Copy)]
struct Store {
    list: RwSignal<Vec<Saved>>,
    problem: RwSignal<Option<String>>,
}

impl Store {
    fn load() -> Self {
        let (list, problem) = match storage::load_saved() {
            Ok((l, 0)) => (l, None),
            Ok((l, n)) => (l, Some(format!("{n} saved scenario(s) could not be read and are hidden"))),
            Err(e) => (Vec::new(), Some(e)),
        };
        Self { list: RwSignal::new(list), problem: RwSignal::new(problem) }
    }
    fn edit(&self, f: impl FnOnce(&mut Vec<Saved>)) {
        self.list.update(f);
        if let Err(e) = self.list.with(|l| storage::store_saved(l)) {
            self.problem.set(Some(e));
        }
    }
}

/// The scenarios panel.
#[component]
pub fn Scenarios() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let store = Store::load();
    let compare = RwSignal::new(Vec::<u64>::new());
    let copied = RwSignal::new(None::<Result<(), String>>);
    let t = move |k: Key| k.text(lang.get());
    let save = move |_| {
        let s = sc.get();
        store.edit(|l| match l.iter_mut().find(|x| x.name == s.name) {
            Some(x) => x.scenario = s.clone(),
            None => l.push(Saved { id: now_id(), name: s.name.clone(), scenario: s.clone() }),
        });
    };
    let copy_link = move |_| {
        let url = files::page_url(&format!("?s={}", sc.with(share::encode)));
        copied.set(Some(if files::copy(&url) { Ok(()) } else { Err(url) }));
    };
    let export = move |_| {
        let text = store.list.with(|l| crate::domain::json::write(l, true).unwrap_or_default());
        if let Err(e) = files::download("gpu-planner-scenarios.json", &text) {
            store.problem.set(Some(e));
        }
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        wasm_bindgen_futures::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            match import_text(&text) {
                Ok(items) => store.edit(|l| l.extend(items)),
                Err(e) => store.problem.set(Some(format!("{}: {e}", Key::ImportFailed.text(lang.get_untracked())))),
            }
        });
    };
    view! {
        <section class="scenarios group" data-testid="scenarios">
            <h2>{move || t(Key::Scenarios)}</h2>
            <div class="row">
                <label class="field"><span>{move || t(Key::ScenarioName)}</span>
                    <input type="text" data-testid="sc-name" prop:value=move || sc.with(|s| s.name.clone())
                        on:input=move |ev| { let v = event_target_value(&ev); sc.update(|s| s.name = v.chars().take(120).collect()) } /></label>
                <button type="button" data-testid="sc-save" on:click=save>{move || t(Key::Save)}</button>
                <button type="button" data-testid="copy-link" on:click=copy_link>{move || t(Key::CopyLink)}</button>
                <button type="button" data-testid="sc-export" on:click=export>{move || t(Key::Export)}</button>
                <label class="button">{move || t(Key::Import)}<input type="file" accept="application/json,.json" data-testid="sc-import" class="visually-hidden" on:change=import/></label>
            </div>
            {move || copied.get().map(|r| match r {
                Ok(()) => view! { <p class="ok" data-testid="copied">{t(Key::Copied)}</p> }.into_any(),
                Err(url) => view! { <p data-testid="copied">{t(Key::CopyManually)} " " <input type="text" readonly prop:value=url class="wide"/></p> }.into_any(),
            })}
            {move || store.problem.get().map(|p| view! { <p class="error" data-testid="storage-error">{t(Key::StorageProblem)} ": " {p}</p> })}
            <ul class="saved" data-testid="saved-list">{move || store.list.get().into_iter().map(|x| saved_row(x, store, compare, sc, lang)).collect_view()}</ul>
            <p class="muted">{move || t(Key::CompareHint)}</p>
            <CompareTable store=store.list compare/>
        </section>
    }
}

fn saved_row(
    x: Saved,
    store: Store,
    compare: RwSignal<Vec<u64>>,
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
            <button type="button" on:click=move |_| sc.set(open.clone())>{move || t(Key::Load)}</button>
            <button type="button" on:click=move |_| { let name = sc.with(|s| s.name.clone()); store.edit(|l| if let Some(e) = l.iter_mut().find(|e| e.id == id) { e.name = name.clone(); e.scenario.name = name; }) }>{move || t(Key::Rename)}</button>
            <button type="button" on:click=move |_| store.edit(|l| if let Some(e) = l.iter().find(|e| e.id == id).cloned() {
                let name = format!("{} (2)", e.name);
                l.push(Saved { id: now_id().max(id + 1), name: name.clone(), scenario: Scenario { name, ..e.scenario } });
            })>{move || t(Key::Duplicate)}</button>
            <button type="button" on:click=move |_| { store.edit(|l| l.retain(|e| e.id != id)); compare.update(|c| c.retain(|v| *v != id)); }>{move || t(Key::Delete)}</button>
        </li>
    }
}

/// Parses an exported list, or a single scenario, from a JSON file.
///
/// # Errors
/// The serde message when the file is neither.
pub fn import_text(text: &str) -> Result<Vec<Saved>, String> {
    use crate::domain::scenario::from_stored;
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let one = |v: serde_json::Value, name: Option<String>| -> Result<Saved, String> {
        let s = from_stored(v).map_err(|e| e.to_string())?;
        s.validate().map_err(|e| e.to_string())?;
        Ok(Saved { id: now_id(), name: name.unwrap_or_else(|| s.name.clone()), scenario: s })
    };
    match value {
        serde_json::Value::Array(items) => items
            .into_iter()
            .map(|mut it| {
                let name = it.get("name").and_then(|n| n.as_str()).map(str::to_string);
                let sc = it.get_mut("scenario").map(serde_json::Value::take).ok_or("an entry has no scenario")?;
                one(sc, name)
            })
            .collect(),
        v => one(v, None).map(|s| vec![s]),
    }
}

/// Two or three saved scenarios side by side: best card, count, time, cost, memory.
#[component]
fn CompareTable(store: RwSignal<Vec<Saved>>, compare: RwSignal<Vec<u64>>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    move || {
        let l = lang.get();
        let picked: Vec<Saved> =
            store.with(|list| compare.with(|c| list.iter().filter(|s| c.contains(&s.id)).cloned().collect()));
        (picked.len() >= 2).then(|| {
            let cols: Vec<_> = picked.iter().map(|s| (s.name.clone(), s.scenario.money.currency, plan(&s.scenario, Catalog::embedded()))).collect();
            let cell = |f: &dyn Fn(&crate::domain::Report, crate::domain::scenario::Currency) -> String| {
                cols.iter().map(|(_, cur, r)| view! { <td>{r.as_ref().map_or_else(|e| e.to_string(), |r| f(r, *cur))}</td> }).collect_view()
            };
            let best = |r: &crate::domain::Report| r.cards.iter().find(|c| c.fits).cloned();
            view! {
                <table class="compare" data-testid="compare"><thead><tr><th></th>
                    {cols.iter().map(|(n, _, _)| view! { <th>{n.clone()}</th> }).collect_view()}</tr></thead>
                <tbody>
                    <tr><th>{Key::Model.text(l)}</th>{cell(&|r, _| r.model.clone())}</tr>
                    <tr><th>{Key::MemorySingle.text(l)}</th>{cell(&|r, _| format::gib(r.memory_single.total))}</tr>
                    <tr><th>{Key::BestCard.text(l)}</th>{cell(&|r, _| best(r).map_or("—".into(), |c| format!("{} × {}", c.name, c.gpus)))}</tr>
                    <tr><th>{Key::Time.text(l)}</th>{cell(&|r, _| best(r).and_then(|c| c.hours).map_or("—".into(), |h| format::hours(h, l)))}</tr>
                    <tr><th>{Key::Cost.text(l)}</th>{cell(&|r, cur| best(r).and_then(|c| c.cost).map_or("—".into(), |v| format::money(v, cur)))}</tr>
                </tbody></table>
            }
        })
    }
}
