//! The choices a scenario is made of: task, precision, quantization, optimizer, recompute,
//! offload, KV precision, LoRA targets.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Task {
    Pretrain,
    #[default]
    FullFinetune,
    Lora,
    Qlora,
    Inference,
}

impl Task {
    pub const ALL: [Task; 5] = [Task::Pretrain, Task::FullFinetune, Task::Lora, Task::Qlora, Task::Inference];
    #[must_use]
    pub fn is_training(self) -> bool {
        !matches!(self, Task::Inference)
    }
}

/// Numeric format of training compute (and of inference weights when not quantized).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Precision {
    Fp32,
    Tf32,
    #[default]
    Bf16,
    Fp16,
    Fp8,
}

impl Precision {
    /// Bytes of a weight/gradient/activation value at this precision. FP8 training
    /// (Transformer Engine) keeps 16-bit weights and activations and runs the GEMMs in FP8.
    #[must_use]
    pub fn bytes(self) -> f64 {
        match self {
            Precision::Fp32 | Precision::Tf32 => 4.0,
            Precision::Bf16 | Precision::Fp16 | Precision::Fp8 => 2.0,
        }
    }
}

/// Storage format of frozen or served weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WeightQuant {
    /// Same as the compute precision.
    #[default]
    None,
    Fp8,
    Int8,
    Int4,
    Nf4,
    /// NVIDIA's FP4: E2M1 values, an FP8 (E4M3) scale per 16 and an FP32 scale per tensor.
    Nvfp4,
    /// OCP Microscaling FP4: E2M1 values, an 8-bit power-of-two (E8M0) scale per 32.
    Mxfp4,
}

impl WeightQuant {
    /// Bytes per quantized parameter including scales, with the usual conventions (group
    /// scales on, QLoRA double quantization on): see [`WeightQuant::bytes_with`].
    #[must_use]
    pub fn bytes(self, base: Precision) -> f64 {
        self.bytes_with(base, true, true)
    }

    /// Bytes per quantized parameter.
    /// INT8 / FP8: one fp16 scale per 128-value group when `group_scales` (LLM.int8 / vLLM W8 use
    /// per-channel scales; ≤ 1.6%).
    /// INT4 (GPTQ/AWQ, group 128): fp16 scale + fp16 zero per group = 4.25 bits; 4 bits without.
    /// NF4 (QLoRA, Dettmers et al. 2023 §3): fp32 absmax per 64 values = 4.5 bits; with double
    /// quantization 8-bit constants per 64 + fp32 per 256 of those = 4 + 8/64 + 32/(64·256) bits.
    #[must_use]
    pub fn bytes_with(self, base: Precision, group_scales: bool, double_quant: bool) -> f64 {
        let g = if group_scales { 1.0 } else { 0.0 };
        match self {
            WeightQuant::None => base.bytes(),
            WeightQuant::Fp8 | WeightQuant::Int8 => 1.0 + g * 2.0 / 128.0,
            WeightQuant::Int4 => (4.0 + g * 32.0 / 128.0) / 8.0,
            WeightQuant::Nf4 if double_quant => (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0,
            WeightQuant::Nf4 => (4.0 + 32.0 / 64.0) / 8.0,
            // 4 + 8/16 = 4.5 bits (NVIDIA NeMo docs: "0.5625 bytes per parameter"); OCP
            // Microscaling Formats spec v1.0, Table 1: k = 32, 8-bit shared scale = 4.25 bits.
            WeightQuant::Nvfp4 => 4.5 / 8.0,
            WeightQuant::Mxfp4 => 4.25 / 8.0,
        }
    }

    /// FP4 weights, which cards with FP4 tensor cores multiply as they are stored.
    #[must_use]
    pub fn is_fp4(self) -> bool {
        matches!(self, WeightQuant::Nvfp4 | WeightQuant::Mxfp4)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Optimizer {
    #[default]
    AdamW,
    AdamW8bit,
    SgdMomentum,
    /// Plain SGD: no optimizer state.
    Sgd,
    Adafactor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Recompute {
    #[default]
    None,
    Selective,
    Full,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Offload {
    #[default]
    None,
    /// ZeRO-Offload: optimizer states, master weights and gradients live in CPU memory.
    Optimizer,
    /// ZeRO-Infinity style: the 16-bit weights too (needs ZeRO-3).
    OptimizerAndParams,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KvPrecision {
    #[default]
    Bf16,
    Fp8,
    Int4,
}

impl KvPrecision {
    #[must_use]
    pub fn bytes(self) -> f64 {
        match self {
            KvPrecision::Bf16 => 2.0,
            KvPrecision::Fp8 => 1.0,
            KvPrecision::Int4 => 0.5 + 2.0 / 64.0,
        }
    }
}

/// The serving engine: its default CUDA-graph policy decides which steps that carry a prompt
/// chunk run eagerly (every kernel launched from the CPU) — the fixed part of a first token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ServingEngine {
    /// vLLM V1: `FULL_AND_PIECEWISE` graphs for steps up to its largest captured size,
    /// min(2 · max_num_seqs, 512) tokens (vLLM `docs/design/cuda_graphs.md`, `_set_cudagraph_sizes`).
    #[default]
    Vllm,
    /// SGLang to 0.5.9: decode graphs only; prefill batches run eagerly (piecewise prefill graphs
    /// were opt-in until PR #16331, 2026-03-02).
    Sglang,
    /// SGLang from March 2026: piecewise prefill graphs by default, up to `chunked_prefill_size`
    /// tokens (2,048 with MLA); off with speculative decoding and expert/DP attention
    /// (SGLang `docs/advanced_features/piecewise_cuda_graph.md`).
    SglangGraphs,
    /// TensorRT-LLM (PyTorch backend): CUDA graphs for generation-only steps; context steps run
    /// eagerly unless `enable_piecewise_cuda_graph` is set (its torch_compile docs).
    Trtllm,
    /// vLLM's engine before V1 (the default until 0.8.0), as in 0.4–0.5: graphs for decode-only
    /// steps only, and Python host work on the step's path that grows with the running requests
    /// (`serving::V0_HOST_PER_SEQ_S`).
    VllmV0,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LoraTargets {
    /// q and v projections only (Hu et al. 2021's choice; peft's default for Llama).
    Qv,
    /// q, k, v, o projections.
    Attention,
    /// Every linear layer of attention and MLP (QLoRA's recommendation).
    #[default]
    AllLinear,
}

crate::named_enum!(Task { Pretrain => "pretrain", FullFinetune => "full_finetune", Lora => "lora", Qlora => "qlora", Inference => "inference" });
crate::named_enum!(Precision { Fp32 => "fp32", Tf32 => "tf32", Bf16 => "bf16", Fp16 => "fp16", Fp8 => "fp8" });
crate::named_enum!(WeightQuant {
    None => "none",
    Fp8 => "fp8",
    Int8 => "int8",
    Int4 => "int4",
    Nf4 => "nf4",
    Nvfp4 => "nvfp4",
    Mxfp4 => "mxfp4"
});
crate::named_enum!(Optimizer { AdamW => "adam_w", AdamW8bit => "adam_w8bit", SgdMomentum => "sgd_momentum", Sgd => "sgd", Adafactor => "adafactor" });
crate::named_enum!(Recompute { None => "none", Selective => "selective", Full => "full" });
crate::named_enum!(Offload { None => "none", Optimizer => "optimizer", OptimizerAndParams => "optimizer_and_params" });
crate::named_enum!(KvPrecision { Bf16 => "bf16", Fp8 => "fp8", Int4 => "int4" });
crate::named_enum!(ServingEngine { Vllm => "vllm", Sglang => "sglang", SglangGraphs => "sglang_graphs", Trtllm => "trtllm", VllmV0 => "vllm_v0" });
crate::named_enum!(LoraTargets { Qv => "qv", Attention => "attention", AllLinear => "all_linear" });
