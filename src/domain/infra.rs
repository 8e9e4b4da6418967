//! Around the cards: checkpoint and dataset storage, inter-server network, power and cooling.

use super::catalog::{CardPower, Gpu};
use super::memory;
use super::model::ModelSpec;
use super::scenario::{Precision, Scenario, Task};
use super::units::GB;
use super::verdict::CardVerdict;
use super::verdict::Warning;
use serde::{Deserialize, Serialize};

/// Watts → BTU per hour (1 W = 3.412 14 BTU/h) and kW per ton of refrigeration (3.516 85).
pub const BTU_PER_WH: f64 = 3.412_14;
pub const KW_PER_TON: f64 = 3.516_85;

/// Checkpoint bytes: `weights` = the 16-bit model (what inference loads); `full` = what resuming
/// needs: 16-bit weights + fp32 master weights + optimizer states (Megatron/DeepSpeed save
/// 2 + 4 + 8 = 14 bytes per parameter for mixed-precision AdamW). LoRA saves only the adapters.
#[must_use]
pub fn checkpoint_bytes(m: &ModelSpec, s: &Scenario) -> (f64, f64) {
    let p = m.params();
    match s.task {
        Task::Lora | Task::Qlora => {
            let a = memory::lora_params(m, s.lora.rank, s.lora.targets);
            (
                4.0 * a,
                (4.0 + memory::optimizer_bytes(s.training.optimizer, m, s.training.conventions.optimizer_state)) * a,
            )
        }
        _ => {
            let wb = s.precision.bytes();
            let mixed = !matches!(s.precision, Precision::Fp32 | Precision::Tf32) && s.training.master_weights;
            let master = if mixed { 4.0 } else { 0.0 };
            let opt = memory::optimizer_bytes(s.training.optimizer, m, s.training.conventions.optimizer_state);
            (wb * p.total, (wb + master + opt) * p.total)
        }
    }
}

/// Inter-server traffic of one training step against the fabric: the bytes the time model's
/// communication term sends over it (`comms::step_comm`), so this sizing and the predicted MFU
/// cannot disagree.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Network {
    pub step_s: f64,
    /// Bytes each GPU sends over the fabric per step, by group: data-parallel gradients (ring
    /// all-reduce 2(n−1)/n of its server's share, ×1.5 with ZeRO-3's parameter gathers),
    /// tensor/context-parallel traffic of groups wider than a server, pipeline activations, MoE
    /// token exchange.
    pub bytes: super::comms::Fabric,
    /// Gb/s per GPU needed to move that within one step.
    pub needed_gbit: f64,
    pub fabric_gbit: f64,
    /// Communication time / compute time at the chosen fabric (> 0.5: cannot be hidden).
    pub comm_share: f64,
}

/// Watts, PSU, UPS and heat for the plan's servers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Power {
    /// Watts per card counted below (0 when unknown).
    pub card_w: f64,
    /// How the card's power is known: published, estimated from a server figure, or unknown.
    pub card_power: CardPower,
    pub cards_per_server: u32,
    pub servers: u32,
    /// Cards × TDP + host, per server.
    pub server_w: f64,
    pub racks: u32,
    pub rack_w: f64,
    /// All servers, IT load.
    pub it_kw: f64,
    /// PSU capacity per server: 1.25 × peak draw (power supplies run best below ~80% load).
    pub psu_w: f64,
    /// UPS: IT load / 0.9 power factor × 1.25 headroom.
    pub ups_kva: f64,
    pub heat_btu_h: f64,
    pub cooling_tons: f64,
    /// IT load × PUE.
    pub facility_kw: f64,
}

/// Storage, network and power for one card's plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InfraReport {
    pub gpu: String,
    pub checkpoint_weights: f64,
    pub checkpoint_full: f64,
    pub dataset: f64,
    /// Kept full checkpoints + final weights + dataset.
    pub storage: f64,
    /// Seconds to write one full checkpoint at the storage bandwidth.
    pub checkpoint_write_s: f64,
    /// Share of run time spent writing checkpoints (synchronous saves).
    pub checkpoint_overhead: f64,
    pub network: Option<Network>,
    pub power: Power,
    /// Owned storage cost and rented storage per month, scenario currency.
    pub storage_own_cost: f64,
    pub storage_rent_month: f64,
    pub warnings: Vec<Warning>,
}

fn infra_warnings(s: &Scenario, net: &Option<Network>, p: &Power, g: &Gpu) -> Vec<Warning> {
    let mut w = Vec::new();
    if let Some(n) = net.filter(|n| n.comm_share > 0.5) {
        w.push(Warning::FabricDominates { needed_gbit: n.needed_gbit, fabric_gbit: n.fabric_gbit });
    }
    if p.rack_w / 1000.0 > s.infra.rack_kw_limit {
        w.push(Warning::RackPowerOverLimit { rack_kw: p.rack_w / 1000.0, limit_kw: s.infra.rack_kw_limit });
    }
    // An office or workstation room: a 16 A / 220 V circuit is ~3.5 kW and comfort AC is not sized
    // for a constant kilowatt-scale heat load.
    if s.infra.room == "office" && (p.server_w > 1_500.0 || g.power().watts() >= 450.0) {
        w.push(Warning::OfficeRoom { server_w: p.server_w });
    }
    if p.card_power == CardPower::Unknown {
        w.push(Warning::CardPowerUnknown);
    }
    w
}

fn network(s: &Scenario, v: &CardVerdict) -> Option<Network> {
    let hours = v.hours?;
    if !s.task.is_training() || v.servers <= 1 {
        return None;
    }
    let bytes = v.utilisation.as_ref()?.comm.fabric;
    let t = &s.training;
    let tokens_per_step = f64::from(t.global_batch) * f64::from(t.seq_len);
    let step_s = hours * 3600.0 / (t.tokens / tokens_per_step).max(1.0);
    let needed_gbit = bytes.total() * 8.0 / 1e9 / step_s;
    let fabric = s.infra.fabric_gbit_per_gpu;
    Some(Network { step_s, bytes, needed_gbit, fabric_gbit: fabric, comm_share: needed_gbit / fabric })
}

/// Power and cooling sums for `cards` of `g`.
#[must_use]
pub fn power(s: &Scenario, g: &Gpu, cards: u32) -> Power {
    // The machine the cards go in: the purchase profile's (host.rs), as the costs count it.
    let h = super::host::host(s, g, cards);
    let per_server = h.cards_per_host.max(1).min(cards.max(1));
    let servers = cards.div_ceil(h.cards_per_host.max(1)).max(1);
    let card_power = g.power();
    let card_w = card_power.watts();
    let server_w = f64::from(per_server) * card_w + h.watts;
    let it_w = f64::from(cards) * card_w + f64::from(servers) * h.watts;
    let per_rack = s.infra.servers_per_rack.max(1);
    Power {
        card_w,
        card_power,
        cards_per_server: per_server,
        servers,
        server_w,
        racks: servers.div_ceil(per_rack),
        rack_w: f64::from(per_rack.min(servers)) * server_w,
        it_kw: it_w / 1000.0,
        psu_w: (server_w * 1.25 / 100.0).ceil() * 100.0,
        ups_kva: it_w / 1000.0 / 0.9 * 1.25,
        heat_btu_h: it_w * BTU_PER_WH,
        cooling_tons: it_w / 1000.0 / KW_PER_TON,
        facility_kw: it_w / 1000.0 * s.ownership.pue,
    }
}

/// Bytes kept on disk: the kept full checkpoints + final weights + the tokenized dataset
/// (serving keeps the weights only).
#[must_use]
pub fn storage_bytes(m: &ModelSpec, s: &Scenario) -> f64 {
    let (weights, full) = checkpoint_bytes(m, s);
    if s.task.is_training() {
        f64::from(s.infra.checkpoints_kept) * full + weights + s.training.tokens * s.infra.dataset_bytes_per_token
    } else {
        weights
    }
}

/// Storage cost in the scenario currency: (owned, up front; rented, per month).
#[must_use]
pub fn storage_costs(m: &ModelSpec, s: &Scenario) -> (f64, f64) {
    let cur = s.ownership.currency.code();
    let tb = storage_bytes(m, s) / 1e12;
    (
        super::pricing::convert(s, tb * s.infra.storage_price_per_tb, cur),
        super::pricing::convert(s, tb * s.infra.storage_rent_per_tb_month, cur),
    )
}

/// Storage, network and power for a card's plan.
#[must_use]
pub fn infra(m: &ModelSpec, s: &Scenario, g: &Gpu, v: &CardVerdict) -> InfraReport {
    let (weights, full) = checkpoint_bytes(m, s);
    let dataset = if s.task.is_training() { s.training.tokens * s.infra.dataset_bytes_per_token } else { 0.0 };
    let storage = storage_bytes(m, s);
    let (storage_own_cost, storage_rent_month) = storage_costs(m, s);
    let write_s = full / (s.infra.storage_gb_s * GB);
    let overhead = if s.task.is_training() { (write_s / 3600.0) / s.infra.checkpoint_every_hours } else { 0.0 };
    let network = network(s, v);
    let power = power(s, g, v.gpus);
    let warnings = infra_warnings(s, &network, &power, g);
    InfraReport {
        gpu: g.id.clone(),
        checkpoint_weights: weights,
        checkpoint_full: full,
        dataset,
        storage,
        checkpoint_write_s: write_s,
        checkpoint_overhead: overhead,
        network,
        power,
        storage_own_cost,
        storage_rent_month,
        warnings,
    }
}
