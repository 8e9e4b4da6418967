//! What the report says about one card: its verdict and the plain warnings. Types only (and the
//! focus rule), so that the stages that fill them in — plan, infra, cost, warnings — and the
//! report that assembles them all read this module and never each other backwards.

use super::compute::{self, Throughput};
use super::memory::{Layout, MemoryBreakdown};
use super::pricing;
use super::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// What the plan stage (plan.rs for language models, vision.rs for the rest) finds one card can
/// do for the scenario: fit, layout, time and rental cost. The later stages read it and add their
/// own parts in a [`CardVerdict`]; none writes into it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardPlan {
    pub gpu: String,
    pub name: String,
    pub fits: bool,
    /// Cards in the plan (the fewest that fit, or the user's count).
    pub gpus: u32,
    /// Servers of `parallel.gpus_per_server` cards.
    pub servers: u32,
    /// The fewest cards that fit, before `gpus` was rounded up to an orderable count (plan.rs
    /// `orderable`); equal to `gpus` when nothing was rounded.
    #[serde(default)]
    pub needed_gpus: u32,
    pub layout: Layout,
    pub memory: MemoryBreakdown,
    /// Usable memory per card, bytes (vendor "GB" of GPU memory are binary GiB in practice:
    /// an A100 80GB reports 81920 MiB in nvidia-smi).
    pub capacity: f64,
    /// Training: wall-clock hours; `None` when the card's peak is unknown or it does not fit.
    pub hours: Option<f64>,
    pub gpu_hours: Option<f64>,
    /// MFU the time uses (training): measured when given, else predicted.
    pub mfu: f64,
    /// The predicted MFU's factors and the step's communication (training).
    pub utilisation: Option<compute::Mfu>,
    pub throughput: Option<Throughput>,
    /// Rental price per card-hour in the scenario currency, if known.
    pub rent_hourly: Option<f64>,
    /// Where `rent_hourly` comes from: source, date, age, stale or press flags.
    pub price: Option<pricing::Quote>,
    /// Training: cost of the run at `rent_hourly`. Inference: cost per million generated tokens.
    pub cost: Option<f64>,
    /// Serving: replicas, latency and throughput at the offered load (domain/serving.rs).
    #[serde(default)]
    pub serving: Option<super::serving::Capacity>,
    /// Vision, OCR, speech, diffusion: batch, samples/s, latency and the measurement behind them.
    #[serde(default)]
    pub vision: Option<super::vision_data::VisionFigures>,
    /// `nvlink` when the plan needs a GPU-to-GPU fabric (tensor parallelism), else `pcie`.
    pub interconnect_needed: String,
    /// Training: where the kernel efficiency behind the time comes from.
    #[serde(default)]
    pub tier: Option<super::tier::Tier>,
    /// Training: the hours a run would take for an error within the tier's p90 (domain/tier.rs).
    #[serde(default)]
    pub hours_band: Option<(f64, f64)>,
}

/// One card as the report shows it: the plan stage's record and what the economics and
/// warnings stages found from it, assembled once from finished parts (report.rs `finish`), so
/// a record read before the later stages ran cannot pass for a finished one (its empty warnings
/// once said "obtainable in China" to any rule that read them). It reads as its plan
/// (`Deref`): the ranking, the page and the tests name the plan's fields as the card's own. The
/// JSON is one flat object, as before.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardVerdict {
    #[serde(flatten)]
    pub plan: CardPlan,
    /// Training: cost of the run on owned cards (at the ownership utilisation). Serving: cost
    /// per million output tokens on owned cards used around the clock (cost.rs `own_cost_of_run`).
    pub own_cost: Option<f64>,
    /// The card's plain warnings (warnings.rs `card_warnings`).
    pub warnings: Vec<Warning>,
}

impl std::ops::Deref for CardVerdict {
    type Target = CardPlan;
    fn deref(&self) -> &CardPlan {
        &self.plan
    }
}

impl std::ops::DerefMut for CardVerdict {
    fn deref_mut(&mut self) -> &mut CardPlan {
        &mut self.plan
    }
}

impl CardPlan {
    /// Share of the card's memory the plan uses (may exceed 1 when it does not fit).
    #[must_use]
    pub fn memory_use(&self) -> f64 {
        if self.capacity > 0.0 {
            self.memory.total / self.capacity
        } else {
            0.0
        }
    }
}

impl CardVerdict {
    /// The card's status in mainland China when the plan is in China's market and the card is
    /// not sold new there (`cloud` or `grey`, from its [`Warning::ChinaSupply`]).
    #[must_use]
    pub fn china_supply(&self) -> Option<&str> {
        self.warnings.iter().find_map(|w| match w {
            Warning::ChinaSupply { status, .. } => Some(status.as_str()),
            _ => None,
        })
    }
}

/// The card the detail views follow: the one chosen to buy, else the best-ranked fitting card.
#[must_use]
pub fn focus<'a>(s: &Scenario, cards: &'a [CardVerdict]) -> Option<&'a CardVerdict> {
    if s.ownership.gpu.is_empty() {
        cards.iter().find(|c| c.fits).or(cards.first())
    } else {
        cards.iter().find(|c| c.gpu == s.ownership.gpu)
    }
}

/// Plain warnings about a plan: codes with values, worded in both languages by `format.rs`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Warning {
    /// GeForce cards: no ECC by default, blower-less coolers, EULA limits datacenter use.
    ConsumerCardForTraining,
    /// Training across more than 8 PCIe-only cards: gradient all-reduce through PCIe/host.
    PcieTrainingBeyond8 { gpus: u32 },
    /// Tensor parallelism beyond the NVLink domain: per-layer all-reduces go over PCIe.
    TensorParallelOverPcie { tp: u32 },
    /// The card's GPU-to-GPU fabric (catalog `interconnect.kind`) has no published bandwidth:
    /// the plan's collectives are timed over PCIe, so multi-card times are pessimistic.
    FabricUnknown { kind: String },
    /// More than one server: needs InfiniBand/RoCE between them.
    MultiServer { servers: u32 },
    /// The fewest cards that fit (with `headroom` of each card's memory left free) rounded up to
    /// an orderable count: a power of two within one machine, else whole servers.
    RoundedToOrder { needed: u32, cards: u32, per_server: u32, headroom: f64 },
    /// Serving: no tensor-parallel width on this card meets the latency targets at the load;
    /// the figures are the best reachable (p99 time to first token, p99 time per token).
    ServingTargetsMissed { ttft_p99_s: f64, tpot_p99_ms: f64 },
    /// Vision serving: even batch 1 is slower than the latency target.
    LatencyTargetMissed { latency_ms: f64, target_ms: f64 },
    /// Card power: W per card, and the cards' W in one server of `cards` of them.
    HighPower {
        card_w: f64,
        server_w: f64,
        #[serde(default)]
        cards: u32,
    },
    /// Non-CUDA stack (catalog code: `cann`, `rocm`, …, `other` = the vendor's own): check
    /// framework and kernel support.
    SoftwareEcosystem {
        software: String,
        #[serde(default)]
        vendor: String,
    },
    /// NVIDIA/AMD China-market variant (export-control cut of interconnect or compute).
    ChinaMarketVariant,
    /// A Chinese-made accelerator (Ascend, Cambricon, Hygon, …): how it is bought and supported.
    DomesticAccelerator,
    /// The chosen market is China's and the card is not sold new there since `since`
    /// (`catalog::SUPPLY`): `cloud` = rented by Chinese clouds or bought used, `grey` = only
    /// grey-market imports or used cards (then it ranks after the cards a team can get).
    ChinaSupply { status: String, since: String },
    /// The card lacks the chosen format and runs at a fallback rate.
    NoNativePrecision { precision: String },
    /// Peak compute unknown: time cannot be estimated.
    UnknownCompute,
    /// Offloading to CPU memory: bounded by PCIe, often 1.5–3× slower.
    CpuOffload,
    /// A card named in the filter or link that the catalog does not know: left out.
    UnknownCard { id: String },
    /// Sequence longer than the model's trained context.
    BeyondContext { tokens: u32, max: u32 },
    /// A vision model with no published memory figure: its activations are model `from`'s
    /// measured ones × `scale` (domain/vision/memory.rs, `activation_basis`).
    MemoryEstimated { from: String, scale: f64 },
    /// No memory figure of the model for the job and none to borrow: the memory shown is a
    /// lower bound (domain/vision/memory.rs, `MemoryBasis::LowerBound`).
    MemoryLowerBound { from_inference: bool },
    /// The inter-server fabric would take more than half of the step time.
    FabricDominates { needed_gbit: f64, fabric_gbit: f64 },
    /// One rack of these servers draws more than the rack position allows.
    RackPowerOverLimit { rack_kw: f64, limit_kw: f64 },
    /// High-power cards in an office or workstation room.
    OfficeRoom { server_w: f64 },
    /// No published card power: power, UPS, cooling and electricity count the hosts only.
    CardPowerUnknown,
    /// Does not fit even with the most memory-saving layout tried.
    DoesNotFit { needed_gib: f64, capacity_gib: f64 },
}
