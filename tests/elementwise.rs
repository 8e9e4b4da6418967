//! The elementwise share of a training step (compute.rs `elementwise_ratio`) and the whole-run
//! goodput. Bytes per token are summed here by hand from the tensors each kernel reads and
//! writes (16-bit activations, 1-byte dropout masks), not copied from the engine: two layer
//! norms read and write h values (8h bytes), two residual adds read two and write one (12h),
//! two dropout masks (2h), the MLP activation reads and writes its width (plain 4f bytes,
//! SwiGLU reads gate and up: 6f), and without flash attention softmax reads and writes a·s
//! scores per token (4as) and their dropout reads, writes and keeps a mask (5as). The backward
//! pass moves twice the forward bytes; selective recompute runs the score kernels once more.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use gpu_planner::domain::compute::{elementwise_ratio, kernel_efficiency, mfu, peak_tflops, training_flops};
use gpu_planner::domain::memory::Layout;
use gpu_planner::domain::scenario::{Precision, Recompute};
use gpu_planner::domain::{Catalog, Gpu, Scenario};

fn card(id: &str) -> Gpu {
    Catalog::embedded().gpu(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

fn scenario(json: &str) -> Scenario {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// GPT-style models of Narayanan et al. 2021 / Korthikanti et al. 2022 (plain GELU MLP, f = 4h)
/// under Megatron's conventions (dropout on, sequence parallelism with TP).
fn gpt(layers: u32, hidden: u32, heads: u32, params_b: f64, precision: &str, flash: bool) -> Scenario {
    scenario(&format!(
        r#"{{"model": "custom", "custom_model": {{"id": "custom", "name": "Custom", "layers": {layers},
        "hidden": {hidden}, "heads": {heads}, "kv_heads": {heads}, "intermediate": {}, "vocab": 51200,
        "gated_mlp": false, "tied_embeddings": true, "max_context": 2048, "params_b": {params_b}}},
        "task": "pretrain", "precision": "{precision}",
        "training": {{"seq_len": 2048, "flash_attention": {flash}, "framework": "megatron",
        "conventions": {{"dropout": true, "sequence_parallel": true}}}}}}"#,
        4 * hidden
    ))
}

/// r = (bytes / (bandwidth × decode share)) / (FLOPs / TP / (peak × kernel efficiency)).
fn expected_r(s: &Scenario, g: &Gpu, tp: u32, bytes_per_token: f64) -> f64 {
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    let bw = g.memory_bandwidth_gb_s.unwrap_or(0.0) * 1e9 * s.efficiency.decode_bandwidth;
    let rate = peak_tflops(g, s.precision).unwrap_or(0.0) * 1e12 * kernel_efficiency(g, s.precision);
    let flops = training_flops(m, s.task, s.training.seq_len, 1.0, true) / f64::from(tp);
    (bytes_per_token / bw) / (flops / rate)
}

fn r_of(s: &Scenario, g: &Gpu, l: &Layout) -> f64 {
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    elementwise_ratio(m, s, g, l).unwrap_or_else(|| panic!("bandwidth known"))
}

/// Narayanan et al. 2021's 1.7B (h 2304, a 24, L 24, s 2048, one GPU per replica, full
/// recompute): per layer forward 22h = 50,688 (norms, residuals, masks), 4f = 36,864 (GELU)
/// and 9·a·s = 442,368 (scores) bytes; × 3 for the backward, × 24 layers = 38,154,240 bytes per
/// token. With flash attention the scores go: (50,688 + 36,864) × 72 = 6,303,744.
#[test]
fn a_small_gpt_without_flash_attention_is_dominated_by_its_scores() {
    let g = card("a100-80gb-sxm4");
    let l = Layout { recompute: Recompute::Full, dp: 32, ..Layout::single() };
    let s = gpt(24, 2304, 24, 1.7, "fp16", false);
    let r = r_of(&s, &g, &l);
    common::assert_close(r, expected_r(&s, &g, 1, 38_154_240.0), 1e-12);
    // In fp32 every activation read or write takes 4 bytes, the masks still 1: 42h = 96,768,
    // 8f = 73,728 and a·s·(8 + 9) = 835,584 per layer, × 72 = 72,437,760.
    let fp32 = gpt(24, 2304, 24, 1.7, "fp32", false);
    common::assert_close(r_of(&fp32, &g, &l), expected_r(&fp32, &g, 1, 72_437_760.0), 1e-12);
    let flash = gpt(24, 2304, 24, 1.7, "fp16", true);
    common::assert_close(r_of(&flash, &g, &l), expected_r(&flash, &g, 1, 6_303_744.0), 1e-12);
    // The kernel factor the MFU shows is the GEMM efficiency over 1 + r.
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    let u = mfu(m, &s, &g, &l).unwrap_or_else(|| panic!("mfu"));
    common::assert_close(u.elementwise, r, 1e-12);
    common::assert_close(u.kernel, kernel_efficiency(&g, Precision::Fp16) / (1.0 + r), 1e-12);
}

/// Korthikanti et al. 2022's 22B (h 6144, a 64, L 48) at TP 8 with selective recompute: with
/// sequence parallelism every term splits over the 8 ranks — 22h/8 = 16,896, 4f/8 = 12,288,
/// 9as/8 = 147,456 — so (176,640 × 3 + 147,456 repeated) × 48 = 32,514,048 bytes per token;
/// without it the hidden-size terms stay whole (22h = 135,168): 49,545,216.
#[test]
fn sequence_parallelism_and_selective_recompute_move_their_own_terms() {
    let g = card("a100-80gb-sxm4");
    let l = Layout { tp: 8, recompute: Recompute::Selective, ..Layout::single() };
    let mut s = gpt(48, 6144, 64, 22.0, "bf16", false);
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 8, 32_514_048.0), 1e-12);
    s.training.conventions.sequence_parallel = false;
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 8, 49_545_216.0), 1e-12);
    // Without dropout its masks and its read and write of the scores go: hidden 20h = 122,880,
    // scores 4as/8 = 65,536 per layer: (122,880 + 12,288 + 65,536) × 3 + 65,536 = 667,648,
    // × 48 = 32,047,104.
    s.training.conventions.dropout = false;
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 8, 32_047_104.0), 1e-12);
}

/// SwiGLU and MoE widths, 4-byte activations: Llama 2 7B (h 4096, f 11008, L 32, flash on,
/// no dropout) moves (20h + 6f) × 3 × 32 = 14,204,928 bytes per token in bf16 and twice that in
/// fp32; Mixtral 8x7B's MLP activation covers its two routed experts (2 × 14,336):
/// (20h + 6 × 28,672) × 96 = 24,379,392; DeepSeek-V3's covers 8 routed and 1 shared expert
/// (9 × 2,048, as wide as its 3 dense layers' 18,432): (20 × 7,168 + 6 × 18,432) × 3 × 61 =
/// 46,473,216.
#[test]
fn gated_and_expert_mlps_and_fp32_activations() {
    let g = card("h100-sxm");
    let l = Layout::single();
    let mut s = Scenario { model: "llama-2-7b".into(), ..Scenario::default() };
    s.training.conventions.dropout = false;
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 1, 14_204_928.0), 1e-12);
    s.precision = Precision::Fp32;
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 1, 28_409_856.0), 1e-12);
    let mut x = Scenario { model: "mixtral-8x7b".into(), ..Scenario::default() };
    x.training.conventions.dropout = false;
    common::assert_close(r_of(&x, &g, &l), expected_r(&x, &g, 1, 24_379_392.0), 1e-12);
    x.model = "deepseek-v3".into();
    common::assert_close(r_of(&x, &g, &l), expected_r(&x, &g, 1, 46_473_216.0), 1e-12);
}

/// Published MFU rises with model size on one cluster (Narayanan et al. 2021 Table 1: 44% of
/// peak at 1.7B to 52% at 1T): the elementwise share falls as h grows.
#[test]
fn the_elementwise_share_falls_as_models_grow() {
    let g = card("a100-80gb-sxm4");
    let small = r_of(&gpt(24, 2304, 24, 1.7, "fp16", false), &g, &Layout::single());
    let large = r_of(&gpt(128, 25600, 160, 1008.0, "fp16", false), &g, &Layout { tp: 8, ..Layout::single() });
    assert!(large < small / 5.0, "{large} vs {small}");
}

/// Whole-run hours divide by the goodput; the MFU, measured or predicted, is a steady-state
/// figure and does not move with it.
#[test]
fn goodput_stretches_the_run_not_the_mfu() {
    let mut s = Scenario { model: "llama-3.1-8b".into(), ..Scenario::default() };
    s.cards.only = vec!["h100-sxm".into()];
    s.efficiency.goodput = Some(1.0);
    let full = common::report(&s).cards[0].clone();
    s.efficiency.goodput = Some(0.8);
    let part = common::report(&s).cards[0].clone();
    assert!((full.mfu - part.mfu).abs() < 1e-12);
    common::assert_close(part.hours.unwrap_or(0.0), full.hours.unwrap_or(0.0) / 0.8, 1e-9);
    s.efficiency.goodput = Some(0.0);
    assert!(s.validate().is_err(), "a goodput of zero is refused");
}
