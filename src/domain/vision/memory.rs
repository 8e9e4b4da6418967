//! Memory of a vision job: weights, gradients and optimizer states, and activations per sample,
//! measured or from the model's own figures.

use super::{measurements, models, precision, Measurement, Mode, VisionModel};
use crate::domain::memory::MemoryBreakdown;
use crate::domain::names::parse;
use crate::domain::scenario::{Optimizer, Precision, Scenario, Task};
use crate::domain::units::GIB;

/// Optimizer bytes per trained parameter (fp32 moments; 8-bit Adam 1 B per moment).
fn optimizer_bytes(o: Optimizer) -> f64 {
    match o {
        Optimizer::AdamW => 8.0,
        Optimizer::AdamW8bit => 2.0,
        Optimizer::SgdMomentum => 4.0,
        Optimizer::Sgd | Optimizer::Adafactor => 0.0,
    }
}

/// Weights, gradients and optimizer state per card, bytes. Mixed-precision training as PyTorch
/// AMP runs it (Micikevicius et al. 2018): fp32 weights and gradients, 16-bit copies made on the
/// fly; frozen parts (diffusion text encoders and VAE) in 16 bits. LoRA: the whole model frozen
/// in 16 bits; its adapters (< 1% of the weights) are not counted. Serving: weights at the precision.
fn states(m: &VisionModel, task: Task, p: Precision, o: Optimizer) -> (f64, f64, f64) {
    let all = m.params_m * 1e6;
    let frozen = m.frozen_m.clamp(0.0, m.params_m) * 1e6;
    match task {
        Task::Inference => (all * p.bytes(), 0.0, 0.0),
        Task::Lora | Task::Qlora => (all * p.bytes(), 0.0, 0.0),
        Task::Pretrain | Task::FullFinetune => {
            let trained = all - frozen;
            (trained * 4.0 + frozen * 2.0, trained * 4.0, trained * optimizer_bytes(o))
        }
    }
}

/// Where a model's activation bytes per sample come from.
#[derive(Debug, Clone, PartialEq)]
pub enum MemoryBasis {
    /// The model's own published memory figure.
    Own,
    /// No figure of the model: another model's, × `scale` (the ratio of their activation
    /// sizes, [`activation_size`]). `family`: a model of its own family.
    Borrowed { from: String, family: bool, scale: f64 },
    /// Nothing to carry (no figure for the job, no FLOPs to borrow one with): the memory is a
    /// lower bound — the model states, plus for training the activations its own inference
    /// figure measured (`from_inference`: a training step runs that forward pass and keeps
    /// more for the backward one).
    LowerBound { from_inference: bool },
    /// Serving with eager attention: the attention scores' peak ([`eager_scores`]), computed
    /// from the model's shape; the measured figures ran fused attention, which holds none.
    EagerScores,
}

/// The size activations grow with, up to a constant: forward FLOPs per √parameter. A
/// transformer's forward FLOPs are 2 × parameters × tokens (Kaplan et al. 2020 §2.1) and its
/// parameters 12·L·h², while the activations it keeps are tokens × h × L × a constant
/// (Korthikanti et al. 2022 §4.1): FLOPs/√P = 2·T·h·L·√12/√L — activations up to √L. A
/// convolution's likewise: FLOPs = output positions × k²·c² per layer, parameters k²·c², kept
/// outputs positions × c. Between two models at one size and of one width/depth ratio it is
/// √(FLOPs ratio); across sizes it follows the pixels (ViT-B/16 at 224 px to SAM's ViT-B at
/// 1,024 px: ×27.2 — 20.9× the tokens, and the s² score term of SAM's four global-attention
/// layers). `None` without FLOPs or parameters.
#[must_use]
pub fn activation_size(m: &VisionModel) -> Option<f64> {
    let f = m.gflops.filter(|f| *f > 0.0)?;
    (m.params_m > 0.0).then(|| f / m.params_m.sqrt())
}

/// Activation bytes per sample at the scenario's size, from the model's measured memory: the
/// slope between two batch sizes when there are two, else one figure less the model states.
#[must_use]
pub fn activation_per_sample(m: &VisionModel, s: &Scenario) -> f64 {
    activation_basis(m, s).0
}

/// Modes whose memory figures serve a task, best first. LoRA keeps what full training keeps
/// (every adapted layer's input, for its adapter's gradient) and full training what LoRA keeps;
/// serving with no serving figure keeps the training figure, an upper bound (inference frees
/// each layer's input).
fn memory_modes(task: Task) -> &'static [Mode] {
    match task {
        Task::Inference => &[Mode::Infer, Mode::Train, Mode::Lora],
        Task::Lora | Task::Qlora => &[Mode::Lora, Mode::Train],
        Task::Pretrain | Task::FullFinetune => &[Mode::Train, Mode::Lora],
    }
}

/// Bytes per sample of the attention scores that eager attention holds at its peak in serving:
/// 3 × heads × tokens² × the job's bytes per value, tokens = (side / patch)². segment-anything's
/// `Attention.forward` (image_encoder.py) computes q·kᵀ, then `add_decomposed_rel_pos` adds
/// rel_h and rel_w in two steps while the caller still holds the scores: three tokens² tensors
/// per head at once in a global-attention block (its 14×14 windows hold 1/17 of that). An
/// inference pass frees each block's input, so this transient is the pass's peak; the block's
/// token tensors (tokens × width, ~3% of it at SAM's 4,096 tokens) are left out. `None` for a
/// model without a global-attention shape (`global_heads`, `patch`).
#[must_use]
pub fn eager_scores(m: &VisionModel, s: &Scenario) -> Option<f64> {
    let (_, _, tokens) = global_tokens(m, s)?;
    Some(3.0 * f64::from(m.global_heads?) * tokens * tokens * s.precision.bytes())
}

/// The job's side (the model's own when unset), the model's patch and the tokens a
/// global-attention block attends over, (side / patch)²; `None` without a global-attention
/// shape.
#[must_use]
pub fn global_tokens(m: &VisionModel, s: &Scenario) -> Option<(u32, u32, f64)> {
    m.global_heads?;
    let patch = m.patch.filter(|p| *p > 0)?;
    let side = if s.vision.resolution > 0 { s.vision.resolution } else { m.resolution? };
    Some((side, patch, (f64::from(side) / f64::from(patch)).powi(2)))
}

/// Whether serving `m` for `task` with eager attention is sized by [`eager_scores`]: an
/// inference job on a model with a global-attention shape (the page offers the choice only then).
#[must_use]
pub fn eager_applies(m: &VisionModel, task: Task) -> bool {
    task == Task::Inference && m.global_heads.is_some() && m.patch.is_some_and(|p| p > 0)
}

/// [`activation_per_sample`] and where it comes from. A model with no memory figure borrows
/// the measured model nearest in parameters — of its family and architecture first, else of
/// its architecture — × the ratio of their [`activation_size`]s: the rule's error is the √L
/// term it leaves out, smallest between models of one size, while the pixels (tokens) it
/// carries exactly. SAM's ViT-B encoder thus borrows ViT-B/16's figure, not ViT-H/14's.
/// With nothing to borrow, a [`MemoryBasis::LowerBound`]. Serving with eager attention
/// (`flash_attention` off) a model with a global-attention shape: [`eager_scores`].
#[must_use]
pub fn activation_basis(m: &VisionModel, s: &Scenario) -> (f64, MemoryBasis) {
    if !s.training.flash_attention && eager_applies(m, s.task) {
        if let Some(a) = eager_scores(m, s) {
            return (a, MemoryBasis::EagerScores);
        }
    }
    estimated_activation(m, s).unwrap_or_else(|| {
        let forward = if s.task.is_training() { own_activation(m, s, Mode::Infer) } else { None };
        (forward.unwrap_or(0.0), MemoryBasis::LowerBound { from_inference: forward.is_some() })
    })
}

/// The model's own figure for the job, else one borrowed from the nearest measured model.
fn estimated_activation(m: &VisionModel, s: &Scenario) -> Option<(f64, MemoryBasis)> {
    let wanted = memory_modes(s.task);
    let own = |o: &VisionModel| wanted.iter().find_map(|&md| own_activation(o, s, md));
    if let Some(a) = own(m) {
        return Some((a, MemoryBasis::Own));
    }
    let size = activation_size(m)?;
    let nearest = |family: bool| {
        models()
            .iter()
            .filter(|o| o.id != m.id && o.arch == m.arch && (!family || o.family == m.family))
            .filter_map(|o| Some((o, activation_size(o)?)))
            .filter_map(|(o, so)| Some((o, so, own(o)?)))
            .min_by(|a, b| (m.params_m / a.0.params_m).ln().abs().total_cmp(&(m.params_m / b.0.params_m).ln().abs()))
            .map(|(o, so, a)| (a * size / so, MemoryBasis::Borrowed { from: o.id.clone(), family, scale: size / so }))
    };
    nearest(true).or_else(|| nearest(false))
}

fn own_activation(m: &VisionModel, s: &Scenario, mode: Mode) -> Option<f64> {
    let rows: Vec<&Measurement> =
        measurements().iter().filter(|x| x.model == m.id && x.mode == mode && x.memory_gib.is_some()).collect();
    let first = rows.first()?;
    let res = |x: &Measurement| x.resolution.or(m.resolution).unwrap_or(1);
    // Activations grow with pixels, not with sampling steps.
    let res_of = |r: u32| f64::from(r.max(1));
    let ours = if s.vision.resolution > 0 { s.vision.resolution } else { m.resolution.unwrap_or(1) };
    let scale = |x: &Measurement| (res_of(ours) / res_of(res(x))).powi(2);
    let mem = |x: &Measurement| x.memory_gib.unwrap_or(0.0) * GIB;
    // Two batch sizes at one size and precision: the slope between the two largest (small
    // batches carry the allocator's fixed blocks and workspace, not per-sample memory).
    let pair = rows
        .iter()
        .flat_map(|a| rows.iter().map(move |b| (a, b)))
        .filter(|(a, b)| a.batch < b.batch && res(a) == res(b) && a.precision == b.precision && a.card == b.card)
        .max_by_key(|(a, b)| (b.batch, a.batch));
    if let Some((a, b)) = pair {
        let slope = (mem(b) - mem(a)) / f64::from(b.batch - a.batch);
        return (slope > 0.0).then(|| slope * scale(a));
    }
    let task = match mode {
        Mode::Train => Task::FullFinetune,
        Mode::Lora => Task::Lora,
        Mode::Infer => Task::Inference,
    };
    let (w, g, o) = states(m, task, precision(first), parse(&first.optimizer, Optimizer::NAMES).unwrap_or_default());
    let per = (mem(first) - w - g - o) / f64::from(first.batch.max(1));
    (per > 0.0).then(|| per * scale(first))
}

/// Memory per card at a batch.
#[must_use]
pub fn memory(m: &VisionModel, s: &Scenario, batch: u32) -> MemoryBreakdown {
    memory_with(m, s, batch, activation_per_sample(m, s))
}

/// [`memory`] with the activation bytes per sample already known (they do not depend on the
/// batch; looking them up scans the measurements).
#[must_use]
pub fn memory_with(m: &VisionModel, s: &Scenario, batch: u32, per_sample: f64) -> MemoryBreakdown {
    let (weights, gradients, optimizer) = states(m, s.task, s.precision, s.training.optimizer);
    let activations = per_sample * f64::from(batch);
    let sum = weights + gradients + optimizer + activations;
    let total = crate::domain::memory::total_with_overhead(sum, s);
    MemoryBreakdown { weights, gradients, optimizer, activations, overhead: total - sum, total, ..Default::default() }
}
