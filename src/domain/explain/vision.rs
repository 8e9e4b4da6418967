//! How a vision job's figures are computed.

use super::{line, Explanation};
use crate::domain::format;
use crate::domain::scenario::Scenario;
use crate::domain::verdict::CardVerdict;
use crate::domain::vision::VisionModel;

/// A vision job's figures: model states, activations from measured memory, the measured speed
/// and how it was carried to this card, and the time or the serving latency.
pub(super) fn vision(s: &Scenario, m: &VisionModel, v: &CardVerdict) -> Vec<Explanation> {
    let b = &v.memory;
    let gib = |x: f64| format::gib(x);
    let batch = v.vision.as_ref().map_or(s.vision.batch, |x| x.batch);
    let mut out = vec![
        line(
            "vision_states",
            "Weights, gradients, optimizer",
            "权重、梯度、优化器状态",
            format!("Ψ = {:.1} M; weights {} + gradients {} + optimizer {} (AMP: fp32 weights and gradients)", m.params_m, gib(b.weights), gib(b.gradients), gib(b.optimizer)),
            gib(b.weights + b.gradients + b.optimizer),
            "Micikevicius et al., Mixed Precision Training (2018); PyTorch AMP",
        ),
        line(
            "vision_activations",
            "Activations",
            "激活值",
            format!("{} per sample × batch {batch} (from measured memory: slope between batch sizes, or one figure less the model states; × (size ratio)²)", gib(b.activations / f64::from(batch.max(1)))),
            gib(b.activations),
            "published peak-memory measurements of the model (each with its source)",
        ),
    ];
    if let Some(x) = &v.vision {
        let k = &x.basis;
        let carried = if k.card == v.gpu {
            String::new()
        } else {
            format!(" × {:.2} (min of peak and bandwidth ratios, × software stack)", k.ratio)
        };
        let from = if k.from_inference { " × 1/3 (training from an inference figure)" } else { "" };
        out.push(line(
            "vision_speed",
            "Speed per card",
            "每卡速度",
            format!(
                "measured on {} ({}){carried}{from}, scaled to this size and steps",
                k.card,
                if k.date.is_empty() { "undated" } else { &k.date }
            ),
            format!("{:.3} samples/s", x.samples_s),
            "",
        ));
        if let Some(e) = out.last_mut() {
            e.source.clone_from(&k.source);
        }
        if let Some(ms) = x.latency_ms {
            out.push(line(
                "vision_latency",
                "Latency",
                "延迟",
                format!("2 × batch time at batch {} (waiting for the batch before + its own)", x.batch),
                format!("{ms:.0} ms"),
                "M/D/1-style batching at full load (stated assumption)",
            ));
        }
    }
    if let Some(h) = v.hours {
        out.push(line(
            "vision_time",
            "Training time",
            "训练时间",
            format!(
                "({} samples × {} epochs ÷ ({} cards × batch time) + exposed gradient all-reduce) / {}",
                m.samples(s.vision.dataset),
                s.vision.epochs,
                v.gpus,
                crate::domain::goodput::describe(&crate::domain::goodput::from_wall(s.efficiency.goodput, v.gpus, h))
            ),
            format!("{h:.1} h"),
            "Li et al., PyTorch Distributed (VLDB 2020): all-reduce overlapped with backward",
        ));
    }
    out
}
