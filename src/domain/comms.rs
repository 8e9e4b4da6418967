//! Communication of one training step: which link each collective uses and how long it takes.
//! Ring collectives move 2·(n−1)/n of the bytes per GPU for an all-reduce and (n−1)/n for an
//! all-gather or a reduce-scatter (NCCL "bus bandwidth", nccl-tests/doc/PERFORMANCE.md).

use super::catalog::Gpu;
use super::memory::Layout;
use super::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// Share of a link's nominal bandwidth that NCCL collectives reach. NVLink: nccl-tests on
/// DGX A100 report ~230 GB/s bus bandwidth of 300 GB/s per direction (0.75). PCIe through the
/// host: ~0.65 of the x16 rate. Inter-server RDMA: ~0.85 of the NIC line rate.
pub const NVLINK_EFFICIENCY: f64 = 0.75;
pub const PCIE_EFFICIENCY: f64 = 0.65;
pub const FABRIC_EFFICIENCY: f64 = 0.85;
/// GeForce cards have peer-to-peer disabled: collectives are staged through host memory, which
/// halves the usable PCIe bandwidth (each byte crosses the bus twice).
pub const NO_P2P_FACTOR: f64 = 0.5;

/// How much longer compute kernels take while a collective runs beside them on the same card:
/// 18.9% on average, 40% at most (Lee et al. 2025, "Characterizing Compute-Communication
/// Overlap in GPU-Accelerated Distributed Deep Learning", arXiv 2507.03114: GPT and LLaMA
/// training on 4 A100s, H100s, MI250s and MI210s, compute time overlapped against alone).
/// NCCL runs each collective as kernels that hold SMs for its whole length (about 24 blocks for
/// an all-gather on H100) and shares HBM and L2 with the GEMMs; PyTorch's maintainers put the
/// H100 matmul slowdown at 30–40% (docs/research/2026-12-06-overlap-contention.md). Hidden
/// communication is therefore not free: see [`contended`].
pub const OVERLAP_SLOWDOWN: f64 = 0.189;

/// Seconds a step gains from `hidden_s` seconds of collectives overlapped with compute: while
/// they run, the compute advances at 1 / (1 + [`OVERLAP_SLOWDOWN`]) of its speed alone.
#[must_use]
pub fn contended(hidden_s: f64) -> f64 {
    hidden_s.max(0.0) * OVERLAP_SLOWDOWN / (1.0 + OVERLAP_SLOWDOWN)
}

/// PCIe x16 bandwidth per direction, GB/s, by generation (PCI-SIG: 8/16/32/64 GT/s per lane).
#[must_use]
pub fn pcie_x16_gb_s(gen: Option<u32>) -> f64 {
    match gen.unwrap_or(4) {
        0..=3 => 15.75,
        4 => 31.5,
        5 => 63.0,
        _ => 126.0,
    }
}

/// The fastest link between cards of one server, bytes/s per GPU per direction, and its name.
#[must_use]
pub fn intra_server(g: &Gpu) -> (f64, &'static str) {
    link_within(g, g.nvlink_domain())
}

/// The link a group of cards `span` wide inside one server uses: NVLink when the group fits in
/// the card's NVLink domain (an 8-GPU HGX board, a bridged pair), else PCIe through the host.
#[must_use]
pub fn link_within(g: &Gpu, span: u32) -> (f64, &'static str) {
    match (g.interconnect.is_fast(), g.interconnect.gb_s) {
        (true, Some(both)) if g.nvlink_domain() > 1 && span <= g.nvlink_domain() => {
            (both / 2.0 * 1e9 * NVLINK_EFFICIENCY, "nvlink")
        }
        _ => {
            let p2p = if g.segment == "consumer" { NO_P2P_FACTOR } else { 1.0 };
            let name = if p2p < 1.0 { "pcie_no_p2p" } else { "pcie" };
            (pcie_x16_gb_s(g.pcie_gen) * 1e9 * PCIE_EFFICIENCY * p2p, name)
        }
    }
}

/// The inter-server fabric at the scenario's Gb/s per GPU, bytes/s.
#[must_use]
pub fn inter_server(s: &Scenario) -> f64 {
    s.infra.fabric_gbit_per_gpu * 1e9 / 8.0 * FABRIC_EFFICIENCY
}

/// Communication seconds per training step on one GPU, by kind, and what is left exposed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StepComm {
    /// Compute seconds per step at kernel efficiency (before bubbles).
    pub compute_s: f64,
    /// Data-parallel gradient all-reduce, or ZeRO/FSDP gathers and reduce-scatters.
    pub dp_s: f64,
    /// Tensor-parallel all-reduces (critical path).
    pub tp_s: f64,
    /// Pipeline sends of activations and their gradients.
    pub pp_s: f64,
    /// MoE all-to-all (expert parallelism), critical path.
    pub ep_s: f64,
    /// Context-parallel K/V exchange (before overlap with attention).
    pub cp_s: f64,
    /// Seconds not hidden behind compute.
    pub exposed_s: f64,
    /// Seconds the compute loses to the collectives hidden behind it ([`contended`]): the
    /// data-parallel, expert all-to-all and context-parallel traffic NCCL runs beside the
    /// kernels. Transformer Engine's tensor-parallel overlap is left out: its userbuffers copy
    /// the all-gathers with the copy engines on 1 SM and give the reduce-scatters 16 SMs the
    /// GEMM is told to leave free (`get_default_config` in transformer_engine/pytorch/module/
    /// base.py), a designed low-contention path with no measured slowdown to borrow.
    #[serde(default)]
    pub contended_s: f64,
    /// `nvlink`, `pcie`, `pcie_no_p2p` or `fabric`: the slowest link the data-parallel traffic crosses.
    pub dp_link: std::borrow::Cow<'static, str>,
    /// What of the above crosses the inter-server fabric: the network sizing (infra.rs) reads
    /// these bytes, so the fabric warning and the predicted MFU come from one traffic model.
    #[serde(default)]
    pub fabric: Fabric,
}

/// Bytes one GPU sends over the inter-server fabric per training step, by parallel group (0 for
/// a group whose ranks share a server).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Fabric {
    pub dp: f64,
    pub tp: f64,
    pub pp: f64,
    pub ep: f64,
    pub cp: f64,
}

impl Fabric {
    /// All groups together.
    #[must_use]
    pub fn total(&self) -> f64 {
        self.dp + self.tp + self.pp + self.ep + self.cp
    }
}

impl StepComm {
    /// compute / (compute + exposed communication + compute lost to the hidden collectives).
    #[must_use]
    pub fn efficiency(&self) -> f64 {
        if self.compute_s > 0.0 {
            self.compute_s / (self.compute_s + self.exposed_s + self.contended_s)
        } else {
            1.0
        }
    }
}

/// What a step moves, independent of the card.
#[derive(Debug, Clone, Copy, Default)]
pub struct StepTraffic {
    /// Gradient bytes of one model shard (trainable / (tp·pp), experts / ep, × gradient width).
    pub grad_bytes: f64,
    /// Activation bytes of one micro-batch at a layer boundary on one context-parallel rank
    /// (s/cp·b·h × 2).
    pub act_bytes: f64,
    /// Transformer layers on one pipeline stage.
    pub stage_layers: f64,
    /// Micro-batches each data-parallel rank runs per step.
    pub microbatches: f64,
    /// Tensor-parallel all-reduces per layer and micro-batch: 4 (2 forward, 2 backward), 6 with
    /// full recompute (Narayanan et al. 2021, §3.2; Korthikanti et al. 2022, §5).
    pub tp_collectives: f64,
    /// Share of compute behind which data-parallel traffic can hide: the backward pass (2/3) for
    /// an all-reduce; the whole step when ZeRO-3/FSDP prefetches parameters in the forward too.
    pub overlap_window: f64,
    /// MoE layers on one stage, and the bytes one card dispatches to its experts per MoE layer and
    /// micro-batch (tokens on the card × h × 2 B × top-k). Dispatch and combine, forward and
    /// backward: four all-to-alls, (ep − 1)/ep of it leaving the card (DeepSeek-V3 report §3.2).
    pub moe_layers: f64,
    pub dispatch_bytes: f64,
    /// Share of those MoE layers whose forward full recompute runs again in the backward pass:
    /// each repeats its dispatch and combine, two more all-to-alls (as the recomputed forward
    /// repeats its tensor-parallel all-reduces).
    pub moe_recomputed: f64,
    /// Context parallelism (ring attention): K and V of one micro-batch's sequence per layer,
    /// s·b·2·kv_width × 2 B; forward passes it once round the ring, backward twice (K/V and
    /// their gradients); it hides behind the attention compute of the same layer.
    pub kv_bytes: f64,
    /// Attention-score compute seconds of one step on one card (what ring attention overlaps).
    pub attention_s: f64,
}

/// Seconds of communication per step for `layout` on card `g`. Ranks are ordered tp-cp-ep-dp-pp
/// (Megatron-Core): a group whose ranks fit in one server talks over the server's link, else over
/// the fabric.
#[must_use]
pub fn step_comm(s: &Scenario, g: &Gpu, l: &Layout, x: &StepTraffic, compute_s: f64) -> StepComm {
    let per_server = s.parallel.gpus_per_server.max(1);
    let inter = inter_server(s);
    let (tp, pp, dp, cp, ep) = (l.tp.max(1), l.pp.max(1), l.dp.max(1), l.cp.max(1), l.ep.max(1));
    // A group `span` cards wide: inside one server over NVLink (when it fits the domain) or
    // PCIe, else over the fabric.
    let crosses = |span: u32| span > per_server;
    let link = |span: u32| if crosses(span) { inter } else { link_within(g, span).0 };
    let mut fabric = Fabric::default();
    // Gradients are reduced over the dp·cp ranks, tp apart. k of them share a server; the rest
    // cross the fabric (hierarchical: reduce inside the server, then each GPU's own NIC carries
    // 1/k of the bytes).
    let n = dp * cp;
    let k = (per_server / tp.min(per_server)).clamp(1, n);
    let nodes = f64::from(n.div_ceil(k));
    let kf = f64::from(k);
    // ZeRO-3 / FSDP: all-gather forward, all-gather backward, reduce-scatter = 1.5× an all-reduce
    // (Rajbhandari et al. 2019, §7.2.2).
    let volume = if l.zero >= 3 { 3.0 } else { 2.0 };
    let (intra, intra_name) = link_within(g, k * tp);
    let mut dp_s = 0.0;
    // A name, not an allocation: this runs for every layout the search prices.
    let mut dp_link = std::borrow::Cow::Borrowed(intra_name);
    if n > 1 {
        dp_s = volume * (kf - 1.0) / kf * x.grad_bytes / intra;
        if nodes > 1.0 {
            let bytes = volume * (nodes - 1.0) / nodes * x.grad_bytes / kf;
            fabric.dp = bytes;
            dp_s += bytes / inter;
            dp_link = std::borrow::Cow::Borrowed("fabric");
        }
    }
    // MoE all-to-alls. The group's ranks are tp·cp apart: `near` of them (itself included) share
    // a server. An all-to-all posts a send to every peer at once (NCCL's grouped send/recv), so
    // the tokens for peers in the server cross its link while those for the rest cross the NIC,
    // side by side: the slower of the two sets the time, and only the latter loads the fabric.
    let ep_s = if ep > 1 {
        let e = f64::from(ep);
        let passes = 4.0 + 2.0 * x.moe_recomputed;
        let sent = passes * x.moe_layers * x.microbatches * x.dispatch_bytes * (e - 1.0) / e;
        // The group's ranks are tp·cp apart, or neighbours when folded over tp·cp·dp.
        let stride = l.expert_span() / ep;
        let near = (per_server / stride.min(per_server)).clamp(1, ep);
        let remote = sent * f64::from(ep - near) / (e - 1.0);
        fabric.ep = remote;
        (remote / inter).max((sent - remote) / link(near * stride))
    } else {
        0.0
    };
    // Bytes each card sends for a group `span` cards wide, and their seconds on its link.
    let mut over = |bytes: f64, span: u32, slot: fn(&mut Fabric) -> &mut f64| {
        if crosses(span) {
            *slot(&mut fabric) += bytes;
        }
        bytes / link(span)
    };
    let tp_s = if tp > 1 {
        let t = f64::from(tp);
        let bytes = x.stage_layers * x.microbatches * x.tp_collectives * 2.0 * (t - 1.0) / t * x.act_bytes;
        over(bytes, tp, |f| &mut f.tp)
    } else {
        0.0
    };
    // Sequence parallelism scatters each send over the tensor-parallel ranks.
    let pp_s =
        if pp > 1 { over(2.0 * x.microbatches * x.act_bytes / f64::from(tp), l.gpus(), |f| &mut f.pp) } else { 0.0 };
    let cp_s = if cp > 1 {
        let c = f64::from(cp);
        over(3.0 * x.stage_layers * x.microbatches * x.kv_bytes * (c - 1.0) / c, tp * cp, |f| &mut f.cp)
    } else {
        0.0
    };
    let window = if s.training.conventions.overlap_grad_reduce { x.overlap_window * compute_s } else { 0.0 };
    // Overlapped TP collectives hide behind the layer's GEMMs: only what exceeds the compute shows.
    let tp_exposed =
        if s.training.conventions.overlap_tp_comm && l.tp > 1 { (tp_s - compute_s).max(0.0) } else { tp_s };
    // Overlapped all-to-alls hide behind the other micro-batch's compute.
    let ep_exposed = if s.training.conventions.overlap_moe_comm { (ep_s - compute_s).max(0.0) } else { ep_s };
    let exposed_s = tp_exposed + pp_s + ep_exposed + (cp_s - x.attention_s).max(0.0) + (dp_s - window).max(0.0);
    let contended_s = contended(dp_s.min(window) + (ep_s - ep_exposed) + cp_s.min(x.attention_s));
    StepComm { compute_s, dp_s, tp_s, pp_s, ep_s, cp_s, exposed_s, contended_s, dp_link, fabric }
}
