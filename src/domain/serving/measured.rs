//! A decode step composed from operator timings measured on the card: each layer's linear layers
//! (never faster than the card's measured GEMM floor, their weights read at the measured share of
//! peak bandwidth), its attention kernel (a measured floor plus the KV read), DeepSeek-V3's whole
//! MLA module and MoE layer where they were measured at the batch, and the engine's all-reduce at
//! the message size. [`super::Engine::step_at`] never goes below it: the roofline alone misses
//! the latency floors of ~10 small kernels per layer, which dominate a small-batch decode of a
//! deep or sparse model (DeepSeek-R1 on 8 H200s decodes at 13.8 ms per token at 4 users, the
//! roofline said 6.2).
//!
//! Source: NVIDIA's AIConfigurator (ai-dynamo/aiconfigurator, Apache-2.0; the measured figures
//! are used, no code), snapshot 095f58a5 (2026-08-21), `aic-core/src/aiconfigurator_core/systems/
//! data/<card>/…`: `gemm/trtllm/1.3.0rc20/gemm_perf.parquet` (A100: `sglang/0.5.10`),
//! `comm/trtllm/<v>/custom_allreduce_perf.parquet`, `attention/trtllm/1.3.0rc20/
//! generation_attention_perf.parquet` (A100: `vllm/0.14.0`; older TRT-LLM files read KV above peak
//! bandwidth), `mla/trtllm/1.3.0rc20/mla_generation_module_perf.parquet` and `moe/trtllm/1.3.0rc20/
//! moe_perf.parquet`. Extracted in docs/research/2026-12-02-decode-ops.{md,json}. The held-out
//! serving rows of the accuracy table (`serve-*`) judge the result; none of them set a figure here.

use super::bound::{self, Bound};
use crate::domain::catalog::Gpu;
use crate::domain::model::ModelSpec;

/// Operator timings measured on one card, microseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ops {
    /// Catalog ids the figures were measured on.
    pub cards: &'static [&'static str],
    /// Peak memory bandwidth the shares below are of (the system file's `gpu.mem_bw`), GB/s.
    pub bandwidth_gb_s: f64,
    /// Least time of a BF16 / FP8 (1×128 block-scaled) Linear call at m ≤ 16 tokens.
    pub gemm_floor: f64,
    pub gemm_floor_fp8: f64,
    /// Share of peak bandwidth at which a Linear call reads its weights at m = 1 (the largest
    /// shape measured: 65536 × 51200 BF16, 65536 × 16384 FP8 block).
    pub gemm_share: f64,
    pub gemm_share_fp8: f64,
    /// GQA decode attention (32 query heads, 8 KV heads, d 128, BF16 KV): batch 1 at 1,024 tokens
    /// (the floor), and the KV read's share of peak bandwidth at batch 64 × 4,096 tokens.
    pub attention_floor: f64,
    pub attention_share: f64,
    /// The engine's custom all-reduce of BF16 (TRT-LLM's; vLLM's and SGLang's graph-mode kernels
    /// are within ~2 µs below 64 KB): 2, 4 and 8 GPUs × 8 KB, 64 KB and 512 KB.
    pub allreduce: [[f64; 3]; 3],
    /// DeepSeek-V3's whole MLA attention module (projections, attention, output; FP8 block
    /// GEMMs, FP8 KV, 1,024 cached tokens) at 128 and 16 local heads × batch 1, 8 and 64.
    pub mla_module: Option<MlaTable>,
    /// DeepSeek-V3's MoE layer (hidden 7,168, expert FFN 2,048, 256 experts, top-8, FP8 block) on
    /// one GPU of 8 and of 32 expert-parallel GPUs × 1, 4, 16, 64, 256 tokens, under power-law
    /// routing (α 1.01): the collector swaps the most loaded expert-parallel rank to the measured
    /// one (`collector/helper.py`, `_generate_power_law_distribution`), so a row is the rank the
    /// step waits for; AIConfigurator's own default for DeepSeek models (`sdk/config.py`
    /// `workload_distribution = "power_law"`, `sdk/models/deepseek.py` `_power_law_alpha = 1.01`).
    /// Balanced routing, used before session 30, gives every rank the mean load: at 4 tokens on 8
    /// GPUs it read 70.64 µs on an H200 where the busiest rank takes 92.26.
    pub moe_ds3: Option<[[f64; 5]; 2]>,
}

/// The measured cards (docs/research/2026-12-02-decode-ops.md, tables 1–4).
#[allow(clippy::approx_constant)] // H100's 3.14 µs all-reduce is a measurement, not π
pub const MEASURED: [Ops; 4] = [
    Ops {
        cards: &["h100-sxm"],
        bandwidth_gb_s: 3350.0,
        gemm_floor: 2.54,
        gemm_floor_fp8: 4.48,
        gemm_share: 0.856,
        gemm_share_fp8: 0.896,
        attention_floor: 12.62,
        attention_share: 0.877,
        allreduce: [[2.8, 3.06, 4.52], [3.14, 3.68, 7.92], [3.54, 4.59, 17.6]],
        mla_module: Some([[115.8, 125.7, 156.7], [54.5, 60.8, 75.7]]),
        moe_ds3: Some([[45.38, 116.78, 282.41, 403.37, 505.83], [41.46, 67.56, 107.67, 134.29, 166.53]]),
    },
    Ops {
        cards: &["h200-sxm"],
        bandwidth_gb_s: 4800.0,
        gemm_floor: 2.44,
        gemm_floor_fp8: 4.39,
        gemm_share: 0.853,
        gemm_share_fp8: 0.86,
        attention_floor: 12.88,
        attention_share: 0.852,
        allreduce: [[2.8, 2.95, 4.34], [3.18, 3.61, 7.73], [3.5, 4.58, 17.78]],
        mla_module: Some([[98.5, 106.0, 139.6], [51.7, 56.2, 72.4]]),
        moe_ds3: Some([[40.54, 92.26, 182.0, 300.61, 388.84], [36.42, 63.66, 91.31, 106.88, 137.15]]),
    },
    Ops {
        cards: &["b200-hgx"],
        bandwidth_gb_s: 7700.0,
        gemm_floor: 1.71,
        gemm_floor_fp8: 4.7,
        gemm_share: 0.781,
        gemm_share_fp8: 0.843,
        attention_floor: 12.93,
        attention_share: 0.863,
        allreduce: [[4.78, 5.15, 5.38], [5.07, 5.39, 7.15], [5.64, 5.99, 10.94]],
        mla_module: Some([[79.3, 89.2, 100.9], [45.8, 49.7, 59.9]]),
        moe_ds3: Some([[44.44, 90.64, 156.22, 230.48, 239.05], [35.11, 52.6, 74.21, 88.86, 91.99]]),
    },
    Ops {
        cards: &["a100-80gb-sxm4"],
        bandwidth_gb_s: 2039.0,
        gemm_floor: 2.48,
        // No FP8 on Ampere: FP8 weights run as BF16 GEMMs.
        gemm_floor_fp8: 2.48,
        gemm_share: 0.747,
        gemm_share_fp8: 0.747,
        attention_floor: 20.0,
        attention_share: 0.77,
        allreduce: [[4.68, 5.1, 7.84], [6.01, 6.03, 13.86], [8.0, 9.0, 28.25]],
        // No fast MLA kernel and no FP8 MoE table on A100: those parts stay on the roofline.
        mla_module: None,
        moe_ds3: None,
    },
];

/// The measured figures of a catalog card, if any.
#[must_use]
pub fn ops(gpu_id: &str) -> Option<&'static Ops> {
    MEASURED.iter().find(|o| o.cards.contains(&gpu_id))
}

/// Where a card's decode operators come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Measured on this card.
    Own,
    /// Not measured on this card: those of the measured card (catalog id) nearest in memory
    /// bandwidth. A small-batch decode is a chain of latency-bound kernels; their floors are
    /// similar on every current card (AMD's own AITER tables put MI355X's MLA decode kernel at
    /// 12.1 µs, B200's measured attention floor is 12.9 µs: docs/research/
    /// 2026-12-05-amd-decode-evidence.md), so a borrowed floor is nearer than none.
    Borrowed(&'static str),
}

/// The operator figures `g` uses and where they come from: its own, else the measured card
/// nearest in memory bandwidth (|ln ratio|); `None` when its bandwidth is unknown.
#[must_use]
pub fn ops_for(g: &Gpu) -> Option<(&'static Ops, Source)> {
    if let Some(o) = ops(&g.id) {
        return Some((o, Source::Own));
    }
    let bw = g.memory_bandwidth_gb_s.filter(|b| *b > 0.0)?;
    nearest(bw, |_| true).map(|o| (o, Source::Borrowed(o.cards[0])))
}

/// The measured card whose figures pass `with` nearest in bandwidth to `bw` GB/s (|ln ratio|).
fn nearest(bw: f64, with: impl Fn(&Ops) -> bool) -> Option<&'static Ops> {
    let distance = |o: &Ops| (o.bandwidth_gb_s / bw).ln().abs();
    MEASURED.iter().filter(|o| with(o)).min_by(|a, b| distance(a).total_cmp(&distance(b)))
}

/// `table` at `x` from its values at the sizes first·ratio^k (k = 0, 1, …: every table here is
/// measured at a geometric series of sizes), linear in ln x, held at the ends. `ln_ratio` is
/// ln(ratio): one logarithm per call (this runs in every simulated step).
fn log_interp(first: f64, ln_ratio: f64, table: &[f64], x: f64) -> f64 {
    let last = table.len() - 1;
    let u = (bound::ln(x / first) / ln_ratio).within(0.0, last as f64);
    let i = (u as usize).min(last - 1);
    table[i] + (u - i as f64) * (table[i + 1] - table[i])
}

/// ln 4 and ln 8, the ratios between the measured sizes.
const LN_4: f64 = 2.0 * std::f64::consts::LN_2;
const LN_8: f64 = 3.0 * std::f64::consts::LN_2;

/// One all-reduce of `bytes` over `gpus` (2, 4 or 8; wider groups take the 8-GPU row), seconds:
/// interpolated in ln(bytes) between the measured sizes, linear in bytes past 512 KB.
#[must_use]
pub fn allreduce_s(o: &Ops, gpus: u32, bytes: f64) -> f64 {
    let row = match gpus {
        0 | 1 => return 0.0,
        2 | 3 => o.allreduce[0],
        4..=7 => o.allreduce[1],
        _ => o.allreduce[2],
    };
    let sizes = [8192.0, 65_536.0, 524_288.0];
    let us = if bytes > sizes[2] {
        row[2] + (bytes - sizes[2]) * (row[2] - row[1]) / (sizes[2] - sizes[1])
    } else {
        log_interp(sizes[0], LN_8, &row, bytes)
    };
    us * 1e-6
}

/// DeepSeek-V3's MLA module at 128 and 16 local heads × batch 1, 8, 64, µs ([`Ops::mla_module`]).
type MlaTable = [[f64; 3]; 2];

/// The MLA module table figures `o` use on a card of `own_bw` GB/s, its stretch, and the card it
/// was borrowed from when `o` has none (the A100's): then the module of the measured card nearest
/// in bandwidth that has one, stretched for a slower card.
fn mla_module(o: &Ops, own_bw: f64, stretch: f64) -> Option<(MlaTable, f64, Option<&'static str>)> {
    if let Some(t) = o.mla_module {
        return Some((t, stretch, None));
    }
    let donor = nearest(own_bw, |x| x.mla_module.is_some())?;
    Some((donor.mla_module?, (donor.bandwidth_gb_s / own_bw).at_least(1.0), Some(donor.cards[0])))
}

/// A decode step's operators for one model on one card and replica shape, precomputed so that a
/// step costs a few interpolations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecodeOps {
    /// Batch-independent seconds per step: the Linear calls of every layer (QKV, output, MLP or
    /// shared experts, router, LM head) and the attention kernels' floors.
    fixed_s: f64,
    /// Seconds per token of context read by the attention kernels (all layers, one card's share).
    per_context_s: f64,
    /// MLA layers and their module times at batch 1, 8, 64 for this width, seconds.
    mla: Option<(f64, [f64; 3])>,
    /// MoE layers and the measured DeepSeek-V3 layer at 1…256 tokens, seconds.
    moe_table: Option<(f64, [f64; 5])>,
    /// Other MoE layers: routed expert bytes one card holds, the share a step's tokens touch per
    /// token (k / E), layers, bandwidth (bytes/s) and the grouped GEMMs' floor.
    moe_roofline: Option<(f64, f64, f64, f64)>,
    /// All-reduces per step (none under expert parallelism) and the bytes each carries per
    /// decoding request.
    allreduces: f64,
    allreduce_bytes: f64,
    tp: u32,
    ops: &'static Ops,
    source: Source,
}

impl DecodeOps {
    /// The composition for model `m` with weights of `weight_b` bytes per parameter (block-scaled
    /// FP8 GEMMs when `fp8`) and KV of `kv_b` bytes per value, on a replica of `tp`
    /// tensor-parallel cards whose experts span `ep`, on card `g` ([`ops_for`]: its own figures or
    /// a measured card's; an MLA model on figures without an MLA module takes the module of the
    /// measured card nearest in bandwidth that has one). `None` when its bandwidth is unknown.
    #[must_use]
    pub fn new(m: &ModelSpec, g: &Gpu, weight_b: f64, fp8: bool, kv_b: f64, tp: u32, ep: u32) -> Option<DecodeOps> {
        let (o, source) = ops_for(g)?;
        let t = f64::from(tp.max(1));
        // A borrowing card reads at its own bandwidth with the measured card's shares; the
        // measured modules' times are stretched when it is slower, never shortened (their small
        // kernels are latency floors).
        let own_bw = g.memory_bandwidth_gb_s.unwrap_or(o.bandwidth_gb_s);
        let bw = own_bw * 1e9;
        let stretch = (o.bandwidth_gb_s / own_bw).at_least(1.0);
        let (floor, share) = if fp8 { (o.gemm_floor_fp8, o.gemm_share_fp8) } else { (o.gemm_floor, o.gemm_share) };
        let floor = floor * 1e-6;
        // One Linear call reading `params` weights on this card.
        let linear = |params: f64| (params * weight_b / (bw * share)).at_least(floor);
        let (h, layers) = (f64::from(m.hidden), f64::from(m.layers));
        let moe = m.moe.as_ref();
        let (dense_layers, dense_ffn) = m.dense_mlp();
        let (dense_layers, dense_ffn) = (f64::from(dense_layers), f64::from(dense_ffn));
        let moe_layers = layers - dense_layers;
        let gated = if m.gated_mlp { 2.0 } else { 1.0 };
        let mlp = |ffn: f64| linear(h * gated * ffn / t) + linear(ffn / t * h);
        let mut fixed = dense_layers * mlp(dense_ffn);
        let per_context;
        let mut source = source;
        let mla = match &m.mla {
            Some(_) => {
                let (table, stretch, donor) = mla_module(o, own_bw, stretch)?;
                if let Some(d) = donor {
                    source = Source::Borrowed(d);
                }
                // Local heads between the measured 16 (TP 8) and 128 (TP 1), linear in heads.
                let heads = (f64::from(m.heads) / t).within(16.0, 128.0);
                let f = (heads - 16.0) / 112.0;
                let at = |k: usize| (table[1][k] + f * (table[0][k] - table[1][k])) * 1e-6 * stretch;
                // Context past the measured 1,024 tokens: the latent cache (replicated on every
                // card of the group) read at the attention kernel's share.
                per_context = super::super::memory::kv_cache_bytes(m, 1.0, kv_b) / (bw * o.attention_share);
                Some((layers, [at(0), at(1), at(2)]))
            }
            None => {
                let d = f64::from(m.head_dim());
                let (q, kv) = (f64::from(m.heads) * d, f64::from(m.kv_heads.max(1)) * d);
                fixed += layers * (linear(h * (q + 2.0 * kv) / t) + linear(q / t * h) + o.attention_floor * 1e-6);
                per_context = super::super::memory::kv_cache_bytes(m, 1.0, kv_b)
                    * super::super::memory::kv_share(m, tp)
                    / (bw * o.attention_share);
                None
            }
        };
        let mut moe_table = None;
        let mut moe_roofline = None;
        if let Some(x) = moe {
            let fe = f64::from(x.expert_intermediate);
            // Shared experts (split over the tensor-parallel cards) and the router.
            fixed += moe_layers * (f64::from(x.shared_experts) * mlp(fe) + linear(h * f64::from(x.experts)));
            let ds3 = m.hidden == 7168 && x.expert_intermediate == 2048 && x.experts == 256 && x.experts_per_token == 8;
            match o.moe_ds3.filter(|_| ds3 && fp8) {
                Some(table) => {
                    let row = if ep >= 32 { table[1] } else { table[0] };
                    moe_table = Some((moe_layers, row.map(|us| us * 1e-6 * stretch)));
                }
                None => {
                    let expert = (1.0 + gated) * h * fe * weight_b;
                    let held = f64::from(x.experts) / f64::from(ep.max(tp).max(1)) * expert;
                    let k_share = f64::from(x.experts_per_token) / f64::from(x.experts.max(1));
                    moe_roofline = Some((held, k_share, moe_layers, bw * share));
                }
            }
        }
        // The LM head, split over the tensor-parallel cards.
        fixed += linear(f64::from(m.vocab) * h / t);
        // Megatron-style tensor parallelism: two all-reduces per layer of each request's hidden
        // state in 16 bits, one when the experts are expert-parallel (the MLP's is an all-to-all).
        // With expert parallelism the engine's own all-to-all terms stand in (not measured here).
        let per_layer = if ep > tp { 0.0 } else { 2.0 };
        Some(DecodeOps {
            fixed_s: fixed,
            per_context_s: per_context,
            mla,
            moe_table,
            moe_roofline: moe_roofline.map(|(held, k, l, b)| (held / b, k, l, floor)),
            allreduces: if tp > 1 { per_layer * layers } else { 0.0 },
            allreduce_bytes: h * 2.0,
            tp,
            ops: o,
            source,
        })
    }

    /// Where the operator figures come from.
    #[must_use]
    pub fn source(&self) -> Source {
        self.source
    }

    /// Seconds of the measured operators of a decode step of `batch` requests on one attention
    /// group holding `context` tokens in all, each request with `queries` tokens (1; more under
    /// speculative decoding, which verifies the drafted tokens in the same pass), with `tokens`
    /// entering each MoE layer (the whole replica's under expert parallelism); 0 when none
    /// decodes.
    #[must_use]
    pub fn step(&self, batch: f64, context: f64, tokens: f64, queries: f64) -> f64 {
        if batch < 1.0 {
            return 0.0;
        }
        self.step_with(self.batch_terms(batch, tokens, queries), batch, context)
    }

    /// [`DecodeOps::step`] with the terms that depend on the batch alone already known (the
    /// simulation keeps them per batch size: [`StepMemo`]). Summed in the order `step` always
    /// summed them, so a remembered step is the same number to the last bit.
    #[must_use]
    pub fn step_with(&self, t: BatchTerms, batch: f64, context: f64) -> f64 {
        if batch < 1.0 {
            return 0.0;
        }
        let mut s = self.fixed_s;
        if self.mla.is_some() {
            s += t.mla;
            // The module was measured at 1,024 cached tokens per request.
            s += (context - 1024.0 * batch).at_least(0.0) * self.per_context_s;
        } else {
            s += context * self.per_context_s;
        }
        if self.moe_table.is_some() {
            s += t.moe_table;
        }
        if self.moe_roofline.is_some() {
            s += t.moe_roofline;
        }
        s + t.allreduce
    }

    /// The terms of a step of `batch` requests with `queries` tokens each and `tokens` entering
    /// each MoE layer that do not depend on the context: the interpolations in the measured
    /// tables (a logarithm each) and the experts a batch touches (a power).
    #[must_use]
    pub fn batch_terms(&self, batch: f64, tokens: f64, queries: f64) -> BatchTerms {
        let mut t = BatchTerms::default();
        if let Some((layers, table)) = self.mla {
            // The module's measured batch is its query tokens (its projections and attention
            // grow with them); the cache is read once per request.
            t.mla = layers * log_interp(1.0, LN_8, &table, batch * queries);
        }
        if let Some((layers, table)) = self.moe_table {
            t.moe_table = layers * log_interp(1.0, LN_4, &table, tokens);
        }
        if let Some((held_s, k, layers, floor)) = self.moe_roofline {
            // Experts this card holds that the batch's tokens pick, read once.
            let touched = 1.0 - bound::powf(1.0 - k, tokens);
            t.moe_roofline = layers * (held_s * touched).at_least(2.0 * floor);
        }
        t.allreduce = self.allreduces * allreduce_s(self.ops, self.tp, batch * queries * self.allreduce_bytes);
        t
    }
}

/// The context-free terms of one decode step ([`DecodeOps::batch_terms`]), seconds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BatchTerms {
    mla: f64,
    moe_table: f64,
    moe_roofline: f64,
    allreduce: f64,
}

/// [`BatchTerms`] remembered per whole batch size, for one engine: a simulated run steps through
/// the same few hundred batch sizes hundreds of thousands of times, and each fresh set costs up
/// to three logarithms (a tenth of a serving plan's time before it was kept).
#[derive(Debug, Default)]
pub struct StepMemo(Vec<Option<BatchTerms>>);

impl StepMemo {
    /// Batches this size and larger are computed each time (a run's batch never gets near).
    const MAX: usize = 1 << 16;

    /// The terms for `batch` requests of one token each, each bringing its own token to the MoE
    /// layers: remembered when `batch` is a whole number below [`StepMemo::MAX`].
    pub fn terms(&mut self, ops: &DecodeOps, batch: f64) -> BatchTerms {
        let whole = batch >= 0.0 && batch.fract() == 0.0 && batch < Self::MAX as f64;
        if !whole {
            return ops.batch_terms(batch, batch, 1.0);
        }
        let i = batch as usize;
        if i >= self.0.len() {
            self.0.resize(i + 1, None);
        }
        *self.0[i].get_or_insert_with(|| ops.batch_terms(batch, batch, 1.0))
    }
}
