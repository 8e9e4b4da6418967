//! The input forms: workload, parallelism, cards to consider, money. Each field writes one
//! scenario value; validation happens in the field.

use super::bind::{enum_get, enum_set, get, num, opts, set};
use super::custom_model::CustomModelForm;
use super::fields::{num_row, CheckField, Num, NumField, NumFields, SelectField};
use super::i18n::{tr, Key, Lang};
use super::paste_config::PasteConfig;
use super::serving::ServingForm;
use super::vision::{family_label, VisionForm};
use crate::domain::scenario::ranges::*;
use crate::domain::scenario::*;
use crate::domain::Scenario;
use crate::domain::{model, vision};
use leptos::prelude::*;

type Opts = Signal<Vec<(String, String)>>;

fn plain(items: &[&'static str]) -> Opts {
    let v: Vec<(String, String)> = items.iter().map(|s| (s.to_string(), s.to_string())).collect();
    Signal::derive(move || v.clone())
}

/// Training and serving precisions.
fn precisions() -> Signal<Vec<(String, String)>> {
    Signal::derive(|| {
        [("fp32", "FP32"), ("tf32", "TF32"), ("bf16", "BF16"), ("fp16", "FP16"), ("fp8", "FP8")]
            .map(|(v, l)| (v.to_string(), l.to_string()))
            .to_vec()
    })
}

/// Weight quantisation choices.
fn quants(lang: RwSignal<Lang>) -> Signal<Vec<(String, String)>> {
    Signal::derive(move || {
        let none = Key::QuantNone.text(lang.get()).to_string();
        vec![
            ("none".into(), none),
            ("fp8".into(), "FP8".into()),
            ("int8".into(), "INT8".into()),
            ("int4".into(), "INT4 (GPTQ/AWQ)".into()),
            ("nf4".into(), "NF4".into()),
            ("nvfp4".into(), "NVFP4".into()),
            ("mxfp4".into(), "MXFP4".into()),
        ]
    })
}

/// Optimizers, named in the page's language.
fn optimizers(lang: RwSignal<Lang>) -> Signal<Vec<(String, String)>> {
    Signal::derive(move || {
        let zh = lang.get() == Lang::Zh;
        [
            ("adam_w", "AdamW"),
            ("adam_w8bit", if zh { "AdamW 8 比特" } else { "AdamW 8-bit" }),
            ("sgd_momentum", if zh { "SGD + 动量" } else { "SGD + momentum" }),
            ("sgd", "SGD"),
            ("adafactor", "Adafactor"),
        ]
        .map(|(v, l)| (v.to_string(), l.to_string()))
        .to_vec()
    })
}

/// KV-cache precisions.
fn kvs() -> Signal<Vec<(String, String)>> {
    Signal::derive(|| {
        [("bf16", "BF16"), ("fp8", "FP8"), ("int4", "INT4")].map(|(v, l)| (v.to_string(), l.to_string())).to_vec()
    })
}

/// Task, model, precision, lengths and batch, task-specific settings.
#[component]
pub fn WorkloadForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let task = get(sc, |s| s.task);
    let is = move |f: fn(Task) -> bool| move || f(task.get());
    // Language models, then vision, OCR, speech and diffusion models, then custom dimensions.
    let models = Signal::derive(move || {
        let mut v: Vec<(String, String)> = model::presets().iter().map(|m| (m.id.clone(), m.name.clone())).collect();
        v.extend(vision::models().iter().map(|m| (m.id.clone(), m.name.clone())));
        v.push(("custom".into(), Key::CustomModel.text(lang.get()).into()));
        v
    });
    // The picker groups presets by family (models.json and vision.json keep families together).
    let families = Signal::derive(move || {
        let l = lang.get();
        let llm = model::presets().iter().map(|m| m.family.clone());
        llm.chain(vision::models().iter().map(|m| family_label(&m.family, l).to_string())).collect::<Vec<_>>()
    });
    let cv = get(sc, |s| vision::model(&s.model).is_some());
    let llm_task = move |f: fn(Task) -> bool| move || !cv.get() && f(task.get());
    // A custom model starts as a full copy of the preset shown before (domain/edit.rs).
    let on_model = Callback::new(move |id: String| sc.update(|s| s.select_model(&id)));
    let tasks = opts(lang, Task::ALL.into_iter().map(|t| (t, Key::from(t))).collect());
    let targets = opts(
        lang,
        vec![
            (LoraTargets::Qv, Key::TargetsQv),
            (LoraTargets::Attention, Key::TargetsAttention),
            (LoraTargets::AllLinear, Key::TargetsAll),
        ],
    );
    let (precisions, quants, optimizers, kvs) = (precisions(), quants(lang), optimizers(lang), kvs());
    let custom = get(sc, |s| s.model == "custom");
    view! {
        <fieldset class="group">
            <legend>{tr(lang, Key::Workload)}</legend>
            <SelectField label=Key::Task testid="task" options=tasks value=enum_get(sc, |s| s.task) on_change=enum_set(sc, |s, v| s.task = v)/>
            <p class="muted" data-testid="task-scope">{tr(lang, Key::TaskScope)}</p>
            <SelectField label=Key::Model testid="model" options=models groups=families value=get(sc, |s| s.model.clone()) on_change=on_model/>
            <PasteConfig/>
            <Show when=move || custom.get()><CustomModelForm/></Show>
            <SelectField label=Key::Precision testid="precision" options=precisions value=enum_get(sc, |s| s.precision) on_change=enum_set(sc, |s, v| s.precision = v)/>
            // Hidden rather than unmounted: a `Show` per toggle costs ~2 KB of wasm each.
            <div hidden=cv>
                <SelectField label=Key::WeightQuant testid="quant" options=quants value=enum_get(sc, |s| s.weight_quant) on_change=enum_set(sc, |s, v| s.weight_quant = v)/>
            </div>
            <div hidden=move || !cv.get()><VisionForm/></div>
            <Show when=is(Task::is_training)>
                <div hidden=cv>
                <NumFields rows=TRAINING_FIELDS/>
                <CheckField label=Key::MasterWeights testid="master" value=get(sc, |s| s.training.master_weights) on_change=set(sc, |s, v| s.training.master_weights = v)/>
                </div>
                <SelectField label=Key::OptimizerLabel testid="optimizer" options=optimizers value=enum_get(sc, |s| s.training.optimizer) on_change=enum_set(sc, |s, v| s.training.optimizer = v)/>
            </Show>
            <Show when=llm_task(|t| matches!(t, Task::Lora | Task::Qlora))>
                <NumField label=Key::LoraRank testid="rank" limits=LORA_RANK.shown(1.0) value=num(sc, |s| f64::from(s.lora.rank)) on_change=set(sc, |s, v: f64| s.lora.rank = v as u32)/>
                <SelectField label=Key::LoraTargets testid="targets" options=targets value=enum_get(sc, |s| s.lora.targets) on_change=enum_set(sc, |s, v| s.lora.targets = v)/>
            </Show>
            <Show when=llm_task(|t| t == Task::Inference)>
                <NumFields rows=INFERENCE_FIELDS/>
                <NumField label=Key::ContextP90 testid="ctx-p90" limits=INFERENCE_CONTEXT_P90.shown(1.0)
                    on_empty=Callback::new(move |()| sc.update(|s| s.inference.context_p90 = None))
                    value=get(sc, |s| s.inference.context_p90.map(f64::from))
                    on_change=set(sc, |s, v: f64| s.inference.context_p90 = Some(v as u32))/>
                <NumField label=Key::OutputP90 testid="out-p90" limits=INFERENCE_OUTPUT_P90.shown(1.0)
                    on_empty=Callback::new(move |()| sc.update(|s| s.inference.output_p90 = None))
                    value=get(sc, |s| s.inference.output_p90.map(f64::from))
                    on_change=set(sc, |s, v: f64| s.inference.output_p90 = Some(v as u32))/>
                <SelectField label=Key::KvPrecision testid="kv" options=kvs value=enum_get(sc, |s| s.inference.kv) on_change=enum_set(sc, |s, v| s.inference.kv = v)/>
                <ServingForm/>
            </Show>
        </fieldset>
    }
}

/// Card count, servers, TP/PP/ZeRO/recompute/offload or automatic.
#[component]
pub fn ParallelForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let auto = get(sc, |s| s.parallel.auto);
    let zeros = plain(&["0", "1", "2", "3"]);
    let recs = opts(
        lang,
        vec![
            (Recompute::None, Key::RecNone),
            (Recompute::Selective, Key::RecSelective),
            (Recompute::Full, Key::RecFull),
        ],
    );
    let offs = opts(
        lang,
        vec![
            (Offload::None, Key::OffNone),
            (Offload::Optimizer, Key::OffOptimizer),
            (Offload::OptimizerAndParams, Key::OffParams),
        ],
    );
    view! {
        <fieldset class="group">
            <legend>{tr(lang, Key::Parallelism)}</legend>
            <CheckField label=Key::Auto testid="auto" value=auto on_change=set(sc, |s, v| s.parallel.auto = v)/>
            <NumFields rows=LAYOUT_FIELDS/>
            <SelectField label=Key::Zero testid="zero" options=zeros disabled=auto value=get(sc, |s| s.parallel.zero.to_string()) on_change=set(sc, |s, v: String| s.parallel.zero = v.parse().unwrap_or(0))/>
            <SelectField label=Key::RecomputeLabel testid="recompute" options=recs disabled=auto value=enum_get(sc, |s| s.parallel.recompute) on_change=enum_set(sc, |s, v| s.parallel.recompute = v)/>
            <Show when=move || !auto.get() && sc.with(|s| s.parallel.recompute == Recompute::Full)>
                <NumField label=Key::RecomputeLayers testid="recompute-layers" limits=PARALLEL_RECOMPUTE_LAYERS.shown(1.0)
                    value=num(sc, |s| f64::from(s.parallel.recompute_layers))
                    on_change=set(sc, |s, v: f64| s.parallel.recompute_layers = v as u32)/>
            </Show>
            <SelectField label=Key::OffloadLabel testid="offload" options=offs value=enum_get(sc, |s| s.parallel.offload) on_change=enum_set(sc, |s, v| s.parallel.offload = v)/>
            <NumField label=Key::Efficiency testid="mfu" limits=EFFICIENCY_MFU.shown(100.0)                on_empty=Callback::new(move |()| sc.update(|s| s.efficiency.mfu = None))
                value=get(sc, |s| s.efficiency.mfu.map(|m| (m * 1000.0).round() / 10.0))
                on_change=set(sc, |s, v: f64| s.efficiency.mfu = Some(v / 100.0))/>
            <BenchmarkFields/>
            <NumField label=Key::Goodput testid="goodput" limits=EFFICIENCY_GOODPUT.shown(100.0)                on_empty=Callback::new(move |()| sc.update(|s| s.efficiency.goodput = None))
                value=get(sc, |s| s.efficiency.goodput.map(|g| (g * 1000.0).round() / 10.0))
                on_change=set(sc, |s, v: f64| s.efficiency.goodput = Some(v / 100.0))/>
        </fieldset>
    }
}

/// Plain numeric inputs of this form, rendered by one loop (fields.rs `NumFields`).
const TRAINING_FIELDS: &[Num] = &[
    num_row(
        Key::SeqLen,
        "seq",
        TRAINING_SEQ_LEN.shown(1.0),
        |s| f64::from(s.training.seq_len),
        |s, v| s.training.seq_len = v as u32,
    ),
    num_row(
        Key::MicroBatch,
        "mb",
        TRAINING_MICRO_BATCH.shown(1.0),
        |s| f64::from(s.training.micro_batch),
        |s, v| s.training.micro_batch = v as u32,
    ),
    num_row(
        Key::GlobalBatch,
        "gb",
        TRAINING_GLOBAL_BATCH.shown(1.0),
        |s| f64::from(s.training.global_batch),
        |s, v| s.training.global_batch = v as u32,
    ),
    num_row(
        Key::Tokens,
        "tokens",
        TRAINING_TOKENS.shown(1e-9),
        |s| s.training.tokens / 1e9,
        |s, v| s.training.tokens = v * 1e9,
    ),
];

/// Plain numeric inputs of this form, rendered by one loop (fields.rs `NumFields`).
const INFERENCE_FIELDS: &[Num] = &[
    num_row(
        Key::Context,
        "ctx",
        INFERENCE_CONTEXT.shown(1.0),
        |s| f64::from(s.inference.context),
        |s, v| s.inference.context = v as u32,
    ),
    num_row(
        Key::OutputTokens,
        "out",
        INFERENCE_OUTPUT_TOKENS.shown(1.0),
        |s| f64::from(s.inference.output_tokens),
        |s, v| s.inference.output_tokens = v as u32,
    ),
    num_row(
        Key::Concurrent,
        "conc",
        INFERENCE_CONCURRENT.shown(1.0),
        |s| f64::from(s.inference.concurrent),
        |s, v| s.inference.concurrent = v as u32,
    ),
];

/// Plain numeric inputs of this form, rendered by one loop (fields.rs `NumFields`).
const LAYOUT_FIELDS: &[Num] = &[
    num_row(
        Key::Gpus,
        "gpus",
        PARALLEL_GPUS.shown(1.0),
        |s| f64::from(s.parallel.gpus),
        |s, v| s.parallel.gpus = v as u32,
    ),
    num_row(
        Key::GpusPerServer,
        "per-server",
        PARALLEL_GPUS_PER_SERVER.shown(1.0),
        |s| f64::from(s.parallel.gpus_per_server),
        |s, v| s.parallel.gpus_per_server = v as u32,
    ),
    num_row(
        Key::MemoryHeadroom,
        "headroom",
        PARALLEL_MEMORY_HEADROOM.shown(100.0),
        |s| s.parallel.memory_headroom * 100.0,
        |s, v| s.parallel.memory_headroom = v / 100.0,
    ),
    Num {
        disabled: |s| s.parallel.auto,
        ..num_row(Key::Tp, "tp", PARALLEL_TP.shown(1.0), |s| f64::from(s.parallel.tp), |s, v| s.parallel.tp = v as u32)
    },
    Num {
        disabled: |s| s.parallel.auto,
        ..num_row(Key::Pp, "pp", PARALLEL_PP.shown(1.0), |s| f64::from(s.parallel.pp), |s, v| s.parallel.pp = v as u32)
    },
    Num {
        disabled: |s| s.parallel.auto,
        ..num_row(Key::Ep, "ep", PARALLEL_EP.shown(1.0), |s| f64::from(s.parallel.ep), |s, v| s.parallel.ep = v as u32)
    },
    Num {
        disabled: |s| s.parallel.auto,
        ..num_row(Key::Cp, "cp", PARALLEL_CP.shown(1.0), |s| f64::from(s.parallel.cp), |s, v| s.parallel.cp = v as u32)
    },
];

/// The user's own benchmark: a card and the tokens/s per card measured on it, which calibrate
/// every card's time (domain/calibrate.rs). Clearing the speed removes the benchmark.
#[component]
fn BenchmarkFields() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let cards = Signal::derive(move || {
        let mut v = vec![(String::new(), Key::BenchmarkNone.text(lang.get()).to_string())];
        let zh = lang.get() == Lang::Zh;
        v.extend(crate::domain::Catalog::embedded().gpus.iter().map(|g| (g.id.clone(), g.name_in(zh).to_string())));
        v
    });
    let set_card = Callback::new(move |id: String| {
        sc.update(|s| {
            s.efficiency.benchmark = if id.is_empty() {
                None
            } else {
                let speed = s.efficiency.benchmark.as_ref().map_or(0.0, |b| b.tokens_per_s_gpu);
                Some(crate::domain::scenario::Benchmark { gpu: id, tokens_per_s_gpu: speed.max(1.0) })
            };
        });
    });
    view! {
        <SelectField label=Key::BenchmarkCard testid="bench-gpu" options=cards
            value=get(sc, |s| s.efficiency.benchmark.as_ref().map(|b| b.gpu.clone()).unwrap_or_default())
            on_change=set_card/>
        <NumField label=Key::BenchmarkSpeed testid="bench-tokens" limits=EFFICIENCY_BENCHMARK_TOKENS_PER_S_GPU.shown(1.0)            disabled=get(sc, |s| s.efficiency.benchmark.is_none())
            on_empty=Callback::new(move |()| sc.update(|s| s.efficiency.benchmark = None))
            value=get(sc, |s| s.efficiency.benchmark.as_ref().map(|b| b.tokens_per_s_gpu))
            on_change=set(sc, |s, v: f64| {
                if let Some(b) = s.efficiency.benchmark.as_mut() {
                    b.tokens_per_s_gpu = v;
                }
            })/>
    }
}
