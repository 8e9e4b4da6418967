//! The page's data file (`domain::page_data`), fetched beside the wasm before the app mounts.

use crate::domain::page_data;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

const NAME: &str = "page-data.jsonl";

/// Fetches the file and hands it to the domain.
///
/// # Errors
/// What went wrong, naming the file: the network, the HTTP status, a file that is not the
/// three lines or whose catalog does not read.
pub async fn load() -> Result<(), String> {
    page_data::provide(fetch().await?)?;
    if crate::domain::catalog::Catalog::embedded().gpus.is_empty() {
        return Err(format!("{NAME}: its catalog line holds no card that reads"));
    }
    Ok(())
}

async fn fetch() -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    // The download index.html started while the wasm was still on its way (postbuild.py).
    let started = js_sys::Reflect::get(&window, &"gpPageData".into()).ok();
    if let Some(promise) = started.and_then(|p| p.dyn_into::<js_sys::Promise>().ok()) {
        // The text, or the Error the script resolved to instead of rejecting.
        let got = JsFuture::from(promise).await.map_err(|e| failed(&e))?;
        return got.as_string().ok_or_else(|| failed(&got));
    }
    // A page built without postbuild.py's script: fetch it now.
    let got = JsFuture::from(window.fetch_with_str(page_data::URL)).await.map_err(|e| failed(&e))?;
    let response: web_sys::Response = got.dyn_into().map_err(|_| format!("{NAME}: no response"))?;
    if !response.ok() {
        return Err(format!("{NAME}: HTTP {} {}", response.status(), response.status_text()));
    }
    let text = response.text().map_err(|e| failed(&e))?;
    JsFuture::from(text).await.map_err(|e| failed(&e))?.as_string().ok_or_else(|| format!("{NAME}: not text"))
}

fn failed(e: &wasm_bindgen::JsValue) -> String {
    let why = js_sys::Error::from(e.clone()).message();
    format!("{NAME}: {}", String::from(why))
}

/// Says the data could not be loaded, above the static first answer (which stays readable).
pub fn show_error(detail: &str) {
    let _ = super::panic::alert(
        "data-error",
        "GPU Planner could not load its card data, so only the static first answer is shown. Reload to try again.",
        "GPU 选型规划未能加载卡片数据，因此只显示静态的初始答案。请重新加载再试。",
        detail,
    );
}
