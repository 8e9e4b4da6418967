//! The share link in the page URL: `?s=v1.…` and, when a card's details are open, `&card=…`.

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

/// A card id fit for a link: catalog and custom ids are short and URL-safe; anything else is
/// left out rather than escaped.
fn safe(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

/// The value of `key=` in the page's query when `ok` accepts it.
fn param(key: &str, ok: fn(&str) -> bool) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let prefix = format!("{key}=");
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix(prefix.as_str()))
        .filter(|v| ok(v))
        .map(String::from)
}

/// The card whose details the link opens (`card=`), if it names one.
#[must_use]
pub fn load_card() -> Option<String> {
    param("card", safe)
}

/// A snapshot of the answer fit for a link: base64url, within the length the page reads.
fn safe_snapshot(r: &str) -> bool {
    !r.is_empty()
        && r.len() <= crate::ui::prerender::SNAPSHOT_MAX
        && r.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_".contains(&b))
}

/// The answer snapshot the address bar carries (`r=`, kept current by [`replace`]).
#[must_use]
pub fn current_snapshot() -> Option<String> {
    param("r", safe_snapshot)
}

/// The share query: `?s=v1.…`, plus `&card=…` for the card whose details are open and `&r=…`
/// for the top of the answer (shown before the WebAssembly starts; src/ui/prerender.rs).
#[must_use]
pub fn query(s: &Scenario, card: Option<&str>, snapshot: Option<&str>) -> String {
    let mut q = format!("?s={}", share::encode(s));
    if let Some(c) = card.filter(|c| safe(c)) {
        q.push_str("&card=");
        q.push_str(c);
    }
    if let Some(r) = snapshot.filter(|r| safe_snapshot(r)) {
        q.push_str("&r=");
        q.push_str(r);
    }
    q
}

/// Writes the share query into the URL without reloading, keeping any other parameter
/// (`embed=1`); a relative URL keeps any sub-path.
pub fn replace(s: &Scenario, card: Option<&str>, snapshot: Option<&str>) {
    let Some(w) = web_sys::window() else { return };
    let Ok(history) = w.history() else { return };
    let search = w.location().search().unwrap_or_default();
    let mut url: String = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("s=") && !kv.starts_with("card=") && !kv.starts_with("r="))
        .map(|kv| format!("{kv}&"))
        .collect();
    url.insert(0, '?');
    url.push_str(&query(s, card, snapshot)[1..]);
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}
