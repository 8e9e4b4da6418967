//! Sections of a scenario: training, LoRA, inference, parallel layout, cards, money, efficiency.

use super::inputs::{KvPrecision, LoraTargets, Offload, Optimizer, Recompute, ServingEngine};
use crate::domain::framework::{Conventions, Framework};

/// Rental markets a scenario can price cards in (`""` = any).
pub const RENT_MARKETS: [&str; 5] = ["", "china_cloud", "global_marketplace", "hyperscaler", "my_quotes"];

#[derive(Debug, Clone, PartialEq)]
pub struct Training {
    pub seq_len: u32,
    pub micro_batch: u32,
    /// Sequences per optimizer step (all data-parallel ranks, all accumulation steps).
    pub global_batch: u32,
    /// Tokens to train on.
    pub tokens: f64,
    pub optimizer: Optimizer,
    /// Keep fp32 master weights (mixed precision). Off = pure 16-bit training.
    pub master_weights: bool,
    /// Flash attention never stores the s×s scores (same activation saving as selective recompute).
    pub flash_attention: bool,
    /// The framework whose memory accounting applies; `conventions` holds its switches.
    pub framework: Framework,
    pub conventions: Conventions,
}

impl Training {
    /// Switches to a framework's own conventions (and its master-weights default).
    pub fn set_framework(&mut self, f: Framework) {
        self.framework = f;
        if f != Framework::Custom {
            self.conventions = Conventions::of(f);
            self.master_weights = Conventions::default_master_weights(f);
        }
    }
}

impl Default for Training {
    fn default() -> Self {
        Self {
            seq_len: 4096,
            micro_batch: 1,
            global_batch: 64,
            tokens: 1e9,
            optimizer: Optimizer::AdamW,
            master_weights: true,
            flash_attention: true,
            framework: Framework::DeepSpeed,
            conventions: Conventions::of(Framework::DeepSpeed),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Lora {
    pub rank: u32,
    pub targets: LoraTargets,
}

impl Default for Lora {
    fn default() -> Self {
        Self { rank: 16, targets: LoraTargets::AllLinear }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Inference {
    /// Prompt tokens per request (the mean).
    pub context: u32,
    /// 90th percentile of the prompt tokens; `None` = every prompt the mean length.
    pub context_p90: Option<u32>,
    /// Generated tokens per request (the mean).
    pub output_tokens: u32,
    /// 90th percentile of the generated tokens; `None` = every answer the mean length.
    pub output_p90: Option<u32>,
    /// Concurrent users: each sends its next request `think_s` after the last answer ends
    /// (with no think time: requests in flight).
    pub concurrent: u32,
    pub kv: KvPrecision,
    /// Offered load in requests per second; replaces the users when set.
    pub rate_rps: Option<f64>,
    /// Seconds a user waits between an answer and the next request.
    pub think_s: f64,
    /// Share of prompt tokens served from a prefix cache (no prefill compute).
    pub prefix_share: f64,
    /// Latency targets: time to first token (seconds) and time per output token (ms), p50 and p99.
    pub ttft_p50_s: f64,
    pub ttft_p99_s: f64,
    pub tpot_p50_ms: f64,
    pub tpot_p99_ms: f64,
    /// Share of card memory the engine may use (vLLM `gpu_memory_utilization`).
    pub mem_util: f64,
    /// Tensor-parallel cards per replica; 0 = the cheapest that meets the targets.
    pub tp: u32,
    /// MoE: cards a replica spreads its routed experts over (expert parallelism, vLLM's
    /// EP = TP × DP), the attention data-parallel in groups of `tp`; 0 = the cheapest of none,
    /// one, two or four servers; ≤ tp = none.
    pub ep: u32,
    /// Tokens one engine step may process (vLLM `max_num_batched_tokens`): the prefill chunk.
    pub max_batched_tokens: u32,
    /// Fixed time per engine step (scheduling, sampling, launches), ms.
    pub step_overhead_ms: f64,
    /// Requests running at once (vLLM `max_num_seqs`); 0 = vLLM V1's default for the card.
    pub max_seqs: u32,
    /// Speculative decoding: tokens a draft (an MTP module, an EAGLE head) proposes per step for
    /// the model to verify (vLLM `num_speculative_tokens`, SGLang `speculative-num-steps`,
    /// TensorRT-LLM `num_nextn_predict_layers`); 0 = off.
    pub spec_tokens: u32,
    /// Speculative decoding: the chance that each drafted token is accepted (α of Leviathan et
    /// al. 2023). Engines log it (vLLM's per-position acceptance rate).
    pub spec_accept: f64,
    /// The engine serving the model: sets which prompt-carrying steps run without CUDA graphs.
    pub engine: ServingEngine,
    /// CUDA graphs off for every step (vLLM `--enforce-eager`, SGLang `--disable-cuda-graph`):
    /// decode steps wait for their kernel launches too.
    pub enforce_eager: bool,
}

impl Default for Inference {
    fn default() -> Self {
        Self {
            context: 4096,
            context_p90: None,
            output_tokens: 512,
            output_p90: None,
            concurrent: 8,
            kv: KvPrecision::Bf16,
            rate_rps: None,
            think_s: 0.0,
            prefix_share: 0.0,
            ttft_p50_s: 1.0,
            ttft_p99_s: 3.0,
            tpot_p50_ms: 50.0,
            tpot_p99_ms: 100.0,
            mem_util: 0.9,
            tp: 0,
            ep: 0,
            max_batched_tokens: 8192,
            step_overhead_ms: 2.0,
            max_seqs: 0,
            spec_tokens: 0,
            // DeepSeek-V3 technical report §5.4.3: its MTP module's second-token acceptance rate
            // "ranges between 85% and 90%"; the lower end.
            spec_accept: 0.85,
            engine: ServingEngine::Vllm,
            enforce_eager: false,
        }
    }
}

/// Parallel layout: `auto` searches tp/pp/ZeRO/recompute per card; otherwise the given values are used.
#[derive(Debug, Clone, PartialEq)]
pub struct Parallel {
    pub auto: bool,
    /// Cards to use; 0 = the fewest that fit.
    pub gpus: u32,
    pub tp: u32,
    pub pp: u32,
    pub zero: u8,
    pub recompute: Recompute,
    pub offload: Offload,
    /// Cards per server (8 on HGX / most GPU servers); sets how many servers a plan needs.
    pub gpus_per_server: u32,
    /// Expert parallelism (MoE): routed experts split over this many data-parallel cards.
    pub ep: u32,
    /// Context parallelism: each sequence split over this many cards.
    pub cp: u32,
    /// Model chunks per pipeline stage (Megatron's interleaved 1F1B, `--num-layers-per-virtual-
    /// pipeline-stage`): the bubble shrinks to (p − 1)/(v·m).
    pub virtual_stages: u32,
    /// Share of each card's memory a plan leaves free (0.05 = fits within 95%): a plan packed
    /// to 99% stops at the first longer batch, allocator spike or grown NCCL buffer. The card
    /// count the planner picks itself is also rounded to an orderable shape (plan.rs
    /// `orderable`).
    pub memory_headroom: f64,
    /// Layers of each pipeline stage that full recompute recomputes, the rest keeping their
    /// activations (Megatron-Core `--recompute-method block --recompute-num-layers N`); 0 = all.
    pub recompute_layers: u32,
}

impl Parallel {
    /// Layers per stage that full recompute covers (0 = all): the manual layout's setting; the
    /// automatic search recomputes whole stages.
    #[must_use]
    pub fn partial_recompute(&self) -> u32 {
        if self.auto {
            0
        } else {
            self.recompute_layers
        }
    }

    /// The bytes of a card of `capacity` bytes a plan may fill: all but the stated headroom
    /// (held to 0–50% as `validate` does, for a scenario that skipped it).
    #[must_use]
    pub fn usable(&self, capacity: f64) -> f64 {
        capacity * (1.0 - self.memory_headroom.clamp(0.0, 0.5))
    }
}

impl Default for Parallel {
    fn default() -> Self {
        Self {
            auto: true,
            gpus: 0,
            tp: 1,
            pp: 1,
            zero: 0,
            recompute: Recompute::None,
            offload: Offload::None,
            gpus_per_server: 8,
            ep: 1,
            cp: 1,
            virtual_stages: 1,
            memory_headroom: 0.05,
            recompute_layers: 0,
        }
    }
}

/// Which catalog cards to consider. Empty lists mean "all".
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CardFilter {
    pub segments: Vec<String>,
    pub vendors: Vec<String>,
    pub min_memory_gb: f64,
    pub only: Vec<String>,
    /// `""` any, `fast` (NVLink-class fabric between cards), `pcie` (PCIe only).
    pub interconnect: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Currency {
    #[default]
    CNY,
    USD,
}

impl Currency {
    /// ISO code, as catalog prices carry it.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Currency::CNY => "CNY",
            Currency::USD => "USD",
        }
    }
    /// Code and symbol for axis labels.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Currency::CNY => "CNY ¥",
            Currency::USD => "USD $",
        }
    }
}

/// A user's own hourly rental quote for a card.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PriceOverride {
    pub gpu: String,
    pub rent_hourly: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Money {
    pub currency: Currency,
    /// CNY per USD. Default: PBOC central parity ≈ 7.1 (late 2025); editable.
    pub cny_per_usd: f64,
    /// In `currency`.
    pub overrides: Vec<PriceOverride>,
    /// Rental market the ranking prices cards in (`RENT_MARKETS`): `china_cloud`,
    /// `global_marketplace`, `hyperscaler`, `my_quotes` (only `overrides`), or empty = any.
    pub rent_market: String,
    /// Buy used (二手) cards: the catalog's used prices, a lower resale and a failure allowance.
    pub used: bool,
}

impl Default for Money {
    fn default() -> Self {
        Self {
            currency: Currency::CNY,
            cny_per_usd: 7.1,
            overrides: Vec::new(),
            rent_market: String::new(),
            used: false,
        }
    }
}

/// Utilisation assumptions the user may replace with their own benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Efficiency {
    /// Model FLOPs utilisation for training; `None` = default per card class (compute.rs).
    pub mfu: Option<f64>,
    /// Share of a training run's wall time spent in training steps (not restarts after
    /// failures, checkpoint writes or evaluation); `None` = from the run's scale and length
    /// (domain/goodput.rs). An MFU, measured or predicted, is a steady-state figure; whole-run
    /// hours divide by this.
    pub goodput: Option<f64>,
    /// Share of peak memory bandwidth reached while decoding.
    pub decode_bandwidth: f64,
    /// Share of peak compute reached during prefill (and a large batch's compute-bound decode),
    /// never above the card's measured GEMM share at the math's precision
    /// (serving::compute_share).
    pub prefill_mfu: f64,
    /// CUDA context + framework workspace per card, GiB.
    pub runtime_gib: f64,
    /// Allocator fragmentation, share of the rest.
    pub fragmentation: f64,
    /// The user's own training benchmark on one card, which calibrates every card's time
    /// (domain/calibrate.rs).
    pub benchmark: Option<Benchmark>,
    /// Factor on the kernel efficiency that reproduces the benchmark; derived by the report from
    /// `benchmark` (1 without one), never typed.
    pub kernel_scale: f64,
}

/// A measured training speed: tokens per second per card on `gpu`, at the scenario's workload
/// and the layout the plan gives that card (or the user's fixed layout).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Benchmark {
    pub gpu: String,
    pub tokens_per_s_gpu: f64,
}

impl Default for Efficiency {
    fn default() -> Self {
        Self {
            mfu: None,
            goodput: None,
            decode_bandwidth: 0.75,
            prefill_mfu: 0.5,
            runtime_gib: 1.0,
            fragmentation: 0.05,
            benchmark: None,
            kernel_scale: 1.0,
        }
    }
}

crate::named_enum!(Currency { CNY => "CNY", USD => "USD" });

// A training section read from JSON gets its framework's conventions and master-weights
// default, and the switches it states override them: a scenario file that says only
// `"framework": "megatron"` gets Megatron's accounting (as picking it on the page does), and a
// share link, which states every switch, reads back exactly.
fn framework_defaults(t: &mut Training, v: &serde_json::Value) -> Result<(), String> {
    use crate::domain::read;
    if t.framework == Framework::Custom {
        return Ok(());
    }
    let mut c = read::json(&Conventions::of(t.framework));
    if let (Some(base), Some(stated)) = (c.as_object_mut(), v.get("conventions").and_then(|x| x.as_object())) {
        base.extend(stated.iter().map(|(k, x)| (k.clone(), x.clone())));
    }
    t.conventions = read::any(&c).map_err(|e| format!("conventions: {e}"))?;
    if v.get("master_weights").is_none() {
        t.master_weights = Conventions::default_master_weights(t.framework);
    }
    Ok(())
}

// Deserialize by table (domain/read.rs): the same meaning as a derive with #[serde(default)].
crate::read_fields!(Training then framework_defaults {
    seq_len: whole,
    micro_batch: whole,
    global_batch: whole,
    tokens: real,
    optimizer: any,
    master_weights: flag,
    flash_attention: flag,
    framework: any,
    conventions: any
});
crate::read_fields!(Lora { rank: whole, targets: any });
crate::read_fields!(Inference {
    context: whole,
    context_p90: opt_whole,
    output_tokens: whole,
    output_p90: opt_whole,
    concurrent: whole,
    kv: any,
    rate_rps: opt_real,
    think_s: real,
    prefix_share: real,
    ttft_p50_s: real,
    ttft_p99_s: real,
    tpot_p50_ms: real,
    tpot_p99_ms: real,
    mem_util: real,
    tp: whole,
    ep: whole,
    max_batched_tokens: whole,
    step_overhead_ms: real,
    max_seqs: whole,
    spec_tokens: whole,
    spec_accept: real,
    engine: any,
    enforce_eager: flag
});
crate::read_fields!(Parallel {
    auto: flag,
    gpus: whole,
    tp: whole,
    pp: whole,
    zero: byte,
    recompute: any,
    offload: any,
    gpus_per_server: whole,
    ep: whole,
    cp: whole,
    virtual_stages: whole,
    memory_headroom: real,
    recompute_layers: whole
});
crate::read_fields!(CardFilter { segments: any, vendors: any, min_memory_gb: real, only: any, interconnect: text });
crate::read_fields!(PriceOverride { gpu: text, rent_hourly: real });
crate::read_fields!(Money { currency: any, cny_per_usd: real, overrides: any, rent_market: text, used: flag });
crate::read_fields!(Efficiency {
    mfu: opt_real,
    goodput: opt_real,
    decode_bandwidth: real,
    prefill_mfu: real,
    runtime_gib: real,
    fragmentation: real,
    benchmark: any,
    kernel_scale: real
});
crate::read_fields!(Benchmark { gpu: text, tokens_per_s_gpu: real });
