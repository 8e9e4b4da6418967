//! The sane range of every number a scenario holds: one table that the page's fields take
//! their limits from and that [`Scenario::validate`](super::Scenario::validate) checks, so a
//! value the form accepts is never refused by the planner, nor the other way round.

/// A field's dotted name as errors print it, its limits in the scenario's own unit, and
/// whether it is a whole number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    pub field: &'static str,
    pub min: f64,
    pub max: f64,
    pub integer: bool,
}

impl Range {
    #[must_use]
    pub const fn new(field: &'static str, min: f64, max: f64, integer: bool) -> Self {
        Self { field, min, max, integer }
    }

    /// The limits as a form shows the value, `scale` × the stored one (100 for a share typed
    /// as a percentage, 1e-9 for tokens typed in billions).
    #[must_use]
    pub const fn shown(self, scale: f64) -> (f64, f64, bool) {
        (self.min * scale, self.max * scale, self.integer && scale >= 1.0)
    }

    /// The same range starting at `min` (a p90 at least its median).
    #[must_use]
    pub const fn from(self, min: f64) -> Self {
        Self { min, ..self }
    }

    /// Whether `v` is finite and within the limits.
    #[must_use]
    pub fn contains(self, v: f64) -> bool {
        v.is_finite() && (self.min..=self.max).contains(&v)
    }
}

pub const VISION_RESOLUTION: Range = Range::new("vision.resolution", 0.0, 8192.0, true);
pub const VISION_BATCH: Range = Range::new("vision.batch", 1.0, 4096.0, true);
pub const VISION_DATASET: Range = Range::new("vision.dataset", 1.0, 1e12, false);
pub const VISION_EPOCHS: Range = Range::new("vision.epochs", 0.01, 100_000.0, false);
pub const VISION_RATE: Range = Range::new("vision.rate", 0.001, 1e7, false);
pub const VISION_LATENCY_MS: Range = Range::new("vision.latency_ms", 0.1, 3_600_000.0, false);
pub const VISION_STEPS: Range = Range::new("vision.steps", 0.0, 1000.0, true);
pub const TRAINING_SEQ_LEN: Range = Range::new("training.seq_len", 1.0, 2_097_152.0, true);
pub const TRAINING_MICRO_BATCH: Range = Range::new("training.micro_batch", 1.0, 65_536.0, true);
pub const TRAINING_GLOBAL_BATCH: Range = Range::new("training.global_batch", 1.0, 1e7, true);
pub const TRAINING_TOKENS: Range = Range::new("training.tokens", 1.0, 1e15, false);
pub const LORA_RANK: Range = Range::new("lora.rank", 1.0, 65_536.0, true);
pub const TRAINING_CONVENTIONS_BUCKET_ELEMS: Range = Range::new("training.conventions.bucket_elems", 0.0, 1e11, false);
pub const TRAINING_CONVENTIONS_PREFETCH_ELEMS: Range =
    Range::new("training.conventions.prefetch_elems", 0.0, 1e11, false);
pub const TRAINING_CONVENTIONS_GATHERED_LAYERS: Range =
    Range::new("training.conventions.gathered_layers", 0.0, 64.0, false);
pub const INFERENCE_CONTEXT: Range = Range::new("inference.context", 1.0, 2_097_152.0, true);
pub const INFERENCE_OUTPUT_TOKENS: Range = Range::new("inference.output_tokens", 0.0, 2_097_152.0, true);
pub const INFERENCE_CONCURRENT: Range = Range::new("inference.concurrent", 1.0, 100_000.0, true);
pub const INFERENCE_RATE_RPS: Range = Range::new("inference.rate_rps", 0.001, 1e6, false);
pub const INFERENCE_THINK_S: Range = Range::new("inference.think_s", 0.0, 86_400.0, false);
pub const INFERENCE_PREFIX_SHARE: Range = Range::new("inference.prefix_share", 0.0, 0.99, false);
pub const INFERENCE_TTFT_P50_S: Range = Range::new("inference.ttft_p50_s", 0.001, 3_600.0, false);
pub const INFERENCE_TTFT_P99_S: Range = Range::new("inference.ttft_p99_s", 0.001, 3_600.0, false);
pub const INFERENCE_TPOT_P50_MS: Range = Range::new("inference.tpot_p50_ms", 0.1, 60_000.0, false);
pub const INFERENCE_TPOT_P99_MS: Range = Range::new("inference.tpot_p99_ms", 0.1, 60_000.0, false);
pub const INFERENCE_MEM_UTIL: Range = Range::new("inference.mem_util", 0.1, 1.0, false);
pub const INFERENCE_TP: Range = Range::new("inference.tp", 0.0, 64.0, true);
pub const INFERENCE_EP: Range = Range::new("inference.ep", 0.0, 1_024.0, true);
pub const INFERENCE_MAX_BATCHED_TOKENS: Range = Range::new("inference.max_batched_tokens", 16.0, 1_048_576.0, true);
pub const INFERENCE_STEP_OVERHEAD_MS: Range = Range::new("inference.step_overhead_ms", 0.0, 1_000.0, false);
pub const INFERENCE_MAX_SEQS: Range = Range::new("inference.max_seqs", 0.0, 1_048_576.0, true);
pub const INFERENCE_SPEC_TOKENS: Range = Range::new("inference.spec_tokens", 0.0, 16.0, true);
pub const INFERENCE_SPEC_ACCEPT: Range = Range::new("inference.spec_accept", 0.0, 0.99, false);
pub const PARALLEL_GPUS: Range = Range::new("parallel.gpus", 0.0, 100_000.0, true);
pub const PARALLEL_TP: Range = Range::new("parallel.tp", 1.0, 64.0, true);
pub const PARALLEL_PP: Range = Range::new("parallel.pp", 1.0, 1_000.0, true);
pub const PARALLEL_ZERO: Range = Range::new("parallel.zero", 0.0, 3.0, true);
pub const PARALLEL_GPUS_PER_SERVER: Range = Range::new("parallel.gpus_per_server", 1.0, 64.0, true);
pub const PARALLEL_VIRTUAL_STAGES: Range = Range::new("parallel.virtual_stages", 1.0, 64.0, true);
pub const PARALLEL_EP: Range = Range::new("parallel.ep", 1.0, 1_024.0, true);
pub const PARALLEL_CP: Range = Range::new("parallel.cp", 1.0, 64.0, true);
pub const PARALLEL_MEMORY_HEADROOM: Range = Range::new("parallel.memory_headroom", 0.0, 0.5, false);
pub const PARALLEL_RECOMPUTE_LAYERS: Range = Range::new("parallel.recompute_layers", 0.0, 1_000.0, true);
pub const CARDS_MIN_MEMORY_GB: Range = Range::new("cards.min_memory_gb", 0.0, 10_000.0, false);
pub const MONEY_CNY_PER_USD: Range = Range::new("money.cny_per_usd", 0.01, 1_000.0, false);
pub const MONEY_OVERRIDES_RENT_HOURLY: Range = Range::new("money.overrides.rent_hourly", 0.0, 1e6, false);
pub const EFFICIENCY_MFU: Range = Range::new("efficiency.mfu", 0.01, 1.0, false);
pub const EFFICIENCY_GOODPUT: Range = Range::new("efficiency.goodput", 0.05, 1.0, false);
pub const EFFICIENCY_DECODE_BANDWIDTH: Range = Range::new("efficiency.decode_bandwidth", 0.01, 1.0, false);
pub const EFFICIENCY_PREFILL_MFU: Range = Range::new("efficiency.prefill_mfu", 0.01, 1.0, false);
pub const EFFICIENCY_RUNTIME_GIB: Range = Range::new("efficiency.runtime_gib", 0.0, 1_000.0, false);
pub const EFFICIENCY_FRAGMENTATION: Range = Range::new("efficiency.fragmentation", 0.0, 1.0, false);
pub const EFFICIENCY_KERNEL_SCALE: Range = Range::new("efficiency.kernel_scale", 0.05, 20.0, false);
pub const EFFICIENCY_BENCHMARK_TOKENS_PER_S_GPU: Range =
    Range::new("efficiency.benchmark.tokens_per_s_gpu", 1e-3, 1e9, false);
pub const OWNERSHIP_LEAD_WEEKS: Range = Range::new("ownership.lead_weeks", 0.0, 156.0, false);
pub const OWNERSHIP_DEMAND: Range = Range::new("ownership.demand", 0.0, super::ownership::DEMAND_MAX, false);
pub const SEARCH_MAX_GPUS: Range = Range::new("search.max_gpus", 0.0, 100_000.0, true);
pub const SEARCH_DEADLINE_DAYS: Range = Range::new("search.deadline_days", 0.001, 100_000.0, false);
pub const SEARCH_BUDGET: Range = Range::new("search.budget", 0.0, 1e12, false);
pub const OWNERSHIP_SERVER_PRICE: Range = Range::new("ownership.server_price", 0.0, 1e9, false);
pub const OWNERSHIP_NETWORK_PER_SERVER: Range = Range::new("ownership.network_per_server", 0.0, 1e9, false);
pub const OWNERSHIP_HOST_WATTS: Range = Range::new("ownership.host_watts", 0.0, 100_000.0, false);
pub const OWNERSHIP_ELECTRICITY_PER_KWH: Range = Range::new("ownership.electricity_per_kwh", 0.0, 100.0, false);
pub const OWNERSHIP_PUE: Range = Range::new("ownership.pue", 1.0, 5.0, false);
pub const OWNERSHIP_RACK_PER_MONTH: Range = Range::new("ownership.rack_per_month", 0.0, 1e8, false);
pub const OWNERSHIP_OPS_SALARY_PER_YEAR: Range = Range::new("ownership.ops_salary_per_year", 0.0, 1e9, false);
pub const OWNERSHIP_OPS_SHARE: Range = Range::new("ownership.ops_share", 0.0, 100.0, false);
pub const OWNERSHIP_MAINTENANCE_PER_YEAR: Range = Range::new("ownership.maintenance_per_year", 0.0, 1.0, false);
pub const OWNERSHIP_DEPRECIATION_YEARS: Range = Range::new("ownership.depreciation_years", 0.5, 20.0, false);
pub const OWNERSHIP_RESIDUAL: Range = Range::new("ownership.residual", 0.0, 1.0, false);
pub const OWNERSHIP_DISCOUNT_RATE: Range = Range::new("ownership.discount_rate", 0.0, 1.0, false);
pub const OWNERSHIP_UTILISATION: Range = Range::new("ownership.utilisation", 0.001, 1.0, false);
pub const OWNERSHIP_MONTHS: Range = Range::new("ownership.months", 1.0, 240.0, true);
pub const OWNERSHIP_CARDS: Range = Range::new("ownership.cards", 0.0, 100_000.0, true);
pub const INFRA_CHECKPOINT_EVERY_HOURS: Range = Range::new("infra.checkpoint_every_hours", 0.01, 10_000.0, false);
pub const INFRA_CHECKPOINTS_KEPT: Range = Range::new("infra.checkpoints_kept", 0.0, 1_000.0, true);
pub const INFRA_STORAGE_GB_S: Range = Range::new("infra.storage_gb_s", 0.001, 10_000.0, false);
pub const INFRA_DATASET_BYTES_PER_TOKEN: Range = Range::new("infra.dataset_bytes_per_token", 0.0, 64.0, false);
pub const INFRA_STORAGE_PRICE_PER_TB: Range = Range::new("infra.storage_price_per_tb", 0.0, 1e7, false);
pub const INFRA_STORAGE_RENT_PER_TB_MONTH: Range = Range::new("infra.storage_rent_per_tb_month", 0.0, 1e6, false);
pub const INFRA_FABRIC_GBIT_PER_GPU: Range = Range::new("infra.fabric_gbit_per_gpu", 1.0, 10_000.0, false);
pub const INFRA_SERVERS_PER_RACK: Range = Range::new("infra.servers_per_rack", 1.0, 64.0, true);
pub const INFRA_RACK_KW_LIMIT: Range = Range::new("infra.rack_kw_limit", 0.5, 500.0, false);
pub const INFERENCE_OUTPUT_P90: Range = Range::new("inference.output_p90", 1.0, 2_097_152.0, true);
pub const INFERENCE_CONTEXT_P90: Range = Range::new("inference.context_p90", 1.0, 2_097_152.0, true);
pub const OWNERSHIP_CARD_PRICE: Range = Range::new("ownership.card_price", 0.0, 1e12, false);
pub const OWNERSHIP_RENT_HOURLY: Range = Range::new("ownership.rent_hourly", 0.0, 1e12, false);
pub const OWNERSHIP_RENT_MONTHLY: Range = Range::new("ownership.rent_monthly", 0.0, 1e12, false);
pub const OWNERSHIP_RENT_YEARLY: Range = Range::new("ownership.rent_yearly", 0.0, 1e12, false);
pub const OWNERSHIP_BUDGET: Range = Range::new("ownership.budget", 0.0, 1e12, false);
/// 0: as many as `parallel.gpus_per_server`.
pub const OWNERSHIP_CARDS_PER_HOST: Range = Range::new("ownership.cards_per_host", 0.0, 64.0, true);

/// Every range, for the tests that hold the forms and the validation to the table.
pub const ALL: &[Range] = &[
    VISION_RESOLUTION,
    VISION_BATCH,
    VISION_DATASET,
    VISION_EPOCHS,
    VISION_RATE,
    VISION_LATENCY_MS,
    VISION_STEPS,
    TRAINING_SEQ_LEN,
    TRAINING_MICRO_BATCH,
    TRAINING_GLOBAL_BATCH,
    TRAINING_TOKENS,
    LORA_RANK,
    TRAINING_CONVENTIONS_BUCKET_ELEMS,
    TRAINING_CONVENTIONS_PREFETCH_ELEMS,
    TRAINING_CONVENTIONS_GATHERED_LAYERS,
    INFERENCE_CONTEXT,
    INFERENCE_OUTPUT_TOKENS,
    INFERENCE_CONCURRENT,
    INFERENCE_RATE_RPS,
    INFERENCE_THINK_S,
    INFERENCE_PREFIX_SHARE,
    INFERENCE_TTFT_P50_S,
    INFERENCE_TTFT_P99_S,
    INFERENCE_TPOT_P50_MS,
    INFERENCE_TPOT_P99_MS,
    INFERENCE_MEM_UTIL,
    INFERENCE_TP,
    INFERENCE_EP,
    INFERENCE_MAX_BATCHED_TOKENS,
    INFERENCE_STEP_OVERHEAD_MS,
    INFERENCE_MAX_SEQS,
    PARALLEL_GPUS,
    PARALLEL_TP,
    PARALLEL_PP,
    PARALLEL_ZERO,
    PARALLEL_GPUS_PER_SERVER,
    PARALLEL_VIRTUAL_STAGES,
    PARALLEL_EP,
    PARALLEL_CP,
    PARALLEL_MEMORY_HEADROOM,
    PARALLEL_RECOMPUTE_LAYERS,
    CARDS_MIN_MEMORY_GB,
    MONEY_CNY_PER_USD,
    MONEY_OVERRIDES_RENT_HOURLY,
    EFFICIENCY_MFU,
    EFFICIENCY_GOODPUT,
    EFFICIENCY_DECODE_BANDWIDTH,
    EFFICIENCY_PREFILL_MFU,
    EFFICIENCY_RUNTIME_GIB,
    EFFICIENCY_FRAGMENTATION,
    EFFICIENCY_KERNEL_SCALE,
    EFFICIENCY_BENCHMARK_TOKENS_PER_S_GPU,
    OWNERSHIP_LEAD_WEEKS,
    OWNERSHIP_DEMAND,
    SEARCH_MAX_GPUS,
    SEARCH_DEADLINE_DAYS,
    SEARCH_BUDGET,
    OWNERSHIP_SERVER_PRICE,
    OWNERSHIP_NETWORK_PER_SERVER,
    OWNERSHIP_HOST_WATTS,
    OWNERSHIP_ELECTRICITY_PER_KWH,
    OWNERSHIP_PUE,
    OWNERSHIP_RACK_PER_MONTH,
    OWNERSHIP_OPS_SALARY_PER_YEAR,
    OWNERSHIP_OPS_SHARE,
    OWNERSHIP_MAINTENANCE_PER_YEAR,
    OWNERSHIP_DEPRECIATION_YEARS,
    OWNERSHIP_RESIDUAL,
    OWNERSHIP_DISCOUNT_RATE,
    OWNERSHIP_UTILISATION,
    OWNERSHIP_MONTHS,
    OWNERSHIP_CARDS,
    INFRA_CHECKPOINT_EVERY_HOURS,
    INFRA_CHECKPOINTS_KEPT,
    INFRA_STORAGE_GB_S,
    INFRA_DATASET_BYTES_PER_TOKEN,
    INFRA_STORAGE_PRICE_PER_TB,
    INFRA_STORAGE_RENT_PER_TB_MONTH,
    INFRA_FABRIC_GBIT_PER_GPU,
    INFRA_SERVERS_PER_RACK,
    INFRA_RACK_KW_LIMIT,
    INFERENCE_OUTPUT_P90,
    INFERENCE_CONTEXT_P90,
    OWNERSHIP_CARD_PRICE,
    OWNERSHIP_RENT_HOURLY,
    OWNERSHIP_RENT_MONTHLY,
    OWNERSHIP_RENT_YEARLY,
    OWNERSHIP_BUDGET,
    OWNERSHIP_CARDS_PER_HOST,
];
