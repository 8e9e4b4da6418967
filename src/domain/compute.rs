//! FLOPs, utilisation defaults, training time, and the serving-speed record a verdict carries.

use super::catalog::Gpu;
use super::comms::{self, StepComm, StepTraffic};
use super::framework::GradDtype;
use super::kernels;
use super::memory::{self, Layout};
use super::model::ModelSpec;
use super::scenario::{Precision, Recompute, Scenario, Task};
use serde::{Deserialize, Serialize};

/// Model FLOPs for training on `tokens`: 6·N per token for forward + backward (Kaplan et al.
/// 2020, Hoffmann et al. 2022) plus, when `attention` counts, the attention-score term
/// 12·L·(heads·d)·s (PaLM, Chowdhery et al. 2022, App. B — the MFU convention).
/// Encoder–decoder models (`tokens` are the decoder's, `seq` its length): the encoder's share of
/// the parameters works on its own positions, enc.seq per `seq` decoder tokens, and the attention
/// term adds the encoder's bidirectional self-attention and the decoder's cross-attention over
/// enc.seq positions (the same 2·N and 4·s·(heads·d) counts applied to each stack).
/// LoRA/QLoRA skip the frozen weights' gradients (4·N), not the attention scores' backward:
/// the score matmuls have no weights, and their backward computes dQ, dK and dV whatever is
/// trained (Dao 2023, FlashAttention-2 §3.1: backward ≈ 2× the forward's matmul FLOPs), so
/// the attention term stays 12·L·h·s.
#[must_use]
pub fn training_flops(m: &ModelSpec, task: Task, seq: u32, tokens: f64, attention: bool) -> f64 {
    let s = f64::from(seq.max(1));
    let (enc_share, enc_seq, enc_layers) =
        m.encoder.as_ref().map_or((0.0, 0.0, 0.0), |e| (m.encoder_fraction(), f64::from(e.seq), f64::from(e.layers)));
    let n = m.params().active * (1.0 - enc_share + enc_share * enc_seq / s);
    let width = f64::from(m.heads) * f64::from(m.head_dim());
    let cross = if m.encoder.is_some() { f64::from(m.layers) * enc_seq } else { 0.0 };
    let attn = width * (f64::from(m.layers) * s + cross + enc_layers * enc_seq * enc_seq / s);
    let dense = if matches!(task, Task::Lora | Task::Qlora) { 4.0 } else { 6.0 };
    let att = if attention { 12.0 } else { 0.0 };
    (dense * n + att * attn) * tokens
}

/// The scenario's model FLOPs (its attention convention, its token count).
#[must_use]
pub fn model_flops(m: &ModelSpec, s: &Scenario) -> f64 {
    let t = &s.training;
    training_flops(m, s.task, t.seq_len, t.tokens, t.conventions.attention_flops)
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

/// [`recompute_factor`] of a layout whose full recompute may cover only some layers of each
/// stage (`parallel.recompute_layers`): the extra forward pass is paid on that share of the
/// stage's layers.
#[must_use]
pub fn layout_recompute_factor(m: &ModelSpec, s: &Scenario, l: &Layout) -> f64 {
    if l.recompute == Recompute::Selective && s.training.conventions.op_sac {
        return op_sac_factor(m, s);
    }
    let full = recompute_factor(l.recompute, s.task);
    (full - 1.0) * recomputed_share(s, l, memory::stage_layers(m.layers, l.pp)) + 1.0
}

/// Extra work of torchtitan's op-level selective recompute (`Conventions::op_sac`): the
/// backward repeats the matmuls whose outputs the policy drops — K and O of the attention and
/// the MLP's second matmul (its up projection when gated, else the down one) — 2·h·(kv + q +
/// ffn) FLOPs per token and layer, over the training FLOPs per token (attention included).
/// Their elementwise kernels are repeated too and priced with the rest of them (elementwise).
#[must_use]
pub fn op_sac_factor(m: &ModelSpec, s: &Scenario) -> f64 {
    let d = f64::from(m.head_dim());
    let (h, q, kv) = (f64::from(m.hidden), f64::from(m.heads) * d, f64::from(m.kv_heads) * d);
    let ffn = m.moe.as_ref().map_or(f64::from(m.intermediate), |e| {
        f64::from(e.expert_intermediate) * f64::from(e.experts_per_token + e.shared_experts)
    });
    let repeated = f64::from(m.layers) * 2.0 * h * (kv + q + ffn);
    let per_token = training_flops(m, s.task, s.training.seq_len, 1.0, true);
    1.0 + repeated / per_token.max(1.0)
}

/// Share of a stage's layers that the layout recomputes in full: 1 unless full recompute is
/// limited to `parallel.recompute_layers` of them (0 for the other settings' layers, which
/// [`recompute_factor`] prices on its own).
#[must_use]
pub fn recomputed_share(s: &Scenario, l: &Layout, stage_layers: f64) -> f64 {
    if l.recompute == Recompute::Full && stage_layers > 0.0 {
        memory::recomputed_of(s.parallel.partial_recompute(), stage_layers) / stage_layers
    } else {
        1.0
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

/// Share of dense peak that a training step's GEMMs reach on card `g`: the card's measured
/// isolated GEMM share (domain/kernels.rs: aiconfigurator's per-operator timings, or the
/// measured card of its architecture, or the A100/H100 reference scaled by its software stack)
/// × the share a training step keeps of isolated kernels (kernels::TRAINING_SHARE, set on the
/// calibration rows). The memory-bound elementwise kernels are counted apart
/// ([`elementwise_ratio`]). The attention scores run at this share too, counted in full
/// (12·L·h·s per token): the measured flash-attention shares with the causal half skipped would
/// make attention cheaper than that, and the held-out long-sequence runs (8K–32K) already run
/// slower than predicted (docs/research/2026-12-01-operator-model.md: the trial and its effect).
#[must_use]
pub fn kernel_efficiency(g: &Gpu, p: Precision) -> f64 {
    (kernels::gemm_share(g, p) * kernels::training_share(g, p)).min(1.0)
}

/// Time of the memory-bound elementwise kernels of a training step relative to its GEMM time
/// (r; the kernel factor of the MFU is kernel efficiency / (1 + r)). Bytes per token and layer,
/// forward, 16-bit activations: two layer norms 8h, two residual adds 12h, dropout masks 2h
/// (when dropout is on), the MLP activation 6f gated (SwiGLU reads gate and up) or 4f plain,
/// and without flash attention the softmax over a·s scores 4·a·s and its dropout 5·a·s
/// (Korthikanti et al. 2022 §4.1 counts the same tensors for memory). The backward pass moves
/// about twice the forward bytes; selective recompute repeats the score kernels. Hidden-size
/// terms split over TP ranks only with sequence parallelism. Bytes move at the decode bandwidth
/// share (efficiency.decode_bandwidth), FLOPs at peak × kernel efficiency. Why: the share of
/// these kernels falls as h grows, which is why published MFU rises with model size
/// (Narayanan et al. 2021 Table 1: 44% at 1.7B to 52% at 1T on the same cluster).
#[must_use]
pub fn elementwise_ratio(m: &ModelSpec, s: &Scenario, g: &Gpu, l: &Layout) -> Option<f64> {
    let token_flops = training_flops(m, s.task, s.training.seq_len, 1.0, true);
    elementwise_at(m, s, g, l, kernel_efficiency(g, s.precision), token_flops)
}

/// [`elementwise_ratio`] with the matmul share of peak and the training FLOPs per token (attention
/// in) already known.
fn elementwise_at(m: &ModelSpec, s: &Scenario, g: &Gpu, l: &Layout, matmul: f64, token_flops: f64) -> Option<f64> {
    let bandwidth = g.memory_bandwidth_gb_s? * 1e9 * s.efficiency.decode_bandwidth;
    let gemm_rate = peak_tflops(g, s.precision)? * 1e12 * matmul;
    let t = &s.training;
    let c = &t.conventions;
    let (h, seq, tp) = (f64::from(m.hidden), f64::from(t.seq_len.max(1)), f64::from(l.tp.max(1)));
    let w = if matches!(s.precision, Precision::Fp32 | Precision::Tf32) { 4.0 } else { 2.0 };
    let mlp_width = m.moe.as_ref().map_or(f64::from(m.intermediate), |e| {
        f64::from(e.expert_intermediate) * f64::from(e.experts_per_token + e.shared_experts)
    });
    let mask = if c.dropout { 1.0 } else { 0.0 };
    let hidden_terms = (10.0 * w + 2.0 * mask) * h / if c.sequence_parallel { tp } else { 1.0 };
    let mlp = if m.gated_mlp { 3.0 } else { 2.0 } * w * mlp_width / tp;
    let scores_fwd =
        if t.flash_attention { 0.0 } else { f64::from(m.heads) * seq * (2.0 * w + mask * (2.0 * w + 1.0)) / tp };
    let eager = if eager_kernels(m, c) {
        eager_bytes(m, w, mlp_width, tp, if c.sequence_parallel { tp } else { 1.0 })
    } else {
        0.0
    };
    // Selective recompute repeats the score kernels; torchtitan's op-level policy repeats
    // every elementwise kernel of the forward.
    let repeat = match l.recompute {
        Recompute::Selective if c.op_sac => hidden_terms + mlp + scores_fwd + eager,
        Recompute::Selective => scores_fwd,
        _ => 0.0,
    };
    let bytes =
        f64::from(m.layers) * (3.0 * (hidden_terms + mlp + scores_fwd + eager) + repeat) + moe_token_bytes(m, l, c, w);
    let flops = token_flops / tp;
    Some((bytes / bandwidth) / (flops / gemm_rate))
}

/// Bytes per token (one card's share, forward and backward, every MoE layer) of moving the
/// tokens to their experts and back, beyond the MLP's activation counted with the rest: the
/// copies every MoE layer makes, counted from Megatron-Core's all-to-all dispatcher with its
/// fused kernels (`moe_permute_fusion`, Transformer Engine's `moe_permute`/`moe_unpermute`/
/// `moe_sort_chunks_by_index`; Megatron-LM d98e8a64, TransformerEngine d0067d0d, read in
/// docs/research/2026-12-06-megatron-moe-bytes.md §2–4), with `w` bytes per value:
/// - forward: the permute reads each token once and writes it once per chosen expert
///   ((k + 1)·h·w), the received tokens are regrouped by local expert before the grouped GEMMs
///   and back after them (2k·h·w each, when a card holds more than one expert), and the
///   un-permute reads the k expert outputs and writes their weighted sum ((k + 1)·h·w):
///   (2k + 2 + 4k·s)·h·w;
/// - backward: the same copies mirrored and the input gradients summed (3·h·w more):
///   (2k + 5 + 4k·s)·h·w.
///
/// The router's O(E) terms are left out (under 1% of these at E = 256). A card handles its
/// sequence-parallel share of the tokens, times the expert-tensor-parallel ranks that gather
/// them (Megatron's expert TP: each holds a slice of every token's expert columns).
#[must_use]
pub fn moe_token_bytes(m: &ModelSpec, l: &Layout, c: &super::framework::Conventions, w: f64) -> f64 {
    let Some(e) = m.moe.as_ref() else { return 0.0 };
    let (h, k) = (f64::from(m.hidden), f64::from(e.experts_per_token));
    let layers = f64::from(m.layers.saturating_sub(e.dense_layers));
    let sort = if e.experts > l.ep.max(1) { 1.0 } else { 0.0 };
    let per_layer = (4.0 * k + 7.0 + 8.0 * k * sort) * h * w;
    let tp = f64::from(l.tp.max(1));
    let share = (f64::from(l.expert_tp()) / if c.sequence_parallel { tp } else { 1.0 }).min(1.0);
    layers * per_layer * share
}

/// Whether a step pays [`eager_bytes`]: a Llama block (gated MLP) without fused kernels
/// (`Conventions::fused_kernels`). LayerNorm and GELU run as one ATen kernel each either way.
#[must_use]
pub fn eager_kernels(m: &ModelSpec, c: &super::framework::Conventions) -> bool {
    m.gated_mlp && !c.fused_kernels
}

/// Bytes per token and layer (forward) that eager PyTorch moves beyond the fused count of
/// [`elementwise_ratio`] in a Llama block (a gated MLP: RMSNorm, rotary embedding, SwiGLU —
/// every gated model in the catalog is one), at `w` bytes per activation, the heads split over
/// `tp` and the norms over `sp` ranks. Counted from the kernels the code launches (HF
/// transformers `LlamaRMSNorm`, `apply_rotary_pos_emb`, `LlamaMLP`; torchtitan
/// `models/norms.py` `RMSNorm` and `models/llama/model.py` at d4c86e37, compile off):
/// - RMSNorm: `x.float()` reads w and writes 4 bytes per value, `pow(2)` 4 + 4, `mean` 4,
///   `x * rsqrt` 4 + 4, `type_as` 4 + w, `* weight` w + w: beyond the fused kernel's 2w,
///   2(w + 4) + 20 per value (32 at 16 bits, of a chain of 36), 20 in fp32 (no casts); two per
///   layer.
/// - Rotary embedding of q and k: HF's `q * cos + rotate_half(q) * sin` moves 10w per value
///   (the multiplies 2w each, the negated half w, the `cat` 2w, the add 3w); torchtitan's
///   complex form (`float()`, complex multiply, `type_as`) the same 20 at 16 bits. Not
///   counted in the fused path (a fused RoPE moves 2w, small beside the rest).
/// - `repeat_kv` copies k and v to every query head under grouped-query attention (reads the
///   kv width, writes the q width), and the attention output's `transpose().contiguous()`
///   reads and writes the q width.
/// - SwiGLU: `silu(gate)` 2w and the product 3w per MLP value against the fused kernel's 3w.
#[must_use]
pub fn eager_bytes(m: &ModelSpec, w: f64, mlp_width: f64, tp: f64, sp: f64) -> f64 {
    let h = f64::from(m.hidden);
    let q = f64::from(m.heads * m.head_dim()) / tp;
    let kv = f64::from(m.kv_heads * m.head_dim()) / tp;
    let casts = if w < 4.0 { 2.0 * (w + 4.0) } else { 0.0 };
    let norms = 2.0 * (casts + 20.0) * h / sp;
    let rope = 10.0 * w * (q + kv);
    let repeat_kv = if m.kv_heads < m.heads { 2.0 * w * (q + kv) } else { 0.0 };
    let out = 2.0 * w * q;
    let swiglu = 2.0 * w * mlp_width / tp;
    norms + rope + repeat_kv + out + swiglu
}

/// Time the attention kernel adds to a training step beyond pricing its scores as GEMMs (the
/// 12·L·h·s FLOPs per token at the matmul share of peak), relative to the step's GEMM time r_a:
/// the kernel factor of the MFU is matmul share / (1 + elementwise + r_a), shown as
/// [`Mfu::attention`] = (1 + elementwise + r_a) / (1 + elementwise). With flash
/// attention run as FlashAttention-2 (or xformers) on a card with their measurements
/// (domain/attention.rs), the causal forward + backward does 7·L·h·s FLOPs per token by the FA2
/// benchmark's count, at the kernel's published share of the 16-bit peak (attention stays 16-bit
/// in FP8 training) × the share a training step keeps of isolated kernels on that card
/// (kernels::training_share at 16 bits). Negative where FA2 beats the GEMM pricing (an A100 at long
/// sequences). 0 without flash attention (the scores are batched GEMMs, their softmax an
/// elementwise term), for encoder–decoder models, on Hopper with a fused kernel
/// (`Conventions::attention`), and on cards without the kernel's figures.
#[must_use]
pub fn attention_ratio(m: &ModelSpec, s: &Scenario, g: &Gpu, matmul: f64) -> f64 {
    use super::framework::AttentionKernel;
    let t = &s.training;
    let kernel = t.conventions.attention;
    let fused = kernel == AttentionKernel::Fused && g.architecture.as_deref() == Some("Hopper");
    if !t.flash_attention || m.encoder.is_some() || fused {
        return 0.0;
    }
    let (Some(f), Some(gemm_peak), Some(half)) =
        (super::attention::fa2_of(g), peak_tflops(g, s.precision), peak_tflops(g, Precision::Bf16))
    else {
        return 0.0;
    };
    let seq = f64::from(t.seq_len.max(1));
    let measured = match kernel {
        AttentionKernel::Xformers => super::attention::xformers_share(f, m.head_dim(), seq),
        _ => Some(super::attention::fa2_share(f, m.head_dim(), seq)),
    };
    let Some(share) = measured.map(|x| x * kernels::training_share(g, Precision::Bf16)) else { return 0.0 };
    let width = f64::from(m.layers) * f64::from(m.heads) * f64::from(m.head_dim()) * seq;
    let gemm_rate = gemm_peak * matmul;
    let all = training_flops(m, s.task, t.seq_len, 1.0, true) / gemm_rate;
    if all <= 0.0 || share <= 0.0 {
        return 0.0;
    }
    let as_gemm = 12.0 * width / gemm_rate;
    let flash = super::attention::FA_FLOPS * width / (half * share);
    (flash - as_gemm) / all
}

/// Time the routed experts' grouped GEMMs add beyond pricing them at the dense GEMM share,
/// relative to the step's GEMM time (the kernel factor of the MFU is matmul share / (1 +
/// elementwise + attention + this), shown as [`Mfu::experts`]): f·(1/r − 1), with f the routed
/// experts' share of the training FLOPs (top-k experts per MoE layer; shared experts and the
/// router are dense GEMMs) and r their measured speed against dense GEMMs (domain/experts.rs)
/// at the rows each expert gets from one micro-batch: tokens/cp × top-k × ep / experts (the
/// expert-parallel group's tokens meet on each rank's experts), each expert `tp` columns wide
/// per rank (Megatron-Core's `expert_tensor_parallel_size` defaults to the tensor-parallel
/// size); folded over TP ([`Layout::folds_experts`]) each rank sends its own tokens/tp and holds
/// whole experts. The ratio is a BF16 forward measurement applied to the backward GEMMs and to every
/// precision alike. 0 for dense models.
#[must_use]
pub fn expert_time_ratio(m: &ModelSpec, s: &Scenario, l: &Layout, micro_batch: u32) -> f64 {
    expert_time_at(m, s, l, micro_batch, routed_flop_share(m, s), &expert_shapes(m))
}

/// The measured expert shape nearest the model's experts split over 1, 2, 4 and 8
/// tensor-parallel ranks (experts::nearest), looked up once per job.
fn expert_shapes(m: &ModelSpec) -> [Option<&'static super::experts::Shape>; 4] {
    let width = |tp: f64| {
        m.moe.as_ref().map(|e| super::experts::nearest(f64::from(m.hidden), f64::from(e.expert_intermediate) / tp))
    };
    [width(1.0), width(2.0), width(4.0), width(8.0)]
}

/// The routed experts' share of a training step's FLOPs (attention included): the `f` of
/// [`expert_time_ratio`]; 0 for dense models.
#[must_use]
pub fn routed_flop_share(m: &ModelSpec, s: &Scenario) -> f64 {
    if m.moe.is_none() {
        return 0.0;
    }
    let t = &s.training;
    let with_attention = training_flops(m, s.task, t.seq_len, 1.0, true);
    if with_attention <= 0.0 {
        return 0.0;
    }
    m.routed_active_fraction() * training_flops(m, s.task, t.seq_len, 1.0, false) / with_attention
}

/// [`expert_time_ratio`] with the routed share already known (the search asks for it for
/// every layout of a card).
fn expert_time_at(
    m: &ModelSpec,
    s: &Scenario,
    l: &Layout,
    micro_batch: u32,
    share: f64,
    shapes: &[Option<&'static super::experts::Shape>; 4],
) -> f64 {
    let Some(e) = m.moe.as_ref().filter(|_| share > 0.0) else { return 0.0 };
    let t = &s.training;
    let tokens =
        f64::from(t.seq_len.max(1)) * f64::from(micro_batch.max(1)) / f64::from(l.cp.max(1)) / l.dispatch_split();
    let rows = tokens * f64::from(e.experts_per_token) * f64::from(l.ep.max(1)) / f64::from(e.experts);
    let tp = l.expert_tp();
    let shape = match tp {
        1 | 2 | 4 | 8 => shapes[tp.trailing_zeros() as usize],
        _ => None,
    };
    let shape = shape.unwrap_or_else(|| {
        super::experts::nearest(f64::from(m.hidden), f64::from(e.expert_intermediate) / f64::from(tp))
    });
    let r = super::experts::ratio_on(shape, rows).max(1e-3);
    share * (1.0 / r - 1.0)
}

/// Pipeline bubble of 1F1B with p stages and m micro-batches: time × (m + p − 1) / m; the
/// interleaved schedule with v model chunks per stage: × (m + (p − 1)/v) / m (Narayanan et al.
/// 2021, §2.2).
#[must_use]
pub fn pipeline_factor(pp: u32, microbatches: f64, virtual_stages: u32) -> f64 {
    let m = microbatches.max(1.0);
    (m + (f64::from(pp.max(1)) - 1.0) / f64::from(virtual_stages.max(1))) / m
}

/// Slow-down of CPU offload: optimizer steps on the CPU and PCIe transfers. ZeRO-Offload
/// (Ren et al. 2021) hides much of it at large batch; we assume 1.5×.
#[must_use]
pub fn offload_factor(o: super::scenario::Offload) -> f64 {
    if o == super::scenario::Offload::None {
        1.0
    } else {
        1.5
    }
}

fn one() -> f64 {
    1.0
}

/// The predicted model-FLOPs utilisation as a product of named factors (DESIGN.md §3), or the
/// user's measured MFU, which replaces the whole prediction.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Mfu {
    /// kernel efficiency / (1 + elementwise).
    pub kernel: f64,
    /// Elementwise kernel time / GEMM time ([`elementwise_ratio`]; 0 when the bandwidth is unknown).
    pub elementwise: f64,
    /// The attention kernel's factor on the kernel time: (1 + elementwise + [`attention_ratio`])
    /// / (1 + elementwise); above 1 where its kernel is slower than the GEMM pricing, below where
    /// faster, never negative (1 when the report predates it).
    #[serde(default = "one")]
    pub attention: f64,
    /// The routed experts' factor on the kernel time: (1 + elementwise + attention +
    /// [`expert_time_ratio`]) / (1 + elementwise + attention); 1 for dense models.
    #[serde(default = "one")]
    pub experts: f64,
    /// 1 / pipeline bubble factor.
    pub pipeline: f64,
    /// 1 / recompute factor.
    pub recompute: f64,
    /// compute / (compute + exposed communication).
    pub communication: f64,
    /// 1 / offload factor.
    pub offload: f64,
    /// kernel × pipeline × recompute × communication × offload (× 6N/(6N + attention) when the
    /// attention term is not counted as model FLOPs).
    pub predicted: f64,
    /// The user's measured MFU, when given.
    pub measured: Option<f64>,
    pub comm: StepComm,
}

impl Mfu {
    /// The utilisation the time uses: measured if given, else predicted.
    #[must_use]
    pub fn used(&self) -> f64 {
        self.measured.unwrap_or(self.predicted)
    }
}

/// Predicted MFU of `layout` on card `g` at `micro_batch` sequences per micro-batch.
#[must_use]
pub fn mfu_at(m: &ModelSpec, s: &Scenario, g: &Gpu, l: &Layout, micro_batch: u32) -> Option<Mfu> {
    mfu_with(m, s, g, l, micro_batch, kernel_shares(m, s, g))
}

/// What a card's kernels bring to every layout of a job: the matmul share of peak
/// ([`kernel_efficiency`]) and the attention kernel's time ratio ([`attention_ratio`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KernelShares {
    pub matmul: f64,
    pub attention: f64,
    /// [`routed_flop_share`].
    pub routed: f64,
    /// The nearest measured expert shape at 1, 2, 4 and 8 tensor-parallel ranks.
    pub expert_shapes: [Option<&'static super::experts::Shape>; 4],
    /// The job's training FLOPs per token and per step (attention in), the model-FLOPs
    /// convention's share of them and the routed experts' share of the parameters: the same
    /// for every layout, counted once instead of for each of the hundreds the search prices.
    pub token_flops: f64,
    pub step_flops: f64,
    pub convention: f64,
    pub routed_params: f64,
}

/// [`KernelShares`] of job `s` on card `g`.
#[must_use]
pub fn kernel_shares(m: &ModelSpec, s: &Scenario, g: &Gpu) -> KernelShares {
    let matmul = kernel_efficiency(g, s.precision);
    let t = &s.training;
    let token_flops = training_flops(m, s.task, t.seq_len, 1.0, true);
    // The hardware does the attention work either way: when the convention leaves it out of the
    // model FLOPs, the same time is a lower MFU.
    let convention = if t.conventions.attention_flops {
        1.0
    } else {
        training_flops(m, s.task, t.seq_len, 1.0, false) / token_flops
    };
    KernelShares {
        matmul,
        attention: attention_ratio(m, s, g, matmul),
        routed: routed_flop_share(m, s),
        expert_shapes: expert_shapes(m),
        token_flops,
        step_flops: training_flops(m, s.task, t.seq_len, f64::from(t.global_batch) * f64::from(t.seq_len), true),
        convention,
        routed_params: m.routed_expert_fraction(),
    }
}

/// [`mfu_at`] with the card's kernel shares already known: the search asks for thousands of
/// layouts of one card.
#[must_use]
pub fn mfu_with(m: &ModelSpec, s: &Scenario, g: &Gpu, l: &Layout, micro_batch: u32, k: KernelShares) -> Option<Mfu> {
    let matmul = k.matmul;
    let peak = peak_tflops(g, s.precision)? * 1e12;
    let t = &s.training;
    let mb = micro_batch.max(1);
    let microbatches = f64::from(t.global_batch) / (f64::from(l.dp.max(1)) * f64::from(mb));
    // A card without a published bandwidth gets no elementwise term: its time is a lower bound.
    let elementwise = elementwise_at(m, s, g, l, matmul, k.token_flops).unwrap_or(0.0);
    let attention = (1.0 + elementwise + k.attention) / (1.0 + elementwise);
    let experts = 1.0 + expert_time_at(m, s, l, mb, k.routed, &k.expert_shapes) / (1.0 + elementwise + k.attention);
    // A benchmark's calibration scales the kernels' share of peak (domain/calibrate.rs).
    let kernel = (matmul * s.efficiency.kernel_scale).min(1.0) / ((1.0 + elementwise) * attention * experts);
    let stage_layers = memory::stage_layers(m.layers, l.pp);
    let rf = layout_recompute_factor(m, s, l);
    // Compute seconds of one step on one GPU at kernel efficiency (hardware FLOPs, recompute in).
    let flops_step = k.step_flops * rf / f64::from(l.gpus().max(1));
    let compute_s = flops_step / (peak * kernel);
    let routed = k.routed_params;
    let trainable = match s.task {
        Task::Lora | Task::Qlora => memory::lora_params(m, s.lora.rank, s.lora.targets),
        _ => m.params().total * l.local_share(routed),
    };
    let c = &t.conventions;
    let grad_b = if c.grad == GradDtype::Fp32 { 4.0 } else { s.precision.bytes() };
    let cp = f64::from(l.cp.max(1));
    let tokens_mb = f64::from(t.seq_len) * f64::from(mb);
    let h = f64::from(m.hidden);
    // Group-limited routing with deduplicated sends: a token crosses to at most `route_groups`
    // other nodes once each and is forwarded to its experts inside the node (DeepSeek-V3 §3.2.2:
    // "each token will be dispatched to at most 4 nodes"), when the experts spread over nodes
    // and the dispatcher deduplicates (`Conventions::dedup_dispatch`, DeepEP).
    let deduped = l.expert_span() > s.parallel.gpus_per_server.max(1) && c.dedup_dispatch;
    let (moe_layers, top_k) = m.moe.as_ref().map_or((0.0, 0.0), |e| {
        let moe = f64::from(m.layers.saturating_sub(e.dense_layers)) / f64::from(m.layers.max(1));
        let sends = match e.route_groups {
            Some(g) if deduped => e.experts_per_token.min(g),
            _ => e.experts_per_token,
        };
        (stage_layers * moe, f64::from(sends))
    });
    // FP8 training dispatches FP8 activations forward and FP8 gradients backward, and combines
    // in BF16 (DeepSeek-V3 §3.3.2): 1.5 bytes per value over the four all-to-alls.
    let a2a_bytes = if s.precision == Precision::Fp8 { 1.5 } else { 2.0 };
    // Attention scores: 4·b·s²·(heads·d) FLOPs per layer forward, ×3 with the backward, split
    // over tp·cp cards.
    let attn_flops = 3.0 * 4.0 * f64::from(mb) * f64::from(t.seq_len).powi(2) * f64::from(m.heads * m.head_dim());
    let attention_s = stage_layers * microbatches * attn_flops / (f64::from(l.tp.max(1)) * cp) / (peak * kernel);
    let traffic = StepTraffic {
        grad_bytes: trainable / f64::from(l.tp.max(1) * l.pp.max(1)) * grad_b,
        // Each context-parallel rank holds s/cp of the sequence: its TP all-reduces and pipeline
        // sends carry only that share (Megatron-Core splits the sequence before the layers).
        act_bytes: tokens_mb / cp * h * 2.0,
        stage_layers,
        microbatches,
        // The recomputed forward repeats its two all-reduces (forward only) per layer.
        tp_collectives: if l.recompute == Recompute::Full {
            4.0 + 2.0 * recomputed_share(s, l, stage_layers)
        } else {
            4.0
        },
        overlap_window: if l.zero >= 3 { 1.0 } else { 2.0 / 3.0 },
        moe_layers,
        dispatch_bytes: tokens_mb / cp / l.dispatch_split() * h * a2a_bytes * top_k,
        moe_recomputed: if l.recompute == Recompute::Full { recomputed_share(s, l, stage_layers) } else { 0.0 },
        kv_bytes: tokens_mb * 2.0 * f64::from(m.kv_heads * m.head_dim()) * 2.0,
        attention_s,
    };
    let comm = comms::step_comm(s, g, l, &traffic, compute_s);
    let (pipeline, recompute, offload) = (
        1.0 / pipeline_factor(l.pp, microbatches, s.parallel.virtual_stages),
        1.0 / rf,
        1.0 / offload_factor(l.offload),
    );
    let communication = comm.efficiency();
    let predicted = kernel * pipeline * recompute * communication * offload * k.convention;
    Some(Mfu {
        kernel,
        elementwise,
        attention,
        experts,
        pipeline,
        recompute,
        communication,
        offload,
        predicted,
        measured: s.efficiency.mfu,
        comm,
    })
}

/// The utilisation for the scenario's own micro-batch.
#[must_use]
pub fn mfu(m: &ModelSpec, s: &Scenario, g: &Gpu, l: &Layout) -> Option<Mfu> {
    mfu_at(m, s, g, l, s.training.micro_batch)
}

/// Hours of training steps for `flops` model FLOPs on `gpus` cards at `mfu`:
/// FLOPs / (N · peak · MFU).
#[must_use]
pub fn steady_hours(flops: f64, gpus: u32, peak_tflops: f64, mfu: f64) -> f64 {
    flops / (f64::from(gpus.max(1)) * peak_tflops * 1e12 * mfu) / 3600.0
}

/// Wall-clock hours for `flops` model FLOPs on `gpus` cards at `mfu`: the steady hours divided
/// by the goodput, the user's `goodput` or the run's own (domain/goodput.rs).
#[must_use]
pub fn hours_for(flops: f64, gpus: u32, peak_tflops: f64, mfu: f64, goodput: Option<f64>) -> f64 {
    super::goodput::wall_hours(goodput, gpus, steady_hours(flops, gpus, peak_tflops, mfu))
}

/// Wall-clock hours of a training run, or `None` when the card's peak is unknown.
#[must_use]
pub fn training_hours(m: &ModelSpec, s: &Scenario, g: &Gpu, layout: &Layout) -> Option<f64> {
    let u = mfu(m, s, g, layout)?;
    let (flops, peak) = (model_flops(m, s), peak_tflops(g, s.precision)?);
    Some(hours_for(flops, layout.gpus(), peak, u.used(), s.efficiency.goodput))
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
