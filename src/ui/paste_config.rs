//! "Paste config.json": a model's Hugging Face `config.json` (pasted or chosen as a file) becomes
//! the custom model; a `model.safetensors.index.json` pasted after it cross-checks the count.
//! Reading and checking are in `domain::config`; this is the box and the message.

use super::i18n::{tr, Key, Lang};
use crate::domain::config::{read_pasted, ConfigError, Pasted};
use crate::domain::Scenario;
use crate::web::files;
use crate::web::lazy::Unloaded;
use leptos::prelude::*;

/// What the last paste did, in the page language.
fn outcome(sc: RwSignal<Scenario>, read: Result<Result<Pasted, ConfigError>, Unloaded>, l: Lang) -> (bool, String) {
    let read = match read {
        Ok(r) => r,
        Err(Unloaded) => return (false, Key::PartUnloaded.text(l).to_string()),
    };
    match read {
        Ok(Pasted::Config(read)) => {
            sc.update(|s| s.apply_config(&read));
            let p = read.model.computed_params();
            let mut msg = Key::ConfigRead
                .text(l)
                .replace("{name}", &read.model.name)
                .replace("{params}", &format!("{:.2}", p.total / 1e9));
            if p.active < p.total {
                msg.push_str(&format!(" ({} {:.2} B)", Key::Active.text(l), p.active / 1e9));
            }
            if let Some(v) = read.vision_params {
                msg.push_str(&Key::ConfigVision.text(l).replace("{params}", &format!("{:.2}", v / 1e9)));
            }
            // The parser's remarks are English; the Chinese page says how many there are.
            if !read.notes.is_empty() {
                let head = Key::ConfigDerived.text(l).replace("{n}", &read.notes.len().to_string());
                msg.push_str(&if l == Lang::En {
                    format!("\n{head}: {}", read.notes.join("; "))
                } else {
                    format!("\n{head}")
                });
            }
            (true, msg)
        }
        Ok(Pasted::Index(None)) => (true, Key::IndexAgrees.text(l).to_string()),
        Ok(Pasted::Index(Some(d))) => {
            (false, Key::IndexDiffers.text(l).replace("{pct}", &format!("{:+.1}", d * 100.0)))
        }
        Err(e) => (false, format!("{}: {}", Key::ConfigFailed.text(l), e.message(l))),
    }
}

/// The paste box, folded under the model picker.
#[component]
pub fn PasteConfig() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let text = RwSignal::new(String::new());
    let status: RwSignal<Option<(bool, String)>> = RwSignal::new(None);
    let read = move |t: String| {
        let (params, bytes) = sc.with_untracked(|s| {
            (s.model_spec().map(|m| m.computed_params().total).unwrap_or(0.0), s.weight_quant.bytes(s.precision))
        });
        leptos::task::spawn_local(async move {
            let r = reader(t, params, bytes).await;
            status.set(Some(outcome(sc, r, lang.get_untracked())));
        });
    };
    let on_file = move |ev: leptos::ev::Event| {
        let Some(file) = files::picked(&ev) else { return };
        spawn_local_read(file, move |t| {
            text.set(t.clone());
            read(t);
        });
    };
    view! {
        <details class="paste-config" data-testid="paste-config">
            <summary>{tr(lang, Key::PasteConfig)}</summary>
            <p class="muted">{tr(lang, Key::PasteConfigHint)}</p>
            <textarea data-testid="config-text" rows="6" spellcheck="false" aria-label=tr(lang, Key::PasteConfig)
                prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))
                on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
                on:drop=move |ev: leptos::ev::DragEvent| {
                    ev.prevent_default();
                    if let Some(file) = files::dropped(&ev) {
                        spawn_local_read(file, move |t| {
                            text.set(t.clone());
                            read(t);
                        });
                    }
                }></textarea>
            <div class="row">
                <button type="button" data-testid="config-read" on:click=move |_| read(text.get_untracked())>{tr(lang, Key::ReadConfig)}</button>
                <label class="button">{tr(lang, Key::ChooseFile)}
                    <input type="file" accept="application/json,.json" class="visually-hidden" data-testid="config-file" on:change=on_file/></label>
            </div>
            {move || status.get().map(|(ok, msg)| view! {
                <p class=if ok { "muted pre" } else { "error pre" } role="status" data-testid="config-status">{msg}</p>
            })}
        </details>
    }
}

fn spawn_local_read(file: web_sys::File, done: impl FnOnce(String) + 'static) {
    wasm_bindgen_futures::spawn_local(async move { done(files::read_text(file).await) });
}

/// The reader (`domain::config`, with serde_json's untyped values), downloaded on the first
/// paste (web/lazy.rs).
#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(config_reader, wasm_split_path = ::leptos::wasm_split, fallible)]
fn reader(text: String, params: f64, bytes: f64) -> Result<Result<Pasted, ConfigError>, Unloaded> {
    Ok(read_pasted(&text, params, bytes))
}

#[cfg(not(feature = "split"))]
#[allow(clippy::unused_async)] // the same signature as the split build's
async fn reader(text: String, params: f64, bytes: f64) -> Result<Result<Pasted, ConfigError>, Unloaded> {
    Ok(read_pasted(&text, params, bytes))
}
