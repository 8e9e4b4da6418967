//! Memory of serving: weights, the KV cache of every running request, the prefill working set.

use super::{finish, weight_bytes, ActivationShape, Layout, MemoryBreakdown};
use crate::domain::model::ModelSpec;
use crate::domain::scenario::Scenario;
use crate::domain::units::GIB;

/// Per-GPU memory of serving: weights, KV cache for every concurrent sequence, a prefill
/// working set, logits of the last position.
#[must_use]
pub fn inference(m: &ModelSpec, s: &Scenario, layout: &Layout) -> MemoryBreakdown {
    let p = m.params();
    let inf = &s.inference;
    let tp = f64::from(layout.tp.max(1));
    let pp = f64::from(layout.pp.max(1));
    let c = &s.training.conventions;
    // Expert parallelism (serving): `ep` attention groups share the routed experts and split
    // the requests.
    let ep = f64::from(layout.ep.max(1));
    let all = weight_bytes(&p, s.weight_quant, s.precision, c);
    let routed = m.routed_expert_fraction();
    let mut b = MemoryBreakdown { weights: all * (1.0 - routed + routed / ep) / (tp * pp), ..Default::default() };
    let tokens = f64::from(inf.context) + f64::from(inf.output_tokens) + m.cross_kv_positions();
    // Each replica (each attention group of one) holds its share of the users: the layout's
    // data-parallel count is replicas × groups.
    let users = (f64::from(inf.concurrent) / f64::from(layout.dp.max(layout.ep).max(1))).ceil();
    b.kv_cache = kv_cache_bytes(m, tokens, inf.kv.bytes()) * users * kv_share(m, layout.tp) / pp;
    b.activations = prefill_working_bytes(m, f64::from(inf.context), layout.tp);
    b.logits = users * f64::from(m.vocab) * 4.0 / tp;
    finish(b, s)
}

/// Forward-only working set of a prefill of `tokens` (one prompt; chunked prefill caps it at the
/// chunk): nothing is kept for a backward pass, so the peak is one MLP's live tensors — its
/// input, gate, up projection and their product, 16-bit: tokens · (2h + 3·ffn) · 2 B / tp. vLLM
/// sizes its KV pool after profiling exactly this peak (one forward of max_num_batched_tokens).
#[must_use]
pub fn prefill_working_bytes(m: &ModelSpec, tokens: f64, tp: u32) -> f64 {
    let x = ActivationShape::of(m, 1, 1, 2.0);
    let mlp = if m.gated_mlp { 3.0 } else { 2.0 };
    tokens * (2.0 * x.hidden + mlp * x.ffn / f64::from(tp.max(1))) * 2.0
}

/// Tokens of KV cache that fit on each card of a `tp`-way attention group when the engine may use
/// `util` of the card (vLLM `gpu_memory_utilization`, SGLang `mem_fraction_static`): what is left
/// after the weight shard (the routed experts spread over `ep` ≥ `tp` cards, the rest over `tp`),
/// the profiled prefill of `max_batched_tokens` and the runtime, divided by the KV bytes one token
/// costs on one card.
#[must_use]
pub fn kv_capacity_tokens(
    m: &ModelSpec,
    s: &Scenario,
    capacity: f64,
    tp: u32,
    ep: u32,
    util: f64,
    max_batched_tokens: f64,
) -> f64 {
    let p = m.params();
    let all = weight_bytes(&p, s.weight_quant, s.precision, &s.training.conventions);
    let routed = m.routed_expert_fraction();
    let weights = all * (1.0 - routed) / f64::from(tp.max(1)) + all * routed / f64::from(ep.max(tp).max(1));
    let free =
        util * capacity - weights - prefill_working_bytes(m, max_batched_tokens, tp) - s.efficiency.runtime_gib * GIB;
    let per_token = kv_cache_bytes(m, 1.0, s.inference.kv.bytes()) * kv_share(m, tp);
    (free / per_token).max(0.0)
}

/// KV-cache bytes of one sequence of `tokens`: 2·L·kv·d·bytes per token (MLA: latent + RoPE key),
/// sliding-window layers capped at the window.
#[must_use]
pub fn kv_cache_bytes(m: &ModelSpec, tokens: f64, bytes: f64) -> f64 {
    let per_token = m.kv_values_per_token() * bytes;
    let effective = match m.sliding_window {
        Some(w) => {
            let frac = m.sliding_window_layers.unwrap_or(1.0).clamp(0.0, 1.0);
            (1.0 - frac) * tokens + frac * tokens.min(f64::from(w))
        }
        None => tokens,
    };
    per_token * effective
}

/// Share of the KV cache one tensor-parallel rank holds: heads split over tp (replicated when
/// kv_heads < tp); MLA's latent is not split by heads, so every rank keeps all of it.
#[must_use]
pub fn kv_share(m: &ModelSpec, tp: u32) -> f64 {
    if m.mla.is_some() {
        return 1.0;
    }
    let kv = f64::from(m.kv_heads.max(1));
    (kv / f64::from(tp.max(1))).ceil() / kv
}
