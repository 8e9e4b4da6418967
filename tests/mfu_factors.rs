//! The predicted MFU's factors behave as the mechanisms they stand for (compute.rs `mfu_at`):
//! offload only slows, the FLOP-counting convention never changes the hours, gradients hide only
//! behind the backward pass, MoE all-to-all follows its bytes, LoRA reduces only the adapters'
//! gradients, ring attention hides behind the attention it overlaps.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use gpu_planner::domain::compute::{mfu, training_hours, Mfu};
use gpu_planner::domain::memory::{lora_params, Layout};
use gpu_planner::domain::scenario::{Offload, Recompute, Task};
use gpu_planner::domain::{Catalog, Gpu, ModelSpec, Scenario};

fn card(id: &str) -> Gpu {
    Catalog::embedded().gpu(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

fn model(s: &Scenario) -> ModelSpec {
    s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone()
}

fn mfu_of(s: &Scenario, g: &Gpu, l: &Layout) -> Mfu {
    mfu(&model(s), s, g, l).unwrap_or_else(|| panic!("peak known"))
}

/// ZeRO-Offload moves the optimizer step to the CPU: it can only add time (Ren et al. 2021).
#[test]
fn offload_never_speeds_training_up() {
    let s = Scenario::default();
    let g = card("rtx-4090");
    let plain = Layout { zero: 2, dp: 4, ..Layout::single() };
    let off = Layout { offload: Offload::Optimizer, ..plain };
    let (a, b) = (mfu_of(&s, &g, &plain), mfu_of(&s, &g, &off));
    // The stated assumption (compute.rs offload_factor: ZeRO-Offload, Ren et al. 2021, hides
    // much of the CPU step at large batch; 1.5× slower), applied once, to nothing else.
    common::assert_close(b.offload, 1.0 / 1.5, 1e-12);
    common::assert_close(a.offload, 1.0, 1e-12);
    common::assert_close(b.predicted * 1.5, a.predicted * (b.communication / a.communication), 1e-9);
    // Hours follow the MFU: the same FLOPs at a lower utilisation.
    let m = model(&s);
    let hours = |l: &Layout| training_hours(&m, &s, &g, l).unwrap_or(0.0);
    common::assert_close(hours(&off) / hours(&plain), a.predicted / b.predicted, 1e-9);
}

/// Whether the attention-score FLOPs count as model FLOPs is a reporting convention (PaLM
/// counts them, 6·N does not): the hardware does the same work, so the hours are the same and
/// only the MFU figure moves, by 6N / (6N + attention).
#[test]
fn the_flop_convention_moves_the_mfu_not_the_hours() {
    let mut s = Scenario { model: "llama-3.1-8b".into(), ..Scenario::default() };
    s.training.seq_len = 8192;
    let g = card("h100-sxm");
    let l = Layout { tp: 2, dp: 4, ..Layout::single() };
    let m = model(&s);
    s.training.conventions.attention_flops = true;
    let (with, hours_with) = (mfu_of(&s, &g, &l), training_hours(&m, &s, &g, &l).unwrap_or(0.0));
    s.training.conventions.attention_flops = false;
    let (without, hours_without) = (mfu_of(&s, &g, &l), training_hours(&m, &s, &g, &l).unwrap_or(0.0));
    assert!(without.predicted < with.predicted);
    // Llama 3.1 8B (config.json: 32 layers, 4,096 wide; 8.03 B parameters) at 8,192 tokens:
    // 6N = 4.82e10 and 12·L·h·s = 1.29e10 FLOPs per token, so the MFU moves by 4.82 / 6.11.
    common::assert_close(without.predicted / with.predicted, 0.789, 0.01);
    assert!((hours_with / hours_without - 1.0).abs() < 1e-9, "{hours_with} vs {hours_without}");
}

/// Mixtral 8x7B pre-training in 4,096-token sequences, one per micro-batch, `global_batch` a step.
fn mixtral(global_batch: u32) -> Scenario {
    let mut s = Scenario { model: "mixtral-8x7b".into(), ..Scenario::default() };
    s.training.seq_len = 4096;
    s.training.micro_batch = 1;
    s.training.global_batch = global_batch;
    s
}

/// Data-parallel gradients can hide only behind the backward pass — 4N of the 6N FLOPs, 2/3 of
/// the step (Kaplan et al. 2020) — unless ZeRO-3 prefetches parameters through the forward too.
#[test]
fn gradients_hide_only_behind_the_backward_pass() {
    let mut s = Scenario { model: "llama-3.1-8b".into(), ..Scenario::default() };
    // Short steps (8 sequences of 256 tokens) on PCIe cards: the all-reduce outlasts the compute.
    s.training.seq_len = 256;
    s.training.global_batch = 8;
    let g = card("l40s");
    let l = Layout { dp: 8, zero: 1, ..Layout::single() };
    let c = mfu_of(&s, &g, &l).comm;
    assert!(c.dp_s > c.compute_s, "a long all-reduce: {} vs {}", c.dp_s, c.compute_s);
    assert!(c.exposed_s >= c.dp_s - 2.0 / 3.0 * c.compute_s - 1e-9, "{c:?}");
    assert!(c.exposed_s <= c.dp_s - 0.6 * c.compute_s, "{c:?}");
}

/// MoE token exchange (DeepSeek-V3 report §3.2): per MoE layer and micro-batch, dispatch and
/// combine in the forward and the backward pass — four all-to-alls, each moving the stage's tokens
/// × hidden × 2 B × top-k, (ep − 1)/ep of it off the card. Mixtral 8x7B (32 MoE layers, hidden
/// 4096, top-2) at EP 8 inside one H100 server, 4,096-token micro-batches.
#[test]
fn moe_all_to_all_follows_its_bytes() {
    let s = mixtral(8);
    let g = card("h100-sxm");
    let l = Layout { dp: 8, ep: 8, zero: 1, ..Layout::single() };
    let c = mfu_of(&s, &g, &l).comm;
    let nvlink = 900e9 / 2.0 * 0.75; // catalog 900 GB/s both ways; comms::NVLINK_EFFICIENCY
    let per_layer = 4096.0 * 4096.0 * 2.0 * 2.0 * 7.0 / 8.0;
    let want = 4.0 * 32.0 * 1.0 * per_layer / nvlink;
    assert!((c.ep_s / want - 1.0).abs() < 1e-9, "{} vs {want}", c.ep_s);
    // A model with dense leading layers exchanges tokens only in its MoE layers.
    let mut v3 = Scenario { model: "custom".into(), ..s.clone() };
    v3.custom_model = model(&s).as_custom();
    v3.custom_model.moe.as_mut().unwrap_or_else(|| panic!("moe")).dense_layers = 8;
    let part = mfu_of(&v3, &g, &l).comm;
    assert!((part.ep_s / c.ep_s - 24.0 / 32.0).abs() < 1e-9, "{}", part.ep_s / c.ep_s);
    // Context parallelism splits each sequence over cp cards: each dispatches half the tokens.
    // The EP group (ranks cp = 2 apart, tp·cp·ep = 16 cards) now spans two servers, four of its
    // eight ranks in each: of the seven peers' tokens, the four for the other server cross the
    // fabric at the scenario's 200 Gb/s per GPU × 0.85 (comms::FABRIC_EFFICIENCY) while the
    // three for this server's peers cross NVLink at the same time — the fabric sets the time,
    // and only its bytes count for the network's sizing.
    let split = mfu_of(&s, &g, &Layout { cp: 2, ..l }).comm;
    let fabric = s.infra.fabric_gbit_per_gpu * 1e9 / 8.0 * 0.85;
    let remote = 4.0 * 32.0 * 1.0 * per_layer / 2.0 * 4.0 / 7.0;
    assert!((split.ep_s / (remote / fabric) - 1.0).abs() < 1e-9, "{} vs {}", split.ep_s, remote / fabric);
    assert!((split.fabric.ep / remote - 1.0).abs() < 1e-9, "{} vs {remote}", split.fabric.ep);
    // TP 8 fills each server: every EP peer is in another one and all the tokens cross the fabric
    // (DP 2: four micro-batches per step; half of each micro-batch's tokens leave the card).
    let wide = mfu_of(&s, &g, &Layout { tp: 8, ep: 2, dp: 2, ..l }).comm;
    let sent = 4.0 * 32.0 * 4.0 * 4096.0 * 4096.0 * 2.0 * 2.0 / 2.0;
    assert!((wide.fabric.ep / sent - 1.0).abs() < 1e-9, "{} vs {sent}", wide.fabric.ep);
}

/// An all-to-all across two servers whose cards talk over PCIe inside the server (L40S, no
/// NVLink) on a fast fabric: the tokens for the seven peers in the server are the slower share
/// (PCIe 4.0 x16 at 65%, comms::PCIE_EFFICIENCY, against 400 Gb/s × 0.85), so they set the time,
/// while only the eight other-server peers' tokens load the network. Context parallelism
/// folds the group too: TP 4 × CP 2 fill a server, so each of EP 2's peers is in the other one.
#[test]
fn a_spanning_all_to_all_waits_for_its_slower_link() {
    use gpu_planner::domain::comms::{inter_server, link_within};
    let mut s = mixtral(16);
    s.infra.fabric_gbit_per_gpu = 400.0;
    let g = card("l40s");
    let l = Layout { dp: 16, ep: 16, zero: 1, ..Layout::single() };
    let c = mfu_of(&s, &g, &l).comm;
    // 4 all-to-alls × 32 MoE layers × one micro-batch × 4,096 tokens × 4,096 × 2 B × top-2,
    // 15/16 of it to other cards: 7/15 of that to this server's peers, 8/15 to the other's.
    let sent = 4.0 * 32.0 * 4096.0 * 4096.0 * 2.0 * 2.0 * 15.0 / 16.0;
    let (pcie, fabric) = (link_within(&g, 8).0, inter_server(&s));
    assert!(sent * 7.0 / 15.0 / pcie > sent * 8.0 / 15.0 / fabric, "the PCIe share is the slower");
    assert!((c.ep_s / (sent * 7.0 / 15.0 / pcie) - 1.0).abs() < 1e-9, "{} vs {}", c.ep_s, sent * 7.0 / 15.0 / pcie);
    assert!((c.fabric.ep / (sent * 8.0 / 15.0) - 1.0).abs() < 1e-9, "{}", c.fabric.ep);
    // TP 4 × CP 2 × EP 2 on H100 servers: the EP peer is always in the other server.
    let h = card("h100-sxm");
    let folded = Layout { tp: 4, cp: 2, ep: 2, dp: 2, zero: 1, ..Layout::single() };
    let f = mfu_of(&s, &h, &folded).comm;
    // Each CP rank dispatches half the sequence; one micro-batch per DP rank of 2 → 8 per step.
    let half = 4.0 * 32.0 * 8.0 * 2048.0 * 4096.0 * 2.0 * 2.0 / 2.0;
    assert!((f.fabric.ep / half - 1.0).abs() < 1e-9, "{} vs {half}", f.fabric.ep);
    assert!((f.ep_s / (half / fabric) - 1.0).abs() < 1e-9, "{} vs {}", f.ep_s, half / fabric);
    // A100 PCIe cards bridged in pairs (NVLink domain 2): four EP ranks share a server, TP 2 or
    // CP 2 apart, so their tokens cross the 8-card span over PCIe (not the bridge), the slower
    // link here. Two micro-batches per step (16 sequences over DP 8); CP halves each one.
    let p = card("a100-80gb-pcie");
    let pcie8 = link_within(&p, 8).0;
    assert!(pcie8 < link_within(&p, 2).0, "the bridge is faster than PCIe");
    for (tp, cp) in [(2, 1), (1, 2)] {
        let lay = Layout { tp, cp, ep: 8, dp: 8, zero: 1, ..Layout::single() };
        let c = mfu_of(&s, &p, &lay).comm;
        let sent = 4.0 * 32.0 * 2.0 * 4096.0 / f64::from(cp) * 4096.0 * 2.0 * 2.0 * 7.0 / 8.0;
        let inside = sent * 3.0 / 7.0 / pcie8;
        assert!(inside > sent * 4.0 / 7.0 / fabric, "PCIe is the slower link");
        assert!((c.ep_s / inside - 1.0).abs() < 1e-9, "tp {tp} cp {cp}: {} vs {inside}", c.ep_s);
        assert!(c.pp_s.abs() < 1e-15, "one pipeline stage sends nothing: {}", c.pp_s);
    }
}

/// LoRA trains only the adapters: the data-parallel all-reduce carries their gradients, not the
/// frozen model's (Hu et al. 2021).
#[test]
fn lora_all_reduces_only_the_adapters() {
    let full = Scenario { model: "llama-3.1-8b".into(), task: Task::FullFinetune, ..Scenario::default() };
    let lora = Scenario { task: Task::Lora, ..full.clone() };
    let g = card("l40s");
    let l = Layout { dp: 8, zero: 1, ..Layout::single() };
    let (a, b) = (mfu_of(&full, &g, &l).comm, mfu_of(&lora, &g, &l).comm);
    let m = model(&full);
    let share = lora_params(&m, lora.lora.rank, lora.lora.targets) / m.params().total;
    assert!((b.dp_s / a.dp_s / share - 1.0).abs() < 1e-6, "{} vs {share}", b.dp_s / a.dp_s);
}

/// Context parallelism passes K and V round the ring while each card computes attention on the
/// blocks it has (Liu et al. 2023, ring attention; Llama 3's 128k phase, CP 16): only what the
/// K/V traffic takes beyond that attention work is exposed. The attention work of one step on
/// one card: 8 layers per stage × 32 micro-batches of 2 × 12·s²·(heads·d) FLOPs / (tp·cp), at
/// H100's dense BF16 peak (989.4 TFLOPS, catalog) × the kernel efficiency.
#[test]
fn ring_attention_hides_behind_the_attention_it_overlaps() {
    let mut s = Scenario { model: "llama-3.1-405b".into(), task: Task::Pretrain, ..Scenario::default() };
    s.training.seq_len = 131_072;
    s.training.micro_batch = 2;
    s.training.global_batch = 256;
    s.training.conventions.overlap_tp_comm = false;
    let g = card("h100-sxm");
    let l = Layout { tp: 8, pp: 16, cp: 16, dp: 4, zero: 1, recompute: Recompute::Selective, ..Layout::single() };
    let u = mfu_of(&s, &g, &l);
    let c = &u.comm;
    let attention = 8.0 * 32.0 * 12.0 * 2.0 * 131_072f64.powi(2) * 16_384.0 / (8.0 * 16.0) / (989.4e12 * u.kernel);
    let dp = (c.dp_s - 2.0 / 3.0 * c.compute_s).max(0.0);
    let cp_exposed = c.exposed_s - c.tp_s - c.pp_s - c.ep_s - dp;
    assert!(c.cp_s > attention, "this case exposes part of the ring: {c:?}");
    assert!((cp_exposed - (c.cp_s - attention)).abs() < 1e-6 * c.cp_s, "{cp_exposed} vs {}", c.cp_s - attention);
}

/// The GEMM share of peak is a share: in (0, 1]. Stacks with no published training measurement
/// in the accuracy table (ROCm, DTK, …) are assumed less efficient than CUDA, never more; CANN
/// is held to MindSpeed-LLM's measurements by the accuracy table instead (mindspeed-* rows).
#[test]
fn kernel_efficiency_is_a_share_and_unmeasured_stacks_are_not_above_cuda() {
    use gpu_planner::domain::compute::kernel_efficiency;
    use gpu_planner::domain::scenario::Precision;
    for p in [Precision::Bf16, Precision::Fp8] {
        let cuda = kernel_efficiency(&card("h100-sxm"), p);
        for id in ["mi300x", "hygon-dcu-k100-ai", "moore-threads-mtt-s4000", "cambricon-mlu370-x8"] {
            let k = kernel_efficiency(&card(id), p);
            assert!(k > 0.0 && k < cuda && cuda <= 1.0, "{id} at {p:?}: {k} vs CUDA {cuda}");
        }
    }
}

/// Block recompute of some layers (Megatron-Core `--recompute-num-layers`) repeats the forward
/// pass of those layers only: LoRA's full recompute costs ×1.5 (a 2N forward on a 4N step), so
/// 21 of Llama 2 70B's 80 layers cost 1 + 0.5 · 21/80 = ×1.13125 (the MLPerf v5.0 MI300X LoRA
/// run, AMD's "recomputing all 21 transformer blocks"); 0 layers means all 80 (×1.5), and the
/// automatic search always recomputes whole stages.
#[test]
fn recomputing_some_layers_costs_their_share_of_a_forward_pass() {
    let mut s = Scenario { model: "llama-2-70b".into(), task: Task::Lora, ..Scenario::default() };
    s.parallel.auto = false;
    let g = card("mi300x");
    let l = Layout { dp: 8, recompute: Recompute::Full, ..Layout::single() };
    s.parallel.recompute_layers = 21;
    common::assert_close(mfu_of(&s, &g, &l).recompute, 1.0 / 1.131_25, 1e-12);
    s.parallel.recompute_layers = 0;
    common::assert_close(mfu_of(&s, &g, &l).recompute, 1.0 / 1.5, 1e-12);
    s.parallel.recompute_layers = 21;
    s.parallel.auto = true;
    common::assert_close(mfu_of(&s, &g, &l).recompute, 1.0 / 1.5, 1e-12);
    // Selective recompute is its own setting: the layer count does not touch it.
    s.parallel.auto = false;
    let sel = Layout { recompute: Recompute::Selective, ..l };
    common::assert_close(mfu_of(&s, &g, &sel).recompute, 1.0 / 1.03, 1e-12);
}

/// torchtitan's op-level selective recompute repeats in the backward the matmuls whose outputs
/// it drops: K, O and the MLP's w3 (`_apply_ac_to_transformer_block`, every second mm). For
/// Llama 3.1 8B (8,030,261,248 parameters, 32 layers, h 4096, kv 1024, ffn 14336) at 8192
/// tokens that is 32 · 2 · 4096 · (1024 + 4096 + 14336) FLOPs a token over the training's
/// 6N + 12·L·s·h — a factor of 1.0835, where Megatron's attention-only recompute costs 1.03.
#[test]
fn op_level_selective_recompute_repeats_every_second_matmul() {
    use gpu_planner::domain::compute::layout_recompute_factor;
    let mut s = Scenario { model: "llama-3.1-8b".into(), task: Task::Pretrain, ..Scenario::default() };
    s.training.seq_len = 8192;
    s.training.conventions.op_sac = true;
    let l = Layout { dp: 8, recompute: Recompute::Selective, ..Layout::single() };
    let repeated = 32.0 * 2.0 * 4096.0 * (1024.0 + 4096.0 + 14336.0);
    let per_token = 6.0 * 8_030_261_248.0 + 12.0 * 32.0 * 8192.0 * 4096.0;
    let want = 1.0 + repeated / per_token;
    let got = layout_recompute_factor(&model(&s), &s, &l);
    assert!((got / want - 1.0).abs() < 1e-4, "{got} vs {want}");
    s.training.conventions.op_sac = false;
    let megatron = layout_recompute_factor(&model(&s), &s, &l);
    assert!((megatron - 1.03).abs() < 1e-12, "{megatron}");
}
