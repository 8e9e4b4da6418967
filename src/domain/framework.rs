//! Training frameworks and the memory conventions each one follows. A user compares our figure
//! with the one their framework prints, so the bytes per parameter, the buffers and the
//! activation switches follow the named framework's own code; every switch stays editable.

/// The training stack whose accounting the scenario follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Framework {
    /// NVIDIA Megatron-LM / Megatron-Core (distributed optimizer = ZeRO-1).
    Megatron,
    /// Microsoft DeepSpeed ZeRO stages 0–3 (the ZeRO paper's 2 + 2 + 12 bytes per parameter).
    #[default]
    DeepSpeed,
    /// PyTorch DDP/FSDP under AMP, as Hugging Face Trainer and accelerate run it.
    Fsdp,
    /// torchtune recipes: pure bf16, optimizer step in the backward pass.
    Torchtune,
    /// The user's own switches.
    Custom,
}

impl Framework {
    pub const ALL: [Framework; 5] =
        [Framework::Megatron, Framework::DeepSpeed, Framework::Fsdp, Framework::Torchtune, Framework::Custom];
}

/// Width of gradients as the framework keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GradDtype {
    /// The training precision (2 bytes for bf16/fp16).
    #[default]
    Half,
    /// fp32 accumulation buffers (Megatron `main_grad`, AMP gradients of fp32 parameters).
    Fp32,
}

/// Width of each optimizer moment (AdamW keeps two, SGD with momentum one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StateDtype {
    #[default]
    Fp32,
    Bf16,
}

impl StateDtype {
    #[must_use]
    pub fn bytes(self) -> f64 {
        match self {
            StateDtype::Fp32 => 4.0,
            StateDtype::Bf16 => 2.0,
        }
    }
}

/// The switches that decide bytes per parameter, buffers and activations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conventions {
    /// Trainable parameters live in fp32 and autocast makes a 16-bit copy for the forward pass
    /// (PyTorch AMP; HF "Model training anatomy": 6 bytes of weights per parameter). The fp32
    /// parameters are the master copy, so no separate master weights are kept.
    pub fp32_params: bool,
    pub grad: GradDtype,
    pub optimizer_state: StateDtype,
    /// DeepSpeed keeps an fp32 copy of its gradient partition for the optimizer (4 B/N per
    /// parameter; `estimate_zero2_model_states_mem_needs`: 4Ψ + 16Ψ/N, zero3: 18Ψ/N + 4·largest
    /// layer). Under ZeRO-3 the 16-bit gradients then live only for the layer being reduced.
    pub fp32_grad_partition: bool,
    /// ZeRO-2 keeps the full 16-bit gradients until they are reduced (DeepSpeed's estimator
    /// counts 2Ψ for them) rather than only its 1/N partition (the ZeRO paper's 2Ψ/N).
    pub zero2_full_grads: bool,
    /// Paged optimizer (bitsandbytes `PagedAdamW*`): states live in CUDA unified memory, outside
    /// PyTorch's allocator, and the driver pages them to host memory when the card is full. They
    /// do not count against the card (at a speed cost when they spill).
    pub paged_optimizer: bool,
    /// Cross-entropy in chunks (torchtune `CEWithChunkedOutputLoss`, 8 chunks): 16-bit logits and
    /// one fp32 chunk at a time instead of fp32 logits for the whole sequence.
    pub chunked_loss: bool,
    /// The optimizer steps each parameter as soon as its gradient is ready, so only about one
    /// layer's gradients are alive at once (torchtune `optimizer_in_bwd`).
    pub optimizer_in_backward: bool,
    /// Gradient bucket, in elements, kept by ZeRO-2/3 (DeepSpeed `reduce_bucket_size`, default 5e8).
    pub bucket_elems: f64,
    /// ZeRO-3 parameters fetched ahead of use, in elements (DeepSpeed `stage3_prefetch_bucket_size`,
    /// default 5e7).
    pub prefetch_elems: f64,
    /// ZeRO-3 gathers parameters module by module (DeepSpeed: the largest single weight matrix
    /// sizes the working set), not a whole transformer block per unit (FSDP auto-wrap).
    pub gather_per_module: bool,
    /// Largest layers held gathered at once under ZeRO-3/FSDP (FSDP: the current unit and the
    /// prefetched next one = 2; DeepSpeed: 1 plus the prefetch bucket).
    pub gathered_layers: f64,
    /// Dropout masks stored (Megatron's GPT default hidden/attention dropout 0.1).
    pub dropout: bool,
    /// Tensor parallelism with sequence parallelism (Korthikanti et al. 2022, §4.2.2): layer norms
    /// and dropouts are split over the tensor-parallel ranks too.
    pub sequence_parallel: bool,
    /// A gated MLP's activation is one fused kernel that saves only its input [gate, up] and
    /// recomputes SiLU(gate) in the backward (Megatron-Core `fused_bias_swiglu.py`,
    /// `BiasSwiGLUFunction` saves `input` alone; `--bias-swiglu-fusion` is on by default), so
    /// one f-wide tensor per token fewer than eager PyTorch's gate, SiLU(gate), up and product.
    pub fused_swiglu: bool,
    /// A Llama block's RMSNorm, rotary embedding and SwiGLU each run as one fused kernel
    /// (Megatron-Core with Transformer Engine, torch.compile, Liger/flash-attn kernels) rather
    /// than as eager PyTorch's chain of kernels, which upcasts to fp32 and writes every
    /// intermediate (compute.rs `eager_bytes`). Timing only; memory keeps its own switches.
    pub fused_kernels: bool,
    /// Selective recompute is torchtitan's op-level policy (`selective_ac_option = "op"`,
    /// torchtitan `_apply_ac_to_transformer_block`): of each layer it saves the block input,
    /// the attention kernel's output and every other matmul output ("Saves output of all
    /// compute ops, except every second mm") and recomputes the rest — norms, activations,
    /// the other matmuls — in the backward. Megatron's selective recompute instead recomputes
    /// only the attention scores.
    pub op_sac: bool,
    /// Communication of data-parallel gradients overlaps the backward pass.
    pub overlap_grad_reduce: bool,
    /// Tensor-parallel collectives run under the GEMMs of the same layer (Megatron-Core with
    /// Transformer Engine userbuffers, `tp_comm_overlap=True`; needs sequence parallelism). NeMo's
    /// performance recipes turn it on; plain Megatron-LM leaves it off. NeMo user guide,
    /// "Communication Overlap": https://docs.nvidia.com/nemo-framework/user-guide/24.12/nemotoolkit/features/optimizations/communication_overlap.html
    pub overlap_tp_comm: bool,
    /// MoE all-to-all (dispatch and combine) runs under another micro-batch's compute:
    /// DeepSeek-V3's DualPipe ("both all-to-all and PP communication can be fully hidden during
    /// execution", DeepSeek-AI 2024, §3.2.1) and Megatron-Core's 1F1B A2A overlap
    /// (`--overlap-moe-expert-parallel-comm`, with interleaved pipelining). Off by default: plain
    /// 1F1B waits for each all-to-all.
    pub overlap_moe_comm: bool,
    /// The MoE dispatch sends a token once to each node that holds any of its experts and
    /// forwards it inside the node (DeepEP's normal kernels, Megatron-Core's `flex` dispatcher
    /// with `moe_enable_deepep`; DeepSeek-V3 §3.2.2): under group-limited routing
    /// (`moe.route_groups`) a token crosses the fabric at most that many times. Off, the
    /// all-to-all dispatcher (Megatron-Core's `alltoall`, NeMo 2.x's DeepSeek default,
    /// DeepSpeed-MoE) sends it once per routed expert.
    pub dedup_dispatch: bool,
    /// LoRA adapters kept in fp32 (peft `autocast_adapter_dtype=True`) rather than the model dtype.
    pub adapter_fp32: bool,
    /// QLoRA double quantization of the NF4 block constants (Dettmers et al. 2023, §3).
    pub double_quant: bool,
    /// INT8/INT4/FP8 weights carry a 16-bit scale (and zero) per group of 128.
    pub group_scales: bool,
    /// Embeddings and output head quantized too (GPTQ/AWQ and bitsandbytes leave them 16-bit).
    pub quantize_embeddings: bool,
    /// Count the attention score FLOPs (12·L·h·s per token) as model FLOPs (PaLM App. B) or not
    /// (6·N only, Kaplan et al. 2020).
    pub attention_flops: bool,
    /// The flash-attention kernel (domain/attention.rs): FlashAttention-2 (PyTorch SDPA's flash
    /// backend, flash-attn 2), priced from its measured speed; a Hopper-native fused kernel
    /// (Transformer Engine's cuDNN fused attention, which Megatron-Core selects on sm90, or
    /// FlashAttention-3), priced as the GEMMs on Hopper and as FA2 elsewhere; or xformers'
    /// memory-efficient kernel (Llama 1 and 2), priced from its measured speed.
    pub attention: AttentionKernel,
}

/// Which flash-attention kernel a training step runs ([`Conventions::attention`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AttentionKernel {
    #[default]
    Flash2,
    Fused,
    Xformers,
}

impl Default for Conventions {
    fn default() -> Self {
        Self::of(Framework::DeepSpeed)
    }
}

impl Conventions {
    /// The framework's own defaults.
    #[must_use]
    pub fn of(f: Framework) -> Self {
        let base = Self {
            fp32_params: false,
            grad: GradDtype::Half,
            optimizer_state: StateDtype::Fp32,
            fp32_grad_partition: false,
            zero2_full_grads: false,
            paged_optimizer: false,
            chunked_loss: false,
            optimizer_in_backward: false,
            bucket_elems: 0.0,
            prefetch_elems: 0.0,
            gathered_layers: 0.0,
            gather_per_module: false,
            dropout: false,
            sequence_parallel: false,
            fused_swiglu: false,
            fused_kernels: true,
            op_sac: false,
            overlap_grad_reduce: true,
            overlap_tp_comm: false,
            overlap_moe_comm: false,
            dedup_dispatch: false,
            adapter_fp32: true,
            double_quant: true,
            group_scales: true,
            quantize_embeddings: false,
            attention_flops: true,
            attention: AttentionKernel::Flash2,
        };
        match f {
            // megatron/training/arguments.py: bf16 sets accumulate_allreduce_grads_in_fp32, so
            // gradients are fp32 main_grad buffers (docs/source/api-guide/dist_optimizer.md:
            // "bf16 param, fp32 grads: 18 bytes; distributed optimizer 6 + 12/d"). GPT defaults
            // hidden_dropout = attention_dropout = 0.1; --sequence-parallel with TP.
            Framework::Megatron => Self {
                attention: AttentionKernel::Fused,
                grad: GradDtype::Fp32,
                dropout: true,
                sequence_parallel: true,
                fused_swiglu: true,
                adapter_fp32: false,
                ..base
            },
            // deepspeed/runtime/zero/stage_1_and_2.py and stage3.py, estimate_zero*_model_states_mem_needs:
            // 16-bit params and grads, an fp32 gradient partition, fp32 master + Adam (12 B). Config
            // defaults: reduce_bucket_size 5e8, stage3_prefetch_bucket_size 5e7 ("ZeRO optimizations").
            // Eager PyTorch models (HF transformers' LlamaRMSNorm and rotate_half, torchtitan's
            // RMSNorm and complex RoPE with compile off): unfused unless the run says otherwise.
            Framework::DeepSpeed => Self {
                fused_kernels: false,
                fp32_grad_partition: true,
                zero2_full_grads: true,
                bucket_elems: 5e8,
                prefetch_elems: 5e7,
                gathered_layers: 1.0,
                gather_per_module: true,
                ..base
            },
            // The ZeRO paper's own accounting (§3, Figure 1): 2Ψ + 2Ψ + 12Ψ, each sharded by its stage.
            Framework::Custom => base,
            // HF transformers docs, "Model training anatomy": mixed precision keeps fp32 weights
            // + a 16-bit copy (6 B), fp32 gradients (4 B), AdamW 8 B. FSDP prefetches the next
            // unit (BackwardPrefetch.BACKWARD_PRE), so two units are gathered.
            Framework::Fsdp => {
                Self { fp32_params: true, grad: GradDtype::Fp32, gathered_layers: 2.0, fused_kernels: false, ..base }
            }
            // torchtune recipes/configs: dtype bf16 for weights and optimizer states,
            // optimizer_in_bwd: True; LoRA adapters in the model dtype; FSDP2 when distributed.
            Framework::Torchtune => Self {
                fused_kernels: false,
                optimizer_state: StateDtype::Bf16,
                optimizer_in_backward: true,
                chunked_loss: true,
                gathered_layers: 2.0,
                adapter_fp32: false,
                ..base
            },
        }
    }

    /// Whether fp32 master weights are kept by default (not with fp32 parameters, not in pure bf16).
    #[must_use]
    pub fn default_master_weights(f: Framework) -> bool {
        !matches!(f, Framework::Fsdp | Framework::Torchtune)
    }
}

crate::named_enum!(Framework { Megatron => "megatron", DeepSpeed => "deep_speed", Fsdp => "fsdp", Torchtune => "torchtune", Custom => "custom" });
crate::named_enum!(GradDtype { Half => "half", Fp32 => "fp32" });
crate::named_enum!(AttentionKernel { Flash2 => "flash2", Fused => "fused", Xformers => "xformers" });
crate::named_enum!(StateDtype { Fp32 => "fp32", Bf16 => "bf16" });

// Deserialize by table (domain/read.rs): the same meaning as a derive with #[serde(default)].
crate::read_fields!(Conventions {
    fp32_params: flag,
    grad: any,
    optimizer_state: any,
    fp32_grad_partition: flag,
    zero2_full_grads: flag,
    paged_optimizer: flag,
    chunked_loss: flag,
    optimizer_in_backward: flag,
    bucket_elems: real,
    prefetch_elems: real,
    gather_per_module: flag,
    gathered_layers: real,
    dropout: flag,
    sequence_parallel: flag,
    fused_swiglu: flag,
    fused_kernels: flag,
    op_sac: flag,
    overlap_grad_reduce: flag,
    overlap_tp_comm: flag,
    overlap_moe_comm: flag,
    dedup_dispatch: flag,
    adapter_fp32: flag,
    double_quant: flag,
    group_scales: flag,
    quantize_embeddings: flag,
    attention_flops: flag,
    attention: any
});
