//! Activation memory of training: per layer (Korthikanti et al. 2022), per pipeline stage and
//! for the encoder of an encoder–decoder model.

use super::{Layout, Stage};
use crate::domain::framework::Conventions;
use crate::domain::model::ModelSpec;
use crate::domain::scenario::{LoraTargets, Recompute, Scenario, Task};

/// Inputs of the activation formula for one layer.
#[derive(Debug, Clone, Copy)]
pub struct ActivationShape {
    pub seq: f64,
    pub batch: f64,
    pub hidden: f64,
    pub heads: f64,
    /// heads × head_dim (query width).
    pub q_width: f64,
    /// kv_heads × head_dim (key/value width; < q_width under GQA/MQA).
    pub kv_width: f64,
    /// Per-token MLP width (MoE: routed + shared experts × expert width).
    pub ffn: f64,
    pub gated: bool,
    /// Dropout masks stored (GPT-3 style); modern LLMs train without dropout.
    pub dropout: bool,
    /// With tensor parallelism, layer norms and dropouts are split too (sequence parallelism).
    pub sequence_parallel: bool,
    /// A gated MLP saves only [gate, up] (one fused SwiGLU kernel).
    pub fused_swiglu: bool,
    /// Selective recompute keeps torchtitan's op-level set (`Conventions::op_sac`).
    pub op_sac: bool,
    /// FP8 training keeps the inputs of its four GEMMs (QKV, output projection, the MLP's two)
    /// as the 1-byte FP8 copies the forward cast them to: Transformer Engine's `_Linear` and
    /// `_LayerNormLinear` save the FP8 input for the weight-gradient GEMM when FP8 is on.
    pub fp8_gemm_inputs: bool,
    /// The MLP's weights are frozen and carry no adapter (LoRA on attention only): its two GEMMs
    /// compute no weight gradient, so their inputs (the MLP input and the second GEMM's input)
    /// are not kept. PyTorch's autograd saves a matmul input only when the other operand needs a
    /// gradient (pytorch#42371; the generated `should_compute_output` guards), and Transformer
    /// Engine's `LayerNormMLP` and `Linear` skip it when the weight needs none (TE PR #739, 1.6).
    pub frozen_mlp: bool,
    /// Layers of each pipeline stage that full recompute recomputes (Megatron-Core
    /// `--recompute-method block --recompute-num-layers N`); 0 = every layer.
    pub recompute_layers: u32,
    /// Bytes per activation value (2 for 16-bit).
    pub bytes: f64,
}

impl ActivationShape {
    /// From a model and the training inputs.
    #[must_use]
    pub fn of(m: &ModelSpec, seq: u32, batch: u32, act_bytes: f64) -> Self {
        let d = f64::from(m.head_dim());
        let ffn = m.moe.as_ref().map_or(f64::from(m.intermediate), |e| {
            f64::from(e.experts_per_token + e.shared_experts) * f64::from(e.expert_intermediate)
        });
        Self {
            seq: f64::from(seq),
            batch: f64::from(batch),
            hidden: f64::from(m.hidden),
            heads: f64::from(m.heads),
            q_width: f64::from(m.heads) * d,
            kv_width: f64::from(m.kv_heads) * d,
            ffn,
            gated: m.gated_mlp,
            dropout: false,
            sequence_parallel: true,
            fused_swiglu: false,
            op_sac: false,
            fp8_gemm_inputs: false,
            frozen_mlp: false,
            recompute_layers: 0,
            bytes: act_bytes,
        }
    }

    /// With the framework's dropout and sequence-parallel switches.
    #[must_use]
    pub fn with(mut self, c: &Conventions) -> Self {
        self.dropout = c.dropout;
        self.sequence_parallel = c.sequence_parallel;
        self.fused_swiglu = c.fused_swiglu;
        self.op_sac = c.op_sac;
        self
    }

    /// With FP8 GEMMs (their inputs kept in FP8).
    #[must_use]
    pub fn with_precision(mut self, p: crate::domain::scenario::Precision) -> Self {
        self.fp8_gemm_inputs = p == crate::domain::scenario::Precision::Fp8;
        self
    }

    /// The shape a training scenario's layers store at `micro_batch` sequences: its conventions,
    /// precision, LoRA targets and partial recompute.
    #[must_use]
    pub fn of_training(m: &ModelSpec, s: &Scenario, micro_batch: u32) -> Self {
        let mut x = Self::of(m, s.training.seq_len, micro_batch, super::activation_value_bytes(s))
            .with(&s.training.conventions)
            .with_precision(s.precision);
        x.frozen_mlp = matches!(s.task, Task::Lora | Task::Qlora) && s.lora.targets != LoraTargets::AllLinear;
        x.recompute_layers = s.parallel.partial_recompute();
        x
    }
}

/// Activation bytes stored by one transformer layer for one micro-batch, following Korthikanti
/// et al. 2022 (§4.1): attention 11·sbh + 5·a·s²·b, MLP 19·sbh, layer norms 4·sbh, i.e.
/// s·b·h·(34 + 5·a·s/h) for GPT-style layers, generalised here to GQA widths, gated MLPs and no
/// dropout. `store_scores = false` drops the a·s² term (selective recompute or flash attention).
/// With tensor + sequence parallelism everything is divided by `tp` (their eq. 5); tensor
/// parallelism alone leaves the layer-norm inputs, the attention and MLP inputs and the dropout
/// masks whole on every rank: s·b·h·(10 + 24/t + 5·a·s/(h·t)) (their eq. 4).
#[must_use]
pub fn layer_activation_bytes(x: &ActivationShape, tp: u32, store_scores: bool) -> f64 {
    let sb = x.seq * x.batch;
    let w = x.bytes / 2.0; // formula is written for 2-byte values; masks stay 1 byte
    let mask = if x.dropout { 1.0 } else { 0.0 };
    let k = TokenCoefficients::of(x);
    // Softmax output (+ dropout mask and dropout output): 5·a·s²·b with dropout, 2·a·s²·b without.
    let scores =
        if store_scores { x.heads * x.seq * x.seq * x.batch * (2.0 * w + mask * (1.0 + 2.0 * w)) } else { 0.0 };
    // Two dropout masks (after attention, after the MLP), one byte per value.
    let all = sb * k.per_token(x) * w + 2.0 * mask * sb * x.hidden + scores;
    let t = f64::from(tp.max(1));
    if x.sequence_parallel || tp <= 1 {
        return all / t;
    }
    let whole = 4.0 * sb * x.hidden * w + sb * 4.0 * x.hidden * w + 2.0 * mask * sb * x.hidden;
    whole + (all - whole) / t
}

/// Values one layer stores per token, in 2-byte units, as multiples of the widths: the
/// explanation prints these same coefficients.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenCoefficients {
    pub hidden: f64,
    pub q: f64,
    pub kv: f64,
    pub ffn: f64,
}

impl TokenCoefficients {
    #[must_use]
    pub fn of(x: &ActivationShape) -> Self {
        // A GEMM input kept in FP8 takes half the bytes of a 16-bit one.
        let gemm_in = if x.fp8_gemm_inputs { 0.5 } else { 1.0 };
        // Plain: act in/out 4sbf. Gated: gate, up, act, product 8sbf; fused SwiGLU: [gate, up] and
        // the product 6sbf. The second GEMM's input (the activation's output, or the gated
        // product) is 2sbf of it.
        let mlp_f = match (x.gated, x.fused_swiglu) {
            (true, false) => 8.0,
            (true, true) => 6.0,
            _ => 4.0,
        } - 2.0 * (1.0 - gemm_in);
        // A frozen MLP keeps neither GEMM input: the MLP input (h) and the second GEMM's (f).
        let frozen = if x.frozen_mlp { 2.0 * gemm_in } else { 0.0 };
        Self {
            // Two layer-norm inputs (4h), the QKV input (2h) and the MLP input (2h).
            hidden: 4.0 + 4.0 * gemm_in - frozen,
            // Q and the output projection's input.
            q: 2.0 + 2.0 * gemm_in,
            // K and V.
            kv: 4.0,
            ffn: mlp_f - frozen,
        }
    }

    /// Bytes-per-2 of one token: h·hidden + q·q_width + kv·kv_width + f·ffn.
    #[must_use]
    pub fn per_token(&self, x: &ActivationShape) -> f64 {
        self.hidden * x.hidden + self.q * x.q_width + self.kv * x.kv_width + self.ffn * x.ffn
    }
}

/// Activations of the first pipeline stage: L/p layers × in-flight micro-batches (1F1B keeps up
/// to p on the first stage). Full recompute keeps only each layer's input (2·sbh/t) plus one
/// layer's working set (Korthikanti §4.2).
#[must_use]
pub fn activation_bytes(x: &ActivationShape, layers: u32, layout: &Layout, flash: bool, microbatches: f64) -> f64 {
    stage_activation_bytes(x, layers, layout, flash, Stage::First.in_flight(layout.pp, microbatches))
}

/// Values per token torchtitan's op-level selective recompute keeps of a layer, as multiples
/// of the widths (2-byte units): the block input (h), the attention kernel's output (q) and
/// the outputs of the odd-numbered matmuls in forward order — Q (q) and V (kv) of the
/// projections Q, K, V, O; then the MLP's first (ffn) and, when gated (gate, up, down), its
/// down projection (h). Returns (h, q, kv, ffn).
#[must_use]
pub fn op_sac_coefficients(x: &ActivationShape) -> (f64, f64, f64, f64) {
    (if x.gated { 2.0 } else { 1.0 }, 2.0, 1.0, 1.0)
}

/// [`op_sac_coefficients`] in bytes for one micro-batch, split over `tp` (torchtitan's tensor
/// parallelism is sequence-parallel).
#[must_use]
pub fn op_sac_layer_bytes(x: &ActivationShape, tp: u32) -> f64 {
    let (h, q, kv, f) = op_sac_coefficients(x);
    let per_token = h * x.hidden + q * x.q_width + kv * x.kv_width + f * x.ffn;
    x.seq * x.batch * per_token * x.bytes / f64::from(tp.max(1))
}

/// What full recompute keeps of a layer: its input, s·b·h values, split over `tp`.
#[must_use]
pub fn layer_input_bytes(x: &ActivationShape, tp: u32) -> f64 {
    2.0 * x.seq * x.batch * x.hidden * x.bytes / 2.0 / f64::from(tp.max(1))
}

/// Activations of one stage holding `in_flight` micro-batches. Context parallelism splits every
/// sequence, and with it every activation, over `cp` cards (Megatron-Core context parallelism).
#[must_use]
pub fn stage_activation_bytes(x: &ActivationShape, layers: u32, layout: &Layout, flash: bool, in_flight: f64) -> f64 {
    let layers_per_stage = stage_layers(layers, layout.pp);
    let store_scores = !flash && layout.recompute == Recompute::None;
    let per_layer = layer_activation_bytes(x, layout.tp, store_scores);
    let cp = f64::from(layout.cp.max(1));
    let all = match layout.recompute {
        Recompute::Full => {
            // Recomputed layers keep their input; the others (partial recompute) keep everything.
            let whole = layer_activation_bytes(x, layout.tp, !flash);
            let recomputed = recomputed_layers(x, layers_per_stage);
            (layer_input_bytes(x, layout.tp) * recomputed + whole * (layers_per_stage - recomputed)) * in_flight + whole
        }
        // Op-level selective: what the policy saves per layer, plus the one layer the backward
        // is recomputing at a time.
        Recompute::Selective if x.op_sac => {
            op_sac_layer_bytes(x, layout.tp) * layers_per_stage * in_flight
                + layer_activation_bytes(x, layout.tp, !flash)
        }
        _ => per_layer * layers_per_stage * in_flight,
    };
    all / cp
}

/// Layers of a stage of `layers_per_stage` that full recompute recomputes: the shape's
/// `recompute_layers`, at most the stage, or all of them when it is 0.
#[must_use]
pub fn recomputed_layers(x: &ActivationShape, layers_per_stage: f64) -> f64 {
    recomputed_of(x.recompute_layers, layers_per_stage)
}

/// Of a stage of `layers_per_stage` layers, the `partial` ones recomputed (at most the stage),
/// or all of them when `partial` is 0.
#[must_use]
pub fn recomputed_of(partial: u32, layers_per_stage: f64) -> f64 {
    match partial {
        0 => layers_per_stage,
        n => f64::from(n).min(layers_per_stage),
    }
}

/// Layers of the most loaded of `pp` pipeline stages: ⌈layers / pp⌉.
#[must_use]
pub fn stage_layers(layers: u32, pp: u32) -> f64 {
    (f64::from(layers) / f64::from(pp.max(1))).ceil()
}

/// Activations of one stage of the whole model: the decoder (or only) stack at the scenario's
/// length, and for encoder–decoder models [`encoder_activation_bytes`].
#[must_use]
pub fn model_activation_bytes(m: &ModelSpec, x: &ActivationShape, layout: &Layout, flash: bool, in_flight: f64) -> f64 {
    stage_activation_bytes(x, m.layers, layout, flash, in_flight)
        + encoder_activation_bytes(m, x, layout, flash, in_flight)
}

/// Encoder–decoder models: the encoder stack at its own length (Korthikanti et al.'s per-layer
/// count at enc.seq positions), the encoder output that every decoder layer's cross-attention
/// reads (kept for the backward pass), and per decoder layer the cross-attention's own tensors
/// — its norm and query inputs, the query, keys and values over the encoder positions, the
/// output projection's input, and the scores when they are stored. A stage holds its share of
/// both stacks. 0 for decoder-only models.
#[must_use]
pub fn encoder_activation_bytes(
    m: &ModelSpec,
    x: &ActivationShape,
    layout: &Layout,
    flash: bool,
    in_flight: f64,
) -> f64 {
    let Some(e) = &m.encoder else { return 0.0 };
    let enc = ActivationShape { seq: f64::from(e.seq), ..*x };
    let stack = stage_activation_bytes(&enc, e.layers, layout, flash, in_flight);
    let w = x.bytes / 2.0;
    let (sb, se) = (x.seq * x.batch, enc.seq * x.batch);
    let t = f64::from(layout.tp.max(1));
    let output = 2.0 * se * x.hidden * w / t;
    let cross = if layout.recompute == Recompute::Full {
        0.0
    } else {
        let scores = if flash || layout.recompute != Recompute::None {
            0.0
        } else {
            x.heads * x.seq * enc.seq * x.batch * 2.0 * w
        };
        let per_layer = (sb * (4.0 * x.hidden + 4.0 * x.q_width) * w + se * 4.0 * x.kv_width * w + scores) / t;
        per_layer * (f64::from(m.layers) / f64::from(layout.pp.max(1))).ceil()
    };
    stack + (output + cross) * in_flight / f64::from(layout.cp.max(1))
}
