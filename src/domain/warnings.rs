//! Plain warnings about a plan: codes with values, worded in both languages by `format.rs`.

use super::catalog::Gpu;
use super::model::ModelSpec;
use super::plan::CardVerdict;
use super::scenario::{Offload, Scenario, Task};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Warning {
    /// GeForce cards: no ECC by default, blower-less coolers, EULA limits datacenter use.
    ConsumerCardForTraining,
    /// Training across more than 8 PCIe-only cards: gradient all-reduce through PCIe/host.
    PcieTrainingBeyond8 { gpus: u32 },
    /// Tensor parallelism beyond the NVLink domain: per-layer all-reduces go over PCIe.
    TensorParallelOverPcie { tp: u32 },
    /// More than one server: needs InfiniBand/RoCE between them.
    MultiServer { servers: u32 },
    /// Card power: W per card, and the cards' W in one server of `cards` of them.
    HighPower {
        card_w: f64,
        server_w: f64,
        #[serde(default)]
        cards: u32,
    },
    /// Non-CUDA stack (catalog code: `cann`, `rocm`, …, `other` = the vendor's own): check
    /// framework and kernel support.
    SoftwareEcosystem {
        software: String,
        #[serde(default)]
        vendor: String,
    },
    /// NVIDIA/AMD China-market variant (export-control cut of interconnect or compute).
    ChinaMarketVariant,
    /// A Chinese-made accelerator (Ascend, Cambricon, Hygon, …): how it is bought and supported.
    DomesticAccelerator,
    /// The card lacks the chosen format and runs at a fallback rate.
    NoNativePrecision { precision: String },
    /// Peak compute unknown: time cannot be estimated.
    UnknownCompute,
    /// Offloading to CPU memory: bounded by PCIe, often 1.5–3× slower.
    CpuOffload,
    /// Sequence longer than the model's trained context.
    BeyondContext { tokens: u32, max: u32 },
    /// The inter-server fabric would take more than half of the step time.
    FabricDominates { needed_gbit: f64, fabric_gbit: f64 },
    /// One rack of these servers draws more than the rack position allows.
    RackPowerOverLimit { rack_kw: f64, limit_kw: f64 },
    /// High-power cards in an office or workstation room.
    OfficeRoom { server_w: f64 },
    /// Does not fit even with the most memory-saving layout tried.
    DoesNotFit { needed_gib: f64, capacity_gib: f64 },
}

/// A Chinese-made accelerator: China market, not an NVIDIA/AMD export variant.
#[must_use]
pub fn domestic(g: &Gpu) -> bool {
    g.market == "china" && !matches!(g.vendor.as_str(), "NVIDIA" | "AMD")
}

/// A third-party modified board (the catalog names it "modded").
#[must_use]
pub fn modified(g: &Gpu) -> bool {
    g.name.contains("modded")
}

/// Warnings about one card's plan.
#[must_use]
pub fn card_warnings(s: &Scenario, g: &Gpu, v: &CardVerdict) -> Vec<Warning> {
    let mut w = Vec::new();
    let training = s.task.is_training();
    if !v.fits {
        w.push(Warning::DoesNotFit {
            needed_gib: v.memory.total / super::units::GIB,
            capacity_gib: v.capacity / super::units::GIB,
        });
    }
    if training && g.segment == "consumer" {
        w.push(Warning::ConsumerCardForTraining);
    }
    if training && !g.interconnect.is_fast() && v.gpus > 8 {
        w.push(Warning::PcieTrainingBeyond8 { gpus: v.gpus });
    }
    if v.layout.tp > 1 && g.nvlink_domain() < v.layout.tp {
        w.push(Warning::TensorParallelOverPcie { tp: v.layout.tp });
    }
    if v.servers > 1 {
        w.push(Warning::MultiServer { servers: v.servers });
    }
    if let Some(tdp) = g.tdp_w {
        if tdp >= 450.0 {
            let cards = v.gpus.min(s.parallel.gpus_per_server).max(1);
            w.push(Warning::HighPower { card_w: tdp, server_w: tdp * f64::from(cards), cards });
        }
    }
    if g.software != "cuda" {
        w.push(Warning::SoftwareEcosystem { software: g.software.clone(), vendor: g.vendor.clone() });
    }
    // A modified board (its name says "modded, grey market") is made from a part, not cut down.
    if domestic(g) {
        w.push(Warning::DomesticAccelerator);
    } else if g.market == "china" && !modified(g) {
        w.push(Warning::ChinaMarketVariant);
    }
    let native = match s.precision {
        super::scenario::Precision::Fp8 => g.fp8_tflops.is_some(),
        super::scenario::Precision::Bf16 => g.bf16_tflops.is_some(),
        super::scenario::Precision::Tf32 => g.tf32_tflops.is_some(),
        _ => true,
    };
    // With no published peak at all there is no fallback rate either: one warning, not two.
    if super::compute::peak_tflops(g, s.precision).is_none() {
        w.push(Warning::UnknownCompute);
    } else if !native {
        let precision = match s.precision {
            super::scenario::Precision::Fp8 => "FP8",
            super::scenario::Precision::Tf32 => "TF32",
            _ => "BF16",
        };
        w.push(Warning::NoNativePrecision { precision: precision.into() });
    }
    if training && v.layout.offload != Offload::None {
        w.push(Warning::CpuOffload);
    }
    w
}

/// Warnings about the scenario itself (not tied to a card).
#[must_use]
pub fn scenario_warnings(m: &ModelSpec, s: &Scenario) -> Vec<Warning> {
    let tokens = match s.task {
        Task::Inference => s.inference.context.saturating_add(s.inference.output_tokens),
        _ => s.training.seq_len,
    };
    if m.max_context > 0 && tokens > m.max_context {
        vec![Warning::BeyondContext { tokens, max: m.max_context }]
    } else {
        Vec::new()
    }
}
