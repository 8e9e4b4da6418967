//! FLOPs, utilisation defaults, training time and inference throughput.

use super::catalog::Gpu;
use super::memory::{self, Layout};
use super::model::ModelSpec;
use super::scenario::{Precision, Recompute, Scenario, Task};
use serde::{Deserialize, Serialize};

/// Training FLOPs for `tokens`: 6·N per token for forward + backward (Kaplan et al. 2020,
/// Hoffmann et al. 2022) plus the attention term 12·L·(heads·d)·s (PaLM, Chowdhery et al. 2022,
/// App. B — the MFU convention). LoRA/QLoRA skip the frozen weights' gradients: 4·N and 8·L·h·s.
#[must_use]
pub fn training_flops(m: &ModelSpec, task: Task, seq: u32, tokens: f64) -> f64 {
    let n = m.params().active;
    let attn = f64::from(m.layers) * f64::from(m.heads) * f64::from(m.head_dim()) * f64::from(seq);
    let (dense, att) = match task {
        Task::Lora | Task::Qlora => (4.0, 8.0),
        _ => (6.0, 12.0),
    };
    (dense * n + att * attn) * tokens
}

/// Extra hardware work from recomputation: full recompute repeats the forward pass (+2N of 6N
/// → ×4/3; of 4N for LoRA → ×3/2); selective recompute costs 2–4% (Korthikanti et al. 2022, §6).
#[must_use]
pub fn recompute_factor(r: Recompute, task: Task) -> f64 {
    match (r, task) {
        (Recompute::None, _) => 1.0,
        (Recompute::Selective, _) => 1.03,
        (Recompute::Full, Task::Lora | Task::Qlora) => 1.5,
        (Recompute::Full, _) => 4.0 / 3.0,
    }
}

/// Dense peak TFLOPS of a card at a precision (falls back to the nearest format it has).
#[must_use]
pub fn peak_tflops(g: &Gpu, p: Precision) -> Option<f64> {
    let half = g.bf16_tflops.or(g.fp16_tflops);
    match p {
        Precision::Bf16 => half,
        Precision::Fp16 => g.fp16_tflops.or(g.bf16_tflops),
        Precision::Fp8 => g.fp8_tflops.or(half),
        Precision::Tf32 => g.tf32_tflops.or(g.fp32_tflops),
        Precision::Fp32 => g.fp32_tflops,
    }
}

/// Default model-FLOPs utilisation by card class. Sources: Llama 3 (Dubey et al. 2024, Table 4)
/// reports 38–43% BF16 MFU on H100 SXM; Llama 2's 184,320 A100-80GB hours for 2T tokens imply
/// ~45% (tests/reference.rs). PCIe, consumer and non-CUDA stacks get lower, stated assumptions;
/// FP8 GEMMs reach a lower share of their doubled peak (assumption: ×0.75). Users override with
/// their own benchmark (`efficiency.mfu`).
#[must_use]
pub fn default_mfu(g: &Gpu, p: Precision) -> f64 {
    let base = if g.software != "cuda" {
        0.30
    } else if g.segment == "datacenter" && g.interconnect.is_fast() && g.nvlink_domain() >= 8 {
        0.40
    } else if g.segment == "datacenter" {
        0.35
    } else {
        0.30
    };
    if p == Precision::Fp8 {
        base * 0.75
    } else {
        base
    }
}

/// The utilisation used for a card: the user's override, else the default.
#[must_use]
pub fn mfu(s: &Scenario, g: &Gpu) -> f64 {
    s.efficiency.mfu.unwrap_or_else(|| default_mfu(g, s.precision))
}

/// Pipeline bubble of 1F1B with p stages and m micro-batches: time × (m + p − 1) / m
/// (Narayanan et al. 2021, §2.2).
#[must_use]
pub fn pipeline_factor(pp: u32, microbatches: f64) -> f64 {
    let m = microbatches.max(1.0);
    (m + f64::from(pp.max(1)) - 1.0) / m
}

/// Slow-down of CPU offload: optimizer steps on the CPU and PCIe transfers. ZeRO-Offload
/// (Ren et al. 2021) hides much of it at large batch; we assume 1.5× (editable by MFU override).
#[must_use]
pub fn offload_factor(o: super::scenario::Offload) -> f64 {
    if o == super::scenario::Offload::None {
        1.0
    } else {
        1.5
    }
}

/// Wall-clock hours of a training run, or `None` when the card's peak is unknown.
#[must_use]
pub fn training_hours(m: &ModelSpec, s: &Scenario, g: &Gpu, layout: &Layout) -> Option<f64> {
    let peak = peak_tflops(g, s.precision)? * 1e12;
    let t = &s.training;
    let flops = training_flops(m, s.task, t.seq_len, t.tokens) * recompute_factor(layout.recompute, s.task);
    let micro = f64::from(t.global_batch) / (f64::from(layout.dp.max(1)) * f64::from(t.micro_batch.max(1)));
    let secs = flops * pipeline_factor(layout.pp, micro) * offload_factor(layout.offload)
        / (f64::from(layout.gpus()) * peak * mfu(s, g));
    Some(secs / 3600.0)
}

/// Serving speed of one model replica (tp × pp cards).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Throughput {
    /// Prompt tokens per second during prefill.
    pub prefill_tokens_s: f64,
    /// Seconds to the first token of one request of `context` tokens.
    pub time_to_first_token_s: f64,
    /// Generated tokens per second, all concurrent sequences together.
    pub decode_tokens_s: f64,
    /// Generated tokens per second seen by one request.
    pub per_request_tokens_s: f64,
}

/// Expected share of routed experts read per decode step at batch B: 1 − (1 − k/E)^B.
fn experts_touched(m: &ModelSpec, batch: f64) -> f64 {
    m.moe.as_ref().map_or(1.0, |e| {
        let k = f64::from(e.experts_per_token) / f64::from(e.experts.max(1));
        1.0 - (1.0 - k).powf(batch)
    })
}

/// Prefill is compute bound (≈ 2N FLOPs per token + attention); decode is bound by reading the
/// weights and KV cache once per step (bandwidth × efficiency) or by 2N·B FLOPs, whichever is slower.
#[must_use]
pub fn inference_throughput(m: &ModelSpec, s: &Scenario, g: &Gpu, layout: &Layout) -> Option<Throughput> {
    let peak = peak_tflops(g, s.precision)? * 1e12;
    let bw = g.memory_bandwidth_gb_s? * 1e9;
    let inf = &s.inference;
    let cards = f64::from(layout.tp.max(1) * layout.pp.max(1));
    let p = m.params();
    let ctx = f64::from(inf.context);
    let attn_per_token = 2.0 * f64::from(m.layers) * f64::from(m.heads) * f64::from(m.head_dim()) * ctx;
    let prefill_flops_per_token = 2.0 * p.active + attn_per_token;
    let prefill_tokens_s = cards * peak * s.efficiency.prefill_mfu / prefill_flops_per_token;
    let batch = f64::from(inf.concurrent);
    // Bytes read per step on one card: its weight shard (MoE: the experts touched) + its KV share.
    let weights = memory::weight_bytes(&p, s.weight_quant, s.precision);
    let routed = m.routed_expert_fraction();
    let expert_share = (1.0 - routed) + routed * experts_touched(m, batch);
    let avg_len = ctx + f64::from(inf.output_tokens) / 2.0;
    let kv = memory::kv_cache_bytes(m, avg_len, inf.kv.bytes())
        * batch
        * memory::kv_share(m, layout.tp)
        * f64::from(layout.tp.max(1));
    let bytes_per_step = (weights * expert_share.min(1.0) + kv) / cards;
    let mem_time = bytes_per_step / (bw * s.efficiency.decode_bandwidth);
    let compute_time = batch * (2.0 * p.active + attn_per_token) / (cards * peak * s.efficiency.prefill_mfu);
    // With pipeline stages the step visits every stage in turn.
    let step = mem_time.max(compute_time) * f64::from(layout.pp.max(1));
    Some(Throughput {
        prefill_tokens_s,
        time_to_first_token_s: ctx / prefill_tokens_s,
        decode_tokens_s: batch / step,
        per_request_tokens_s: 1.0 / step,
    })
}
