//! Scenario: every input the user gives. Plain serde data; `#[serde(default)]` everywhere so
//! old saved scenarios and share links keep loading. The UI language is not part of it.

use super::catalog::Gpu;
use super::error::PlanError;
use super::framework::{Conventions, Framework};
use super::model::{self, ModelSpec};
use serde::{Deserialize, Serialize};

/// Current schema version (share links and saved scenarios carry it).
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WeightQuant {
    /// Same as the compute precision.
    #[default]
    None,
    Fp8,
    Int8,
    Int4,
    Nf4,
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
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Optimizer {
    #[default]
    AdamW,
    AdamW8bit,
    SgdMomentum,
    /// Plain SGD: no optimizer state.
    Sgd,
    Adafactor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Recompute {
    #[default]
    None,
    Selective,
    Full,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Offload {
    #[default]
    None,
    /// ZeRO-Offload: optimizer states, master weights and gradients live in CPU memory.
    Optimizer,
    /// ZeRO-Infinity style: the 16-bit weights too (needs ZeRO-3).
    OptimizerAndParams,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LoraTargets {
    /// q and v projections only (Hu et al. 2021's choice; peft's default for Llama).
    Qv,
    /// q, k, v, o projections.
    Attention,
    /// Every linear layer of attention and MLP (QLoRA's recommendation).
    #[default]
    AllLinear,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Lora {
    pub rank: u32,
    pub targets: LoraTargets,
}

impl Default for Lora {
    fn default() -> Self {
        Self { rank: 16, targets: LoraTargets::AllLinear }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Inference {
    /// Prompt tokens per request.
    pub context: u32,
    /// Generated tokens per request.
    pub output_tokens: u32,
    /// Sequences decoded together (batch).
    pub concurrent: u32,
    pub kv: KvPrecision,
}

impl Default for Inference {
    fn default() -> Self {
        Self { context: 4096, output_tokens: 512, concurrent: 8, kv: KvPrecision::Bf16 }
    }
}

/// Parallel layout: `auto` searches tp/pp/ZeRO/recompute per card; otherwise the given values are used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
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
        }
    }
}

/// Which catalog cards to consider. Empty lists mean "all".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct CardFilter {
    pub segments: Vec<String>,
    pub vendors: Vec<String>,
    pub min_memory_gb: f64,
    pub only: Vec<String>,
    /// `""` any, `fast` (NVLink-class fabric between cards), `pcie` (PCIe only).
    pub interconnect: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct PriceOverride {
    pub gpu: String,
    pub rent_hourly: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Money {
    pub currency: Currency,
    /// CNY per USD. Default: PBOC central parity ≈ 7.1 (late 2025); editable.
    pub cny_per_usd: f64,
    /// In `currency`.
    pub overrides: Vec<PriceOverride>,
    /// Rental market the ranking prices cards in (`pricing::RENT_MARKETS`): `china_cloud`,
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Efficiency {
    /// Model FLOPs utilisation for training; `None` = default per card class (compute.rs).
    pub mfu: Option<f64>,
    /// Share of peak memory bandwidth reached while decoding.
    pub decode_bandwidth: f64,
    /// Share of peak compute reached during prefill.
    pub prefill_mfu: f64,
    /// CUDA context + framework workspace per card, GiB.
    pub runtime_gib: f64,
    /// Allocator fragmentation, share of the rest.
    pub fragmentation: f64,
}

impl Default for Efficiency {
    fn default() -> Self {
        Self { mfu: None, decode_bandwidth: 0.75, prefill_mfu: 0.5, runtime_gib: 1.0, fragmentation: 0.05 }
    }
}

/// Owning versus renting: the hidden costs of owning and the rental alternatives.
/// Amounts are in `currency` (converted to the scenario currency in the report).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Ownership {
    /// Card to buy; empty = the best-ranked fitting card with a purchase price.
    pub gpu: String,
    /// Cards to buy; 0 = the plan's count for that card.
    pub cards: u32,
    pub currency: Currency,
    /// Price per card; `None` = newest catalog purchase price.
    pub card_price: Option<f64>,
    /// Host per server without GPUs: chassis, CPUs, RAM, storage, NICs, PSU.
    pub server_price: f64,
    /// Share of switches and cabling per server.
    pub network_per_server: f64,
    /// Host power per server (CPUs, RAM, NICs, fans), W.
    pub host_watts: f64,
    /// Site preset the electricity price and PUE came from (`beijing`, `chengdu`, `us`, `custom`).
    pub site: String,
    pub electricity_per_kwh: f64,
    pub pue: f64,
    /// Rack space / colocation per server per month.
    pub rack_per_month: f64,
    pub ops_salary_per_year: f64,
    /// Share of one engineer's time spent running these servers.
    pub ops_share: f64,
    /// Maintenance and spares per year, share of the hardware price.
    pub maintenance_per_year: f64,
    pub depreciation_years: f64,
    /// Resale value at the end of depreciation, share of the hardware price.
    pub residual: f64,
    /// Yearly discount rate for the present-value view (0 = straight-line).
    pub discount_rate: f64,
    /// Share of the year the owned cards are busy.
    pub utilisation: f64,
    /// On-demand price per card-hour; `None` = your quote in `money.overrides`, else the catalog.
    pub rent_hourly: Option<f64>,
    /// Monthly commitment per card; `None` = not compared.
    pub rent_monthly: Option<f64>,
    /// Yearly commitment per card; `None` = not compared.
    pub rent_yearly: Option<f64>,
    /// Months shown on the cumulative chart.
    pub months: u32,
    /// GPU-hours needed in each month (hybrid plan: own the base load, rent the peaks).
    pub demand: Vec<f64>,
    /// Budget for the budget filter; `None` = off.
    pub budget: Option<f64>,
    /// Weeks from order to delivery; `None` = the catalog's newest observation for the card,
    /// else `cost::DEFAULT_LEAD_WEEKS`.
    pub lead_weeks: Option<f64>,
}

impl Default for Ownership {
    /// Beijing site preset (`sites.rs`), 3-year straight-line depreciation to 20% resale, 60%
    /// utilisation. Host ¥150k and 1.5 kW per server, network ¥30k per server, rack ¥6k per
    /// server-month, 10% of a ¥400k engineer, 3% maintenance: stated assumptions, all editable.
    fn default() -> Self {
        Self {
            gpu: String::new(),
            cards: 0,
            currency: Currency::CNY,
            card_price: None,
            server_price: 150_000.0,
            network_per_server: 30_000.0,
            host_watts: 1_500.0,
            site: "beijing".into(),
            electricity_per_kwh: 0.62, // sites.rs: Beijing preset
            pue: 1.35,
            rack_per_month: 6_000.0,
            ops_salary_per_year: 400_000.0,
            ops_share: 0.1,
            maintenance_per_year: 0.03,
            depreciation_years: 3.0,
            residual: 0.2,
            discount_rate: 0.0,
            utilisation: 0.6,
            rent_hourly: None,
            rent_monthly: None,
            rent_yearly: None,
            months: 48,
            demand: vec![
                2_000.0, 2_000.0, 8_000.0, 8_000.0, 2_000.0, 2_000.0, 2_000.0, 8_000.0, 2_000.0, 2_000.0, 2_000.0,
                2_000.0,
            ],
            budget: None,
            lead_weeks: None,
        }
    }
}

impl Ownership {
    /// Takes the electricity price (converted into this section's currency) and PUE of a site preset.
    pub fn apply_site(&mut self, site: &super::sites::Site, cny_per_usd: f64) {
        let price = match (site.currency, self.currency) {
            (Currency::USD, Currency::CNY) => site.electricity.value * cny_per_usd,
            (Currency::CNY, Currency::USD) => site.electricity.value / cny_per_usd,
            _ => site.electricity.value,
        };
        self.electricity_per_kwh = (price * 10_000.0).round() / 10_000.0;
        self.pue = site.pue.value;
        self.site = site.id.to_string();
    }

    /// The seeds' figures as a preset: "an A100 80G card at ¥70–100k, a 4-card A100 server at
    /// ¥250–300k". The server figure only adds up as a complete server (4 × ¥70k alone is ¥280k),
    /// so the preset buys that bundle at its midpoint: 4 cards at ¥275,000 / 4 = ¥68,750 each with
    /// the host included (server price 0), ¥10,000 of network, 4 cards per server.
    #[must_use]
    pub fn seed_a100_server() -> Self {
        Self {
            gpu: "a100-80gb-sxm4".into(),
            cards: 4,
            currency: Currency::CNY,
            card_price: Some(68_750.0),
            server_price: 0.0,
            network_per_server: 10_000.0,
            ..Self::default()
        }
    }
}

/// Storage, network between servers, power and cooling around the cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Infra {
    /// Hours between checkpoint saves.
    pub checkpoint_every_hours: f64,
    /// Full checkpoints kept on disk.
    pub checkpoints_kept: u32,
    /// Write bandwidth of the checkpoint storage, GB/s (decimal).
    pub storage_gb_s: f64,
    /// Bytes per token of the tokenized dataset (int32 ids for vocabularies above 65,535).
    pub dataset_bytes_per_token: f64,
    /// Owned storage price per TB, in `ownership.currency`.
    pub storage_price_per_tb: f64,
    /// Rented storage per TB-month, in `ownership.currency`.
    pub storage_rent_per_tb_month: f64,
    /// Inter-server bandwidth per GPU, Gb/s (25, 100, 200, 400 Ethernet or InfiniBand).
    pub fabric_gbit_per_gpu: f64,
    /// Servers per rack.
    pub servers_per_rack: u32,
    /// Power a rack position may draw, kW (many Chinese IDC racks are 4–8 kW).
    pub rack_kw_limit: f64,
    /// Where the servers stand: `datacenter` or `office`.
    pub room: String,
}

impl Default for Infra {
    /// Stated assumptions, all editable: a checkpoint every 2 h, 3 kept, 2 GB/s storage, int32
    /// tokens, ¥1,500 per TB owned (enterprise NVMe) and ¥120 per TB-month rented, 200 Gb/s per GPU,
    /// 2 servers per rack within 12 kW, in a data centre.
    fn default() -> Self {
        Self {
            checkpoint_every_hours: 2.0,
            checkpoints_kept: 3,
            storage_gb_s: 2.0,
            dataset_bytes_per_token: 4.0,
            storage_price_per_tb: 1_500.0,
            storage_rent_per_tb_month: 120.0,
            fabric_gbit_per_gpu: 200.0,
            servers_per_rack: 2,
            rack_kw_limit: 12.0,
            room: "datacenter".into(),
        }
    }
}

/// Auto-plan: search every card and layout for the cheapest or fastest way to run the workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Search {
    /// Finish the training within this many days; `None` = no deadline.
    pub deadline_days: Option<f64>,
    /// Spend at most this much (scenario currency) renting; `None` = no limit.
    pub budget: Option<f64>,
    /// Largest card count to consider.
    pub max_gpus: u32,
}

impl Default for Search {
    fn default() -> Self {
        Self { deadline_days: None, budget: None, max_gpus: 1024 }
    }
}

/// Every input of one plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Scenario {
    pub version: u32,
    pub name: String,
    pub task: Task,
    /// Preset id from `models.json`, or `custom` to use `custom_model`.
    pub model: String,
    pub custom_model: ModelSpec,
    pub precision: Precision,
    pub weight_quant: WeightQuant,
    pub training: Training,
    pub lora: Lora,
    pub inference: Inference,
    pub parallel: Parallel,
    pub cards: CardFilter,
    pub money: Money,
    pub efficiency: Efficiency,
    pub ownership: Ownership,
    pub infra: Infra,
    pub search: Search,
    /// Cards the user added in the page (same shape as catalog cards).
    pub custom_gpus: Vec<Gpu>,
}

impl Default for Scenario {
    /// The demo: a full bf16 fine-tune of Qwen2.5-7B on 1B tokens, layout chosen automatically.
    fn default() -> Self {
        Self {
            version: VERSION,
            name: "Qwen2.5-7B full fine-tune".into(),
            task: Task::FullFinetune,
            model: "qwen2.5-7b".into(),
            custom_model: ModelSpec::default(),
            precision: Precision::Bf16,
            weight_quant: WeightQuant::None,
            training: Training::default(),
            lora: Lora::default(),
            inference: Inference::default(),
            parallel: Parallel::default(),
            cards: CardFilter::default(),
            money: Money::default(),
            efficiency: Efficiency::default(),
            ownership: Ownership::default(),
            infra: Infra::default(),
            search: Search::default(),
            custom_gpus: Vec::new(),
        }
    }
}

/// Reads a stored scenario (local storage, an imported file, a share link), migrating older
/// schemas. Schema 1 is the first; fields added since carry `#[serde(default)]`, so an older or
/// partial object loads with defaults. A newer schema is refused rather than half-read. Custom
/// cards whose ids collide (saved by older versions) get ids of their own.
///
/// # Errors
/// [`DecodeError`](super::error::DecodeError) for invalid JSON, a newer schema, or wrong types.
pub fn from_stored(value: serde_json::Value) -> Result<Scenario, super::error::DecodeError> {
    use super::error::DecodeError;
    let version = value.get("version").and_then(serde_json::Value::as_u64).unwrap_or(u64::from(VERSION));
    if version > u64::from(VERSION) {
        return Err(DecodeError::NewerSchema(u32::try_from(version).unwrap_or(u32::MAX)));
    }
    let mut s: Scenario = serde_json::from_value(value).map_err(|e| DecodeError::Json(e.to_string()))?;
    s.version = VERSION;
    s.make_custom_ids_unique(super::catalog::Catalog::embedded());
    Ok(s)
}

fn check(field: &'static str, value: f64, min: f64, max: f64) -> Result<(), PlanError> {
    if value.is_finite() && (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(PlanError::OutOfRange { field, value, min, max })
    }
}

impl Scenario {
    /// The model this scenario plans for.
    ///
    /// # Errors
    /// Unknown preset id, or custom dimensions out of range.
    pub fn model_spec(&self) -> Result<&ModelSpec, PlanError> {
        let m = if self.model == "custom" {
            &self.custom_model
        } else {
            model::preset(&self.model).ok_or_else(|| PlanError::UnknownModel(self.model.clone()))?
        };
        m.validate().map_err(PlanError::InvalidModel)?;
        Ok(m)
    }

    /// Checks every number is finite and in a sane range.
    ///
    /// # Errors
    /// The first out-of-range field, with its value.
    pub fn validate(&self) -> Result<(), PlanError> {
        let t = &self.training;
        check("training.seq_len", f64::from(t.seq_len), 1.0, 2_097_152.0)?;
        check("training.micro_batch", f64::from(t.micro_batch), 1.0, 65_536.0)?;
        check("training.global_batch", f64::from(t.global_batch), 1.0, 1e7)?;
        check("training.tokens", t.tokens, 1.0, 1e15)?;
        check("lora.rank", f64::from(self.lora.rank), 1.0, 65_536.0)?;
        let c = &t.conventions;
        check("training.conventions.bucket_elems", c.bucket_elems, 0.0, 1e11)?;
        check("training.conventions.prefetch_elems", c.prefetch_elems, 0.0, 1e11)?;
        check("training.conventions.gathered_layers", c.gathered_layers, 0.0, 64.0)?;
        let i = &self.inference;
        check("inference.context", f64::from(i.context), 1.0, 2_097_152.0)?;
        check("inference.output_tokens", f64::from(i.output_tokens), 0.0, 2_097_152.0)?;
        check("inference.concurrent", f64::from(i.concurrent), 1.0, 100_000.0)?;
        let p = &self.parallel;
        check("parallel.gpus", f64::from(p.gpus), 0.0, 100_000.0)?;
        check("parallel.tp", f64::from(p.tp), 1.0, 64.0)?;
        check("parallel.pp", f64::from(p.pp), 1.0, 1_000.0)?;
        check("parallel.zero", f64::from(p.zero), 0.0, 3.0)?;
        check("parallel.gpus_per_server", f64::from(p.gpus_per_server), 1.0, 64.0)?;
        check("parallel.virtual_stages", f64::from(p.virtual_stages), 1.0, 64.0)?;
        check("parallel.ep", f64::from(p.ep), 1.0, 1_024.0)?;
        check("parallel.cp", f64::from(p.cp), 1.0, 64.0)?;
        check("cards.min_memory_gb", self.cards.min_memory_gb, 0.0, 10_000.0)?;
        check("money.cny_per_usd", self.money.cny_per_usd, 0.01, 1_000.0)?;
        for o in &self.money.overrides {
            check("money.overrides.rent_hourly", o.rent_hourly, 0.0, 1e6)?;
        }
        if !super::pricing::RENT_MARKETS.contains(&self.money.rent_market.as_str()) {
            return Err(PlanError::UnknownChoice { field: "money.rent_market", value: self.money.rent_market.clone() });
        }
        let e = &self.efficiency;
        if let Some(m) = e.mfu {
            check("efficiency.mfu", m, 0.01, 1.0)?;
        }
        check("efficiency.decode_bandwidth", e.decode_bandwidth, 0.01, 1.0)?;
        check("efficiency.prefill_mfu", e.prefill_mfu, 0.01, 1.0)?;
        check("efficiency.runtime_gib", e.runtime_gib, 0.0, 1_000.0)?;
        check("efficiency.fragmentation", e.fragmentation, 0.0, 1.0)?;
        let o = &self.ownership;
        for (field, v, lo, hi) in [
            ("ownership.server_price", o.server_price, 0.0, 1e9),
            ("ownership.network_per_server", o.network_per_server, 0.0, 1e9),
            ("ownership.host_watts", o.host_watts, 0.0, 100_000.0),
            ("ownership.electricity_per_kwh", o.electricity_per_kwh, 0.0, 100.0),
            ("ownership.pue", o.pue, 1.0, 5.0),
            ("ownership.rack_per_month", o.rack_per_month, 0.0, 1e8),
            ("ownership.ops_salary_per_year", o.ops_salary_per_year, 0.0, 1e9),
            ("ownership.ops_share", o.ops_share, 0.0, 100.0),
            ("ownership.maintenance_per_year", o.maintenance_per_year, 0.0, 1.0),
            ("ownership.depreciation_years", o.depreciation_years, 0.5, 20.0),
            ("ownership.residual", o.residual, 0.0, 1.0),
            ("ownership.discount_rate", o.discount_rate, 0.0, 1.0),
            ("ownership.utilisation", o.utilisation, 0.001, 1.0),
            ("ownership.months", f64::from(o.months), 1.0, 240.0),
            ("ownership.cards", f64::from(o.cards), 0.0, 100_000.0),
        ] {
            check(field, v, lo, hi)?;
        }
        for (field, v) in [
            ("ownership.card_price", o.card_price),
            ("ownership.rent_hourly", o.rent_hourly),
            ("ownership.rent_monthly", o.rent_monthly),
            ("ownership.rent_yearly", o.rent_yearly),
            ("ownership.budget", o.budget),
        ] {
            if let Some(v) = v {
                check(field, v, 0.0, 1e12)?;
            }
        }
        if let Some(w) = o.lead_weeks {
            check("ownership.lead_weeks", w, 0.0, 156.0)?;
        }
        let i = &self.infra;
        for (field, v, lo, hi) in [
            ("infra.checkpoint_every_hours", i.checkpoint_every_hours, 0.01, 10_000.0),
            ("infra.checkpoints_kept", f64::from(i.checkpoints_kept), 0.0, 1_000.0),
            ("infra.storage_gb_s", i.storage_gb_s, 0.001, 10_000.0),
            ("infra.dataset_bytes_per_token", i.dataset_bytes_per_token, 0.0, 64.0),
            ("infra.storage_price_per_tb", i.storage_price_per_tb, 0.0, 1e7),
            ("infra.storage_rent_per_tb_month", i.storage_rent_per_tb_month, 0.0, 1e6),
            ("infra.fabric_gbit_per_gpu", i.fabric_gbit_per_gpu, 1.0, 10_000.0),
            ("infra.servers_per_rack", f64::from(i.servers_per_rack), 1.0, 64.0),
            ("infra.rack_kw_limit", i.rack_kw_limit, 0.5, 500.0),
        ] {
            check(field, v, lo, hi)?;
        }
        check("search.max_gpus", f64::from(self.search.max_gpus), 1.0, 100_000.0)?;
        if let Some(d) = self.search.deadline_days {
            check("search.deadline_days", d, 0.001, 100_000.0)?;
        }
        if let Some(b) = self.search.budget {
            check("search.budget", b, 0.0, 1e12)?;
        }
        if o.demand.len() > 120 {
            return Err(PlanError::OutOfRange {
                field: "ownership.demand (months)",
                value: o.demand.len() as f64,
                min: 0.0,
                max: 120.0,
            });
        }
        for v in &o.demand {
            check("ownership.demand", *v, 0.0, 1e9)?;
        }
        self.model_spec().map(|_| ())
    }
}
