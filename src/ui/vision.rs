//! Inputs of a vision, OCR, speech or diffusion job (domain/vision.rs plans it): image size,
//! batch, dataset and epochs to train; rate and latency target to serve.

use super::bind::{get, num, set};
use super::fields::NumField;
use super::i18n::{Key, Lang};
use crate::domain::scenario::Task;
use crate::domain::vision;
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

/// One numeric input of the job: label, test id, range, whole numbers, the scenario value it
/// reads and writes, and when it is hidden.
struct Field {
    label: Key,
    testid: &'static str,
    min: f64,
    max: f64,
    integer: bool,
    get: fn(&Scenario) -> f64,
    set: fn(&mut Scenario, f64),
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

/// Built from a table in one loop: one compiled field instead of one per input.
const FIELDS: &[Field] = &[
    Field {
        label: Key::Resolution,
        testid: "v-res",
        min: 0.0,
        max: 8192.0,
        integer: true,
        get: |s| f64::from(s.vision.resolution),
        set: |s, v| s.vision.resolution = v as u32,
        hidden: |s| vision::model(&s.model).is_some_and(vision::VisionModel::is_speech),
    },
    Field {
        label: Key::BatchPerCard,
        testid: "v-batch",
        min: 1.0,
        max: 4096.0,
        integer: true,
        get: |s| f64::from(s.vision.batch),
        set: |s, v| s.vision.batch = v as u32,
        hidden: never,
    },
    Field {
        label: Key::CardsUsed,
        testid: "v-cards",
        min: 0.0,
        max: 100_000.0,
        integer: true,
        get: |s| f64::from(s.parallel.gpus),
        set: |s, v| s.parallel.gpus = v as u32,
        hidden: never,
    },
    Field {
        label: Key::VisionDataset,
        testid: "v-dataset",
        min: 1.0,
        max: 1e12,
        integer: false,
        get: |s| s.vision.dataset,
        set: |s, v| s.vision.dataset = v,
        hidden: serving,
    },
    Field {
        label: Key::Epochs,
        testid: "v-epochs",
        min: 0.01,
        max: 100_000.0,
        integer: false,
        get: |s| s.vision.epochs,
        set: |s, v| s.vision.epochs = v,
        hidden: serving,
    },
    Field {
        label: Key::VisionRate,
        testid: "v-rate",
        min: 0.001,
        max: 1e7,
        integer: false,
        get: |s| s.vision.rate,
        set: |s, v| s.vision.rate = v,
        hidden: training,
    },
    Field {
        label: Key::LatencyTarget,
        testid: "v-latency",
        min: 0.1,
        max: 3_600_000.0,
        integer: false,
        get: |s| s.vision.latency_ms,
        set: |s, v| s.vision.latency_ms = v,
        hidden: training,
    },
    Field {
        label: Key::Steps,
        testid: "v-steps",
        min: 0.0,
        max: 1000.0,
        integer: true,
        get: |s| f64::from(s.vision.steps),
        set: |s, v| s.vision.steps = v as u32,
        hidden: |s| training(s) || vision::model(&s.model).is_none_or(|m| m.steps.is_none()),
    },
];

/// The job's fields; shown instead of the language-model ones when a vision model is chosen.
/// Fields are hidden rather than unmounted (each `Show` costs wasm).
#[component]
pub fn VisionForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    FIELDS
        .iter()
        .map(|f| {
            view! {
                <div hidden=get(sc, f.hidden)>
                    <NumField label=f.label testid=f.testid min=f.min max=f.max integer=f.integer value=num(sc, f.get) on_change=set(sc, f.set)/>
                </div>
            }
        })
        .collect_view()
}
