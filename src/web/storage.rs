//! Persistence in local storage: the current scenario, the saved scenarios, the UI language.
//! Storage can be missing (sandboxed iframe, private mode), full, or hold corrupted text:
//! every call returns a Result and never panics; a damaged entry never erases the others.

pub use crate::domain::saved::Saved;
use crate::domain::{json, saved, Scenario};

/// Key of the current (unsaved) scenario.
pub const CURRENT_KEY: &str = "gpu-planner/current/v1";
/// Key of the saved scenarios list.
pub const SAVED_KEY: &str = "gpu-planner/scenarios/v1";
/// Key of the chosen UI language.
pub const LANG_KEY: &str = "gpu-planner/lang";

/// What went wrong with local storage; the page words it in the reader's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreError {
    /// No storage, or it cannot be read: private mode or a sandboxed frame.
    Unavailable,
    /// Full, or writing is blocked.
    Full,
    /// The stored text is not a usable scenario (list).
    Damaged,
    /// Saved by a newer version of the page.
    Newer,
}

fn local() -> Result<web_sys::Storage, StoreError> {
    // gloo-storage panics when storage is blocked; ask the window ourselves.
    web_sys::window().and_then(|w| w.local_storage().ok().flatten()).ok_or(StoreError::Unavailable)
}

fn read(key: &str) -> Result<Option<String>, StoreError> {
    local()?.get_item(key).map_err(|_| StoreError::Unavailable)
}

fn write(key: &str, text: &str) -> Result<(), StoreError> {
    local()?.set_item(key, text).map_err(|_| StoreError::Full)
}

/// The saved current scenario, if any.
///
/// # Errors
/// When storage is unavailable or the saved text is not a scenario.
pub fn load() -> Result<Option<Scenario>, StoreError> {
    let Some(text) = read(CURRENT_KEY)? else { return Ok(None) };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|_| StoreError::Damaged)?;
    let s = crate::domain::scenario::from_stored(value).map_err(|e| match e {
        crate::domain::error::DecodeError::NewerSchema(..) => StoreError::Newer,
        _ => StoreError::Damaged,
    })?;
    s.validate().map_err(|_| StoreError::Damaged)?;
    Ok(Some(s))
}

/// Saves the current scenario.
///
/// # Errors
/// When storage is unavailable or full.
pub fn save(s: &Scenario) -> Result<(), StoreError> {
    write(CURRENT_KEY, &json::write(s, false).map_err(|_| StoreError::Damaged)?)
}

/// The saved scenarios. Entries that no longer parse are skipped (and reported), not lost:
/// they stay in storage until the user saves over the list. Entries sharing an id (imported by
/// older versions) get ids of their own.
///
/// # Errors
/// When storage is unavailable or the list itself is damaged.
pub fn load_saved() -> Result<(Vec<Saved>, usize), StoreError> {
    let Some(text) = read(SAVED_KEY)? else { return Ok((Vec::new(), 0)) };
    let raw: Vec<serde_json::Value> = serde_json::from_str(&text).map_err(|_| StoreError::Damaged)?;
    let total = raw.len();
    let mut ok: Vec<Saved> = raw.into_iter().filter_map(parse_saved).collect();
    saved::make_ids_unique(&mut ok, 0);
    let skipped = total - ok.len();
    Ok((ok, skipped))
}

fn parse_saved(v: serde_json::Value) -> Option<Saved> {
    let id = v.get("id")?.as_u64()?;
    let name = v.get("name")?.as_str()?.to_string();
    let scenario = crate::domain::scenario::from_stored(v.get("scenario")?.clone()).ok()?;
    Some(Saved { id, name, scenario })
}

/// Writes the saved scenarios list. Entries that could not be read are kept as they were, so
/// a damaged or newer entry is never lost by saving.
///
/// # Errors
/// When storage is unavailable or full.
pub fn store_saved(list: &[Saved]) -> Result<(), StoreError> {
    let unreadable: Vec<serde_json::Value> = read(SAVED_KEY)
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str::<Vec<serde_json::Value>>(&t).ok())
        .unwrap_or_default()
        .into_iter()
        .filter(|v| parse_saved(v.clone()).is_none())
        .collect();
    let mut all: Vec<serde_json::Value> = list.iter().filter_map(|s| serde_json::to_value(s).ok()).collect();
    all.extend(unreadable);
    write(SAVED_KEY, &json::write(&all, false).map_err(|_| StoreError::Damaged)?)
}

/// The remembered UI language tag, if any.
#[must_use]
pub fn load_lang() -> Option<String> {
    read(LANG_KEY).ok().flatten()
}

/// Remembers the UI language (best effort).
pub fn save_lang(tag: &str) {
    let _ = write(LANG_KEY, tag);
}
