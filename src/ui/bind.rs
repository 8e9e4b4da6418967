//! Small helpers that bind form fields to one field of the scenario signal.
//!
//! Accessors are plain `fn` pointers, not generic closures: the ~90 fields then share one
//! compiled copy of each helper instead of one per field, which keeps the wasm smaller.

use super::i18n::{Key, Lang};
use crate::domain::Scenario;
use leptos::prelude::*;
use serde::{de::DeserializeOwned, Serialize};

/// A read-only view of part of the scenario.
pub fn get<T: Clone + Send + Sync + 'static>(sc: RwSignal<Scenario>, f: fn(&Scenario) -> T) -> Signal<T> {
    Signal::derive(move || sc.with(f))
}

/// A callback that writes a parsed value into the scenario.
pub fn set<V: 'static>(sc: RwSignal<Scenario>, f: fn(&mut Scenario, V)) -> Callback<V> {
    Callback::new(move |v: V| sc.update(|s| f(s, v)))
}

/// Numeric view (`Some(value)`) of a scenario number.
pub fn num(sc: RwSignal<Scenario>, f: fn(&Scenario) -> f64) -> Signal<Option<f64>> {
    Signal::derive(move || sc.with(|s| Some(f(s))))
}

/// The serde name of a unit enum variant (`Task::FullFinetune` → `full_finetune`).
pub fn enum_name<T: Serialize>(t: &T) -> String {
    match serde_json::to_value(t) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// Options for an enum select: (variant, label key), labelled in the page's language.
pub fn opts<T: Serialize + Send + Sync + 'static>(
    lang: RwSignal<Lang>,
    items: Vec<(T, Key)>,
) -> Signal<Vec<(String, String)>> {
    let items: Vec<(String, Key)> = items.iter().map(|(t, k)| (enum_name(t), *k)).collect();
    Signal::derive(move || items.iter().map(|(v, k)| (v.clone(), k.text(lang.get()).to_string())).collect())
}

/// Parses a serde variant name back into the enum.
pub fn enum_parse<T: DeserializeOwned>(name: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(name.to_string())).ok()
}

/// A select bound to an enum field: value = serde name.
pub fn enum_get<T: Serialize + 'static>(sc: RwSignal<Scenario>, f: fn(&Scenario) -> T) -> Signal<String> {
    Signal::derive(move || sc.with(|s| enum_name(&f(s))))
}

/// Writes a selected enum variant into the scenario (ignores unknown names).
pub fn enum_set<T: DeserializeOwned + 'static>(sc: RwSignal<Scenario>, f: fn(&mut Scenario, T)) -> Callback<String> {
    Callback::new(move |name: String| {
        if let Some(v) = enum_parse::<T>(&name) {
            sc.update(|s| f(s, v));
        }
    })
}
