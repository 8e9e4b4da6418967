//! Eager steps: when a step that carries a prompt chunk is not replayed from a CUDA graph, the CPU
//! launches every kernel of the forward one by one, and a short prefill waits for the launches,
//! not for the GPU. That step lasts max(its GPU work, the launches' time): the launches overlap the
//! kernels they queue, so a long prompt's compute hides them (tenstorrent tt-inference-server
//! #356: SGLang's DeepSeek-R1 first token flat at 180–200 ms from 128 to 4,096 prompt tokens).
//!
//! Which steps run eagerly is the engine's default graph policy ([`ServingEngine`]); what the
//! launches cost is a per-layer figure measured on one engine and model, below.

use super::super::model::ModelSpec;
use super::super::scenario::{Scenario, ServingEngine};

/// Seconds of CPU launches per MoE layer of an eager forward. SGLang PR #12160 (2025-10): a
/// DeepSeek-V3 prefill of one new token took 82.6 ms eagerly ("forward cost-82.64 ms") and 23.1 ms
/// replayed from a graph — one token's GPU work is the graph figure, so the eager forward is
/// launch-bound: 82.6 ms over its 61 layers, less its 3 dense layers at [`DENSE_LAYER_S`], over
/// its 58 MoE layers (the head and embedding are a few kernels). Set from this one measurement;
/// the held-out rows judge it (docs/research/2026-12-05-ttft-fixed-cost-evidence.md).
pub const MOE_LAYER_S: f64 = (82.64e-3 - 3.0 * DENSE_LAYER_S) / 58.0;

/// Seconds of CPU launches per dense layer of an eager forward. sfllm PR #46 (2026-09-13): a
/// Qwen3-4B prefill batch (36 layers) took 16.61 ms eagerly at 22 × 129 tokens and 16.37 ms at
/// 22 × 513 tokens — flat while the graph-replayed time grew from 5.7 to 13.7 ms, so launch-bound:
/// 16.61 ms over 36 layers. A lean engine with Triton attention; one measurement (SGLang PR #27988's
/// 7.35 ms for Qwen3-8B with only attention eager is a floor, 0.2 ms a layer).
/// docs/research/2026-12-05-dense-eager-prefill.md.
pub const DENSE_LAYER_S: f64 = 16.613e-3 / 36.0;

/// Seconds a forward on Huawei's CANN stack spends per transformer layer beyond the step model:
/// vllm-ascend's decode runs several times slower than its weights take to read at every batch
/// (Qwen3-32B BF16 on four 910Bs, 52.8–55.5 ms a token at concurrency 1 where reading the
/// weights takes ~10 ms and the step model said 18.6 ms) — host dispatch, per-layer
/// synchronisation and the small vector kernels a CUDA graph hides
/// (docs/research/2026-12-05-ascend-decode-evidence.md §5). Set as the median over the
/// six concurrency-1 rows of vllm-ascend's suffix-decoding tutorial (v0.13.0rc1, Atlas 800T A2) of
/// (published − modelled time per token) ÷ 64 layers = 0.5547 ms, by the rule written before any
/// Ascend row was scored (docs/research/2026-12-07-ascend-serving-prereg.md); the batch
/// dependence, a single card and another release are judged by held-out rows.
pub const CANN_LAYER_S: f64 = 0.55e-3;

/// Seconds per layer card `g`'s software stack adds to every forward ([`CANN_LAYER_S`] on CANN;
/// nothing elsewhere: no other stack's serving runs have been read for such a cost).
#[must_use]
pub fn stack_layer_s(g: &super::super::catalog::Gpu) -> f64 {
    if g.software == "cann" {
        CANN_LAYER_S
    } else {
        0.0
    }
}

/// The CPU time of one eager forward of `m`: its layers' launches (an MoE layer's routing, expert
/// permutation and grouped GEMMs launch more kernels than a dense MLP).
#[must_use]
pub fn eager_forward_s(m: &ModelSpec) -> f64 {
    let layers = f64::from(m.layers);
    let moe = m.moe.as_ref().map_or(0.0, |x| f64::from(m.layers.saturating_sub(x.dense_layers)));
    moe * MOE_LAYER_S + (layers - moe) * DENSE_LAYER_S
}

/// Tokens in the largest step carrying a prompt chunk that `s`'s engine replays from a graph; a
/// larger one runs eagerly. `chunk` is the step's token budget (max_num_batched_tokens), `tp`/`ep`
/// the replica's layout.
#[must_use]
pub fn graph_tokens(m: &ModelSpec, s: &Scenario, chunk: f64, tp: u32, ep: u32) -> f64 {
    let i = &s.inference;
    if i.enforce_eager {
        return 0.0;
    }
    match i.engine {
        // vLLM V1 captures sizes up to min(2 · max_num_seqs, 512) (`_set_cudagraph_sizes`);
        // its default max_num_seqs (256 or more) leaves 512.
        ServingEngine::Vllm => {
            if i.max_seqs == 0 {
                512.0
            } else {
                (2.0 * f64::from(i.max_seqs)).min(512.0)
            }
        }
        // Piecewise prefill graphs up to chunked_prefill_size, 2,048 tokens for MLA models; SGLang
        // turns them off under speculative decoding and DP attention / an MoE all-to-all backend.
        ServingEngine::SglangGraphs => {
            if i.spec_tokens > 0 || ep > tp {
                0.0
            } else if m.mla.is_some() {
                2048.0_f64.min(chunk)
            } else {
                chunk
            }
        }
        // vLLM V0 replays a graph only for a batch with no prompt tokens (its model runner).
        ServingEngine::Sglang | ServingEngine::Trtllm | ServingEngine::VllmV0 => 0.0,
    }
}

/// One replica's eager prompt steps: the launch time and the largest step replayed from a graph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Launch {
    pub eager_s: f64,
    pub graph_tokens: f64,
    /// Graphs off altogether (`--enforce-eager`): decode-only steps launch eagerly too.
    pub all_eager: bool,
}

impl Launch {
    #[must_use]
    pub fn of(m: &ModelSpec, s: &Scenario, chunk: f64, tp: u32, ep: u32) -> Self {
        Self {
            eager_s: eager_forward_s(m),
            graph_tokens: graph_tokens(m, s, chunk, tp, ep),
            all_eager: s.inference.enforce_eager,
        }
    }

    /// The least a step of `tokens` decode tokens and `prefill` prompt tokens lasts: the launches
    /// when it carries a prompt beyond the captured sizes (any step, with graphs off), else nothing.
    #[must_use]
    pub fn floor(&self, tokens: f64, prefill: f64) -> f64 {
        if (prefill > 0.0 || self.all_eager) && tokens + prefill > self.graph_tokens {
            self.eager_s
        } else {
            0.0
        }
    }
}
