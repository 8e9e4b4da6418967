//! The safety net: if a panic still happens, the user sees what went wrong and a reload link,
//! instead of a frozen page. Saved scenarios live in local storage and survive the reload.

use std::panic::PanicHookInfo;

const MESSAGE_EN: &str = "GPU Planner hit an internal error. Your saved scenarios are kept.";
const MESSAGE_ZH: &str = "GPU 选型规划遇到内部错误。已保存的方案不会丢失。";

fn show(info: &PanicHookInfo<'_>) -> Option<()> {
    alert("panic", MESSAGE_EN, MESSAGE_ZH, &info.to_string())
}

/// An alert box at the top of the page (id and test id `id`) with the message in both languages,
/// two reload links and the technical detail; built with plain DOM calls, so it shows even when
/// the app never mounted.
pub(crate) fn alert(id: &str, en: &str, zh: &str, technical: &str) -> Option<()> {
    let doc = web_sys::window()?.document()?;
    let body = doc.body()?;
    let box_ = doc.create_element("div").ok()?;
    box_.set_id(id);
    box_.set_attribute("role", "alert").ok()?;
    box_.set_attribute("data-testid", id).ok()?;
    let p = doc.create_element("p").ok()?;
    p.set_text_content(Some(&format!("{en} {zh}")));
    let detail = doc.create_element("pre").ok()?;
    detail.set_text_content(Some(technical));
    // Plain links, no script: they work under a strict Content-Security-Policy.
    let again = doc.create_element("a").ok()?;
    again.set_attribute("href", "").ok()?;
    again.set_text_content(Some("Reload · 重新加载"));
    let clean = doc.create_element("a").ok()?;
    clean.set_attribute("href", "./").ok()?;
    clean.set_text_content(Some("Reload without the link · 不带链接重新加载"));
    for child in [&p, &again, &clean, &detail] {
        box_.append_child(child).ok()?;
    }
    body.prepend_with_node_1(&box_).ok()
}

/// Installs the panic hook: console report plus the visible error box.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let _ = show(info);
    }));
}

/// `?selftest=panic` panics on purpose so the end-to-end test can check the error screen.
pub fn self_test() {
    let asked =
        web_sys::window().and_then(|w| w.location().search().ok()).is_some_and(|q| q.contains("selftest=panic"));
    if asked {
        panic!("self-test of the error screen (?selftest=panic)");
    }
}
