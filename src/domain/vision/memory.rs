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

/// Activation bytes per sample at the scenario's size, from the model's measured memory: the
/// slope between two batch sizes when there are two, else one figure less the model states.
/// A model with no memory figure borrows its family's nearest model's, × √(FLOPs ratio)
/// (activations grow with width, FLOPs with width²). Serving with no serving figure keeps the
/// training figure: an upper bound (inference frees each layer's input).
#[must_use]
pub fn activation_per_sample(m: &VisionModel, s: &Scenario) -> Option<f64> {
    let wanted: &[Mode] = match s.task {
        Task::Inference => &[Mode::Infer, Mode::Train],
        Task::Lora | Task::Qlora => &[Mode::Lora, Mode::Train],
        _ => &[Mode::Train],
    };
    for &mode in wanted {
        if let Some(a) = own_activation(m, s, mode) {
            return Some(a);
        }
    }
    // The family's nearest measured model.
    let flops = m.gflops.unwrap_or(0.0);
    let sibling = models()
        .iter()
        .filter(|o| o.id != m.id && o.family == m.family && o.arch == m.arch && o.gflops.is_some())
        .filter_map(|o| Some((o, wanted.iter().find_map(|&md| own_activation(o, s, md))?)))
        .min_by(|a, b| {
            let d = |o: &VisionModel| (o.gflops.unwrap_or(0.0) / flops.max(1e-9)).ln().abs();
            d(a.0).total_cmp(&d(b.0))
        });
    sibling.map(|(o, a)| a * (flops / o.gflops.unwrap_or(flops).max(1e-9)).sqrt())
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
    memory_with(m, s, batch, activation_per_sample(m, s).unwrap_or(0.0))
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
