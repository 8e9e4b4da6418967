//! Plain warnings about a plan: codes with values, worded in both languages by `format.rs`.

use super::catalog::{Catalog, Gpu};
use super::model::ModelSpec;
use super::scenario::{Offload, Scenario, Task};
use super::verdict::{CardPlan, Warning};

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

/// How the plan's cards talk: PCIe-only training past 8 cards, tensor parallelism past the
/// fabric, and a fabric whose bandwidth is not published, which comms.rs `link_within` times as
/// PCIe (say so wherever the cards talk: training on more than one, serving across a tensor- or
/// expert-parallel group; the MI355X's 4-card replicas once ran so with no word).
fn link_warnings(training: bool, g: &Gpu, v: &CardPlan, w: &mut Vec<Warning>) {
    if training && !g.interconnect.is_fast() && v.gpus > 8 {
        w.push(Warning::PcieTrainingBeyond8 { gpus: v.gpus });
    }
    if v.layout.tp > 1 && g.nvlink_domain() < v.layout.tp {
        w.push(Warning::TensorParallelOverPcie { tp: v.layout.tp });
    }
    let talks = if training { v.gpus > 1 } else { v.layout.tp > 1 || v.layout.ep > 1 };
    if talks && g.interconnect.is_fast() && g.interconnect.gb_s.is_none() {
        w.push(Warning::FabricUnknown { kind: g.interconnect.kind.clone() });
    }
}

/// Warnings about one card's plan.
#[must_use]
pub fn card_warnings(s: &Scenario, catalog: &Catalog, g: &Gpu, v: &CardPlan) -> Vec<Warning> {
    let mut w = Vec::new();
    let training = s.task.is_training();
    if !v.fits {
        w.push(Warning::DoesNotFit {
            needed_gib: v.memory.total / super::units::GIB,
            capacity_gib: v.capacity / super::units::GIB,
        });
    }
    if let Some(c) = v.serving.as_ref().filter(|c| !c.meets) {
        w.push(Warning::ServingTargetsMissed {
            ttft_p99_s: c.latency.ttft_p99_s,
            tpot_p99_ms: c.latency.tpot_p99_s * 1e3,
        });
    }
    if let Some(x) = v.vision.as_ref().filter(|x| !x.meets) {
        w.push(Warning::LatencyTargetMissed {
            latency_ms: x.latency_ms.unwrap_or(0.0),
            target_ms: s.vision.latency_ms,
        });
    }
    if training && g.segment == "consumer" {
        w.push(Warning::ConsumerCardForTraining);
    }
    link_warnings(training, g, v, &mut w);
    if v.needed_gpus > 0 && v.needed_gpus < v.gpus {
        w.push(Warning::RoundedToOrder {
            needed: v.needed_gpus,
            cards: v.gpus,
            per_server: s.parallel.gpus_per_server.max(1),
            headroom: s.parallel.memory_headroom,
        });
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
    if let Some(a) = china_supply(s, catalog, g) {
        w.push(Warning::ChinaSupply { status: a.kind.clone(), since: a.date.clone() });
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

/// In the China market (`money.rent_market` = `china_cloud`), the card's status there when it is
/// not sold new through official channels (catalog.json `availability`, each record sourced).
#[must_use]
pub fn china_supply<'a>(s: &Scenario, catalog: &'a Catalog, g: &Gpu) -> Option<&'a super::catalog::Availability> {
    (s.money.rent_market == "china_cloud").then(|| catalog.china(&g.id)).flatten().filter(|a| a.kind != "sold")
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
