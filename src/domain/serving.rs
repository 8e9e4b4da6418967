//! Serving capacity: how many replicas of which tensor-parallel width serve the offered load
//! within the latency targets, and what a million output tokens cost.
//!
//! The engine is continuous batching with chunked prefill (vLLM, SGLang, TensorRT-LLM in-flight
//! batching). One step decodes one token for every running request and carries up to
//! `max_batched_tokens` of prompt. A step lasts
//!   √(W² + C²) + KV read + TP traffic + element-wise kernels + overhead,
//!   W = weight bytes / (bandwidth × efficiency), C = FLOPs / (peak × efficiency),
//! where the weights are the shard (MoE: the experts the batch touches, 1 − (1 − k/E)^B of
//! them), the KV read is every running request's cache at the same bandwidth, after the linear
//! layers (kernels of one stream run in sequence), and the FLOPs are 2·N_active per token plus
//! attention (Kaplan et al. 2020; the roofline of Williams et al. 2009 as applied to decoding in
//! Pope et al. 2022, "Efficiently Scaling Transformer Inference", §2). √(W² + C²) in place of the
//! roofline's max(W, C): measured GEMMs overlap their weight reads with their math imperfectly
//! near the ridge, where a decode batch of a few hundred tokens runs ([`gemm_time`]). The
//! element-wise kernels (add-norms, activation, embedding) move each token's activations through
//! memory between the linear layers, as AIConfigurator counts them ([`elementwise_s`]).
//!
//! Queueing (stated assumptions): requests arrive as a Poisson stream (or from a closed loop of
//! users with think time); prompts are prefilled first come, first served in chunks that share
//! steps with decoding; prompt lengths are all the mean, or log-normal with the given p90
//! (ServeGen, Xiang et al. 2025, §4: production input lengths fit Pareto/log-normal mixtures);
//! the wait for prefill follows Kingman's G/G/1 approximation (Kingman 1961) with an
//! exponential tail; a request's time per output token is
//! its plain decode steps plus the steps that carry other prompts' chunks, whose number is
//! Poisson (vLLM's benchmark defines TPOT per request: decode time / output tokens).

use super::catalog::Gpu;
use super::compute::peak_tflops;
use super::memory;
use super::model::ModelSpec;
use super::scenario::{Scenario, ServingEngine};
use bound::Bound;
use serde::{Deserialize, Serialize};

pub mod bound;
mod capacity;
pub mod launch;
pub mod measured;
pub mod simulate;
pub mod speculative;
pub use capacity::*;

/// Trade-off curves by tensor-parallel width ([`tradeoffs`]).
pub type Curves = Vec<(u32, Vec<(f64, f64)>)>;

/// The serving engine's two entry points ([`super::error::Engine`]: the page downloads them on
/// the first inference scenario).
#[derive(Clone, Copy)]
pub struct Entry {
    pub capacity: fn(&ModelSpec, &Scenario, &Gpu) -> Option<Capacity>,
    pub tradeoffs: fn(&ModelSpec, &Scenario, &Gpu) -> Curves,
}

impl Entry {
    pub const BUILT_IN: Entry = Entry { capacity, tradeoffs };
}

static ENTRY: super::hook::Hook<Entry> = super::hook::Hook::new(Entry::BUILT_IN);

/// The serving engine, `None` while the page has not loaded it.
#[must_use]
pub fn entry() -> Option<Entry> {
    ENTRY.get()
}

/// Hands the downloaded engine over (the page's build only); a second copy is ignored.
#[cfg(feature = "split")]
pub fn install(e: Entry) {
    ENTRY.install(e);
}

/// Seconds from a client sending a request to the engine's scheduler holding it (HTTP, template,
/// tokenizer, the hop to the scheduler's process): pegainfer issue #738 (2026-07-23) measured
/// "client start -> scheduler `scheduled`" at 1.289 ms in a lean Rust server (Qwen3-4B, 5 new
/// tokens after a prefix hit); Python servers spend more (not measured independently:
/// docs/research/2026-12-05-engine-frontend-latency.md), so this is a lower bound. Its size
/// hardly matters to a busy engine: what matters is that a request sent as another's answer
/// ends arrives after the next step has started, and waits for it.
pub const FRONTEND_S: f64 = 1.289e-3;

/// How far the serving figures land from published runs the engine never saw (the held-out
/// serving rows of src/domain/accuracy.json, tests/accuracy.rs recomputes them): per kind of
/// figure, the 90th percentile of |error| and the rows it is taken over. The page states them
/// under the serving table. First tokens miss most (cold benchmark starts, engine front ends and
/// MLPerf's near-saturation runs); throughput least. Throughput counts the rate one replica
/// carries within MLPerf's latency limits (the replica count's figure): 0.186 over 36 rows before
/// those 18 joined.
pub const SERVING_P90: [(&str, f64, usize); 3] =
    [("first token", 2.209, 74), ("per token", 0.645, 80), ("throughput", 0.194, 68)];

/// Tensor-parallel widths tried per replica.
pub const TP_DEGREES: [u32; 4] = [1, 2, 4, 8];
/// Latency of one small all-reduce inside an NVLink server: about 6 µs on 2 H100s with CUDA
/// graphs (NCCL issue #1259, nccl-tests all_reduce_perf at 128 B–64 KB), the one-shot custom
/// kernels vLLM, SGLang and TensorRT-LLM run over NVLink. Decoding pays it twice per layer
/// whatever the batch.
pub const ALLREDUCE_LATENCY_S: f64 = 6e-6;
/// Between servers (2 × 8 GPUs over InfiniBand/RoCE): NCCL's 39–48 µs at 8 KB and 42–52 µs at
/// 64 KB (nccl-tests issue #319; oracle-quickstart/oci-hpc-oke; docs/research/
/// 2026-12-05-pcie-allreduce-latency.md).
pub const CROSS_SERVER_LATENCY_S: f64 = 45e-6;

/// Latency of one of decode's small collectives (8–64 KB) among `width` cards of `g`: the custom
/// one-shot all-reduce over NVLink (6 µs) or AMD's Infinity Fabric (6.3 µs on 8 MI355X at 24 KB,
/// vLLM PR #39080); Huawei's HCCL over HCCS, 18 µs flat to 64 KB on 8 × 910B (Huawei's own
/// model of it, hicann/ops-transformer `mc2/common/op_host/op_tiling/hccl_performance.cpp`),
/// taken too for the other vendors' fabrics, whose collectives publish no figure. Over PCIe the
/// engines fall back to NCCL (vLLM's custom all-reduce needs NVLink beyond two cards, and P2P
/// for two), which neither CUDA graphs nor P2P bring near NVLink's: 8/13 µs for 2 cards with/
/// without P2P, 18/27 for 4, 40/50 for 8 (nccl-tests on 2080 Ti, RTX 4090, RTX 5090 and V100
/// PCIe systems, and in-engine 20 µs at 8 KB on 4 × V100 PCIe; docs/research/
/// 2026-12-05-pcie-allreduce-latency.md, ±50%: topology varies). Past one server: the fabric's.
#[must_use]
pub fn collective_latency_s(s: &Scenario, g: &Gpu, width: u32) -> f64 {
    if width <= 1 {
        return 0.0;
    }
    if width > s.parallel.gpus_per_server.max(1) {
        return CROSS_SERVER_LATENCY_S;
    }
    match super::comms::link_within(g, width).1 {
        "nvlink" => match g.software.as_str() {
            "cuda" => ALLREDUCE_LATENCY_S,
            "rocm" => 6.3e-6,
            _ => 18e-6,
        },
        link => {
            let p2p = link == "pcie";
            let (with, without) = match width {
                2 => (8e-6, 13e-6),
                3 | 4 => (18e-6, 27e-6),
                _ => (40e-6, 50e-6),
            };
            if p2p {
                with
            } else {
                without
            }
        }
    }
}

/// The most cards a serving plan may use.
const MAX_CARDS: u32 = 4096;

/// Share of peak bandwidth a memory-bound element-wise kernel reaches, and its fixed latency:
/// AIConfigurator's `mem_bw_empirical_scaling_factor` and `mem_empirical_constant_latency`
/// (ai-dynamo/aiconfigurator system files, e.g. `a800_sxm.yaml`: 0.8 and 3 µs, "nonofficial
/// correction based on observations"), applied by its `query_mem_op` to every element-wise op.
pub const ELEMENTWISE_SHARE: f64 = 0.8;
pub const ELEMENTWISE_LATENCY_S: f64 = 3e-6;

/// Seconds per token on one card, and per forward pass, of the memory-bound kernels between the
/// linear layers (AIConfigurator's `ElementWise` and `Embedding` ops, `sdk/models/llama.py` and
/// `moe.py`): every layer's two residual-add + RMSNorm kernels over the full hidden state (2h in,
/// 2h out, on every tensor-parallel card after its all-reduce), a dense MLP's activation on the
/// card's share (2·I/tp in, I/tp out when gated; MoE layers keep theirs inside the fused expert
/// kernels) and the embedding gather (h out), FP16 activations (2 bytes) read at
/// [`ELEMENTWISE_SHARE`] of `bandwidth` (bytes/s); [`ELEMENTWISE_LATENCY_S`] per kernel.
/// docs/research/2026-12-07-elementwise-prereg.md.
#[must_use]
pub fn elementwise_s(m: &ModelSpec, tp: u32, bandwidth: f64) -> (f64, f64) {
    let (h, layers) = (f64::from(m.hidden), f64::from(m.layers));
    let (dense_layers, ffn) = m.dense_mlp();
    let (dense_layers, ffn) = (f64::from(dense_layers), f64::from(ffn) / f64::from(tp.max(1)));
    let act_in = if m.gated_mlp { 2.0 } else { 1.0 };
    let bytes = 2.0 * (layers * 2.0 * (2.0 * h + 2.0 * h) + dense_layers * (act_in + 1.0) * ffn + h);
    let kernels = 2.0 * layers + dense_layers + 1.0;
    (bytes / (bandwidth * ELEMENTWISE_SHARE), kernels * ELEMENTWISE_LATENCY_S)
}

/// One replica's costs per engine step. A replica is `tp` cards running attention, or, with
/// expert parallelism, `ep` cards holding the routed experts and `ep / tp` data-parallel attention
/// groups of `tp` cards each, every group with its own requests, KV cache and scheduler (vLLM:
/// EP = TP × DP; SGLang's DP attention; DeepSeek-V3 report §3.4, decoding with DP attention and
/// EP). All groups step together: the MoE layers exchange every group's tokens.
#[derive(Debug, Clone, Copy)]
pub struct Engine {
    pub tp: u32,
    /// Cards the routed experts are spread over; `tp` without expert parallelism.
    pub ep: u32,
    /// Data-parallel attention groups (ep / tp).
    groups: f64,
    /// Bytes/s of the replica at the decode bandwidth efficiency.
    bandwidth: f64,
    /// Weight bytes read every step outside the routed experts (every group reads its own copy),
    /// and the routed experts' bytes.
    dense_bytes: f64,
    routed_bytes: f64,
    /// Encoder weights (encoder–decoder models): read only by steps that encode a prompt.
    encoder_bytes: f64,
    /// k/E of the MoE router (0 for dense models).
    route_share: f64,
    /// KV bytes of one token of context, whole replica.
    kv_per_token: f64,
    /// Mean tokens in cache per running request: the prompt + half the output, weighted by how
    /// long each answer runs.
    mean_ctx: f64,
    /// Compute seconds the busiest card spends per request decoded in the replica (its group's
    /// share of the non-expert work, its share of the experts'), and per prompt token its group
    /// prefills (all of the group's non-expert work). `decode_s` holds the attention at the mean
    /// context; `attend_s` is the attention's share per token of context (what the simulation
    /// charges for each request's own context, `decode_s − attend_s · mean_ctx` the rest).
    decode_s: f64,
    attend_s: f64,
    prefill_s: f64,
    /// Communication seconds on that card per request decoded and per prompt token prefilled: a
    /// group's tensor-parallel all-reduces and the card's MoE all-to-all; per step, their latency.
    decode_comm_s: f64,
    prefill_comm_s: f64,
    comm_per_step: f64,
    overhead: f64,
    /// Host seconds per decoding request in every step, on the step's path ([`V0_HOST_PER_SEQ_S`]
    /// for vLLM V0, else 0).
    host_per_seq: f64,
    /// Element-wise kernels ([`elementwise_s`]): seconds per token on one card, per forward.
    elementwise: (f64, f64),
    /// Tokens of KV cache the replica holds (all groups).
    pub kv_tokens: f64,
    /// Prompt tokens one group's step may carry.
    chunk: f64,
    prompt: f64,
    uncached: f64,
    output: f64,
    /// σ of the log-normal prompt lengths (0: every prompt the mean length), and of the answers.
    sigma: f64,
    out_sigma: f64,
    /// Encoder positions every request carries (encoder–decoder models; 0 otherwise).
    enc_seq: f64,
    /// Share of each prompt served from the prefix cache.
    prefix_share: f64,
    /// The decode step composed from operators measured on this card, when it was measured
    /// (serving/measured.rs): a floor under the roofline.
    ops: Option<measured::DecodeOps>,
    /// Speculative decoding (serving/speculative.rs): tokens each decoding request computes per
    /// step (the drafted ones + 1; 1 without a draft), the tokens it gains on average, and the
    /// drafts' time as a share of the step (k · c).
    verify: f64,
    /// Mean tokens a decoding request gains per step.
    pub per_step: f64,
    draft: f64,
    /// Prompt-carrying steps the engine runs without graphs last at least their kernel launches.
    launch: launch::Launch,
    /// Seconds from a request's sending to the scheduler ([`FRONTEND_S`]).
    pub frontend_s: f64,
    /// The engine forms each step while the one before it runs (an overlap scheduler): a request
    /// that reaches a busy engine joins the step after the one already formed
    /// ([`overlaps`]).
    pub overlap: bool,
    /// The engine's host work runs beside the GPU step rather than after it ([`hides_host`]).
    pub hides_host: bool,
    /// Seconds every step pays for the card's software stack ([`launch::stack_layer_s`] × layers:
    /// CANN's dispatch, per-layer synchronisation and small kernels), on the device's path: no
    /// overlap scheduler hides it.
    stack: f64,
}

/// Whether `engine` overlaps scheduling with the GPU step by default: SGLang's
/// `event_loop_overlap` (`disable_overlap_schedule` defaults to False) and TensorRT-LLM's
/// PyExecutor ("At step n, the system launches GPU computation for step n+1 without waiting for
/// CPU tasks ... from step n"; "Enabled by default": docs/source/features/overlap-scheduler.md).
/// A request arriving while step n runs is read after step n ends, when step n+1 is already
/// queued, so it waits one whole step more than under a synchronous scheduler. vLLM V1 schedules
/// synchronously unless `--async-scheduling` (vLLM PR #19970, 2025-06, opt-in; on by default
/// only from PR #27614, late 2025): the `Vllm` engine here is the synchronous one.
#[must_use]
pub fn overlaps(engine: ServingEngine) -> bool {
    !matches!(engine, ServingEngine::Vllm | ServingEngine::VllmV0)
}

/// Whether `s`'s linear layers run block-scaled FP8 GEMMs: FP8 weights, or FP8 math on unquantised
/// ones; FP4 weights are timed at the FP8 GEMMs' measured floors too (no FP4 row was measured).
fn fp8_gemms(s: &Scenario) -> bool {
    use super::scenario::{Precision, WeightQuant};
    s.weight_quant == WeightQuant::Fp8
        || s.weight_quant.is_fp4()
        || (s.weight_quant == WeightQuant::None && s.precision == Precision::Fp8)
}

/// Whether `engine`'s host work a step (its fixed time, its launches) runs while the GPU works on
/// the step before, so that a step lasts the longer of the two rather than their sum: SGLang's
/// overlap scheduler (LMSYS, "SGLang v0.4", 2024-12-04: five consecutive decode batches "and you
/// can see there is no single idle time on the GPU"). TensorRT-LLM overlaps too, yet its
/// PyExecutor "exposes ~580 µs/iter of host overhead as GPU idle" (TensorRT-LLM #13957, B200,
/// conc 64): its fixed time stays on the path, as vLLM's does.
/// docs/research/2026-12-08-sglang-hidden-fixed-time-prereg.md.
#[must_use]
pub fn hides_host(engine: ServingEngine) -> bool {
    matches!(engine, ServingEngine::Sglang | ServingEngine::SglangGraphs)
}

/// vLLM V0's host time per decoding request in every step: its Python scheduling, input
/// preparation, sampling and output processing run on the step's path and grow with the batch.
/// Vidur's profiles of a vLLM-style engine (microsoft/vidur @6d98aa8,
/// `data/profiling/a100/cpu_overheads.csv`, Sarathi-Serve with `scheduler_type="vllm"`, early
/// 2024) put the per-step median at 1.17, 2.10, 3.51 and 6.22 ms for 8, 32, 64 and 128 running
/// sequences (Llama-2-7B, A100 host, TP 1): 43 µs a sequence on a fixed ~0.8 ms, the same slope
/// for phi-2 (42), Llama-2-70B TP 4 (43) and CodeLlama-34B TP 2 (44). The fixed part stays the
/// scenario's `step_overhead_ms`. docs/research/2026-12-07-vllm-v0-prereg.md.
pub const V0_HOST_PER_SEQ_S: f64 = 43e-6;

/// Seconds one card spends in the MoE all-to-all per token it owns and per MoE layer: the token's
/// hidden state goes to its k experts (dispatch, `dispatch_b` bytes a value: DeepEP sends FP8)
/// and comes back (combine, 2 B), spread evenly over `ep` cards: the share on other cards of the
/// same server crosses NVLink or PCIe, the share on other servers the fabric, both at once
/// (DeepEP, "Low-latency kernels", H800 + CX7 400 Gb/s; DeepSeek-V3 report §3.2).
#[must_use]
pub fn all_to_all_s(s: &Scenario, g: &Gpu, ep: u32, hidden: f64, top_k: f64, dispatch_b: f64) -> f64 {
    if ep <= 1 {
        return 0.0;
    }
    let e = f64::from(ep);
    let local = ep.min(s.parallel.gpus_per_server.max(1));
    let bytes = top_k * hidden * (dispatch_b + 2.0);
    let inside = bytes * f64::from(local - 1) / e / super::comms::link_within(g, local).0;
    let outside = bytes * (e - f64::from(local)) / e / super::comms::inter_server(s);
    inside.max(outside)
}

/// The tensor rate a serving step's matrix products run at: the card's dense FP4 rate for FP4
/// weights it multiplies as stored (NVIDIA Blackwell: NVFP4 and MXFP4; AMD CDNA 4: MXFP4 only,
/// an NVFP4 checkpoint is dequantized), else the scenario precision's (compute::peak_tflops).
#[must_use]
pub fn math_tflops(g: &Gpu, s: &Scenario) -> Option<f64> {
    if multiplies_fp4(g, s) {
        g.fp4_tflops
    } else {
        peak_tflops(g, s.precision)
    }
}

/// Whether `g` multiplies `s`'s FP4 weights as stored ([`math_tflops`]).
fn multiplies_fp4(g: &Gpu, s: &Scenario) -> bool {
    use super::scenario::WeightQuant;
    let native = match s.weight_quant {
        WeightQuant::Mxfp4 => true,
        WeightQuant::Nvfp4 => g.vendor == "NVIDIA",
        _ => false,
    };
    native && g.fp4_tflops.is_some()
}

/// Share of [`math_tflops`] a replica's compute-bound work reaches (prefill, and a large batch's
/// decode): the scenario's `prefill_mfu` (50% by default), never above the card's measured
/// isolated GEMM share at that precision ([`super::kernels::gemm_share`]: aiconfigurator's GEMM
/// tables per card, the reference share × the stack factor for a card without them). A forward
/// made of matrix products cannot outrun them: FP8 GEMMs measure 0.43–0.51 of the FP8 peak on
/// L40S, B200, H100 and H200 (quantization included), and AMD measures its best MI300X FP8 GEMM at
/// 1,273 of 2,615 TFLOPS (ROCm blogs, "Measuring Max-Achievable FLOPs – Part 2", Table 1). FP4
/// math takes the FP8 share (no FP4 GEMM was measured), as the measured decode floors do.
#[must_use]
pub fn compute_share(g: &Gpu, s: &Scenario) -> f64 {
    let p = if multiplies_fp4(g, s) { super::scenario::Precision::Fp8 } else { s.precision };
    s.efficiency.prefill_mfu.min(super::kernels::gemm_share(g, p))
}

/// Seconds of GEMMs that read their weights in `memory` seconds and multiply in `compute` seconds
/// at the large-batch speed: √(memory² + compute²). A plain roofline (the larger of the two)
/// assumes the two overlap perfectly; near the ridge they do not, and a decode batch of a few
/// hundred tokens lives there. Against AIConfigurator's measured GEMMs (TensorRT-LLM 1.3.0rc20
/// `gemm_perf.parquet`, every N, K ≥ 2,048 at M = 16…8,192, endpoints from the same shape's
/// M = 1 and largest-M times; docs/research/2026-12-06-gemm-transition.md) the roofline ran a
/// median 3–6% fast with a p90 |error| of 16–33%; this form, chosen on the H100 and H200 files,
/// is within a median 4–6% (p90 13–17%) there and on the held-out B200 (6–11%, p90 20–29%,
/// against 9–14% and 30–53%) and A100 (4.5%, p90 22%, against 5.7% and 35%) files.
#[must_use]
pub fn gemm_time(memory: f64, compute: f64) -> f64 {
    // f64::sqrt is one wasm instruction; hypot would be a libm call.
    (memory * memory + compute * compute).sqrt()
}

/// σ of a log-normal with this mean and 90th percentile: ln(p90/mean) = z₀.₉·σ − σ²/2
/// (z₀.₉ = 1.2816), the smaller root; a p90 beyond e^(z²/2) ≈ 2.27 × the mean has no log-normal
/// and takes the widest, σ = z₀.₉. A p90 at or below the mean: equal lengths.
#[must_use]
pub fn lognormal_sigma(mean: f64, p90: f64) -> f64 {
    const Z90: f64 = 1.281_551_565_545;
    if !(mean > 0.0 && p90 > mean) {
        return 0.0;
    }
    let d = Z90 * Z90 - 2.0 * (p90 / mean).ln();
    Z90 - d.max(0.0).sqrt()
}

/// A replica's communication per token: the tensor-parallel all-reduces and the expert
/// all-to-alls (seconds over their links), and the latency of the collectives a step issues.
struct Comm {
    tp_per_token: f64,
    a2a_per_token: f64,
    latency: f64,
}

impl Comm {
    fn of(m: &ModelSpec, s: &Scenario, g: &Gpu, (tp, ep): (u32, u32), (moe_layers, top_k): (f64, f64)) -> Self {
        let t = f64::from(tp);
        // Megatron-style TP: two all-reduces of the token's hidden state per layer, each moving
        // 2·(t − 1)/t of h × 2 bytes over the group's link (Shoeybi et al. 2019, §3); with expert
        // parallelism the MLP's is replaced by the all-to-all, leaving the attention's.
        let per_layer = if ep > tp { 1.0 } else { 2.0 };
        let tp_per_token = if tp > 1 {
            let (link, _) = super::comms::link_within(g, tp);
            per_layer * f64::from(m.layers) * 2.0 * (t - 1.0) / t * f64::from(m.hidden) * 2.0 / link
        } else {
            0.0
        };
        let dispatch_b = if s.precision == super::scenario::Precision::Fp8 { 1.0 } else { 2.0 };
        let a2a_per_token =
            if ep > tp { moe_layers * all_to_all_s(s, g, ep, f64::from(m.hidden), top_k, dispatch_b) } else { 0.0 };
        let tp_steps = if tp > 1 { per_layer * f64::from(m.layers) } else { 0.0 };
        let a2a_steps = if ep > tp { 2.0 * moe_layers } else { 0.0 };
        let latency = tp_steps * collective_latency_s(s, g, tp) + a2a_steps * collective_latency_s(s, g, ep);
        Self { tp_per_token, a2a_per_token, latency }
    }
}

impl Engine {
    /// The replica of `tp`-card attention groups over `ep` cards (`ep` ≤ `tp`: no expert
    /// parallelism) of `g`, or `None` when the card's peak or bandwidth is unknown, `ep` is not a
    /// multiple of `tp`, or the weights leave no room for a KV cache.
    #[must_use]
    pub fn new(m: &ModelSpec, s: &Scenario, g: &Gpu, tp: u32, ep: u32) -> Option<Engine> {
        let i = &s.inference;
        let tp = tp.max(1);
        let ep = if m.moe.is_some() { ep.max(tp) } else { tp };
        if !ep.is_multiple_of(tp) {
            return None;
        }
        let (t, e, groups) = (f64::from(tp), f64::from(ep), f64::from(ep) / f64::from(tp));
        let peak = math_tflops(g, s)? * 1e12;
        let (bw, capacity) = (g.memory_bandwidth_gb_s? * 1e9, g.memory_gb? * super::units::GIB);
        let chunk = f64::from(i.max_batched_tokens.max(16));
        let kv_tokens = groups * memory::kv_capacity_tokens(m, s, capacity, tp, ep, i.mem_util, chunk);
        if kv_tokens < 1.0 {
            return None;
        }
        let (p, routed) = (m.params(), m.routed_expert_fraction());
        let weights = memory::weight_bytes(&p, s.weight_quant, s.precision, &s.training.conventions);
        // Encoder–decoder: each request's encoder pass is prefilled with its prompt and its keys
        // and values stay in every decoder layer's cross-attention cache: enc.seq more positions.
        let enc_seq = m.cross_kv_positions();
        let (prompt, output) = (f64::from(i.context) + enc_seq, f64::from(i.output_tokens));
        // A request stays in the batch for its o steps, so the cache a running request holds on
        // average is E[o·(p + o/2)] / E[o] = p + E[o]/2 · (1 + c²) (renewal-reward: long answers
        // are over-represented); for log-normal answer lengths 1 + c² = e^(σ²).
        let out_sigma = i.output_p90.map_or(0.0, |p90| lognormal_sigma(output, f64::from(p90)));
        let mean_ctx = prompt + output / 2.0 * (out_sigma * out_sigma).exp();
        // Attention score FLOPs per token against a context of c tokens: 4·L·heads·head_dim·c.
        let attention = |c: f64| 4.0 * f64::from(m.layers) * f64::from(m.heads) * f64::from(m.head_dim()) * c;
        let (route_share, top_k, moe_layers) = m.moe.as_ref().map_or((0.0, 0.0, 0.0), |x| {
            let k = f64::from(x.experts_per_token);
            (k / f64::from(x.experts.max(1)), k, f64::from(m.layers.saturating_sub(x.dense_layers)))
        });
        // 2 FLOPs per active parameter; the routed experts' share of them is k/E of their weights.
        // The encoder's parameters work on its own positions, once per request (below).
        let expert_flops = 2.0 * p.total * routed * route_share;
        let enc_share = m.encoder_fraction();
        let encoder = p.total * enc_share;
        let dense_flops = 2.0 * (p.active - encoder) - expert_flops;
        let Comm { tp_per_token, a2a_per_token, latency: comm_latency } =
            Comm::of(m, s, g, (tp, ep), (moe_layers, top_k));
        let card_flops = peak * compute_share(g, s);
        let expert_s = expert_flops / e / card_flops;
        // Cross-attention scores over the encoder positions, per decoder token; and the prefill's
        // work per position, averaged over the prompt's tokens and the encoder's positions (the
        // encoder's bidirectional self-attention over all enc.seq of them).
        let width = f64::from(m.heads) * f64::from(m.head_dim());
        let cross = 4.0 * f64::from(m.layers) * width * enc_seq;
        let enc_layers = m.encoder.as_ref().map_or(0.0, |x| f64::from(x.layers));
        let own = prompt - enc_seq;
        let prefill_work = own * (dense_flops + attention(own / 2.0) + cross)
            + enc_seq * (2.0 * encoder + 4.0 * enc_layers * width * enc_seq);
        let prefill_flops = prefill_work / prompt.max(1.0);
        Some(Engine {
            tp,
            ep,
            groups,
            bandwidth: e * bw * s.efficiency.decode_bandwidth,
            dense_bytes: groups * weights * (1.0 - routed - enc_share),
            encoder_bytes: groups * weights * enc_share,
            routed_bytes: weights * routed,
            route_share,
            kv_per_token: memory::kv_cache_bytes(m, 1.0, i.kv.bytes()),
            mean_ctx,
            decode_s: (dense_flops + attention(mean_ctx - enc_seq) + cross) / (groups * t * card_flops) + expert_s,
            attend_s: 4.0 * f64::from(m.layers) * width / (groups * t * card_flops),
            prefill_s: prefill_flops / (t * card_flops) + expert_s,
            decode_comm_s: tp_per_token / groups + a2a_per_token / e,
            prefill_comm_s: tp_per_token + a2a_per_token / t,
            comm_per_step: comm_latency,
            overhead: i.step_overhead_ms / 1e3,
            stack: launch::stack_layer_s(g) * f64::from(m.layers),
            host_per_seq: if i.engine == ServingEngine::VllmV0 { V0_HOST_PER_SEQ_S } else { 0.0 },
            elementwise: elementwise_s(m, tp, bw),
            kv_tokens,
            chunk,
            prompt,
            uncached: own * (1.0 - i.prefix_share.clamp(0.0, 0.99)) + enc_seq,
            output,
            sigma: i.context_p90.map_or(0.0, |p90| lognormal_sigma(own, f64::from(p90))),
            out_sigma,
            enc_seq,
            prefix_share: i.prefix_share.clamp(0.0, 0.99),
            ops: measured::DecodeOps::new(m, g, weights / p.total.max(1.0), fp8_gemms(s), i.kv.bytes(), tp, ep),
            verify: f64::from(i.spec_tokens) + 1.0,
            per_step: speculative::tokens_per_step(i.spec_tokens, i.spec_accept),
            draft: f64::from(i.spec_tokens) * speculative::draft_cost(m),
            launch: launch::Launch::of(m, s, chunk, tp, ep),
            frontend_s: FRONTEND_S,
            overlap: overlaps(i.engine),
            hides_host: hides_host(i.engine),
        })
    }

    /// Where the decode step's operator timings come from.
    #[must_use]
    pub fn tier(&self) -> super::tier::Tier {
        use super::tier::Tier;
        match self.ops.map(|o| o.source()) {
            Some(measured::Source::Own) => Tier::Measured,
            Some(measured::Source::Borrowed(id)) => Tier::Borrowed { from: id.to_string() },
            None => Tier::Roofline,
        }
    }

    /// Cards in one replica.
    #[must_use]
    pub fn cards(&self) -> u32 {
        self.ep.max(self.tp)
    }

    /// Seconds of one step decoding `batch` requests (spread over the attention groups) while one
    /// group also prefills `prefill` prompt tokens. The memory reads are shared evenly by the
    /// replica's cards; the compute and the traffic are those of the busiest card, in the group
    /// that carries the prompt.
    #[must_use]
    pub fn step(&self, batch: f64, prefill: f64) -> f64 {
        self.step_at(batch, batch * self.mean_ctx, prefill)
    }

    /// [`Engine::step`] with the decoding requests' own contexts, `context` tokens in all, in
    /// place of `batch` × the mean: what the step-level simulation charges.
    #[must_use]
    pub fn step_at(&self, batch: f64, context: f64, prefill: f64) -> f64 {
        self.step_after(batch, context, prefill, 0.0)
    }

    /// Seconds of CPU kernel launches a step of `batch` decoding requests and `prefill` prompt
    /// tokens waits for (0 when it is replayed from a CUDA graph).
    #[must_use]
    pub fn launch_floor(&self, batch: f64, prefill: f64) -> f64 {
        self.launch.floor(batch * self.verify, prefill)
    }

    /// The CPU's share of a step: its launches ([`Engine::launch_floor`], less the `head` it had)
    /// and its host work ([`Engine::host_time`]), in sequence.
    #[must_use]
    pub fn cpu_time(&self, batch: f64, prefill: f64, head: f64) -> f64 {
        (self.launch_floor(batch, prefill) - head).at_least(0.0) + self.host_time(batch)
    }

    /// The engine's host work a step of `batch` decoding requests waits for: its fixed time
    /// (`step_overhead_ms`) and, for vLLM V0, its time per decoding request.
    fn host_time(&self, batch: f64) -> f64 {
        self.overhead + batch * self.host_per_seq
    }

    /// [`Engine::step_at`] for a step whose launches started `head` seconds before it (an overlap
    /// scheduler launches step n+1 while step n runs on the GPU): the launch floor shrinks by that.
    #[must_use]
    pub fn step_after(&self, batch: f64, context: f64, prefill: f64, head: f64) -> f64 {
        self.step_remembered(None, batch, context, prefill, head)
    }

    /// [`Engine::step_after`], the measured operators' batch terms kept in `memo` (one per
    /// engine: the simulation's) where a batch's requests verify one token each in one group.
    #[must_use]
    pub fn step_remembered(
        &self,
        memo: Option<&mut measured::StepMemo>,
        batch: f64,
        context: f64,
        prefill: f64,
        head: f64,
    ) -> f64 {
        // Under speculative decoding each decoding request brings its drafted tokens too: more
        // FLOPs, traffic and routed tokens, the same weights and KV cache read.
        let tokens = batch * self.verify;
        let touched =
            if self.route_share > 0.0 { 1.0 - bound::powf(1.0 - self.route_share, tokens + prefill) } else { 1.0 };
        let encoding = if prefill > 0.0 { self.encoder_bytes } else { 0.0 };
        let weights = self.dense_bytes + encoding + self.routed_bytes * touched;
        let compute = self.verify * (batch * self.decode_s + (context - batch * self.mean_ctx) * self.attend_s)
            + prefill * self.prefill_s;
        // The linear layers read their weights and multiply ([`gemm_time`]); the attention
        // kernels read the KV cache after them, in sequence (kernels of one stream do not overlap).
        let roofline = gemm_time(weights / self.bandwidth, compute)
            + context * self.kv_per_token / self.bandwidth
            + tokens * self.decode_comm_s
            + prefill * self.prefill_comm_s
            + self.comm_per_step;
        let work = match self.ops.as_ref().filter(|_| batch >= 1.0) {
            None => roofline,
            Some(ops) => {
                // The measured operators of the busiest group's decode, or its prompt chunk's
                // compute when that is longer (the chunk's GEMMs read the same weights), the
                // chunk's traffic, and under expert parallelism the all-to-all the roofline charges.
                let a2a = if self.ep > self.tp { tokens * self.decode_comm_s + self.comm_per_step } else { 0.0 };
                let g = self.groups.at_least(1.0);
                let decode = match memo {
                    // One group (g ≥ 1), one token per request (verify ≥ 1): the step's batch,
                    // tokens and queries are `batch`, `batch` and 1, as the memo keeps them.
                    Some(memo) if g <= 1.0 && self.verify <= 1.0 => {
                        ops.step_with(memo.terms(ops, batch), batch, context)
                    }
                    _ => ops.step(batch / g, context / g, tokens, self.verify),
                };
                let measured = gemm_time(decode, prefill * self.prefill_s) + prefill * self.prefill_comm_s + a2a;
                roofline.at_least(measured)
            }
        };
        // The element-wise kernels between them, in sequence on the same stream.
        let work = work + self.elementwise(tokens, prefill);
        // A prompt-carrying step beyond the engine's captured sizes waits for its launches, less
        // those made while the step before it ran.
        let work = work.at_least(self.launch_floor(batch, prefill) - head.at_least(0.0));
        // The drafts run once per step for the decoding requests (Leviathan et al.'s k·c).
        let drafts = if batch > 0.0 { self.draft } else { 0.0 };
        let gpu = work * (1.0 + drafts);
        let host = if self.hides_host {
            (self.cpu_time(batch, prefill, head) - gpu).at_least(0.0)
        } else {
            self.host_time(batch)
        };
        gpu + host + self.stack
    }

    /// Seconds of a step's element-wise kernels ([`elementwise_s`]) with `tokens` decoding tokens
    /// over the replica and `prefill` prompt tokens: the busiest card's tokens (its attention
    /// group's share of the decoding ones and the prompt chunk), and the kernels' launch latency,
    /// which a forward pays however few tokens it carries (as it reads the weights).
    #[must_use]
    pub fn elementwise(&self, tokens: f64, prefill: f64) -> f64 {
        (tokens / self.groups.at_least(1.0) + prefill) * self.elementwise.0 + self.elementwise.1
    }

    /// Seconds for a static batch of `batch` requests: their prompts prefilled in chunks (the
    /// last chunk gives the first token), then output − 1 decode steps of the whole batch.
    #[must_use]
    pub fn static_latency(&self, batch: f64) -> f64 {
        let tokens = batch * self.prompt;
        let full = (tokens / self.chunk).floor();
        let rest = tokens - full * self.chunk;
        let prefill = full * self.step(0.0, self.chunk) + if rest > 0.0 { self.step(0.0, rest) } else { 0.0 };
        prefill + (self.output - 1.0).max(0.0) / self.per_step * self.step(batch, 0.0)
    }

    /// Steps a request decodes for: its answer over the tokens a step gains.
    #[must_use]
    pub fn decode_steps(&self) -> f64 {
        self.output / self.per_step
    }

    /// Requests the KV cache holds at once at the mean occupancy.
    #[must_use]
    pub fn max_batch(&self) -> f64 {
        self.kv_tokens / self.mean_ctx.max(1.0)
    }

    /// The replica at `rate` requests per second, or `None` when it cannot keep up.
    #[must_use]
    pub fn at(&self, rate: f64) -> Option<Latency> {
        // Steps are plain decode steps or steps that also carry a prompt chunk. A request decodes
        // for output / per_step steps (per_step = 1 without speculative decoding). With B = rate ·
        // steps · T requests decoding, chunk steps take x = rate · chunks · (chunk step − plain
        // step) of every second, so the mean step is T = plain / (1 − x): iterate B and T. With
        // attention groups, each group's step carries its own B / groups requests and prompts;
        // every group's chunk steps slow the whole replica (counted as never coinciding).
        // One round: the mean step T gives the batch, the batch the next T (None past the edge).
        let round = |t: f64| {
            let batch = rate * self.decode_steps() * t;
            let room = self.chunk - batch / self.groups;
            if room < 1.0 || batch > self.max_batch() {
                return None;
            }
            let chunks = (self.uncached / room).ceil().max(1.0);
            let plain = self.step(batch, 0.0);
            let chunk_step = self.step(batch, self.uncached.min(room));
            let x = rate * chunks * (chunk_step - plain);
            (x < 1.0).then_some((plain / (1.0 - x), (batch, chunks, plain, chunk_step, x)))
        };
        // Near the edge T creeps to its fixed point geometrically (~8 rounds a call, a sixth of a
        // catalog plan): after two plain rounds whose steps shrink in one direction, jump to
        // Aitken's Δ² limit (Steffensen's method). A jump past the edge goes back to the plain
        // round it replaced and jumps no more; the answer is the same fixed point to 1e-6.
        let mut t = self.step(0.0, 0.0);
        let mut parts = (0.0, 1.0, t, t, 0.0); // (batch, chunks, plain, chunk step, x)
        let (mut prev, mut replaced, mut jump) = (None::<f64>, None::<f64>, true);
        for _ in 0..100 {
            let Some((next, p)) = round(t) else {
                let back = replaced.take()?;
                (t, prev, jump) = (back, None, false);
                continue;
            };
            parts = p;
            if (next - t).abs() <= 1e-6 * t {
                t = next;
                break;
            }
            if next > 600.0 {
                return None;
            }
            replaced = None;
            let limit = prev.filter(|_| jump).and_then(|p0| {
                let r = (next - t) / (t - p0);
                (r > 0.0 && r < 1.0).then(|| next + (next - t) * r / (1.0 - r))
            });
            match limit {
                Some(a) => (t, prev, replaced) = (a, None, Some(next)),
                None => (t, prev) = (next, Some(t)),
            }
        }
        let (batch, chunks, plain, chunk_step, _) = parts;
        let room = (self.chunk - batch / self.groups).max(1.0);
        let service = chunks * chunk_step;
        // Share of a group's prefill capacity (`room` prompt tokens per step) its arrivals (an
        // even share of the rate) use.
        let rho = rate / self.groups * self.uncached * chunk_step / room;
        if rho >= 1.0 {
            return None;
        }
        // Kingman's G/G/1 approximation with Poisson arrivals (c_a² = 1): mean wait
        // ρ/(1 − ρ) · S · (1 + c_s²)/2, with c_s² = e^(σ²) − 1 of the log-normal prompt lengths
        // (prefill time ∝ prompt tokens; 0 for equal prompts); the wait, when there is one
        // (probability ρ), taken as exponential, so P(W > t) = ρ·e^(−t·ρ/mean).
        let cs2 = (self.sigma * self.sigma).exp() - 1.0;
        let mean_wait = rho / (1.0 - rho) * service * (1.0 + cs2) / 2.0;
        let wait = |q: f64| if rho > 1.0 - q { mean_wait / rho * bound::ln(rho / (1.0 - q)) } else { 0.0 };
        // Time per output token of one request (vLLM's benchmark: decode time / output tokens):
        // plain decode steps, plus k steps that carry another prompt's chunk, k ~ Poisson with
        // the chunks that arrive while it decodes; its mean is T / per_step.
        let stall = (chunk_step - plain).max(0.0) / self.output.max(1.0);
        let arrivals = rate * chunks * self.decode_steps() * t;
        let tpot = |q: f64| plain / self.per_step + poisson_quantile(arrivals, q) * stall;
        // A quantile's own prefill: the prompt at that quantile of the log-normal, e^(zσ − σ²/2)
        // × the mean; added to the wait's quantile (an upper bound: both at their quantile).
        let prefill = |z: f64| service * (z * self.sigma - self.sigma * self.sigma / 2.0).exp();
        Some(Latency {
            ttft_p50_s: self.frontend_s + prefill(0.0) + wait(0.5),
            ttft_p99_s: self.frontend_s + prefill(2.326_347_874) + wait(0.99),
            tpot_p50_s: tpot(0.5),
            tpot_p99_s: tpot(0.99),
            tpot_mean_s: t / self.per_step,
            batch,
            prefill_load: rho,
        })
    }
}

/// The smallest k with P(X ≤ k) ≥ q for X ~ Poisson(mean).
#[must_use]
pub fn poisson_quantile(mean: f64, q: f64) -> f64 {
    if mean <= 0.0 {
        return 0.0;
    }
    if mean > 500.0 {
        // Normal approximation (the exact sum underflows e^−mean) for the two quantiles asked
        // here: the median ≈ the mean, the 99th percentile mean + 2.326·√mean.
        let z = if q > 0.9 { 2.326 } else { 0.0 };
        return (mean + z * mean.sqrt()).ceil();
    }
    let (mut k, mut term) = (0.0, (-mean).exp());
    let mut sum = term;
    while sum < q && k < mean + 50.0 * mean.sqrt() + 50.0 {
        k += 1.0;
        term *= mean / k;
        sum += term;
    }
    k
}

/// Latency of one replica at a load.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Latency {
    pub ttft_p50_s: f64,
    pub ttft_p99_s: f64,
    pub tpot_p50_s: f64,
    pub tpot_p99_s: f64,
    /// Mean time per output token (what a closed loop of users waits on average).
    pub tpot_mean_s: f64,
    /// Requests decoding at once.
    pub batch: f64,
    /// Share of time the prefill queue is busy (ρ).
    pub prefill_load: f64,
}

impl Latency {
    fn meets(&self, s: &Scenario) -> bool {
        let i = &s.inference;
        self.ttft_p50_s <= i.ttft_p50_s
            && self.ttft_p99_s <= i.ttft_p99_s
            && self.tpot_p50_s * 1e3 <= i.tpot_p50_ms
            && self.tpot_p99_s * 1e3 <= i.tpot_p99_ms
    }
}
