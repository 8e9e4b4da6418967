//! The time model sees the wires: NCCL's ring arithmetic, PCIe against NVLink, a slower fabric,
//! and the seeds' warning that PCIe training beyond 8 cards loses much of the gain.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::{assert_close, report};
use gpu_planner::domain::catalog::Interconnect;
use gpu_planner::domain::comms::{inter_server, intra_server, step_comm, StepTraffic, NVLINK_EFFICIENCY};
use gpu_planner::domain::memory::Layout;
use gpu_planner::domain::scenario::{CardFilter, Parallel, Recompute, Task, Training};
use gpu_planner::domain::{Catalog, Gpu, Scenario};

fn card(id: &str) -> Gpu {
    Catalog::embedded().gpu(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

fn traffic(grad_bytes: f64) -> StepTraffic {
    StepTraffic {
        grad_bytes,
        act_bytes: 0.0,
        stage_layers: 1.0,
        microbatches: 1.0,
        tp_collectives: 4.0,
        overlap_window: 0.0,
        ..StepTraffic::default()
    }
}

/// NCCL (nccl-tests PERFORMANCE.md): an all-reduce over n ranks moves 2·(n−1)/n of the bytes
/// per rank at the bus bandwidth. A100 SXM4: NVLink 600 GB/s both directions = 300 GB/s each way.
#[test]
fn ring_all_reduce_inside_one_server_follows_nccl_bus_bandwidth() {
    let g = card("a100-80gb-sxm4");
    let (bw, link) = intra_server(&g);
    assert_eq!(link, "nvlink");
    assert_close(bw, 300e9 * NVLINK_EFFICIENCY, 1e-12);
    let s = Scenario::default();
    let l = Layout { dp: 8, ..Layout::single() };
    let c = step_comm(&s, &g, &l, &traffic(1e9), 1.0);
    assert_close(c.dp_s, 2.0 * 7.0 / 8.0 * 1e9 / bw, 1e-12);
    // ZeRO-3: two all-gathers and a reduce-scatter, 1.5× (Rajbhandari et al. 2019, §7.2.2).
    let z3 = step_comm(&s, &g, &Layout { zero: 3, ..l }, &traffic(1e9), 1.0);
    assert_close(z3.dp_s, 1.5 * c.dp_s, 1e-12);
}

/// A fine-tune with a modest batch (one 2,048-token sequence per card per step), where each
/// step's compute is short enough for the gradient traffic to matter.
fn finetune_on(gpu: Gpu, gpus: u32) -> Scenario {
    Scenario {
        task: Task::FullFinetune,
        model: "qwen2.5-7b".into(),
        training: Training { seq_len: 2048, micro_batch: 1, global_batch: gpus, ..Training::default() },
        parallel: Parallel {
            auto: false,
            gpus,
            tp: 1,
            pp: 1,
            zero: 3,
            recompute: Recompute::Full,
            ..Parallel::default()
        },
        cards: CardFilter { only: vec![gpu.id.clone()], ..CardFilter::default() },
        custom_gpus: if Catalog::embedded().gpu(&gpu.id).is_none() { vec![gpu] } else { Vec::new() },
        ..Scenario::default()
    }
}

#[test]
fn the_same_card_over_pcie_is_visibly_slower_than_over_nvlink() {
    let nvlink = card("a100-80gb-sxm4");
    let pcie = Gpu {
        id: "a100-over-pcie".into(),
        interconnect: Interconnect { kind: "pcie".into(), gb_s: None, domain: Some(1) },
        ..nvlink.clone()
    };
    let fast = report(&finetune_on(nvlink, 8)).cards[0].clone();
    let slow = report(&finetune_on(pcie, 8)).cards[0].clone();
    let (hf, hs) = (fast.hours.unwrap_or(f64::NAN), slow.hours.unwrap_or(f64::NAN));
    println!("8 × A100 ZeRO-3: NVLink {hf:.1} h (MFU {:.3}), PCIe {hs:.1} h (MFU {:.3})", fast.mfu, slow.mfu);
    assert!(hs > 1.1 * hf, "PCIe {hs} vs NVLink {hf}");
    let comm = |v: &gpu_planner::domain::CardVerdict| v.utilisation.as_ref().map_or(1.0, |u| u.communication);
    assert!(comm(&slow) < comm(&fast));
}

#[test]
fn a_multi_server_run_slows_on_a_slower_fabric() {
    let mut s = finetune_on(card("a100-80gb-sxm4"), 32);
    s.infra.fabric_gbit_per_gpu = 400.0;
    let fast = report(&s).cards[0].hours.unwrap_or(f64::NAN);
    s.infra.fabric_gbit_per_gpu = 25.0;
    let slow = report(&s).cards[0].hours.unwrap_or(f64::NAN);
    println!("32 × A100 (4 servers): 400 Gb/s {fast:.2} h, 25 Gb/s {slow:.2} h");
    assert!(slow > 1.2 * fast, "{slow} vs {fast}");
}

/// The seeds: PCIe cards beyond one 8-card server lose much of the gain to communication. Going
/// from 8 to 16 RTX 4090s (two servers, 25 Gb/s Ethernet) must not come close to halving the time.
#[test]
fn pcie_training_beyond_8_cards_loses_much_of_the_gain() {
    let mut s = finetune_on(card("rtx-4090"), 8);
    s.model = "qwen2.5-7b".into();
    s.infra.fabric_gbit_per_gpu = 25.0;
    s.training.global_batch = 16;
    // ZeRO-3 over 8 cards fills ~96% of a 24 GB card: the comparison is of time, not of margin.
    s.parallel.memory_headroom = 0.0;
    let h8 = report(&s).cards[0].hours.unwrap_or(f64::NAN);
    s.parallel.gpus = 16;
    let h16 = report(&s).cards[0].hours.unwrap_or(f64::NAN);
    println!("RTX 4090 ZeRO-3: 8 cards {h8:.1} h, 16 cards {h16:.1} h (speed-up {:.2}×)", h8 / h16);
    assert!(h8 / h16 < 1.3, "speed-up {}", h8 / h16);
}

/// PCI-SIG: a x16 link carries 15.75 / 31.5 / 63 GB/s per direction at 8 / 16 / 32 GT/s
/// (PCIe 3.0 / 4.0 / 5.0, 128b/130b encoding).
#[test]
fn pcie_x16_bandwidth_by_generation() {
    use gpu_planner::domain::comms::pcie_x16_gb_s;
    assert_close(pcie_x16_gb_s(Some(3)), 15.75, 1e-9);
    assert_close(pcie_x16_gb_s(Some(4)), 31.5, 1e-9);
    assert_close(pcie_x16_gb_s(Some(5)), 63.0, 1e-9);
    assert_close(pcie_x16_gb_s(Some(6)), 126.0, 1e-9);
}

/// The link each card's collectives use: GeForce cards have peer-to-peer disabled (staged
/// through host memory: half the PCIe rate), datacenter PCIe cards talk over PCIe, a card with
/// NVLink but no multi-card domain talks over PCIe too.
#[test]
fn the_server_link_of_pcie_geforce_and_single_nvlink_cards() {
    use gpu_planner::domain::comms::{NO_P2P_FACTOR, PCIE_EFFICIENCY};
    let (bw, link) = intra_server(&card("rtx-4090"));
    assert_eq!(link, "pcie_no_p2p");
    assert_close(bw, 31.5e9 * PCIE_EFFICIENCY * NO_P2P_FACTOR, 1e-12);
    let (bw, link) = intra_server(&card("l40s"));
    assert_eq!(link, "pcie");
    assert_close(bw, 31.5e9 * PCIE_EFFICIENCY, 1e-12);
    let lone = Gpu {
        interconnect: Interconnect { kind: "nvlink".into(), gb_s: Some(600.0), domain: Some(1) },
        ..card("l40s")
    };
    assert_eq!(intra_server(&lone).1, "pcie");
}

/// A bridged pair (H100 PCIe with its NVLink bridge) talks over NVLink only inside the pair:
/// an 8-card ring crosses PCIe.
#[test]
fn a_bridged_pair_uses_nvlink_only_inside_the_pair() {
    use gpu_planner::domain::comms::link_within;
    let g = card("h100-pcie");
    assert_eq!(link_within(&g, 2).1, "nvlink");
    assert_eq!(link_within(&g, 8).1, "pcie");
    let s = Scenario::default();
    let pair = step_comm(&s, &g, &Layout { dp: 2, ..Layout::single() }, &traffic(1e9), 1.0);
    let eight = step_comm(&s, &g, &Layout { dp: 8, ..Layout::single() }, &traffic(1e9), 1.0);
    assert_eq!(pair.dp_link, "nvlink");
    assert_eq!(eight.dp_link, "pcie");
    assert!(eight.dp_s > 3.0 * pair.dp_s);
}

/// Tensor-parallel collectives: 4 all-reduces per layer and micro-batch, each 2·(t−1)/t of the
/// activation bytes at the link's bus bandwidth (Narayanan et al. 2021, §3.2). Without overlap
/// they sit on the critical path; with Megatron-Core's `tp_comm_overlap` (NeMo user guide,
/// "Communication Overlap") they hide behind the layer's GEMMs, and only what outlasts the
/// compute shows.
#[test]
fn tensor_parallel_traffic_is_exposed_unless_the_framework_overlaps_it() {
    let g = card("h100-sxm");
    let (bw, _) = intra_server(&g);
    let l = Layout { tp: 4, ..Layout::single() };
    let x = StepTraffic { act_bytes: 1e8, stage_layers: 10.0, ..traffic(0.0) };
    let mut s = Scenario::default();
    let plain = step_comm(&s, &g, &l, &x, 1.0);
    let tp_s = 10.0 * 4.0 * 2.0 * 3.0 / 4.0 * 1e8 / bw;
    assert_close(plain.tp_s, tp_s, 1e-12);
    assert_close(plain.exposed_s, tp_s, 1e-12);
    s.training.conventions.overlap_tp_comm = true;
    let hidden = step_comm(&s, &g, &l, &x, 1.0);
    assert_close(hidden.tp_s, tp_s, 1e-12);
    assert!(hidden.exposed_s.abs() < 1e-15, "{hidden:?}");
    // Compute shorter than the traffic: the excess stays exposed.
    let short = step_comm(&s, &g, &l, &x, tp_s / 4.0);
    assert_close(short.exposed_s, tp_s * 0.75, 1e-12);
}

/// Context parallelism splits the sequence before the layers, so each rank's tensor-parallel
/// all-reduces carry s/cp tokens. Llama 3 405B at 131,072 tokens, TP 8 · CP 16 · PP 16 · DP 4
/// (Dubey et al. 2024, Table 4): 16M tokens per step at a published 380 TFLOP/s per GPU over
/// the 8,192 GPUs the degrees multiply to, so a step lasts FLOPs / (8,192 · 380e12) ≈ 30 s
/// (6N plus the 12·L·h·s attention term, PaLM's count, which Table 4's MFU uses). Megatron-Core
/// with sequence parallelism and TP overlap runs that; TP traffic cannot take a large share of
/// it. Charged for the whole sequence (the old bug), the TP all-reduces alone took ~17 s.
#[test]
fn tensor_parallel_traffic_carries_one_context_parallel_share_of_the_sequence() {
    use gpu_planner::domain::accuracy::{cases, scenario};
    use gpu_planner::domain::compute::{mfu, training_flops};
    let case = cases().iter().find(|c| c.id == "llama3-405b-128k-cp16-mfu").expect("the Table 4 row");
    let s = scenario(case).expect("scenario");
    let layout = case.layout.expect("layout");
    let m = s.model_spec().expect("model");
    let g = card("h100-sxm");
    let tokens_step = f64::from(s.training.global_batch) * f64::from(s.training.seq_len);
    let published_step_s = training_flops(m, s.task, s.training.seq_len, tokens_step, true) / (8192.0 * 380e12);
    assert!((25.0..40.0).contains(&published_step_s), "{published_step_s}");
    let u = mfu(m, &s, &g, &layout).expect("mfu");
    assert!(u.comm.tp_s < 0.1 * published_step_s, "TP {} s of a {published_step_s} s step", u.comm.tp_s);
    // The same layout without CP carries 16× the bytes per rank: the split is the whole difference.
    let s1 = Scenario {
        training: Training { seq_len: 131_072 / 16, global_batch: 128 * 16, ..s.training.clone() },
        ..s.clone()
    };
    let u1 = mfu(m, &s1, &g, &Layout { cp: 1, dp: 64, ..layout }).expect("mfu");
    assert_close(u.comm.tp_s, u1.comm.tp_s, 1e-9);
}

/// DeepSeek-V3 (DeepSeek-AI 2024, §3.2.1) on 2,048 H800s, PP 16 and EP 64 over 8 nodes: "the
/// computation-to-communication ratio is approximately 1:1" for the cross-node expert
/// all-to-all, which DualPipe then hides: "both all-to-all and PP communication can be fully
/// hidden". The engine's all-to-all per step is of the order of the compute, and with the
/// overlap switch it no longer shows.
#[test]
fn deepseek_v3s_all_to_all_is_about_its_compute_and_dualpipe_hides_it() {
    use gpu_planner::domain::accuracy::{cases, scenario};
    use gpu_planner::domain::compute::mfu;
    let case = cases().iter().find(|c| c.id == "deepseek-v3-pretrain-gpu-hours").expect("row");
    let mut s = scenario(case).expect("scenario");
    let layout = case.layout.expect("layout");
    let g = card("h800-sxm");
    let m = s.model_spec().expect("model").clone();
    let plain = mfu(&m, &s, &g, &layout).expect("mfu").comm;
    let ratio = plain.ep_s / plain.compute_s;
    assert!((0.5..2.0).contains(&ratio), "all-to-all / compute = {ratio}");
    s.training.conventions.overlap_moe_comm = true;
    let hidden = mfu(&m, &s, &g, &layout).expect("mfu").comm;
    assert!(hidden.exposed_s < plain.exposed_s - 0.5 * plain.ep_s, "{} vs {}", hidden.exposed_s, plain.exposed_s);
    assert!(hidden.exposed_s >= plain.exposed_s - plain.ep_s - 1e-9);
}

/// What crosses the fabric, worked by hand for 8-card servers. DP 32 × TP 4: two TP groups per
/// server, so each all-reduce is reduced inside the server over k = 2 ranks and then over
/// 16 servers, each GPU's NIC carrying 1/k of it: 2 · 15/16 · G / 2 (×1.5 under ZeRO-3). TP 16
/// spans two servers: every TP all-reduce crosses, 4 per layer and micro-batch (6 with full
/// recompute) · 2 · 15/16 of the activation. PP: 2 sends per micro-batch of act/tp when the
/// layout spans servers. The seconds are those bytes at the fabric's rate.
#[test]
fn the_fabric_bytes_are_the_time_models_own() {
    let g = card("h100-sxm");
    let s = Scenario::default();
    let (grad, act) = (1e9, 8e6);
    let x = StepTraffic { act_bytes: act, stage_layers: 10.0, microbatches: 4.0, ..traffic(grad) };
    let dp = step_comm(&s, &g, &Layout { dp: 32, tp: 4, ..Layout::single() }, &x, 1.0);
    assert_close(dp.fabric.dp, 2.0 * 15.0 / 16.0 * grad / 2.0, 1e-12);
    assert_close(dp.fabric.total(), dp.fabric.dp, 1e-12);
    let z3 = step_comm(&s, &g, &Layout { dp: 32, tp: 4, zero: 3, ..Layout::single() }, &x, 1.0);
    assert_close(z3.fabric.dp, 1.5 * dp.fabric.dp, 1e-12);
    let tp = step_comm(&s, &g, &Layout { tp: 16, ..Layout::single() }, &x, 1.0);
    let tp_bytes = 10.0 * 4.0 * 4.0 * 2.0 * 15.0 / 16.0 * act;
    assert_close(tp.fabric.tp, tp_bytes, 1e-12);
    assert_close(tp.tp_s, tp_bytes / inter_server(&s), 1e-12);
    let pp = step_comm(&s, &g, &Layout { tp: 4, pp: 4, ..Layout::single() }, &x, 1.0);
    assert_close(pp.fabric.pp, 2.0 * 4.0 * act / 4.0, 1e-12);
    assert_close(pp.fabric.tp, 0.0, 1e-12); // TP 4 stays inside its server
                                            // One server: nothing crosses.
    let one = step_comm(&s, &g, &Layout { dp: 2, tp: 4, ..Layout::single() }, &x, 1.0);
    assert_close(one.fabric.total(), 0.0, 1e-12);
}

/// Ring attention (context parallelism) worked by hand: each layer and micro-batch passes K and V
/// once round the ring forward and twice backward, (c − 1)/c of them leaving the card. TP 4 × CP 4
/// spans 16 cards, two 8-card servers, so the ring crosses the fabric; TP 2 × CP 2 stays inside
/// one server on NVLink. With no attention compute to hide behind, all of it is exposed.
#[test]
fn the_context_parallel_ring_worked_by_hand() {
    use gpu_planner::domain::comms::link_within;
    let g = card("h100-sxm");
    let s = Scenario::default();
    let kv = 4e6;
    let x = StepTraffic { kv_bytes: kv, stage_layers: 10.0, microbatches: 2.0, ..traffic(0.0) };
    let wide = step_comm(&s, &g, &Layout { tp: 4, cp: 4, ..Layout::single() }, &x, 1.0);
    let bytes = 3.0 * 10.0 * 2.0 * kv * 3.0 / 4.0;
    assert_close(wide.fabric.cp, bytes, 1e-12);
    assert_close(wide.cp_s, bytes / inter_server(&s), 1e-12);
    assert_close(wide.exposed_s, wide.cp_s, 1e-12);
    let narrow = step_comm(&s, &g, &Layout { tp: 2, cp: 2, ..Layout::single() }, &x, 1.0);
    assert_close(narrow.fabric.cp, 0.0, 1e-12);
    assert_close(narrow.cp_s, 3.0 * 10.0 * 2.0 * kv / 2.0 / link_within(&g, 4).0, 1e-12);
}

/// Overlapped expert all-to-alls (DualPipe, 1F1B overlap) hide behind the other micro-batch's
/// compute: what outlasts the compute stays exposed, and nothing shows when the compute is longer.
/// EP 4 inside one server: 4 all-to-alls per MoE layer and micro-batch, 3/4 of the dispatch leaving.
#[test]
fn overlapped_expert_traffic_shows_only_what_outlasts_the_compute() {
    use gpu_planner::domain::comms::link_within;
    let g = card("h100-sxm");
    let mut s = Scenario::default();
    s.training.conventions.overlap_moe_comm = true;
    let x = StepTraffic { moe_layers: 8.0, dispatch_bytes: 5e7, microbatches: 2.0, ..traffic(0.0) };
    let l = Layout { ep: 4, ..Layout::single() };
    let ep_s = 4.0 * 8.0 * 2.0 * 5e7 * 3.0 / 4.0 / link_within(&g, 4).0;
    let short = step_comm(&s, &g, &l, &x, ep_s / 4.0);
    assert_close(short.ep_s, ep_s, 1e-12);
    assert_close(short.exposed_s, 0.75 * ep_s, 1e-12);
    let long = step_comm(&s, &g, &l, &x, 2.0 * ep_s);
    assert!(long.exposed_s.abs() < 1e-15, "{long:?}");
}

/// Full recompute re-runs each recomputed layer's forward in the backward pass, MoE dispatch and
/// combine included: six all-to-alls per MoE layer and micro-batch instead of four, as the
/// recomputed forward repeats its tensor-parallel all-reduces (Korthikanti et al. 2022, §5).
/// Qwen3-30B-A3B at 4K on 16 H100s, PP 2 × EP 8 (the layout of MindSpeed-LLM's script, which
/// recomputes every layer: `--recompute-granularity full --recompute-method uniform
/// --recompute-num-layers 1`) sends 1.5× the selective plan's all-to-all bytes; with 12 of the
/// 24 layers each stage holds recomputed (Megatron's `block` method), 5/4 of them.
#[test]
fn full_recompute_repeats_the_recomputed_layers_all_to_alls() {
    use gpu_planner::domain::compute::mfu;
    let mut s = Scenario { model: "qwen3-30b-a3b".into(), task: Task::Pretrain, ..Scenario::default() };
    s.training.seq_len = 4096;
    s.training.micro_batch = 1;
    s.training.global_batch = 256;
    let m = s.model_spec().expect("model").clone();
    let g = card("h100-sxm");
    let layout = Layout { pp: 2, dp: 8, ep: 8, recompute: Recompute::Full, ..Layout::single() };
    let full = mfu(&m, &s, &g, &layout).expect("mfu").comm;
    let none = mfu(&m, &s, &g, &Layout { recompute: Recompute::Selective, ..layout }).expect("mfu").comm;
    assert!(none.ep_s > 0.0);
    assert_close(full.ep_s, 1.5 * none.ep_s, 1e-9);
    // A stated layout (not the auto-plan) recomputes the stated number of layers.
    let half = Scenario { parallel: Parallel { recompute_layers: 12, auto: false, ..s.parallel.clone() }, ..s.clone() };
    let part = mfu(&m, &half, &g, &layout).expect("mfu").comm;
    assert_close(part.ep_s, 1.25 * none.ep_s, 1e-9);
}

/// The data-parallel ring runs over ranks TP apart: with a bridged pair (H100 PCIe) and TP 2,
/// the four DP ranks of a server sit on four different pairs, so the ring crosses PCIe although
/// each TP group talks over its bridge.
#[test]
fn the_data_parallel_ring_spans_the_tensor_parallel_stride() {
    use gpu_planner::domain::comms::link_within;
    let g = card("h100-pcie");
    let s = Scenario::default();
    let c = step_comm(&s, &g, &Layout { dp: 4, tp: 2, ..Layout::single() }, &traffic(1e9), 1.0);
    assert_eq!(c.dp_link, "pcie");
    assert_close(c.dp_s, 2.0 * 3.0 / 4.0 * 1e9 / link_within(&g, 8).0, 1e-12);
}

/// The fabric total is every group's bytes; efficiency is compute over compute plus exposure
/// plus contention, and a step with nothing to do is not a 0/0.
#[test]
fn fabric_total_and_efficiency() {
    use gpu_planner::domain::comms::{Fabric, StepComm};
    let f = Fabric { dp: 1.0, tp: 2.0, pp: 4.0, ep: 8.0, cp: 16.0 };
    assert_close(f.total(), 31.0, 1e-15);
    let c = StepComm { compute_s: 3.0, exposed_s: 1.0, ..StepComm::default() };
    assert_close(c.efficiency(), 0.75, 1e-15);
    let c = StepComm { compute_s: 3.0, exposed_s: 0.5, contended_s: 0.5, ..StepComm::default() };
    assert_close(c.efficiency(), 0.75, 1e-15);
    assert_close(StepComm::default().efficiency(), 1.0, 1e-15);
}

/// A fabric whose bandwidth is not published is timed over PCIe, and the card's row says so
/// wherever its cards talk: 8 Ascend 910B2 fine-tuning a 7B (HCCS, bandwidth null in the
/// catalog) warn and run their data-parallel all-reduce over PCIe; the 910B3 (HCCS 392 GB/s)
/// neither warns nor leaves the fabric; one card talks to nobody; a serving replica of one card
/// neither.
#[test]
fn a_fabric_of_unpublished_bandwidth_is_timed_as_pcie_and_says_so() {
    use gpu_planner::domain::verdict::Warning;
    let on = |gpu: &str, task: Task, gpus: u32| {
        let s = Scenario {
            model: "qwen2.5-7b".into(),
            task,
            cards: CardFilter { only: vec![gpu.into()], ..CardFilter::default() },
            parallel: Parallel { gpus, ..Parallel::default() },
            ..Scenario::default()
        };
        report(&s).cards.into_iter().next().unwrap_or_else(|| panic!("{gpu}"))
    };
    let fabric = |v: &gpu_planner::domain::CardVerdict| {
        v.warnings.iter().find_map(|w| match w {
            Warning::FabricUnknown { kind } => Some(kind.clone()),
            _ => None,
        })
    };
    let b2 = on("huawei-ascend-910b2", Task::FullFinetune, 8);
    assert_eq!((b2.gpus, fabric(&b2)), (8, Some("hccs".to_string())));
    let link = |v: &gpu_planner::domain::CardVerdict| v.utilisation.as_ref().map(|u| u.comm.dp_link.clone());
    assert_eq!(link(&b2).as_deref(), Some("pcie"));
    let b3 = on("huawei-ascend-910b3", Task::FullFinetune, 8);
    assert_eq!((b3.gpus, fabric(&b3), link(&b3).as_deref()), (8, None, Some("nvlink")));
    let one = on("huawei-ascend-910b2", Task::Lora, 1);
    assert_eq!((one.gpus, fabric(&one)), (1, None));
    let served = on("huawei-ascend-910b2", Task::Inference, 0);
    assert!(served.layout.tp == 1 && served.layout.ep <= 1 && fabric(&served).is_none(), "{:?}", served.layout);
}

/// An expert group that is not folded spans the ranks tp·cp apart: EP 8 over DP 16 at TP 2 on
/// 8-card servers keeps 8/2 = 4 of its members (itself included) in the server, so 3 of its 7
/// peers are reached over NVLink and 4/7 of the bytes cross the fabric, side by side.
#[test]
fn an_expert_group_tp_apart_keeps_four_of_eight_in_the_server() {
    use gpu_planner::domain::comms::link_within;
    let g = card("h100-sxm");
    let mut s = Scenario::default();
    s.infra.fabric_gbit_per_gpu = 400.0;
    let x = StepTraffic { moe_layers: 1.0, dispatch_bytes: 1e8, microbatches: 1.0, ..traffic(0.0) };
    let l = Layout { tp: 2, dp: 16, ep: 8, ..Layout::single() };
    let c = step_comm(&s, &g, &l, &x, 1.0);
    let sent = 4.0 * 1e8 * 7.0 / 8.0;
    let remote = sent * 4.0 / 7.0;
    assert_close(c.fabric.ep, remote, 1e-12);
    let local_s = (sent - remote) / link_within(&g, 8).0;
    assert_close(c.ep_s, (remote / inter_server(&s)).max(local_s), 1e-12);
    // On a slow fabric the remote share sets the time; on a fast one the local share does.
    s.infra.fabric_gbit_per_gpu = 1e6;
    assert_close(step_comm(&s, &g, &l, &x, 1.0).ep_s, local_s, 1e-12);
}

/// Group-limited routing deduplicated per node (DeepSeek-V3 §3.2.2, DeepEP): with EP spanning
/// servers a DeepSeek-V3 token crosses to at most 4 nodes once each, half the 8 sends of an
/// all-to-all dispatcher that sends it once per routed expert (Megatron-Core's `alltoall`, NeMo
/// 2.x's DeepSeek default); inside one server the switch changes nothing.
#[test]
fn a_deduplicating_dispatcher_halves_deepseek_v3s_all_to_all_across_nodes() {
    use gpu_planner::domain::accuracy::{cases, scenario};
    use gpu_planner::domain::compute::mfu;
    let case = cases().iter().find(|c| c.id == "deepseek-v3-pretrain-gpu-hours").expect("row");
    let mut s = scenario(case).expect("scenario");
    assert!(s.training.conventions.dedup_dispatch, "DeepSeek's own run deduplicates");
    let layout = case.layout.expect("layout");
    assert!(layout.ep > 8, "EP spans servers");
    let g = card("h800-sxm");
    let m = s.model_spec().expect("model").clone();
    let deduped = mfu(&m, &s, &g, &layout).expect("mfu").comm.ep_s;
    s.training.conventions.dedup_dispatch = false;
    let per_expert = mfu(&m, &s, &g, &layout).expect("mfu").comm.ep_s;
    assert_close(per_expert, 2.0 * deduped, 1e-9);
    // EP 8 inside one server: nothing crosses a node, the switch is moot.
    let inside = Layout { ep: 8, dp: 8, pp: 1, tp: 1, ..layout };
    let a = mfu(&m, &s, &g, &inside).map(|u| u.comm.ep_s);
    s.training.conventions.dedup_dispatch = true;
    let b = mfu(&m, &s, &g, &inside).map(|u| u.comm.ep_s);
    assert_eq!(a, b);
    assert!(a.is_some_and(|x| x > 0.0));
}

/// Hidden collectives are not free (Lee et al. 2025, arXiv 2507.03114: compute overlapped with
/// communication runs 18.9% slower on average than alone, on A100, H100, MI250 and MI210). While
/// a collective of c seconds runs beside the kernels they advance at 1/1.189 of their speed, so
/// the step grows by c − c/1.189. Worked by hand for each kind of traffic the engine overlaps:
/// the gradient all-reduce behind the backward pass (and what outlasts that window is exposed,
/// not contended), the expert all-to-all behind the other micro-batch, the context-parallel ring
/// behind attention; Transformer Engine's tensor-parallel overlap (userbuffers: copy engines and
/// a reserved SM budget) and traffic left on the critical path cost nothing extra.
#[test]
fn hidden_collectives_slow_the_compute_beside_them() {
    use gpu_planner::domain::comms::link_within;
    let lee = |hidden: f64| hidden - hidden / 1.189;
    let g = card("h100-sxm");
    let (bw, _) = intra_server(&g);
    let mut s = Scenario::default();
    let l = Layout { dp: 8, ..Layout::single() };
    let x = StepTraffic { overlap_window: 2.0 / 3.0, ..traffic(1e9) };
    let dp_s = 2.0 * 7.0 / 8.0 * 1e9 / bw;
    // Not overlapped: all of it exposed, nothing contended.
    s.training.conventions.overlap_grad_reduce = false;
    let serial = step_comm(&s, &g, &l, &x, 1.0);
    assert_close(serial.exposed_s, dp_s, 1e-12);
    assert!(serial.contended_s.abs() < 1e-15, "{serial:?}");
    // Overlapped behind a long backward pass: none exposed, the compute slowed while it runs.
    s.training.conventions.overlap_grad_reduce = true;
    let hidden = step_comm(&s, &g, &l, &x, 1.0);
    assert!(hidden.exposed_s.abs() < 1e-15, "{hidden:?}");
    assert_close(hidden.contended_s, lee(dp_s), 1e-12);
    assert_close(hidden.efficiency(), 1.0 / (1.0 + lee(dp_s)), 1e-12);
    // A backward pass shorter than the traffic: the window is contended, the rest exposed.
    let compute = dp_s / 2.0;
    let short = step_comm(&s, &g, &l, &x, compute);
    assert_close(short.exposed_s, dp_s - 2.0 / 3.0 * compute, 1e-12);
    assert_close(short.contended_s, lee(2.0 / 3.0 * compute), 1e-12);
    // The expert all-to-all hidden behind the other micro-batch (EP 4 in one server).
    s.training.conventions.overlap_moe_comm = true;
    let e = StepTraffic { moe_layers: 8.0, dispatch_bytes: 5e7, microbatches: 2.0, ..traffic(0.0) };
    let ep_s = 4.0 * 8.0 * 2.0 * 5e7 * 3.0 / 4.0 / link_within(&g, 4).0;
    let moe = step_comm(&s, &g, &Layout { ep: 4, ..Layout::single() }, &e, 2.0 * ep_s);
    assert_close(moe.contended_s, lee(ep_s), 1e-12);
    let moe_short = step_comm(&s, &g, &Layout { ep: 4, ..Layout::single() }, &e, ep_s / 4.0);
    assert_close(moe_short.contended_s, lee(ep_s / 4.0), 1e-12);
    // The context-parallel ring behind attention (TP 2 × CP 2 in one server).
    let kv = 4e6;
    let ring = StepTraffic { kv_bytes: kv, stage_layers: 10.0, microbatches: 2.0, attention_s: 1.0, ..traffic(0.0) };
    let cp = step_comm(&s, &g, &Layout { tp: 2, cp: 2, ..Layout::single() }, &ring, 1.0);
    assert_close(cp.contended_s, lee(cp.cp_s), 1e-12);
    assert!(cp.cp_s > 0.0 && cp.cp_s < 1.0, "{cp:?}");
    // Tensor-parallel traffic, overlapped or not, adds none.
    s.training.conventions.overlap_tp_comm = true;
    let t = StepTraffic { act_bytes: 1e8, stage_layers: 10.0, ..traffic(0.0) };
    let tp = step_comm(&s, &g, &Layout { tp: 4, ..Layout::single() }, &t, 1.0);
    assert!(tp.tp_s > 0.0 && tp.exposed_s.abs() < 1e-15 && tp.contended_s.abs() < 1e-15, "{tp:?}");
}
