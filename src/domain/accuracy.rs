//! "How accurate is it?": published reference numbers (framework estimators, papers, training
//! reports, serving logs and benchmarks), each recomputed by the engine from the published
//! inputs and held to a stated tolerance. The cases live in `accuracy.json`; `cargo test`
//! (tests/accuracy.rs) and `gpu-planner accuracy` recompute them. The page states the score
//! ([`SCORE`]) and links the table as a static page beside it (`public/accuracy.html`, written by
//! `gpu-planner accuracy --html`), both kept equal to a fresh computation by the tests: the
//! browser neither ships the cases nor runs ~80 plans.

use super::catalog::Catalog;
use super::compute;
use super::framework::{Conventions, Framework};
use super::memory::{self, ActivationShape, Layout, Stage};
use super::report::report as plan;
use super::scenario::Scenario;
use super::units::{GB, GIB};
use super::verdict::CardVerdict;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::LazyLock;

mod scoring;
pub use scoring::*;

/// What a case measures, in the unit the source prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Weights + gradients + optimizer + master weights per GPU, decimal GB.
    #[default]
    ModelStatesGb,
    /// The same in GiB (DeepSpeed's estimator prints GiB as "GB").
    ModelStatesGib,
    /// Share of a layer's activations saved by selective recompute, %.
    ActivationSavingPct,
    /// Peak memory per GPU of the plan, GiB (with the runtime overhead: nvidia-smi's view).
    PeakGib,
    /// Peak bytes PyTorch's allocator hands out per GPU, GiB (`torch.cuda.max_memory_allocated`:
    /// no CUDA context, no fragmentation).
    AllocatedGib,
    /// Peak memory summed over the plan's GPUs, decimal GB.
    TotalGb,
    /// KV cache per token, bytes.
    KvBytesPerToken,
    /// KV cache of one sequence of `inference.context` tokens, GiB.
    KvGib,
    /// KV-cache tokens that fit per replica at `util`.
    KvCapacityTokens,
    /// KV-cache pool per card at `util`, GiB.
    KvPoolGib,
    /// GPU-hours of the run.
    GpuHours,
    /// Model FLOPs utilisation, %.
    MfuPct,
    /// Hardware TFLOP/s per GPU, recomputation counted (Narayanan et al. 2021's convention).
    HwTflops,
    /// Training tokens per second per GPU, at steady state (no goodput loss).
    TokensPerSGpu,
    /// Generated tokens per second per GPU of a static batch (`inference.concurrent` requests of
    /// `context` prompt and `output_tokens` generated tokens).
    StaticBatchTokensSGpu,
    /// Milliseconds from sending a static batch (`inference.concurrent` requests) to its last
    /// token, on the serving engine's step model (domain/serving.rs).
    RequestLatencyMs,
    /// A serving benchmark under load, replayed on the step-level simulation (serving/simulate.rs)
    /// with the source's client schedule ([`Case::prompts`], [`Case::concurrency`] or the
    /// scenario's `inference.rate_rps`): mean and p99 time to first token and time per output
    /// token, milliseconds; output tokens per second of the whole deployment.
    ServingTtftMeanMs,
    /// The median time to first token: the typical request, free of a cold start's tail.
    ServingTtftMedianMs,
    ServingTtftP99Ms,
    ServingTpotMeanMs,
    ServingTpotP99Ms,
    ServingOutputTokS,
    /// Requests per second one replica serves with the scenario's latency targets met: the
    /// largest Poisson rate whose replay ([`Case::prompts`] requests) meets them
    /// (serving/capacity.rs `rate_at_targets`). An MLPerf server run's scheduled rate met its
    /// p99 limits, so it is at most this.
    ServingRateRps,
    /// Vision: images (samples) per second per card on the case's card, predicted from the
    /// *other* cards' measurements only (domain/vision.rs `speed_without`).
    VisionSamplesS,
    /// Vision: images (samples) per second per card at the case's batch, as the page shows it
    /// (the card's own measurements included): batch ÷ (fixed time + batch ÷ rate). For held-out
    /// sources that measured a card the tool may also have measured.
    VisionShownSamplesS,
}

/// One published reference number and the inputs that reproduce it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Case {
    pub id: String,
    pub metric: Metric,
    pub published: f64,
    pub unit: String,
    /// Relative tolerance, stated with the source's own precision and what it measures.
    pub tolerance: f64,
    pub source: String,
    pub url: String,
    /// The published inputs, in words.
    pub inputs: String,
    /// The framework setting that reproduces the figure.
    pub framework: Framework,
    /// Scenario fields that differ from the default (applied after the framework).
    pub scenario: Value,
    /// A fixed layout when the source states one.
    pub layout: Option<Layout>,
    /// Engine memory share for KV-capacity cases.
    pub util: f64,
    /// Card memory as the source's log reports it (CUDA's total, below the nominal size), GiB.
    pub capacity_gib: Option<f64>,
    /// `lower` or `upper` when the source states a bound (">780 GB", "<48 GB"): within when the
    /// engine's figure is on the stated side (or within tolerance of it).
    pub bound: Option<String>,
    /// Tokens the engine profiles before sizing its KV pool (vLLM `max_num_batched_tokens`).
    pub profile_tokens: f64,
    pub note: String,
    /// Why the model cannot express the case, when it cannot (the row stays in the table).
    pub not_expressible: Option<String>,
    /// Whether the row set (or was seen while setting) a constant, or judges them only.
    pub role: Role,
    /// Inputs the source leaves open, scored over every combination of their plausible values
    /// (one object or a list of them in accuracy.json).
    #[serde(deserialize_with = "one_or_many")]
    pub open: Vec<Open>,
    /// When the source was published or last read.
    pub date: String,
    /// Serving benchmarks: the requests sent, and at most this many in flight (none: all at
    /// once, or at the scenario's `inference.rate_rps`).
    pub prompts: Option<u32>,
    pub concurrency: Option<u32>,
}

/// Calibration rows set (or were looked at while setting) a constant or curve; validation rows
/// were added after and are read by the scorer only (tests/accuracy.rs checks that no code
/// names one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    #[default]
    Calibration,
    Validation,
}

impl Role {
    /// In words, for the accuracy page.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Role::Calibration => "calibration · 校准",
            Role::Validation => "validation · 验证",
        }
    }
}

/// An input the source does not publish: the scenario value at `path` (JSON pointer into the
/// case's scenario, e.g. `/parallel/virtual_stages`) takes each of `values`; the row passes when
/// the published figure lies inside the band of predictions (widened by the tolerance) and fails
/// when it lies outside it for every value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Open {
    pub path: String,
    pub values: Vec<Value>,
    /// Why these values are the plausible range.
    pub why: String,
}

/// An `open` field written as one input or a list of them.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Open>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(Open),
        Many(Vec<Open>),
    }
    Ok(match Option::<OneOrMany>::deserialize(d)? {
        None => Vec::new(),
        Some(OneOrMany::One(o)) => vec![o],
        Some(OneOrMany::Many(v)) => v,
    })
}

/// A case with the engine's figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub case: Case,
    pub ours: Option<f64>,
    /// ours / published − 1.
    pub error: Option<f64>,
    pub within: bool,
    /// Why there is no figure (an engine error), if so.
    pub problem: Option<String>,
    /// Lowest and highest figure over an open input's values.
    pub band: Option<(f64, f64)>,
}

static CASES: LazyLock<Vec<Case>> = LazyLock::new(|| {
    // tests/accuracy.rs parses this file and checks every case, so the fallback is never used.
    super::json::parse(include_str!("accuracy.json")).unwrap_or_default()
});

/// The reference cases.
#[must_use]
pub fn cases() -> &'static [Case] {
    &CASES
}

fn merge(base: &mut Value, patch: &Value) {
    match (base, patch) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                merge(b.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
        (b, p) => *b = p.clone(),
    }
}

/// The case's scenario: the default, the framework's conventions, the patch, the fixed layout.
///
/// # Errors
/// When the patch does not describe a valid scenario.
pub fn scenario(c: &Case) -> Result<Scenario, String> {
    let mut s = Scenario::default();
    // A published run ran at its layout: it fitted, so the planner's safety margin is off.
    s.parallel.memory_headroom = 0.0;
    s.training.set_framework(c.framework);
    s.training.conventions = Conventions::of(c.framework);
    let mut v = serde_json::to_value(&s).map_err(|e| e.to_string())?;
    merge(&mut v, &c.scenario);
    let mut s = super::scenario::from_stored(v).map_err(|e| e.to_string())?;
    if let Some(l) = c.layout {
        s.parallel.auto = false;
        s.parallel.gpus = l.gpus();
        s.parallel.tp = l.tp;
        s.parallel.pp = l.pp;
        s.parallel.zero = l.zero;
        s.parallel.recompute = l.recompute;
        s.parallel.offload = l.offload;
        s.parallel.ep = l.ep;
        s.parallel.cp = l.cp;
    }
    Ok(s)
}

fn first_card(s: &Scenario, catalog: &Catalog) -> Result<CardVerdict, String> {
    let r = plan(s, catalog).map_err(|e| e.to_string())?;
    r.cards.into_iter().next().ok_or_else(|| "no card".to_string())
}

/// A vision, OCR, speech or diffusion case's figure.
fn measure_vision(
    metric: Metric,
    m: &super::vision::VisionModel,
    s: &Scenario,
    catalog: &Catalog,
) -> Result<f64, String> {
    let card = || s.cards.only.first().and_then(|id| catalog.gpu(id)).ok_or("the case names no catalog card");
    match metric {
        Metric::VisionSamplesS => {
            let g = card()?;
            let sp = super::vision::speed_without(m, s, g, catalog, Some(&g.id)).ok_or("nothing measured to carry")?;
            Ok(sp.per_card)
        }
        Metric::VisionShownSamplesS => {
            let sp = super::vision::speed(m, s, card()?, catalog).ok_or("no speed for this card")?;
            let b = s.vision.batch.max(1);
            Ok(f64::from(b) / super::vision::batch_time(&sp, b))
        }
        Metric::AllocatedGib => {
            let b = first_card(s, catalog)?.memory;
            Ok((b.total - b.overhead) / GIB)
        }
        Metric::PeakGib => Ok(first_card(s, catalog)?.memory.total / GIB),
        _ => Err("not a vision metric".into()),
    }
}

/// The engine's figure for a case.
///
/// # Errors
/// A message when the scenario is invalid or the engine has no figure (card peak unknown, …).
pub fn measure(c: &Case, catalog: &Catalog) -> Result<f64, String> {
    let s = scenario(c)?;
    if let Some(m) = super::vision_data::model(&s.model) {
        return measure_vision(c.metric, m, &s, catalog);
    }
    let m = s.model_spec().map_err(|e| e.to_string())?;
    let layout = c.layout.unwrap_or_else(Layout::single);
    let gpu = || {
        s.cards.only.first().and_then(|id| catalog.gpu(id)).ok_or_else(|| "the case names no catalog card".to_string())
    };
    let t = &s.training;
    Ok(match c.metric {
        Metric::ModelStatesGb | Metric::ModelStatesGib => {
            let b = memory::training_states(m, &s, &layout, Stage::Only);
            let sum = b.weights + b.gradients + b.optimizer + b.master_weights;
            sum / if c.metric == Metric::ModelStatesGb { GB } else { GIB }
        }
        Metric::ActivationSavingPct => {
            let x = ActivationShape::of(m, t.seq_len, t.micro_batch, 2.0).with(&t.conventions);
            let full = memory::layer_activation_bytes(&x, 1, true);
            (1.0 - memory::layer_activation_bytes(&x, 1, false) / full) * 100.0
        }
        Metric::PeakGib => first_card(&s, catalog)?.memory.total / GIB,
        Metric::AllocatedGib => {
            let b = first_card(&s, catalog)?.memory;
            (b.total - b.overhead) / GIB
        }
        Metric::TotalGb => {
            let v = first_card(&s, catalog)?;
            v.memory.total * f64::from(v.gpus) / GB
        }
        Metric::KvBytesPerToken => memory::kv_cache_bytes(m, 1.0, s.inference.kv.bytes()),
        Metric::KvGib => memory::kv_cache_bytes(m, f64::from(s.inference.context), s.inference.kv.bytes()) / GIB,
        Metric::KvCapacityTokens | Metric::KvPoolGib => {
            let g = gpu()?;
            let cap = c.capacity_gib.or(g.memory_gb).ok_or("card memory unknown")? * GIB;
            let tokens = memory::kv_capacity_tokens(m, &s, cap, layout.tp, layout.tp, c.util, c.profile_tokens);
            if c.metric == Metric::KvCapacityTokens {
                tokens
            } else {
                tokens * memory::kv_cache_bytes(m, 1.0, s.inference.kv.bytes()) * memory::kv_share(m, layout.tp) / GIB
            }
        }
        Metric::GpuHours => first_card(&s, catalog)?.gpu_hours.ok_or("no time (card peak unknown or no fit)")?,
        Metric::MfuPct => first_card(&s, catalog)?.mfu * 100.0,
        Metric::HwTflops => {
            let v = first_card(&s, catalog)?;
            let peak = compute::peak_tflops(gpu()?, s.precision).ok_or("card peak unknown")?;
            v.mfu * peak * compute::layout_recompute_factor(m, &s, &v.layout)
        }
        Metric::TokensPerSGpu => {
            // A measured tokens/s is a steady-state rate: no failures, no checkpoints.
            let mut steady = s.clone();
            steady.efficiency.goodput = Some(1.0);
            let v = first_card(&steady, catalog)?;
            t.tokens / (v.gpu_hours.ok_or("no time")? * 3600.0)
        }
        Metric::RequestLatencyMs
        | Metric::ServingTtftMeanMs
        | Metric::ServingTtftMedianMs
        | Metric::ServingTtftP99Ms
        | Metric::ServingTpotMeanMs
        | Metric::ServingTpotP99Ms
        | Metric::ServingOutputTokS
        | Metric::ServingRateRps
        | Metric::StaticBatchTokensSGpu => serving_figure(c, m, &s, gpu()?, &layout)?,
        Metric::VisionSamplesS | Metric::VisionShownSamplesS => return Err("not a vision model".into()),
    })
}

/// A serving case's figure: one request's latency, a replayed benchmark's TTFT, TPOT or output
/// rate, or a static batch's tokens/s per card.
fn serving_figure(
    c: &Case,
    m: &super::model::ModelSpec,
    s: &Scenario,
    g: &super::catalog::Gpu,
    layout: &Layout,
) -> Result<f64, String> {
    let ep = if c.metric == Metric::RequestLatencyMs || c.metric == Metric::StaticBatchTokensSGpu {
        layout.tp
    } else {
        s.inference.ep.max(layout.tp)
    };
    let e =
        super::serving::Engine::new(m, s, g, layout.tp, ep).ok_or("card figures unknown, or no room for a KV cache")?;
    let i = &s.inference;
    Ok(match c.metric {
        Metric::RequestLatencyMs => e.static_latency(f64::from(i.concurrent)) * 1e3,
        Metric::StaticBatchTokensSGpu => {
            // The serving engine's static batch: every prompt prefilled in chunks, then the
            // output's decode steps for the whole batch (serving.rs).
            let (b, osl) = (f64::from(i.concurrent), f64::from(i.output_tokens));
            b * osl / e.static_latency(b) / f64::from(layout.gpus().max(1))
        }
        Metric::ServingRateRps => {
            let prompts = c.prompts.ok_or("a serving case states its prompts")?;
            let run = super::serving::simulate::Run { requests: prompts, warmup: 0, ..super::serving::SHOWN };
            super::serving::rate_at_targets(&e, s, g, run).ok_or("the targets are met at no rate")?
        }
        _ => {
            let o = replay(c, s, &e, g)?;
            match c.metric {
                Metric::ServingTtftMeanMs => o.ttft.mean * 1e3,
                Metric::ServingTtftMedianMs => o.ttft.p50 * 1e3,
                Metric::ServingTtftP99Ms => o.ttft.p99 * 1e3,
                Metric::ServingTpotMeanMs => o.tpot.mean * 1e3,
                Metric::ServingTpotP99Ms => o.tpot.p99 * 1e3,
                _ => o.rate * f64::from(i.output_tokens) * f64::from(layout.dp.max(1)),
            }
        }
    })
}

/// A serving case's client schedule on one replica: a cold-start benchmark of `prompts` requests
/// (at most `concurrency` in flight), or Poisson arrivals at the scenario's rate, every request
/// measured as the benchmark measures them.
fn replay(
    c: &Case,
    s: &Scenario,
    e: &super::serving::Engine,
    g: &super::catalog::Gpu,
) -> Result<super::serving::simulate::Outcome, String> {
    use super::serving::simulate::{simulate, Load, Run};
    let prompts = c.prompts.ok_or("a serving case states its prompts")?;
    let load = match (s.inference.rate_rps, c.concurrency) {
        (Some(r), _) => Load::Rate(r),
        (None, k) => Load::Bench { concurrency: k.unwrap_or(prompts), prompts },
    };
    let run = Run { requests: prompts, warmup: 0, max_seqs: super::serving::max_seqs(s, g), ..super::serving::SHOWN };
    simulate(e, load, run).filter(|o| o.finished).ok_or_else(|| "the simulated engine did not finish".into())
}

/// Every case with the engine's figure, its error and whether it is within tolerance.
#[must_use]
pub fn table(catalog: &Catalog) -> Vec<Row> {
    table_of(cases(), catalog)
}

/// [`table`] for any list of cases (the CLI's `accuracy --file`: candidate rows tried before they
/// join the table).
#[must_use]
pub fn table_of(cases: &[Case], catalog: &Catalog) -> Vec<Row> {
    cases.iter().map(|c| scoring::row(c, catalog)).collect()
}

/// One row of the table as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Shown {
    pub id: String,
    pub published: f64,
    pub unit: String,
    pub ours: Option<f64>,
    pub error: Option<f64>,
    pub tolerance: f64,
    pub within: bool,
    pub url: String,
    /// The framework setting that reproduces it.
    pub framework: Framework,
    /// Why the model cannot express it yet (counted as a feature the engine lacks).
    pub not_expressible: Option<String>,
    pub role: Role,
    /// The figures' range over an input the source leaves open, and why that range.
    pub band: Option<(f64, f64)>,
    pub open: Option<String>,
}

/// The rows as the page shows them.
#[must_use]
pub fn shown(rows: &[Row]) -> Vec<Shown> {
    rows.iter()
        .map(|r| {
            let c = &r.case;
            Shown {
                id: c.id.clone(),
                published: c.published,
                unit: c.unit.clone(),
                ours: r.ours.map(|o| (o * 1e4).round() / 1e4),
                error: r.error.map(|e| (e * 1e4).round() / 1e4),
                tolerance: c.tolerance,
                within: r.within,
                url: c.url.clone(),
                framework: c.framework,
                not_expressible: c.not_expressible.clone(),
                role: c.role,
                band: r.band.map(|(lo, hi)| ((lo * 1e4).round() / 1e4, (hi * 1e4).round() / 1e4)),
                open: (!c.open.is_empty())
                    .then(|| c.open.iter().map(|o| o.why.as_str()).collect::<Vec<_>>().join("; ")),
            }
        })
        .collect()
}

/// The score the page states: rows within tolerance, rows in all, and rows that need a feature
/// the engine lacks ([`headline`]). The table itself is the static `accuracy.html` beside the
/// page (`gpu-planner accuracy --html`); tests/accuracy.rs keeps both equal to a fresh
/// computation.
pub const SCORE: (usize, usize, usize) = (347, 476, 15);

/// Within tolerance and counted (expressible), for shown rows.
#[must_use]
pub fn shown_score(rows: &[Shown]) -> (usize, usize) {
    let counted: Vec<&Shown> = rows.iter().filter(|r| r.not_expressible.is_none()).collect();
    (counted.iter().filter(|r| r.within).count(), counted.len())
}

/// [`SCORE`] of shown rows: within, all, lacking a feature.
#[must_use]
pub fn shown_headline(rows: &[Shown]) -> (usize, usize, usize) {
    let within = rows.iter().filter(|r| r.within && r.not_expressible.is_none()).count();
    let lacking = rows.iter().filter(|r| r.not_expressible.is_some() || r.ours.is_none()).count();
    (within, rows.len(), lacking)
}
