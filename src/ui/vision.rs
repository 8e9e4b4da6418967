//! Inputs of a vision, OCR, speech or diffusion job (domain/vision.rs plans it): image size,
//! batch, dataset and epochs to train; rate and latency target to serve.

use super::bind::{get, num, set};
use super::fields::{num_row, CheckField, Num, NumField, SelectField};
use super::i18n::{Key, Lang};
use crate::domain::names::{name, parse};
use crate::domain::scenario::ranges::*;
use crate::domain::scenario::Task;
use crate::domain::vision::{self, Engine, MemoryFormat};
use crate::domain::Scenario;
use leptos::prelude::*;

/// Whether the scenario is a vision job (the language-model panels step aside).
pub fn vision_job(sc: RwSignal<Scenario>) -> Signal<bool> {
    get(sc, |s| vision::model(&s.model).is_some())
}

/// The picker's group label of a vision family.
#[must_use]
pub fn family_label(family: &str, l: Lang) -> &'static str {
    match family {
        "detection" => Key::Detection,
        "classification" => Key::Classification,
        "segmentation" => Key::Segmentation,
        "ocr" => Key::Ocr,
        "diffusion" => Key::Diffusion,
        _ => Key::Speech,
    }
    .text(l)
}

/// One numeric input of the job (a [`Num`] row) and when it is hidden.
struct Field {
    num: Num,
    hidden: fn(&Scenario) -> bool,
}

fn never(_: &Scenario) -> bool {
    false
}
fn serving(s: &Scenario) -> bool {
    s.task == Task::Inference
}
fn training(s: &Scenario) -> bool {
    s.task != Task::Inference
}
fn speech(s: &Scenario) -> bool {
    vision::model(&s.model).is_some_and(vision::VisionModel::is_speech)
}

/// Built from a table in one loop: one compiled field instead of one per input.
#[rustfmt::skip]
const FIELDS: &[Field] = &[
    Field { num: num_row(Key::Resolution, "v-res", VISION_RESOLUTION.shown(1.0), |s| f64::from(s.vision.resolution), |s, v| s.vision.resolution = v as u32),
        hidden: |s| vision::model(&s.model).is_some_and(vision::VisionModel::is_speech) },
    Field { num: num_row(Key::BatchPerCard, "v-batch", VISION_BATCH.shown(1.0), |s| f64::from(s.vision.batch), |s, v| s.vision.batch = v as u32), hidden: never },
    Field { num: num_row(Key::CardsUsed, "v-cards", PARALLEL_GPUS.shown(1.0), |s| f64::from(s.parallel.gpus), |s, v| s.parallel.gpus = v as u32), hidden: never },
    Field { num: num_row(Key::VisionDataset, "v-dataset", VISION_DATASET.shown(1.0), |s| s.vision.dataset, |s, v| s.vision.dataset = v), hidden: serving },
    Field { num: num_row(Key::Epochs, "v-epochs", VISION_EPOCHS.shown(1.0), |s| s.vision.epochs, |s, v| s.vision.epochs = v), hidden: serving },
    Field { num: num_row(Key::VisionRate, "v-rate", VISION_RATE.shown(1.0), |s| s.vision.rate, |s, v| s.vision.rate = v),
        hidden: |s| training(s) || speech(s) },
    Field { num: num_row(Key::SpeechRate, "v-speech-rate", VISION_RATE.shown(1.0), |s| s.vision.rate, |s, v| s.vision.rate = v),
        hidden: |s| training(s) || !speech(s) },
    Field { num: num_row(Key::LatencyTarget, "v-latency", VISION_LATENCY_MS.shown(1.0), |s| s.vision.latency_ms, |s, v| s.vision.latency_ms = v), hidden: training },
    Field { num: num_row(Key::Steps, "v-steps", VISION_STEPS.shown(1.0), |s| f64::from(s.vision.steps), |s, v| s.vision.steps = v as u32),
        hidden: |s| training(s) || vision::model(&s.model).is_none_or(|m| m.steps.is_none()) },
];

/// The job's fields; shown instead of the language-model ones when a vision model is chosen.
/// Fields are hidden rather than unmounted (each `Show` costs wasm).
#[component]
pub fn VisionForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let fields = FIELDS
        .iter()
        .map(|f| {
            let n = &f.num;
            view! {
                <div hidden=get(sc, f.hidden)>
                    <NumField label=n.label testid=n.testid limits=(n.min, n.max, n.integer) value=num(sc, n.get) on_change=set(sc, n.set)/>
                </div>
            }
        })
        .collect_view();
    view! { {fields} <MemoryFormatField/> <EngineField/> <EagerField/> }
}

/// The CNN's memory format; shown only for a model with a measured NCHW/NHWC pair (elsewhere it
/// changes nothing). Values are the scenario's names; "" = as each measurement ran.
#[component]
fn MemoryFormatField() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let options = Signal::derive(move || {
        let l = lang.get();
        [("", Key::FormatAsMeasured), ("nchw", Key::FormatNchw), ("nhwc", Key::FormatNhwc)]
            .iter()
            .map(|(v, k)| ((*v).to_string(), k.text(l).to_string()))
            .collect::<Vec<_>>()
    });
    let value = get(sc, |s| s.vision.memory_format.map_or("", |f| name(f, MemoryFormat::NAMES)).to_string());
    let on_change = Callback::new(move |n: String| {
        sc.update(|s| s.vision.memory_format = parse(&n, MemoryFormat::NAMES));
    });
    let unpaired = |s: &Scenario| !vision::model(&s.model).is_some_and(vision::VisionModel::has_format_ratio);
    view! {
        <div hidden=get(sc, unpaired)>
            <SelectField label=Key::MemoryFormatLabel testid="v-format" options value on_change/>
        </div>
    }
}

/// The software the job runs on, among those the model's measurements for the task ran on;
/// shown only where there are two or more (elsewhere it changes nothing).
#[component]
fn EngineField() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let options = Signal::derive(move || {
        let first = (String::new(), Key::FormatAsMeasured.text(lang.get()).to_string());
        let rest = sc
            .with(vision::offered_engines)
            .into_iter()
            .map(|e| (name(e, Engine::NAMES).to_string(), e.label().to_string()));
        std::iter::once(first).chain(rest).collect::<Vec<_>>()
    });
    let value = get(sc, |s| s.vision.engine.map_or("", |e| name(e, Engine::NAMES)).to_string());
    let on_change = Callback::new(move |n: String| {
        sc.update(|s| s.vision.engine = parse(&n, Engine::NAMES));
    });
    view! {
        <div hidden=get(sc, |s| vision::offered_engines(s).is_empty())>
            <SelectField label=Key::EngineLabel testid="v-engine" options value on_change/>
        </div>
    }
}

/// Eager attention (flash attention off) for serving a model whose global attention the engine
/// sizes (domain/vision/memory.rs `eager_scores`: SAM's encoders); shown only there.
#[component]
fn EagerField() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let value = get(sc, |s| !s.training.flash_attention);
    let on_change = Callback::new(move |eager: bool| sc.update(|s| s.training.flash_attention = !eager));
    let shapeless = |s: &Scenario| !vision::model(&s.model).is_some_and(|m| vision::eager_applies(m, s.task));
    view! {
        <div hidden=get(sc, shapeless)>
            <CheckField label=Key::EagerAttention testid="v-eager" value on_change/>
        </div>
    }
}
