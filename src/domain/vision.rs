//! Vision, OCR, speech and diffusion workloads (YOLO, ResNet, ViT, SAM, PP-OCR, SDXL, FLUX,
//! Whisper): memory per card, training time and serving capacity from *published measurements*
//! (`vision.json`, each row with its card, batch, precision, source and date). FLOPs-based MFU
//! works for transformer LLMs; CNNs reach a small and card-dependent share of peak, so a
//! measured speed is better than a predicted one, and what is carried to another card says so.
//!
//! Speed on a card with no measurement: the measured throughput × a roofline ratio between the
//! two cards (the share of the measured time the model's FLOPs take at peak scales with peak,
//! the rest with bandwidth; [`ratio`]), from the measured card most alike (the ratio nearest 1).
//! Work scales with pixels (side²) and with diffusion steps. Training from an inference
//! measurement: × 1/3 (a backward pass costs about two forward passes; Kaplan et al. 2020 §2.1).

use super::catalog::{Catalog, Gpu};
use super::compute::peak_tflops;
use super::kernels;
use super::names::parse;
use super::scenario::{Precision, Scenario, Task};
use super::units::GIB;

pub use super::vision_data::*;

mod memory;
pub use memory::{
    activation_basis, activation_per_sample, activation_size, eager_applies, eager_scores, global_tokens, memory,
    memory_with, MemoryBasis,
};

/// Speed of a model on a card.
#[derive(Debug, Clone, PartialEq)]
pub struct Speed {
    /// Samples per second per card at a full batch.
    pub per_card: f64,
    /// Time per batch that does not shrink with it (launches, pre- and post-processing), s:
    /// a batch-1 latency minus one sample's share of the throughput.
    pub fixed_s: f64,
    pub basis: Basis,
}

/// Work of one sample at the scenario's size and steps relative to a measurement's: pixels
/// (side²) × denoiser passes (a training sample is one pass at one noise level; generating an
/// image runs `steps` of them).
fn work_ratio(m: &VisionModel, s: &Scenario, x: &Measurement) -> f64 {
    let side = |r: Option<u32>| f64::from(r.or(m.resolution).unwrap_or(1).max(1));
    let passes =
        |k: Option<u32>, sampling: bool| if sampling { f64::from(k.or(m.steps).unwrap_or(1).max(1)) } else { 1.0 };
    let (res, st) = job_size(s);
    let ours = passes(st, s.task == Task::Inference);
    (side(res) / side(x.resolution)).powi(2) * ours / passes(x.steps, x.mode == Mode::Infer)
}

/// The job's side and sampling steps as set (0 in the scenario: the model's own).
fn job_size(s: &Scenario) -> (Option<u32>, Option<u32>) {
    let set = |x: u32| (x > 0).then_some(x);
    (set(s.vision.resolution), set(s.vision.steps))
}

/// A measurement's numeric format (16-bit when the file names none the planner knows).
fn precision(x: &Measurement) -> Precision {
    parse(&x.precision, Precision::NAMES).unwrap_or(Precision::Fp16)
}

/// The format `p` work actually runs in on software `engine` (unstated: PyTorch) on a card with
/// (`tf32_units`) or without TF32 tensor cores: FP32 becomes TF32 where the framework turns
/// TF32 on by default. TensorFlow does for matmuls and convolutions ("TensorFloat-32 is enabled
/// by default", tf.config.experimental.enable_tensor_float_32_execution, TF ≥ 2.4); PyTorch for
/// cuDNN convolutions only (`torch.backends.cudnn.allow_tf32` defaults to True, the matmul flag
/// to False since 1.12: PyTorch docs, CUDA semantics, "TensorFloat-32 (TF32) on Ampere (and
/// later) devices"), so only a convolutional network's fp32 job gains. Lambda's "FP32"
/// ResNet-50 training on A100s (798–1,015 img/s) matches NVIDIA's TF32 figure (938), not the
/// 19.5 TFLOPS FP32 rate. PaddlePaddle turns it on for both cuBLAS and cuDNN
/// (`allow_tf32_cublas = true`, `allow_tf32_cudnn = true` in paddle/phi/backends/context_pool.cc,
/// PaddlePaddle/Paddle at 1bbffc24; paddle/fluid/platform/device_context.cc before); TensorRT
/// and CTranslate2 choose their own kernels.
fn runs_as(m: &VisionModel, p: Precision, engine: Option<Engine>, tf32_units: bool) -> Precision {
    let tf32 = match engine.unwrap_or(Engine::Pytorch) {
        Engine::Tensorflow | Engine::Paddle => true,
        Engine::Pytorch => m.arch == "cnn",
        Engine::Tensorrt | Engine::Ctranslate2 => false,
    };
    if p == Precision::Fp32 && tf32 && tf32_units {
        Precision::Tf32
    } else {
        p
    }
}

/// [`runs_as`] of a measurement on its own card (a card outside the catalog, all pre-Ampere
/// ones, states its peak at the row's format).
fn row_precision(m: &VisionModel, x: &Measurement, catalog: &Catalog) -> Precision {
    let units = catalog.gpu(&x.card).is_some_and(|g| g.tf32_tflops.is_some());
    runs_as(m, precision(x), x.engine, units)
}

/// [`runs_as`] of the job on `g`, on its own software or, unstated, that of the row `x` it is
/// carried from.
fn job_precision(m: &VisionModel, s: &Scenario, x: &Measurement, g: &Gpu) -> Precision {
    runs_as(m, s.precision, s.vision.engine.or(x.engine), g.tf32_tflops.is_some())
}

/// Peak TFLOPS at the measurement's precision and bandwidth of the card it was taken on.
fn specs_of(m: &VisionModel, x: &Measurement, catalog: &Catalog) -> Option<(f64, f64)> {
    match catalog.gpu(&x.card) {
        Some(g) => Some((peak_tflops(g, row_precision(m, x, catalog))?, g.memory_bandwidth_gb_s?)),
        None => Some((x.peak_tflops?, x.bandwidth_gb_s?)),
    }
}

/// FLOPs of one sample at side `res` (the model's own when unstated): the forward pass × 3 for
/// a training sample (a backward costs about two forwards, Kaplan et al. 2020 §2.1; a diffusion
/// training sample is one denoiser pass at one noise level), and for generating an image its
/// `steps` sampling steps × the denoiser passes each runs ([`VisionModel::guidance`]). `None`
/// when the model publishes no FLOPs.
#[must_use]
pub fn sample_flops(m: &VisionModel, res: Option<u32>, steps: Option<u32>, training: bool) -> Option<f64> {
    let side = f64::from(res.or(m.resolution)?.max(1)) / f64::from(m.resolution?.max(1));
    let forward = m.gflops? * 1e9 * side.powi(2);
    let passes = match (training, m.steps) {
        (true, _) => 3.0,
        (false, Some(default)) => {
            f64::from(steps.unwrap_or(default).max(1)) * f64::from(m.guidance.unwrap_or(1).max(1))
        }
        (false, None) => 1.0,
    };
    Some(forward * passes)
}

/// Share of the measured card's time spent at its peak compute: the measured samples/s × the
/// model's FLOPs per sample ([`sample_flops`] at the row's size and steps) over the card's dense
/// peak, at most 1. `None` when the model publishes no FLOPs.
fn compute_share(m: &VisionModel, x: &Measurement, peak_tflops: f64) -> Option<f64> {
    let flops = sample_flops(m, x.resolution, x.steps, x.mode != Mode::Infer)?;
    Some((x.per_card()? * flops / (peak_tflops * 1e12)).clamp(0.0, 1.0))
}

/// How much faster `g` runs than the measured card, × the kernel-maturity ratio of the two
/// software stacks (compute.rs: ROCm, DTK… at 0.7 of CUDA; CANN as CUDA). With the model's FLOPs known, an
/// additive roofline: the share u of the measured time that its FLOPs take at the measured
/// card's peak scales with peak, the rest (memory-bound kernels, launches) with bandwidth:
/// 1 / (u / peak ratio + (1 − u) / bandwidth ratio) (Williams et al. 2009, the roofline's
/// two limits, summed rather than maxed because a network runs both kinds of kernel). ViT-B/16
/// on an RTX 3090 runs at u = 0.77 and gains 1.8× on a 4090 (timm: 1.78×); ResNet-50 at
/// u = 0.37 gains 1.3× (timm: 1.31×). Without FLOPs: min(peak ratio, bandwidth ratio), the
/// smaller gain. Predicting each measured catalog card from the others (tests/vision.rs), 62
/// predictions: median |error| 13%, median error +5%, 97% within ±50% (the min rule for all
/// rows: 20%, −13%, 94%).
fn ratio(m: &VisionModel, x: &Measurement, g: &Gpu, s: &Scenario, catalog: &Catalog) -> Option<f64> {
    let p = job_precision(m, s, x, g);
    // The card's own figure at the job's width is used as measured; at another width (an fp32
    // job, only fp16 measured) it is carried like any other card's, by the two peaks.
    if x.card == g.id && same_width(row_precision(m, x, catalog), p) {
        return Some(1.0);
    }
    let (peak, bw) = specs_of(m, x, catalog)?;
    // Cards outside the catalog are all NVIDIA (CUDA) ones.
    let stack = catalog.gpu(&x.card).map_or(kernels::stack(g), |r| kernels::stack(g) / kernels::stack(r));
    // The memory-bound part moves the activations at the job's width: an fp32 job carried from
    // a 16-bit row moves twice the bytes through the same bandwidth.
    let width = precision(x).bytes() / p.bytes();
    let (by_peak, by_bw) = (peak_tflops(g, p)? / peak, g.memory_bandwidth_gb_s? / bw * width);
    let gain = match compute_share(m, x, peak) {
        Some(u) => 1.0 / (u / by_peak + (1.0 - u) / by_bw),
        None => by_peak.min(by_bw),
    };
    Some(gain * stack)
}

/// Whether two formats store a value in as many bytes (fp16 and bf16 run at one tensor rate).
fn same_width(a: Precision, b: Precision) -> bool {
    a.bytes().total_cmp(&b.bytes()).is_eq()
}

/// Speeds measured in `mode` for the model, with the card ratio each needs.
fn candidates(
    m: &VisionModel,
    mode: Mode,
    g: &Gpu,
    s: &Scenario,
    catalog: &Catalog,
    skip: Option<&str>,
) -> Vec<(&'static Measurement, f64)> {
    measurements()
        .iter()
        .filter(|x| x.model == m.id && x.mode == mode && x.per_card().is_some() && Some(x.card.as_str()) != skip)
        .filter_map(|x| Some((x, ratio(m, x, g, s, catalog)?)))
        .collect()
}

/// Whether `x` ran in another memory format than the job asks for (both stated).
fn other_format(s: &Scenario, x: &Measurement) -> bool {
    matches!((s.vision.memory_format, x.memory_format), (Some(a), Some(b)) if a != b)
}

/// Whether `x` was not measured on the software the job names (unstated counts as another).
fn other_engine(s: &Scenario, x: &Measurement) -> bool {
    s.vision.engine.is_some_and(|e| x.engine != Some(e))
}

/// Speed factor of running the job in another memory format than measurement `x`: the model's
/// NCHW/NHWC speed ratio (training or inference, as the job), or its inverse for NHWC from an
/// NCHW row. 1 when the job keeps the measured format, either is unstated, or the model has no
/// measured pair (timm publishes both formats on one card: `nchw_over_nhwc_*` in vision.json).
fn layout_factor(m: &VisionModel, s: &Scenario, x: &Measurement) -> f64 {
    let r = if s.task.is_training() { m.nchw_over_nhwc_train } else { m.nchw_over_nhwc_infer };
    match (other_format(s, x), s.vision.memory_format, r) {
        (true, Some(MemoryFormat::Nchw), Some(r)) => r,
        (true, Some(MemoryFormat::Nhwc), Some(r)) if r > 0.0 => 1.0 / r,
        _ => 1.0,
    }
}

/// The best of `c`: the job's software first (TensorFlow + XLA or TensorRT against PyTorch eager
/// differ by more than a card carried by its roofline ratio does), then this card, then the
/// format the job runs in — fp16 and bf16 alike (one tensor-core rate: a card nearer in speed
/// beats the other 16-bit label), TF32 before FP32 for a TF32 job and back (tensor cores against
/// CUDA cores), never fp32 for a 16-bit job — then a card of the job card's architecture
/// (cuDNN and cuBLAS pick their kernels per GPU architecture, so a figure from the same
/// generation ran the same kernel families and cache hierarchy), then the card most alike (the
/// ratio nearest 1), then the job's memory format; at a tie the larger batch (a throughput
/// figure). Leaving each measured card out (tests/vision.rs, 84 predictions) the architecture
/// step moves the RTX 5090's ResNet-50 from −45% (carried from an Ada RTX 4090) to −10% (from
/// the Blackwell RTX PRO 6000) and the RTX 3090's from −8% to −47% (from an A100): the median
/// stays 13%, the mean |ln error| 0.177, ±25% 62 → 63 of 84.
fn best<'a>(
    m: &VisionModel,
    c: impl Iterator<Item = &'a (&'static Measurement, f64)>,
    g: &Gpu,
    s: &Scenario,
    catalog: &Catalog,
) -> Option<&'a (&'static Measurement, f64)> {
    // Formats as they run: an fp32 convolution job on an A100 is nearest a TF32 row.
    let far = |x: &Measurement| {
        let (q, p) = (row_precision(m, x, catalog), job_precision(m, s, x, g));
        let half = |f: Precision| matches!(f, Precision::Fp16 | Precision::Bf16);
        u8::from(q != p && !(half(q) && half(p))) + u8::from(!same_width(q, p))
    };
    let key = |(x, r): &(&Measurement, f64)| {
        let kin = catalog.gpu(&x.card).is_some_and(|o| o.architecture.is_some() && o.architecture == g.architecture);
        ((other_engine(s, x), x.card != g.id), far(x), !kin, r.ln().abs(), other_format(s, x), u32::MAX - x.batch)
    };
    c.min_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0)
            .then(ka.1.cmp(&kb.1))
            .then(ka.2.cmp(&kb.2))
            .then(ka.3.total_cmp(&kb.3))
            .then(ka.4.cmp(&kb.4))
            .then(ka.5.cmp(&kb.5))
    })
}

/// The task's measurement mode and the modes it may borrow from, with their speed factor.
fn modes(task: Task) -> &'static [(Mode, f64)] {
    const THIRD: f64 = 1.0 / 3.0;
    match task {
        Task::Inference => &[(Mode::Infer, 1.0)],
        // LoRA still runs the full forward and the activation gradients: as fast as training.
        Task::Lora | Task::Qlora => &[(Mode::Lora, 1.0), (Mode::Train, 1.0), (Mode::Infer, THIRD)],
        Task::Pretrain | Task::FullFinetune => &[(Mode::Train, 1.0), (Mode::Infer, THIRD)],
    }
}

/// The model's speed on `g` for the scenario; `None` when nothing measured can be carried here.
#[must_use]
pub fn speed(m: &VisionModel, s: &Scenario, g: &Gpu, catalog: &Catalog) -> Option<Speed> {
    speed_without(m, s, g, catalog, None)
}

/// [`speed`] as if the measurements taken on card `skip` were not published (the accuracy
/// check predicts each measured card from the others).
#[must_use]
pub fn speed_without(m: &VisionModel, s: &Scenario, g: &Gpu, catalog: &Catalog, skip: Option<&str>) -> Option<Speed> {
    for &(mode, factor) in modes(s.task) {
        let c = candidates(m, mode, g, s, catalog, skip);
        // The throughput row: each card's largest batch at a precision, then the best of those
        // (a small batch's low speed would make its card look alike to a slower one).
        let largest = |(x, _): &&(&Measurement, f64)| {
            !c.iter().any(|(y, _)| {
                y.card == x.card && y.precision == x.precision && y.engine == x.engine && y.batch > x.batch
            })
        };
        let Some(&(x, r)) = best(m, c.iter().filter(largest), g, s, catalog) else { continue };
        let layout = layout_factor(m, s, x);
        let per_card = x.per_card()? * r * factor * layout / work_ratio(m, s, x);
        // A batch-1 latency, carried the same way, gives the fixed time per batch.
        let fixed_s = best(m, c.iter().filter(|(y, _)| y.batch == 1 && y.latency_ms.is_some()), g, s, catalog)
            .map_or(0.0, |&(y, ry)| {
                y.latency_ms.unwrap_or(0.0) / 1e3 * work_ratio(m, s, y) / ry / factor / layout_factor(m, s, y)
                    - 1.0 / per_card
            })
            .max(0.0);
        let basis = Basis {
            card: x.card.clone(),
            source: x.source.clone(),
            date: x.date.clone(),
            ratio: r,
            from_inference: mode == Mode::Infer && s.task.is_training(),
            layout: ((layout - 1.0).abs() > 1e-12).then_some(layout),
            engine: x.engine,
            tf32: s.precision == Precision::Fp32 && job_precision(m, s, x, g) == Precision::Tf32,
        };
        return Some(Speed { per_card, fixed_s, basis });
    }
    None
}

/// The software the model's measurements for the job ran on (each once, in [`Engine::NAMES`]
/// order): the choices a job's `engine` has; a choice matters where there are two or more.
#[must_use]
pub fn engines(m: &VisionModel, task: Task) -> Vec<Engine> {
    let used = |e: Engine| {
        measurements().iter().any(|x| {
            x.model == m.id
                && x.engine == Some(e)
                && x.per_card().is_some()
                && modes(task).iter().any(|(md, _)| *md == x.mode)
        })
    };
    Engine::NAMES.iter().map(|(e, _)| *e).filter(|e| used(*e)).collect()
}

/// The engines a scenario's job may choose among: its model's [`engines`] where there are two or
/// more, else none (one engine leaves nothing to choose). The page shows its select only then,
/// and a choice outside these does not survive a change of model (edit.rs `select_model`).
#[must_use]
pub fn offered_engines(s: &Scenario) -> Vec<Engine> {
    let all = model(&s.model).map(|m| engines(m, s.task)).unwrap_or_default();
    if all.len() < 2 {
        Vec::new()
    } else {
        all
    }
}

/// Whether a vision job can be planned: a published speed in some usable mode. (Speed is the
/// only thing that can be missing: memory always has an answer, at worst a lower bound,
/// [`MemoryBasis::LowerBound`].)
#[must_use]
pub fn speed_measured(m: &VisionModel, s: &Scenario) -> bool {
    let measured =
        |mode: Mode| measurements().iter().any(|x| x.model == m.id && x.mode == mode && x.per_card().is_some());
    modes(s.task).iter().any(|&(mode, _)| measured(mode))
}

/// Time of one batch of `b` samples, s.
#[must_use]
pub fn batch_time(sp: &Speed, b: u32) -> f64 {
    sp.fixed_s + f64::from(b) / sp.per_card
}

/// A vision service on one card model: the batch cap, the cards and the latency they give.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Served {
    /// The largest batch a card takes (powers of two up to the scenario's) that fits.
    pub batch: u32,
    pub cards: u32,
    /// The batch a request runs in at the 99th percentile of Poisson arrivals.
    pub p99_batch: u32,
    /// A request's latency at the 99th percentile, s.
    pub latency_s: f64,
    /// Share of the cards' full-batch capacity the offered rate uses.
    pub load: f64,
    /// The load is served (the 99th-percentile batch fits the cap) within the latency target.
    pub meets: bool,
}

/// One card of a dynamically batched service (a Triton-style batcher: each time the card
/// finishes a batch it takes every waiting request, up to the cap `b`) at `lambda` requests/s.
/// The batch a request runs in holds itself and what arrived while the batch before it ran:
/// k' = 1 + A, A ~ Poisson(λ·T(k)), T(k) = fixed + k / per_card. As a linear recursion
/// (ρ = λ / per_card) its stationary mean is K = (1 + λ·fixed) / (1 − ρ) and its variance
/// (K − 1) / (1 − ρ²) (an AR(1) process driven by the Poisson noise, whose variance is its
/// mean λ·T(k) = K − 1); the 99th percentile batch k99 = K + 2.326 σ (normal). The request
/// waits for the batch in service, then runs: 2·T(k99 capped at b). The load is served when
/// what arrives during one full batch fits the next at the 99th percentile, λ·T(b) + 2.326
/// √(λ·T(b)) ≤ b (Poisson, normal approximation): past it requests spill into later batches
/// and the p99 grows without bound as the rate nears b / T(b). It keeps a card at about 45%
/// of its full-batch capacity at b = 8, 56% at 16, 75% at 64. The bulk-service queue
/// M/D^(b)/1 (Bailey, J. R. Stat. Soc. B 16, 1954) read at its 99th percentile;
/// tests/vision_serving.rs holds it to a simulation of the batcher.
/// Returns (the 99th-percentile batch, p99 latency s, served).
#[must_use]
pub fn batcher_at(sp: &Speed, b: u32, lambda: f64) -> (u32, f64, bool) {
    let full = batch_time(sp, b);
    let during = lambda * full;
    let rho = lambda / sp.per_card;
    if lambda <= 0.0 || rho >= 1.0 || during + 2.326 * during.sqrt() > f64::from(b) {
        return (b, 2.0 * full, lambda <= 0.0);
    }
    let mean = (1.0 + lambda * sp.fixed_s) / (1.0 - rho);
    let sd = ((mean - 1.0) / (1.0 - rho * rho)).max(0.0).sqrt();
    let k = (mean + 2.326 * sd).ceil().clamp(1.0, f64::from(b)) as u32;
    (k, 2.0 * batch_time(sp, k), true)
}

/// Serving on one card model: the batch cap that fits memory, then the fewest cards whose
/// 99th-percentile latency at the offered rate meets the target (more cards lower each card's
/// rate, so the latency falls with them); the scenario's own card count when it sets one.
/// When even a lone request misses the target, the fewest cards that serve the load.
#[must_use]
pub fn serve(m: &VisionModel, s: &Scenario, sp: &Speed, cap: f64, per_sample: f64) -> Served {
    let max = s.vision.batch.max(1);
    let sizes = (0..13).map(|k| 1u32 << k).take_while(|&b| b < max).chain([max]);
    let b = sizes.filter(|&b| memory_with(m, s, b, per_sample).total <= cap).last().unwrap_or(1);
    let rate = s.vision.rate.max(0.0);
    let target = s.vision.latency_ms / 1e3;
    let shape = |n: u32| {
        let (k, latency_s, served) = batcher_at(sp, b, rate / f64::from(n));
        let load = rate / (f64::from(n) * f64::from(b) / batch_time(sp, b));
        Served { batch: b, cards: n, p99_batch: k, latency_s, load, meets: served && latency_s <= target }
    };
    if s.parallel.gpus > 0 {
        return shape(s.parallel.gpus);
    }
    // A lone request's latency is the floor more cards cannot lower.
    let reachable = 2.0 * batch_time(sp, 1) <= target;
    let good = |x: &Served| if reachable { x.meets } else { batcher_at(sp, b, rate / f64::from(x.cards)).2 };
    // The full-batch capacity is the least count; double, then bisect.
    let least = (rate * batch_time(sp, b) / f64::from(b)).ceil().clamp(1.0, 1e6) as u32;
    let (mut lo, mut hi) = (least, least);
    while !good(&shape(hi)) {
        if hi >= 1_000_000 {
            return shape(hi);
        }
        lo = hi + 1;
        hi = hi.saturating_mul(2).min(1_000_000);
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if good(&shape(mid)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    shape(hi)
}

/// Gradient all-reduce of data-parallel training, s per step: ring all-reduce of the fp32
/// gradients, 2·(n−1)/n of the bytes over the link the cards share (NVLink or PCIe in a server,
/// the fabric across servers), and what of it the backward pass (⅔ of the step) cannot hide —
/// PyTorch DDP overlaps bucketed all-reduce with backward (Li et al., PyTorch Distributed, VLDB 2020).
#[must_use]
pub fn exposed_allreduce(m: &VisionModel, s: &Scenario, g: &Gpu, n: u32, compute_s: f64) -> f64 {
    if n <= 1 {
        return 0.0;
    }
    let bytes = (m.params_m - m.frozen_m.clamp(0.0, m.params_m)) * 1e6 * 4.0;
    let link = if n <= s.parallel.gpus_per_server.max(1) {
        super::comms::link_within(g, n).0
    } else {
        super::comms::inter_server(s)
    };
    let ring = 2.0 * f64::from(n - 1) / f64::from(n) * bytes / link.max(1.0);
    (ring - compute_s * 2.0 / 3.0).max(0.0)
}

/// One card's verdict for a vision job: memory at the batch, training hours on the scenario's
/// cards (one when none is set), or the cards that serve the rate within the latency target.
#[must_use]
pub fn verdict(m: &VisionModel, s: &Scenario, g: &Gpu, catalog: &Catalog) -> Option<super::verdict::CardPlan> {
    use super::memory::Layout;
    let cap = g.memory_gb? * GIB;
    // Batches and fits leave the scenario's stated memory headroom free.
    let usable = s.parallel.usable(cap);
    let per_sample = activation_per_sample(m, s);
    let sp = speed(m, s, g, catalog);
    let v = &s.vision;
    let served = match (&sp, s.task) {
        (Some(sp), Task::Inference) => Some(serve(m, s, sp, usable, per_sample)),
        _ => None,
    };
    let (batch, meets) = served.map_or((v.batch.max(1), true), |x| (x.batch, x.meets));
    let memory = memory_with(m, s, batch, per_sample);
    let fits = memory.total <= usable;
    let price = super::pricing::quote(s, catalog, &g.id, "rent_hourly");
    let rent_hourly = price.as_ref().map(|q| q.amount);
    let (mut gpus, mut hours, mut cost, mut figures) = (s.parallel.gpus.max(1), None, None, None);
    if let Some(sp) = sp {
        let t = batch_time(&sp, batch);
        let per_card = f64::from(batch) / t;
        if s.task.is_training() {
            let step = t + exposed_allreduce(m, s, g, gpus, t);
            let steps = m.samples(v.dataset) * v.epochs / (f64::from(batch) * f64::from(gpus));
            // Measured speeds are steady-state: the run's wall time divides by the goodput too.
            hours = fits.then(|| super::goodput::wall_hours(s.efficiency.goodput, gpus, steps * step / 3600.0));
            cost = hours.zip(rent_hourly).map(|(h, r)| h * f64::from(gpus) * r);
        } else if let Some(x) = served {
            gpus = x.cards;
            let rate = v.rate.min(per_card * f64::from(gpus));
            // Per million images; speech per hour of audio.
            cost = rent_hourly.filter(|_| fits).map(|r| r * f64::from(gpus) / (rate * 3600.0) * m.cost_unit());
        }
        figures = Some(VisionFigures {
            batch,
            samples_s: per_card,
            latency_ms: served.map(|x| x.latency_s * 1e3),
            p99_batch: served.map(|x| x.p99_batch),
            load: served.map(|x| x.load),
            meets,
            basis: sp.basis,
        });
    }
    let peak = peak_tflops(g, s.precision).unwrap_or(0.0) * 1e12;
    let (res, steps) = job_size(s);
    let flops = sample_flops(m, res, steps, s.task.is_training()).unwrap_or(0.0);
    let mfu = figures.as_ref().map_or(0.0, |f| if peak > 0.0 { f.samples_s * flops / peak } else { 0.0 });
    Some(super::verdict::CardPlan {
        gpu: g.id.clone(),
        name: g.name.clone(),
        fits,
        gpus,
        servers: gpus.div_ceil(s.parallel.gpus_per_server.max(1)),
        needed_gpus: gpus,
        layout: Layout { dp: gpus, ..Layout::single() },
        memory,
        capacity: cap,
        hours,
        gpu_hours: hours.map(|h| h * f64::from(gpus)),
        mfu,
        utilisation: None,
        throughput: None,
        rent_hourly,
        price,
        cost,
        serving: None,
        vision: figures,
        interconnect_needed: "pcie".into(),
        tier: None,
        hours_band: None,
    })
}

/// Forward FLOPs of the whole training run (3 × forward per sample), when the model's are known.
#[must_use]
pub fn training_flops(m: &VisionModel, s: &Scenario) -> Option<f64> {
    let side = |r: u32| f64::from(r.max(1));
    let res = if s.vision.resolution > 0 { s.vision.resolution } else { m.resolution.unwrap_or(1) };
    let scale = (side(res) / side(m.resolution.unwrap_or(1))).powi(2);
    Some(m.gflops? * 1e9 * scale * 3.0 * m.samples(s.vision.dataset) * s.vision.epochs)
}
