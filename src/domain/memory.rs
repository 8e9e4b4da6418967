//! Per-GPU memory, itemised: model states (ZeRO), activations (Korthikanti), logits, KV cache,
//! runtime overhead. Pure arithmetic on bytes.

use super::framework::{Conventions, GradDtype, StateDtype};
use super::model::{ModelSpec, ParamCounts};
use super::scenario::{LoraTargets, Offload, Optimizer, Precision, Recompute, Scenario, Task, WeightQuant};
use super::units::GIB;
use serde::{Deserialize, Serialize};

mod activations;
pub use activations::*;

mod serving;
pub use serving::*;

/// A concrete parallel layout for one card type. Ranks are ordered as Megatron-Core orders them
/// (`tp-cp-ep-dp-pp`): tensor-parallel ranks are neighbours, pipeline stages the farthest apart.
/// Expert parallelism (`ep`) splits the routed experts over `ep` of the data-parallel ranks (each
/// expert split by tensor parallelism too, Megatron-Core's default expert TP = TP) and adds no
/// cards; an `ep` that does not divide `dp` but divides tp·cp·dp is folded over those ranks with
/// whole experts ([`Layout::folds_experts`]). Context parallelism (`cp`) splits each sequence
/// over `cp` cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Layout {
    pub tp: u32,
    pub pp: u32,
    pub dp: u32,
    pub zero: u8,
    pub recompute: Recompute,
    pub offload: Offload,
    pub ep: u32,
    pub cp: u32,
}

impl Default for Layout {
    fn default() -> Self {
        Self::single()
    }
}

impl Layout {
    #[must_use]
    pub fn single() -> Self {
        Self { tp: 1, pp: 1, dp: 1, zero: 0, recompute: Recompute::None, offload: Offload::None, ep: 1, cp: 1 }
    }
    #[must_use]
    pub fn gpus(&self) -> u32 {
        self.tp.saturating_mul(self.pp).saturating_mul(self.dp).saturating_mul(self.cp.max(1))
    }

    /// Megatron-Core's MoE parallel folding (`expert_tensor_parallel_size` 1): an expert-parallel
    /// group wider than the data-parallel ranks allow is laid over the tp·cp·dp ranks of a
    /// pipeline stage, each rank holding whole experts and dispatching its own tokens (Megatron-
    /// Core `parallel_state.initialize_model_parallel`: the expert groups are built from the
    /// world / pp ranks as etp × ep × edp, independently of the attention's tp × cp × dp).
    #[must_use]
    pub fn folds_experts(&self) -> bool {
        let ep = self.ep.max(1);
        ep > 1 && !self.dp.max(1).is_multiple_of(ep) && self.stage_ranks().is_multiple_of(ep)
    }

    /// Whether the expert-parallel degree fits the layout: it divides `dp` (experts split by TP)
    /// or, folded, the tp·cp·dp ranks of a stage.
    #[must_use]
    pub fn ep_fits(&self) -> bool {
        let ep = self.ep.max(1);
        self.dp.max(1).is_multiple_of(ep) || self.stage_ranks().is_multiple_of(ep)
    }

    /// Ranks one expert's weights are split over by tensor parallelism: 1 when folded, else TP.
    #[must_use]
    pub fn expert_tp(&self) -> u32 {
        if self.folds_experts() {
            1
        } else {
            self.tp.max(1)
        }
    }

    /// Share of the model's parameters on one card of a tensor-parallel shard (before the shard's
    /// 1/tp): the dense part, and the routed experts over `ep` cards (× tp/expert-TP when folded,
    /// the experts not being split by TP).
    #[must_use]
    pub fn local_share(&self, routed: f64) -> f64 {
        let tp = f64::from(self.tp.max(1));
        1.0 - routed + routed * tp / (f64::from(self.expert_tp()) * f64::from(self.ep.max(1)))
    }

    /// Ranks an expert-parallel group spans: `ep` neighbours folded, else `ep` ranks tp·cp apart.
    #[must_use]
    pub fn expert_span(&self) -> u32 {
        if self.folds_experts() {
            self.ep.max(1)
        } else {
            self.tp.max(1) * self.cp.max(1) * self.ep.max(1)
        }
    }

    /// The share of a micro-batch's tokens each rank dispatches is 1 over this: folded, each rank
    /// sends its own 1/tp of the sequence-parallel tokens; otherwise a TP group's tokens meet
    /// the experts split TP ways.
    #[must_use]
    pub fn dispatch_split(&self) -> f64 {
        if self.folds_experts() {
            f64::from(self.tp.max(1))
        } else {
            1.0
        }
    }

    fn stage_ranks(&self) -> u32 {
        self.tp.max(1).saturating_mul(self.cp.max(1)).saturating_mul(self.dp.max(1))
    }
}

/// Bytes per GPU by kind. `total` includes `overhead`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct MemoryBreakdown {
    pub weights: f64,
    pub gradients: f64,
    pub optimizer: f64,
    pub master_weights: f64,
    pub activations: f64,
    pub logits: f64,
    pub kv_cache: f64,
    /// Framework buffers: gradient buckets, gathered ZeRO-3/FSDP parameters.
    pub buffers: f64,
    pub overhead: f64,
    pub total: f64,
}

/// ZeRO model-state bytes per GPU for mixed-precision Adam (Rajbhandari et al. 2019, §5.1):
/// 16-bit weights 2Ψ, 16-bit gradients 2Ψ, optimizer K·Ψ (K = 12: fp32 master, momentum, variance).
/// Stage 1 shards the optimizer, stage 2 also gradients, stage 3 also weights, over `dp` ranks.
#[must_use]
pub fn zero_model_states(psi: f64, k: f64, dp: u32, stage: u8) -> f64 {
    let n = f64::from(dp.max(1));
    let shard = |on: bool| if on { n } else { 1.0 };
    2.0 * psi / shard(stage >= 3) + 2.0 * psi / shard(stage >= 2) + k * psi / shard(stage >= 1)
}

/// Optimizer-state bytes per trained parameter (master weights counted separately), with each
/// moment at `state` width. AdamW: two moments (fp32: 8 B). SGD with momentum: one. Plain SGD:
/// none. 8-bit AdamW (Dettmers et al. 2021): 1 B per moment + an fp32 absmax per 2048-value block.
/// Adafactor without momentum (Shazeer & Stern 2018): factored second moment, 4·(rows+cols) per
/// matrix, i.e. 4·(1/h + 1/ffn) per parameter.
#[must_use]
pub fn optimizer_bytes(opt: Optimizer, m: &ModelSpec, state: StateDtype) -> f64 {
    match opt {
        Optimizer::AdamW => 2.0 * state.bytes(),
        Optimizer::AdamW8bit => 2.0 * (1.0 + 4.0 / 2048.0),
        Optimizer::SgdMomentum => state.bytes(),
        Optimizer::Sgd => 0.0,
        Optimizer::Adafactor => 4.0 * (1.0 / f64::from(m.hidden.max(1)) + 1.0 / f64::from(m.intermediate.max(1))),
    }
}

/// LoRA adapter parameters: r·(d_in + d_out) per adapted matrix (Hu et al. 2021), every layer.
#[must_use]
pub fn lora_params(m: &ModelSpec, rank: u32, targets: LoraTargets) -> f64 {
    let h = f64::from(m.hidden);
    let d = f64::from(m.head_dim());
    let q = f64::from(m.heads) * d;
    let kv = f64::from(m.kv_heads) * d;
    let attn = match targets {
        LoraTargets::Qv => (h + q) + (h + kv),
        _ => (h + q) + 2.0 * (h + kv) + (q + h),
    };
    let mlp = match targets {
        LoraTargets::Qv | LoraTargets::Attention => 0.0,
        LoraTargets::AllLinear => {
            let per = |f: f64| if m.gated_mlp { 3.0 * (h + f) } else { 2.0 * (h + f) };
            match &m.moe {
                None => per(f64::from(m.intermediate)),
                Some(e) => f64::from(e.experts + e.shared_experts) * per(f64::from(e.expert_intermediate)),
            }
        }
    };
    // Encoder–decoder: the encoder's layers and the decoder's cross-attention are adapted too.
    f64::from(rank) * (attn * m.attention_modules() + mlp * f64::from(m.blocks()))
}

/// Bytes of the stored weights: non-embedding parameters at `quant`, embeddings at 16/32 bits
/// unless the convention quantizes them too (GPTQ/AWQ and QLoRA leave embeddings and the output
/// head unquantized).
#[must_use]
pub fn weight_bytes(p: &ParamCounts, quant: WeightQuant, precision: Precision, c: &Conventions) -> f64 {
    let q = quant.bytes_with(precision, c.group_scales, c.double_quant);
    let e = if c.quantize_embeddings { q } else { precision.bytes() };
    (p.total - p.embedding) * q + p.embedding * e
}

/// A pipeline stage. The first holds the input embedding and the most micro-batches in flight;
/// the last holds the output layer and the logits (Narayanan et al. 2021; Megatron keeps a copy
/// of tied embeddings on the last stage too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// No pipeline: the whole model.
    Only,
    First,
    Last,
}

impl Stage {
    /// The stages to check for a layout.
    #[must_use]
    pub fn of(layout: &Layout) -> &'static [Stage] {
        if layout.pp <= 1 {
            &[Stage::Only]
        } else {
            &[Stage::First, Stage::Last]
        }
    }

    /// Micro-batches whose activations the stage holds under 1F1B.
    #[must_use]
    pub fn in_flight(self, pp: u32, microbatches: f64) -> f64 {
        self.in_flight_interleaved(pp, microbatches, 1)
    }

    /// The same under the interleaved schedule with `virtual_stages` model chunks per stage: the
    /// first stage holds (1 + (p − 1)/(p·v)) times 1F1B's micro-batches (Megatron-Core
    /// `theoretical_memory_usage.py`, `interleaved_schedule_memory_penalty`; Narayanan et al.
    /// 2021 §2.2.2). v = 1 is plain 1F1B.
    #[must_use]
    pub fn in_flight_interleaved(self, pp: u32, microbatches: f64, virtual_stages: u32) -> f64 {
        let p = f64::from(pp.max(1));
        let penalty =
            if virtual_stages > 1 && pp > 1 { 1.0 + (p - 1.0) / (p * f64::from(virtual_stages)) } else { 1.0 };
        match self {
            Stage::Last => 1.0,
            _ => p.min(microbatches.max(1.0)) * penalty,
        }
    }

    /// Parameters on the stage: its share of the layers plus the embedding or the output layer.
    #[must_use]
    pub fn params(self, m: &ModelSpec, p: &ParamCounts, pp: u32) -> (f64, f64) {
        if self == Stage::Only {
            return (p.total, p.embedding);
        }
        // Encoder–decoder stacks are cut into stages as one run of blocks.
        let layers = f64::from(m.blocks().max(1));
        let per_layer = (p.total - p.embedding) / layers;
        let emb = f64::from(m.vocab) * f64::from(m.hidden);
        let stage_layers = (layers / f64::from(pp.max(1))).ceil();
        (per_layer * stage_layers + emb, emb)
    }
}

/// Per-GPU memory of a training task under `layout`: the most loaded pipeline stage.
#[must_use]
pub fn training(m: &ModelSpec, s: &Scenario, layout: &Layout) -> MemoryBreakdown {
    worst_stage(m, s, layout).breakdown
}

/// The pipeline stage that needs the most memory.
#[derive(Debug, Clone)]
pub struct WorstStage {
    pub stage: Stage,
    /// Micro-batches whose activations it holds.
    pub in_flight: f64,
    /// The activation shape its figure was computed with.
    pub shape: ActivationShape,
    pub breakdown: MemoryBreakdown,
}

/// [`training`] with the stage, in-flight micro-batches and activation shape behind the figure,
/// so that an explanation prints the same terms.
#[must_use]
pub fn worst_stage(m: &ModelSpec, s: &Scenario, layout: &Layout) -> WorstStage {
    let t = &s.training;
    let shape = ActivationShape::of_training(m, s, t.micro_batch);
    let microbatches = f64::from(t.global_batch) / (f64::from(layout.dp.max(1)) * f64::from(t.micro_batch.max(1)));
    let mut worst = WorstStage { stage: Stage::Only, in_flight: 1.0, shape, breakdown: MemoryBreakdown::default() };
    for &stage in Stage::of(layout) {
        let mut b = training_states(m, s, layout, stage);
        let in_flight = stage.in_flight_interleaved(layout.pp, microbatches, s.parallel.virtual_stages);
        b.activations = model_activation_bytes(m, &shape, layout, t.flash_attention, in_flight);
        b.logits =
            if stage == Stage::First { 0.0 } else { loss_bytes(m, s, t.micro_batch, layout.tp * layout.cp.max(1)) };
        let b = finish(b, s);
        if b.total > worst.breakdown.total {
            worst = WorstStage { stage, in_flight, shape, breakdown: b };
        }
    }
    worst
}

/// Bytes per stored activation: 4 for fp32/tf32 training, else 2.
#[must_use]
pub fn activation_value_bytes(s: &Scenario) -> f64 {
    if s.precision.bytes() > 2.0 {
        4.0
    } else {
        2.0
    }
}

/// Logits for the loss under the framework's convention: fp32 for the whole sequence, or
/// 16-bit logits plus one fp32 chunk of eight (torchtune's chunked cross-entropy).
#[must_use]
pub fn loss_bytes(m: &ModelSpec, s: &Scenario, micro_batch: u32, tp: u32) -> f64 {
    let full = logits_bytes(m, s.training.seq_len, micro_batch, tp);
    if s.training.conventions.chunked_loss {
        full / 2.0 + full / 8.0
    } else {
        full
    }
}

/// Logits s·b·V in fp32 for the loss (vocab-parallel over tp); conservatively on the worst stage.
#[must_use]
pub fn logits_bytes(m: &ModelSpec, seq: u32, micro_batch: u32, tp: u32) -> f64 {
    f64::from(seq) * f64::from(micro_batch) * f64::from(m.vocab) * 4.0 / f64::from(tp.max(1))
}

/// Total with runtime overhead, from the sum of the other items (as `finish` does).
#[must_use]
pub fn total_with_overhead(sum: f64, s: &Scenario) -> f64 {
    sum * (1.0 + s.efficiency.fragmentation) + s.efficiency.runtime_gib * GIB
}

/// Parameters of the largest unit a ZeRO-3/FSDP rank gathers at once: one transformer block (all
/// its experts for MoE) or the embedding, whichever is larger; per module (DeepSpeed), the largest
/// single weight matrix (embedding, an MLP projection, the query projection).
#[must_use]
pub fn largest_layer_params(m: &ModelSpec, per_module: bool) -> f64 {
    let h = f64::from(m.hidden);
    let emb = f64::from(m.vocab) * h;
    if per_module {
        let ffn = m.moe.as_ref().map_or(f64::from(m.intermediate), |e| {
            f64::from(e.expert_intermediate).max(f64::from(e.dense_intermediate.unwrap_or(m.intermediate)))
        });
        let q = f64::from(m.heads) * f64::from(m.head_dim());
        return emb.max(h * ffn).max(h * q);
    }
    let p = m.computed_params();
    let block = (p.total - p.embedding) / f64::from(m.blocks().max(1));
    block.max(emb)
}

/// Model states (weights, gradients, optimizer, master weights) and framework buffers of one
/// pipeline stage, following the scenario's framework conventions (framework.rs).
#[must_use]
pub fn training_states(m: &ModelSpec, s: &Scenario, layout: &Layout, stage: Stage) -> MemoryBreakdown {
    let p = m.params();
    let t = &s.training;
    let c = &t.conventions;
    let tp = f64::from(layout.tp.max(1));
    let (stage_params, stage_emb) = stage.params(m, &p, layout.pp);
    // Share of the stage's parameters on this card: routed experts are split over `ep` cards;
    // ZeRO shards everything over the dp·cp data-parallel ranks (experts over dp·cp/ep of them,
    // having been split `ep` ways already, which comes to the same 1/(dp·cp)).
    let dp = f64::from(layout.dp.max(1)) * f64::from(layout.cp.max(1));
    let routed = m.routed_expert_fraction();
    let local = layout.local_share(routed);
    let part = |on: bool| if on { 1.0 / dp } else { local };
    let half = s.precision.bytes();
    let mixed = half < 4.0;
    let grad_b = if c.grad == GradDtype::Fp32 { 4.0 } else { half };
    let opt = optimizer_bytes(t.optimizer, m, c.optimizer_state);
    let offload_opt = layout.offload != Offload::None;
    let offload_params = layout.offload == Offload::OptimizerAndParams && layout.zero >= 3;
    let zero3 = layout.zero >= 3;
    let largest = largest_layer_params(m, c.gather_per_module) / tp;
    let mut b = MemoryBreakdown::default();
    let trainable = match s.task {
        Task::Pretrain | Task::FullFinetune | Task::Inference => {
            let psi = stage_params / tp;
            // fp32 parameters under AMP: 4 B sharded with ZeRO-3/FSDP; autocast's 16-bit copy of
            // the whole model when not sharded (sharded runs gather 16-bit units instead).
            let (wb, cast) = if c.fp32_params { (4.0, if mixed && !zero3 { half } else { 0.0 }) } else { (half, 0.0) };
            // ZeRO-3/FSDP ranks hold the gathered 16-bit layers they are computing with.
            let gathered = if zero3 { half * (c.gathered_layers * largest).min(psi * local) } else { 0.0 };
            b.weights = if offload_params { 0.0 } else { wb * psi * part(zero3) + cast * psi * local } + gathered;
            // 16-bit gradients: one layer at a time when the optimizer runs in the backward pass or
            // DeepSpeed ZeRO-3 reduces each layer straight into its fp32 partition.
            let layerwise = c.optimizer_in_backward || (zero3 && c.fp32_grad_partition);
            b.gradients = if layerwise {
                grad_b * largest.min(psi * local)
            } else if offload_opt {
                0.0
            } else {
                let sharded = layout.zero >= 2 && !(layout.zero == 2 && c.zero2_full_grads);
                grad_b * psi * part(sharded)
            };
            if !offload_opt {
                let fp32_grads = if c.fp32_grad_partition { 4.0 } else { 0.0 };
                let paged = if c.paged_optimizer { 0.0 } else { opt };
                b.optimizer = (paged + fp32_grads) * psi * part(layout.zero >= 1);
                let master = mixed && t.master_weights && !c.fp32_params;
                b.master_weights = if master { 4.0 * psi * part(layout.zero >= 1) } else { 0.0 };
            }
            psi * local
        }
        Task::Lora | Task::Qlora => {
            let quant = if s.task == Task::Qlora { WeightQuant::Nf4 } else { s.weight_quant };
            let stage_counts = ParamCounts { total: stage_params, active: stage_params, embedding: stage_emb };
            let base = weight_bytes(&stage_counts, quant, s.precision, c) / tp * part(zero3);
            let layer_share = match stage {
                Stage::Only => 1.0,
                _ => (f64::from(m.layers.max(1)) / f64::from(layout.pp.max(1))).ceil() / f64::from(m.layers.max(1)),
            };
            let a = lora_params(m, s.lora.rank, s.lora.targets) * layer_share / tp;
            // peft keeps adapters in fp32 (autocast_adapter_dtype); torchtune in the model dtype.
            let ab = if c.adapter_fp32 { 4.0 } else { half };
            b.weights = base + ab * a * part(zero3);
            if !offload_opt {
                b.gradients = ab * a * part(layout.zero >= 2);
                b.optimizer = if c.paged_optimizer { 0.0 } else { opt * a * part(layout.zero >= 1) };
                let master = mixed && t.master_weights && !c.adapter_fp32;
                b.master_weights = if master { 4.0 * a * part(layout.zero >= 1) } else { 0.0 };
            }
            a
        }
    };
    // DeepSpeed's gradient bucket (never larger than the gradients it holds).
    if layout.zero >= 2 && !offload_opt {
        b.buffers += c.bucket_elems.min(trainable) * grad_b;
    }
    // ZeRO-3 prefetch bucket (parameters fetched ahead of use).
    if zero3 {
        b.buffers += half * (c.prefetch_elems / tp).min(stage_params / tp);
    }
    b
}

fn finish(mut b: MemoryBreakdown, s: &Scenario) -> MemoryBreakdown {
    let sum =
        b.weights + b.gradients + b.optimizer + b.master_weights + b.activations + b.logits + b.kv_cache + b.buffers;
    // CUDA context + workspace (PyTorch: ~0.5–1 GiB per process) and caching-allocator fragmentation.
    b.overhead = s.efficiency.runtime_gib * GIB + sum * s.efficiency.fragmentation;
    b.total = sum + b.overhead;
    b
}

/// The seeds' rule of thumb: parameters × bytes per parameter × a factor (3–6 for training,
/// ~1.2 for serving), shown next to the itemised estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QuickRule {
    pub bytes_per_param: f64,
    pub factor_low: f64,
    pub factor_high: f64,
    pub low: f64,
    pub high: f64,
}

#[must_use]
pub fn quick_rule(m: &ModelSpec, s: &Scenario) -> QuickRule {
    let psi = m.params().total;
    let (bytes, lo, hi) = match s.task {
        Task::Inference => (s.weight_quant.bytes(s.precision), 1.2, 1.2),
        Task::Qlora => (WeightQuant::Nf4.bytes(s.precision), 1.5, 3.0),
        Task::Lora => (s.weight_quant.bytes(s.precision), 1.5, 3.0),
        Task::Pretrain | Task::FullFinetune => (s.precision.bytes(), 3.0, 6.0),
    };
    QuickRule { bytes_per_param: bytes, factor_low: lo, factor_high: hi, low: psi * bytes * lo, high: psi * bytes * hi }
}
