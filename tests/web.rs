//! Browser tests (headless Chromium via wasm-bindgen-test): the page mounts, shows the default
//! report, reacts to typing, rejects invalid input without losing the result, switches language.
#![cfg(target_arch = "wasm32")]

use gpu_planner::domain::{format, plan, Catalog, Scenario};
use gpu_planner::ui::App;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn by_testid(id: &str) -> web_sys::Element {
    document()
        .query_selector(&format!("[data-testid='{id}']"))
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no element with data-testid={id}"))
}

fn text(id: &str) -> String {
    by_testid(id).text_content().unwrap_or_default()
}

fn type_into(id: &str, value: &str) {
    let input: web_sys::HtmlInputElement = by_testid(id).unchecked_into();
    input.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("input", &init).unwrap_or_else(|_| panic!("event"));
    let _ = input.dispatch_event(&ev);
}

async fn mount() -> leptos::mount::UnmountHandle<impl Mountable> {
    if let Ok(Some(st)) = window().local_storage() {
        let _ = st.clear();
    }
    let _ = window().history().map(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("?")));
    let container = document().create_element("div").unwrap_or_else(|_| panic!("div"));
    let _ = document().body().map(|b| b.append_child(&container));
    let handle = leptos::mount::mount_to(container.unchecked_into(), App);
    leptos::task::tick().await;
    handle
}

#[wasm_bindgen_test]
async fn page_shows_the_default_report() {
    let _h = mount().await;
    let r = plan(&Scenario::default(), Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(text("memory-total"), format::gib(r.memory_single.total));
    let rows = by_testid("ranking").query_selector_all("tbody tr").map(|l| l.length()).unwrap_or(0);
    assert_eq!(rows as usize, r.cards.len());
}

#[wasm_bindgen_test]
async fn typing_a_sequence_length_changes_the_result_and_bad_input_keeps_it() {
    let _h = mount().await;
    let before = text("memory-total");
    type_into("seq", "16384");
    leptos::task::tick().await;
    let longer = text("memory-total");
    assert_ne!(before, longer, "memory must grow with the sequence");
    type_into("seq", "-3");
    leptos::task::tick().await;
    assert!(text("seq-error").contains("2097152"));
    assert_eq!(text("memory-total"), longer, "invalid input keeps the last good result");
}

#[wasm_bindgen_test]
async fn language_switch_translates_the_page() {
    let _h = mount().await;
    let lang = by_testid("lang");
    let was_zh = document().body().and_then(|b| b.text_content()).unwrap_or_default().contains("显卡");
    lang.unchecked_ref::<web_sys::HtmlElement>().click();
    leptos::task::tick().await;
    let now_zh = document().body().and_then(|b| b.text_content()).unwrap_or_default().contains("每卡显存");
    assert_ne!(was_zh, now_zh);
}
