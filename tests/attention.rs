//! The attention kernel's time in a training step (domain/attention.rs, compute.rs
//! `attention_ratio`), held to FlashAttention-2's published forward + backward throughput
//! (Dao-AILab/flash-attention README figures, causal mask: A100 155/173/182/189 TFLOPs/s and
//! H100 265/294/308/328 at 2k/4k/8k/16k tokens, head dimension 128; head dimension 64 A100
//! 140/156/165/171) and the FA2 benchmark's FLOP count (forward 4·b·s²·heads·d halved for the
//! causal mask, backward 2.5× the forward: 7·s·heads·d per token and layer).
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use common::assert_close;
use gpu_planner::domain::attention::{fa2_of, fa2_share};
use gpu_planner::domain::compute::{attention_ratio, kernel_efficiency, mfu, training_flops};
use gpu_planner::domain::kernels::{TRAINING_SHARE, TRAINING_SHARE_A100};
use gpu_planner::domain::memory::Layout;
use gpu_planner::domain::{Catalog, Gpu, Scenario};

fn card(id: &str) -> Gpu {
    Catalog::embedded().gpu(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

/// Llama 3.1 8B pre-training at `seq` tokens under `framework`, flash attention on or off.
fn llama(framework: &str, seq: u32, flash: bool) -> Scenario {
    serde_json::from_str(&format!(
        r#"{{"model": "llama-3.1-8b", "task": "pretrain", "precision": "bf16",
        "training": {{"seq_len": {seq}, "flash_attention": {flash}, "framework": "{framework}"}}}}"#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The published figures as shares of the peak they were measured against, between the
/// published lengths in ln(length), past them the end value, and between head dimensions 64
/// and 128 linearly.
#[test]
fn fa2_shares_are_the_published_throughputs() {
    let a100 = fa2_of(&card("a100-80gb-sxm4")).unwrap_or_else(|| panic!("A100 figures"));
    let h100 = fa2_of(&card("h100-sxm")).unwrap_or_else(|| panic!("H100 figures"));
    assert_close(fa2_share(a100, 128, 4096.0), 173.0 / 312.0, 1e-12);
    assert_close(fa2_share(h100, 128, 8192.0), 308.0 / 989.4, 1e-12);
    assert_close(fa2_share(a100, 64, 16384.0), 171.0 / 312.0, 1e-12);
    // √(2048 · 4096) lies halfway in ln(length).
    assert_close(fa2_share(a100, 128, (2048.0_f64 * 4096.0).sqrt()), (155.0 + 173.0) / 2.0 / 312.0, 1e-12);
    assert_close(fa2_share(h100, 128, 131_072.0), 328.0 / 989.4, 1e-12);
    assert_close(fa2_share(h100, 128, 100.0), 163.0 / 989.4, 1e-12);
    assert_close(fa2_share(a100, 96, 8192.0), (165.0 + 182.0) / 2.0 / 312.0, 1e-12);
    assert_close(fa2_share(a100, 256, 8192.0), 182.0 / 312.0, 1e-12);
}

/// Cards of the two measured architectures borrow their figures; others have none.
#[test]
fn ampere_and_hopper_cards_borrow_and_others_have_no_fa2_figures() {
    let gpu = |id: &str| fa2_of(&card(id)).map(|f| f.gpu);
    assert_eq!(gpu("a800-80gb-sxm4"), Some("a100-80gb-sxm4"));
    assert_eq!(gpu("rtx-3090"), Some("a100-80gb-sxm4"));
    assert_eq!(gpu("h20"), Some("h100-sxm"));
    assert_eq!(gpu("h800-sxm"), Some("h100-sxm"));
    assert_eq!(gpu("rtx-4090"), None, "Ada: no FA2 figure");
    assert_eq!(gpu("b200-hgx"), None, "Blackwell: no FA2 figure");
    assert_eq!(gpu("mi300x"), None, "ROCm");
    assert_eq!(gpu("huawei-ascend-910b3"), None, "CANN");
}

/// By hand for Llama 3.1 8B at 8,192 tokens under FSDP (FA2) on an H100: the causal forward +
/// backward takes 7·L·h·s FLOPs per token at 308 TFLOPs/s × the training share, against the
/// 12·L·h·s the GEMM pricing charges at the GEMM rate, over the step's GEMM time.
#[test]
fn fa2_attention_time_by_hand() {
    let s = llama("fsdp", 8192, true);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h100-sxm");
    let matmul = kernel_efficiency(&g, s.precision);
    let width = f64::from(m.layers) * f64::from(m.heads) * f64::from(m.head_dim()) * 8192.0;
    let gemm = 989.4 * matmul;
    let fa2 = 7.0 * width / (308.0 * TRAINING_SHARE);
    let expected = (fa2 - 12.0 * width / gemm) / (training_flops(&m, s.task, 8192, 1.0, true) / gemm);
    assert_close(attention_ratio(&m, &s, &g, matmul), expected, 1e-9);
    assert!(expected > 0.05, "FA2 on an H100 costs more than the GEMM pricing: {expected}");
    // On an A100 FA2 beats the GEMM pricing at 8k tokens (182 of 312 TFLOPs/s).
    let a = card("a100-80gb-sxm4");
    assert!(attention_ratio(&m, &s, &a, kernel_efficiency(&a, s.precision)) < 0.0);
    // The MFU's kernel factor carries it.
    let l = Layout { dp: 8, ..Layout::default() };
    let u = mfu(&m, &s, &g, &l).unwrap_or_else(|| panic!("mfu"));
    assert_close(u.attention, (1.0 + u.elementwise + expected) / (1.0 + u.elementwise), 1e-9);
    assert_close(u.kernel, matmul / (1.0 + u.elementwise + expected), 1e-12);
}

/// Megatron's fused attention on Hopper keeps the GEMM pricing, but Megatron on Ampere runs
/// FA2; without flash attention the scores are GEMMs; a card without FA2 figures keeps it too.
#[test]
fn fused_kernels_no_flash_and_unmeasured_cards_keep_the_gemm_pricing() {
    let ratio = |s: &Scenario, id: &str| {
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let g = card(id);
        attention_ratio(&m, s, &g, kernel_efficiency(&g, s.precision))
    };
    assert!(ratio(&llama("megatron", 8192, true), "h100-sxm").abs() < 1e-15);
    assert!(ratio(&llama("megatron", 8192, true), "a100-80gb-sxm4") < 0.0);
    assert!(ratio(&llama("fsdp", 8192, false), "h100-sxm").abs() < 1e-15);
    assert!(ratio(&llama("fsdp", 8192, true), "rtx-4090").abs() < 1e-15);
    let mut stated = llama("megatron", 8192, true);
    stated.training.conventions.attention = gpu_planner::domain::framework::AttentionKernel::Flash2;
    assert!(ratio(&stated, "h100-sxm") > 0.05, "FA2 stated under Megatron");
}

/// FP8 training keeps attention in 16 bits (Transformer Engine's FP8 recipes quantize the GEMMs;
/// flash-attn 2 runs BF16): FA2 runs at its share of the BF16 peak, against the GEMM pricing at
/// the FP8 rate. MPT-3B under FP8 on an H100 (flash-attn 2.4.2, llm-foundry) by hand.
#[test]
fn fp8_training_runs_attention_in_16_bits() {
    let mut s = llama("fsdp", 2048, true);
    s.precision = gpu_planner::domain::scenario::Precision::Fp8;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h100-sxm");
    let matmul = kernel_efficiency(&g, s.precision);
    let fp8 = g.fp8_tflops.unwrap_or_else(|| panic!("fp8 peak"));
    assert!(fp8 > 1.9 * 989.4, "{fp8}");
    let width = f64::from(m.layers) * f64::from(m.heads) * f64::from(m.head_dim()) * 2048.0;
    let gemm = fp8 * matmul;
    let fa2 = 7.0 * width / (265.0 * TRAINING_SHARE);
    let expected = (fa2 - 12.0 * width / gemm) / (training_flops(&m, s.task, 2048, 1.0, true) / gemm);
    assert_close(attention_ratio(&m, &s, &g, matmul), expected, 1e-9);
}

/// xformers' memory-efficient kernel (Llama 1 and 2) from its bars in the same A100 figure
/// (causal, head dimension 128: 82/87/91 TFLOPs/s at 2k/4k/8k), about half FA2's speed, so
/// dearer than the GEMM pricing; no H100 bars: the GEMM pricing stays there.
#[test]
fn xformers_is_priced_from_its_own_bars() {
    use gpu_planner::domain::attention::xformers_share;
    use gpu_planner::domain::framework::AttentionKernel;
    let a100 = fa2_of(&card("a100-80gb-sxm4")).unwrap_or_else(|| panic!("A100 figures"));
    assert_close(xformers_share(a100, 128, 4096.0).unwrap_or(f64::NAN), 87.0 / 312.0, 1e-12);
    assert_close(xformers_share(a100, 64, 2048.0).unwrap_or(f64::NAN), 66.0 / 312.0, 1e-12);
    assert!(xformers_share(fa2_of(&card("h100-sxm")).unwrap_or_else(|| panic!("H100")), 128, 4096.0).is_none());
    let mut s = llama("fsdp", 4096, true);
    s.training.conventions.attention = AttentionKernel::Xformers;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("a100-80gb-sxm4");
    let matmul = kernel_efficiency(&g, s.precision);
    let width = f64::from(m.layers) * f64::from(m.heads) * f64::from(m.head_dim()) * 4096.0;
    let gemm = 312.0 * matmul;
    let expected = (7.0 * width / (87.0 * TRAINING_SHARE_A100) - 12.0 * width / gemm)
        / (training_flops(&m, s.task, 4096, 1.0, true) / gemm);
    assert_close(attention_ratio(&m, &s, &g, matmul), expected, 1e-9);
    assert!(expected > 0.0, "xformers is slower than the GEMM pricing: {expected}");
    assert!(attention_ratio(&m, &s, &card("h100-sxm"), 0.8).abs() < 1e-15, "no xformers bars on H100");
}

/// Encoder–decoder models keep the GEMM pricing (their bidirectional and cross attention are
/// not the causal kernel the figures measure), and a report written before the attention factor
/// existed reads back with a factor of 1 (no effect).
#[test]
fn encoder_decoder_models_and_old_reports_keep_the_gemm_pricing() {
    let s: Scenario = serde_json::from_str(
        r#"{"model": "flan-t5-xl", "task": "full_finetune", "precision": "bf16",
        "training": {"seq_len": 2048, "flash_attention": true, "framework": "fsdp"}}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    assert!(m.encoder.is_some());
    let g = card("h100-sxm");
    assert!(attention_ratio(&m, &s, &g, kernel_efficiency(&g, s.precision)).abs() < 1e-15);
    let mut old = serde_json::to_value(gpu_planner::domain::compute::Mfu::default()).unwrap_or_default();
    old.as_object_mut().map(|o| o.remove("attention"));
    let u: gpu_planner::domain::compute::Mfu = serde_json::from_value(old).unwrap_or_else(|e| panic!("{e}"));
    assert_close(u.attention, 1.0, 1e-15);
}
