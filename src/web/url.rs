//! The share link in the page URL (`?s=v1.…`).

use crate::domain::{share, Scenario};

/// The scenario in the current URL: `None` when there is none, `Some(Err)` when it is damaged.
#[must_use]
pub fn load() -> Option<Result<Scenario, crate::domain::error::DecodeError>> {
    let search = web_sys::window()?.location().search().ok()?;
    if !search.contains("s=") {
        return None;
    }
    Some(share::decode_valid(&search))
}

/// Writes the scenario into the URL without reloading (relative URL keeps any sub-path).
pub fn replace(s: &Scenario) {
    let Some(w) = web_sys::window() else { return };
    let Ok(history) = w.history() else { return };
    let search = w.location().search().unwrap_or_default();
    let keep: Vec<&str> =
        search.trim_start_matches('?').split('&').filter(|kv| !kv.is_empty() && !kv.starts_with("s=")).collect();
    let mut q = keep.join("&");
    if !q.is_empty() {
        q.push('&');
    }
    let url = format!("?{q}s={}", share::encode(s));
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}
