//! Labelled form fields that parse where typed: an invalid value shows a message in the user's
//! language and is never written to the scenario (so the last good result stays on screen).

use super::i18n::{Key, Lang};
use crate::domain::format;
use leptos::prelude::*;

/// Parses user text as a number in `[min, max]` (whole when `integer`). `None` for empty input.
#[must_use]
pub fn parse_number(text: &str, min: f64, max: f64, integer: bool) -> Option<Result<f64, ()>> {
    let t = text.trim().replace([',', '_', ' '], "");
    if t.is_empty() {
        return None;
    }
    Some(match crate::domain::units::parse_decimal(&t).ok_or(()) {
        Ok(v) if v.is_finite() && (min..=max).contains(&v) && (!integer || v.fract() == 0.0) => Ok(v),
        _ => Err(()),
    })
}

fn show(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// A numeric input as data, for [`NumFields`]: a table of them renders in one loop, so the field
/// is compiled once rather than once per input (measured: ~165 B of gzip per input).
pub struct Num {
    pub label: Key,
    pub testid: &'static str,
    pub min: f64,
    pub max: f64,
    pub integer: bool,
    pub get: fn(&crate::domain::Scenario) -> f64,
    pub set: fn(&mut crate::domain::Scenario, f64),
    /// Greyed out when true (e.g. chosen automatically).
    pub disabled: fn(&crate::domain::Scenario) -> bool,
}

/// Never greyed out.
#[must_use]
pub fn enabled(_: &crate::domain::Scenario) -> bool {
    false
}

/// A [`Num`] row that is always enabled.
#[must_use]
pub const fn num_row(
    label: Key,
    testid: &'static str,
    (min, max, integer): (f64, f64, bool),
    get: fn(&crate::domain::Scenario) -> f64,
    set: fn(&mut crate::domain::Scenario, f64),
) -> Num {
    Num { label, testid, min, max, integer, get, set, disabled: enabled }
}

/// The numeric inputs of a table, in order, bound to the scenario in context.
#[component]
pub fn NumFields(rows: &'static [Num]) -> impl IntoView {
    let sc = expect_context::<RwSignal<crate::domain::Scenario>>();
    rows.iter()
        .map(|f| {
            view! { <NumField label=f.label testid=f.testid limits=(f.min, f.max, f.integer) disabled=super::bind::get(sc, f.disabled)
            value=super::bind::num(sc, f.get) on_change=super::bind::set(sc, f.set)/> }
        })
        .collect_view()
}

/// A numeric input bound to one scenario value.
#[component]
pub fn NumField(
    /// Visible label.
    label: Key,
    /// `data-testid` of the input; the error message gets `<testid>-error`.
    testid: &'static str,
    /// (min, max, whole numbers only), from the scenario's range table
    /// (`domain::scenario::ranges`) in the unit the field shows.
    limits: (f64, f64, bool),
    /// Empty input means "default" (`on_empty` is called) instead of an error.
    #[prop(optional)]
    on_empty: Option<Callback<()>>,
    /// Current value (`None` shows an empty box).
    value: Signal<Option<f64>>,
    /// Called only with parsed, in-range values.
    on_change: Callback<f64>,
    /// Disabled (e.g. chosen automatically).
    #[prop(optional, into)]
    disabled: Signal<bool>,
) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let (min, max, integer) = limits;
    let error = RwSignal::new(false);
    let id = format!("f-{testid}");
    let label_for = id.clone();
    let input = NodeRef::<leptos::html::Input>::new();
    // Write the value into the box only when it differs from what the box already says, so
    // typing "1." or "1,000" is never rewritten under the user's caret.
    Effect::new(move |_| {
        let want = value.get();
        let Some(el) = input.get() else { return };
        let shown = parse_number(&el.value(), f64::MIN, f64::MAX, false).and_then(Result::ok);
        if shown != want {
            el.set_value(&want.map(show).unwrap_or_default());
        }
    });
    let message = move || {
        let k = if integer { Key::InvalidInteger } else { Key::InvalidNumber };
        k.text(lang.get()).replace("{min}", &format::grouped(min, 0)).replace("{max}", &format::grouped(max, 0))
    };
    view! {
        <label class="field" for=label_for>
            <span>{move || label.text(lang.get())}</span>
            <input id=id type="text" inputmode="decimal" data-testid=testid node_ref=input
                aria-invalid=move || error.get().to_string()
                disabled=move || disabled.get()
                on:input=move |ev| {
                    match parse_number(&event_target_value(&ev), min, max, integer) {
                        Some(Ok(v)) => { error.set(false); on_change.run(v) }
                        None if on_empty.is_some() => { error.set(false); if let Some(c) = on_empty { c.run(()) } }
                        _ => error.set(true),
                    }
                } />
            <Show when=move || error.get()>
                <span class="field-error" role="alert" data-testid=format!("{testid}-error")>{message}</span>
            </Show>
        </label>
    }
}

/// A select bound to one scenario value; options are (value, label).
#[component]
pub fn SelectField(
    label: Key,
    testid: &'static str,
    /// (value, translated label) pairs, rebuilt when the language changes.
    options: Signal<Vec<(String, String)>>,
    value: Signal<String>,
    on_change: Callback<String>,
    #[prop(optional, into)] disabled: Signal<bool>,
    /// Each option's group label (parallel to `options`): runs of one label become an
    /// `<optgroup>`; an empty label stays ungrouped.
    #[prop(optional, into)]
    groups: Option<Signal<Vec<String>>>,
) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let id = format!("f-{testid}");
    let label_for = id.clone();
    let option = move |(v, l): (String, String)| {
        let key = v.clone();
        // The property, not the attribute: once a select has been changed by hand, browsers
        // ignore later changes of `selected` attributes (an opened scenario kept the old task).
        view! { <option value=v prop:selected=move || value.with(|cur| *cur == key)>{l}</option> }
    };
    view! {
        <label class="field" for=label_for>
            <span>{move || label.text(lang.get())}</span>
            <select id=id data-testid=testid disabled=move || disabled.get()
                on:change=move |ev| on_change.run(event_target_value(&ev))>
                // Options are rebuilt only when the list changes; selection updates in place.
                {move || {
                    let names = groups.map(|g| g.get()).unwrap_or_default();
                    let mut runs: Vec<(String, Vec<(String, String)>)> = Vec::new();
                    for (i, o) in options.get().into_iter().enumerate() {
                        let g = names.get(i).cloned().unwrap_or_default();
                        match runs.last_mut() {
                            Some((last, items)) if *last == g => items.push(o),
                            _ => runs.push((g, vec![o])),
                        }
                    }
                    runs.into_iter().map(|(g, items)| if g.is_empty() {
                        items.into_iter().map(option).collect_view().into_any()
                    } else {
                        view! { <optgroup label=g>{items.into_iter().map(option).collect_view()}</optgroup> }.into_any()
                    }).collect_view()
                }}
            </select>
        </label>
    }
}

/// A labelled checkbox.
#[component]
pub fn CheckField(label: Key, testid: &'static str, value: Signal<bool>, on_change: Callback<bool>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    view! {
        <label class="check">
            <input type="checkbox" data-testid=testid prop:checked=move || value.get()
                on:change=move |ev| on_change.run(event_target_checked(&ev)) />
            <span>{move || label.text(lang.get())}</span>
        </label>
    }
}

/// In place of a part of the page whose chunk could not be downloaded (web/lazy.rs): why, and a
/// button that tries again (the part re-reads `attempt`).
#[cfg(feature = "split")]
pub fn unloaded(lang: RwSignal<Lang>, attempt: RwSignal<u32>) -> AnyView {
    view! { <p class="error" role="alert" data-testid="part-unloaded">{super::i18n::tr(lang, Key::PartUnloaded)} " "
        <button type="button" on:click=move |_| attempt.update(|n| *n += 1)>{super::i18n::tr(lang, Key::TryAgain)}</button></p> }
    .into_any()
}
