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

thread_local! {
    /// The share query waiting to be written into the address bar ([`replace`]).
    static PENDING: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Writes the share query into the URL without reloading, once the frame showing the change has
/// painted. `history.replaceState` took 6–8 ms a call in the busy page, a fifth of a keystroke's
/// time to the next frame (32 → 26 ms with it stubbed out, headless Chromium, 2 cores): the answer
/// should not wait for the address bar. A later change before then replaces the waiting query;
/// [`flush`] writes it at once (the copy-link button reads the address).
pub fn replace(s: &Scenario, card: Option<&str>, snapshot: Option<&str>) {
    let waiting = PENDING.with(|p| p.borrow_mut().replace(query(s, card, snapshot)).is_some());
    if !waiting && !after_paint() {
        flush();
    }
}

/// Schedules [`flush`] for the task after the next paint (an animation frame, then a zero
/// timeout); false when the browser refuses.
fn after_paint() -> bool {
    use wasm_bindgen::JsCast;
    let Some(w) = web_sys::window() else { return false };
    let then = wasm_bindgen::closure::Closure::once_into_js(|| {
        let later = wasm_bindgen::closure::Closure::once_into_js(flush);
        let scheduled = web_sys::window().is_some_and(|w| w.set_timeout_with_callback(later.unchecked_ref()).is_ok());
        if !scheduled {
            flush();
        }
    });
    w.request_animation_frame(then.unchecked_ref()).is_ok()
}

/// Writes the waiting share query now, keeping any other parameter (`embed=1`); a relative URL
/// keeps any sub-path.
pub fn flush() {
    let Some(q) = PENDING.with(|p| p.borrow_mut().take()) else { return };
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
    url.push_str(&q[1..]);
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}
