//! Clipboard, file download and the current page address.

use wasm_bindgen::JsCast;

/// The page address with `query` (e.g. `?s=v1.…`), keeping the path (works under any sub-path).
#[must_use]
pub fn page_url(query: &str) -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else { return query.to_string() };
    let origin = loc.origin().unwrap_or_default();
    let path = loc.pathname().unwrap_or_default();
    format!("{origin}{path}{query}")
}

/// Copies text to the clipboard. Returns false when the API is unavailable (e.g. an iframe
/// without clipboard permission), so the caller can show the text for manual copying.
pub fn copy(text: &str) -> bool {
    let Some(w) = web_sys::window() else { return false };
    let clip = w.navigator().clipboard();
    if clip.is_undefined() {
        return false;
    }
    let _ = clip.write_text(text);
    true
}

/// Offers `text` as a file download.
///
/// # Errors
/// A message when the browser refuses to build the file.
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(|_| "cannot build the file")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| "cannot build the file")?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(|_| "no anchor")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Removes the static first answer that postbuild.py puts in index.html (src/ui/prerender.rs),
/// once the live page is mounted.
pub fn remove_prerender() {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("prerender")) {
        el.remove();
    }
}

/// The file chosen in an `<input type=file>` change event.
#[must_use]
pub fn picked(ev: &web_sys::Event) -> Option<web_sys::File> {
    let input = ev.target()?.dyn_into::<web_sys::HtmlInputElement>().ok()?;
    input.files()?.get(0)
}

/// A file's text (empty when it cannot be read).
pub async fn read_text(file: web_sys::File) -> String {
    wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string()).unwrap_or_default()
}

/// The first file dropped in a drag-and-drop event.
#[must_use]
pub fn dropped(ev: &web_sys::DragEvent) -> Option<web_sys::File> {
    ev.data_transfer()?.files()?.get(0)
}
