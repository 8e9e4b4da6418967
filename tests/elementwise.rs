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

/// SwiGLU and MoE widths, 4-byte activations, fused kernels: Llama 2 7B (h 4096, f 11008, L 32, flash on,
/// no dropout) moves (20h + 6f) × 3 × 32 = 14,204,928 bytes per token in bf16 and twice that in
/// fp32; Mixtral 8x7B's MLP activation covers its two routed experts (2 × 14,336):
/// (20h + 6 × 28,672) × 96 = 24,379,392, and its tokens' copies to and from the experts
/// ((4k + 7 + 8k)·h·2 with k = 2, all 8 experts on the card: 253,952 per layer, × 32 =
/// 8,126,464): 32,505,856; DeepSeek-V3's covers 8 routed and 1 shared expert (9 × 2,048, as
/// wide as its 3 dense layers' 18,432): (20 × 7,168 + 6 × 18,432) × 3 × 61 = 46,473,216, and the
/// copies of its 58 MoE layers (103 × 7,168 × 2 × 58 = 85,643,264): 132,116,480.
#[test]
fn gated_and_expert_mlps_and_fp32_activations() {
    let g = card("h100-sxm");
    let l = Layout::single();
    let mut s = Scenario { model: "llama-2-7b".into(), ..Scenario::default() };
    s.training.conventions.dropout = false;
    s.training.conventions.fused_kernels = true;
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 1, 14_204_928.0), 1e-12);
    s.precision = Precision::Fp32;
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 1, 28_409_856.0), 1e-12);
    let mut x = Scenario { model: "mixtral-8x7b".into(), ..Scenario::default() };
    x.training.conventions.dropout = false;
    x.training.conventions.fused_kernels = true;
    common::assert_close(r_of(&x, &g, &l), expected_r(&x, &g, 1, 32_505_856.0), 1e-12);
    x.model = "deepseek-v3".into();
    common::assert_close(r_of(&x, &g, &l), expected_r(&x, &g, 1, 132_116_480.0), 1e-12);
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

/// A Llama block under eager PyTorch (HF transformers' `LlamaRMSNorm`, `rotate_half` RoPE and
/// `LlamaMLP`; torchtitan's `RMSNorm` and complex RoPE with compile off), bytes per value of
/// each kernel the code launches, 16-bit activations: RMSNorm `x.float()` 2 + 4, `pow(2)`
/// 4 + 4, `mean` 4, `x * rsqrt` 4 + 4, `type_as` 4 + 2, `* weight` 2 + 2 = 36 (the fused
/// kernel: 4, so 32h more per norm, two norms); RoPE on q and k 20 per value (HF: `q * cos`
/// 4, negated half 2, `cat` 4, `* sin` 4, add 6); `repeat_kv` reads kv and writes q for k
/// and v (4 per q and kv value) under grouped-query attention; the attention output's
/// `contiguous()` 4 per q value; SwiGLU `silu` 4 and the product 6 per MLP value against the
/// fused 6. Llama 3.1 8B (h 4096, q 4096, kv 1024, f 14,336): 64h = 262,144, 20 × 5,120 =
/// 102,400, 4 × 5,120 = 20,480, 4 × 4,096 = 16,384, 4f = 57,344: 458,752 on top of the fused
/// 20h + 6f = 167,936; × 3 (backward) × 32 layers = 60,162,048 bytes per token against
/// 16,121,856 fused.
#[test]
fn eager_pytorch_moves_the_llama_blocks_intermediates() {
    let g = card("h100-sxm");
    let l = Layout::single();
    let mut s = scenario(
        r#"{"model": "llama-3.1-8b", "task": "pretrain", "precision": "bf16",
        "training": {"seq_len": 8192, "flash_attention": true, "framework": "fsdp"}}"#,
    );
    assert!(!s.training.conventions.fused_kernels, "FSDP runs eager PyTorch unless told");
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 1, 60_162_048.0), 1e-12);
    s.training.conventions.fused_kernels = true;
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 1, 16_121_856.0), 1e-12);
    // Llama 2 7B has as many kv heads as q heads (no repeat_kv copy): 64h = 262,144,
    // 20 × 8,192 = 163,840, 4 × 4,096 = 16,384, 4 × 11,008 = 44,032 = 486,400 on top of
    // 20h + 6f = 147,968: × 96 = 60,899,328. In fp32 the casts go and every value is 4 bytes:
    // norms 2 × 20h = 163,840, RoPE 40 × 8,192 = 327,680, output 8 × 4,096 = 32,768, SwiGLU
    // 8f = 88,064 on top of 40h + 12f = 295,936: × 96 = 87,195,648.
    let mut s = scenario(
        r#"{"model": "llama-2-7b", "task": "pretrain", "precision": "bf16",
        "training": {"seq_len": 4096, "flash_attention": true, "framework": "deep_speed"}}"#,
    );
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 1, 60_899_328.0), 1e-12);
    s.precision = Precision::Fp32;
    common::assert_close(r_of(&s, &g, &l), expected_r(&s, &g, 1, 87_195_648.0), 1e-12);
}

/// A GPT block (LayerNorm and GELU, one ATen kernel each) runs the same kernels eager or
/// fused; the framework's name brings the default (Megatron-Core and the user's own switches:
/// fused; FSDP, DeepSpeed and torchtune: eager), and a switch written in the scenario wins.
#[test]
fn only_the_llama_block_pays_for_eager_kernels_and_the_switch_overrides_the_framework() {
    let g = card("a100-80gb-sxm4");
    let l = Layout::single();
    let mut s = gpt(24, 2304, 24, 1.7, "bf16", true);
    let fused = r_of(&s, &g, &l);
    s.training.conventions.fused_kernels = false;
    common::assert_close(r_of(&s, &g, &l), fused, 1e-12);
    use gpu_planner::domain::framework::{Conventions, Framework};
    let defaults: Vec<bool> = Framework::ALL.iter().map(|&f| Conventions::of(f).fused_kernels).collect();
    assert_eq!(defaults, [true, false, false, false, true], "megatron, deep_speed, fsdp, torchtune, custom");
    let s = scenario(
        r#"{"model": "llama-3.1-8b", "training": {"framework": "fsdp",
        "conventions": {"fused_kernels": true}}}"#,
    );
    assert!(s.training.conventions.fused_kernels);
    let s = scenario(r#"{"model": "llama-3.1-8b", "training": {"framework": "megatron"}}"#);
    assert!(s.training.conventions.fused_kernels);
}

/// torchtitan's performance table (docs/performance.md at d4c86e37, Llama 3.1 8B, 8 H100s,
/// FSDP, local batch 2 × 8,192 tokens, op-level selective checkpointing) measures eager
/// PyTorch at 5,762 tokens/s per GPU and the same run under torch.compile at 6,667: compile
/// saves 1 − 5,762 / 6,667 = 13.6% of the eager step. The engine's fused count against its
/// eager one saves 15.8% (no constant was set from this table; ±5 points, one measurement).
#[test]
fn fused_kernels_save_what_torch_compile_saved_torchtitan() {
    let g = card("h100-sxm");
    let l = Layout { dp: 8, zero: 3, recompute: Recompute::Selective, ..Layout::single() };
    let mut s = scenario(
        r#"{"model": "llama-3.1-8b", "task": "pretrain", "precision": "bf16",
        "training": {"seq_len": 8192, "micro_batch": 2, "global_batch": 16, "flash_attention": true,
        "framework": "fsdp", "conventions": {"op_sac": true}}}"#,
    );
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let eager = mfu(&m, &s, &g, &l).unwrap_or_else(|| panic!("mfu")).predicted;
    s.training.conventions.fused_kernels = true;
    let fused = mfu(&m, &s, &g, &l).unwrap_or_else(|| panic!("mfu")).predicted;
    let saved = 1.0 - eager / fused;
    let published = 1.0 - 5762.0 / 6667.0;
    assert!((saved - published).abs() < 0.05, "engine saves {saved:.3}, torch.compile {published:.3}");
}

/// torchtitan's op-level selective recompute repeats every elementwise kernel of the forward,
/// eager ones included: Llama 3.1 8B (458,752 eager + 167,936 fused bytes per layer, above)
/// moves 626,688 × 4 × 32 = 80,216,064 bytes per token, fused 167,936 × 4 × 32 = 21,495,808.
/// Without flash attention the softmax reads and writes a·s = 32 × 8,192 scores per token (4
/// bytes each at 16 bits: 1,048,576), also repeated: (626,688 + 1,048,576) × 4 × 32 =
/// 214,433,792. At TP 2 without sequence parallelism the norms stay whole and the rest halves:
/// eager 262,144 + 20 × 2,560 + 4 × 2,560 + 4 × 2,048 + 4 × 7,168 = 360,448 on top of
/// 20h + 6f/2 = 124,928: × 96 = 46,596,096.
#[test]
fn op_level_recompute_repeats_the_eager_kernels_and_tensor_parallelism_splits_them() {
    let g = card("h100-sxm");
    let sac = Layout { recompute: Recompute::Selective, ..Layout::single() };
    let mut s = scenario(
        r#"{"model": "llama-3.1-8b", "task": "pretrain", "precision": "bf16",
        "training": {"seq_len": 8192, "flash_attention": true, "framework": "fsdp", "conventions": {"op_sac": true}}}"#,
    );
    common::assert_close(r_of(&s, &g, &sac), expected_r(&s, &g, 1, 80_216_064.0), 1e-12);
    s.training.flash_attention = false;
    common::assert_close(r_of(&s, &g, &sac), expected_r(&s, &g, 1, 214_433_792.0), 1e-12);
    s.training.flash_attention = true;
    s.training.conventions.fused_kernels = true;
    common::assert_close(r_of(&s, &g, &sac), expected_r(&s, &g, 1, 21_495_808.0), 1e-12);
    let s = scenario(
        r#"{"model": "llama-3.1-8b", "task": "pretrain", "precision": "bf16",
        "training": {"seq_len": 8192, "flash_attention": true, "framework": "fsdp"}}"#,
    );
    let tp2 = Layout { tp: 2, ..Layout::single() };
    common::assert_close(r_of(&s, &g, &tp2), expected_r(&s, &g, 2, 46_596_096.0), 1e-12);
}

/// The token copies of an MoE layer (compute::moe_token_bytes) against the kernel-by-kernel tally
/// of Megatron-Core's all-to-all dispatcher with its fused permutation kernels
/// (docs/research/2026-12-06-megatron-moe-bytes.md §6, Megatron-LM d98e8a64 and
/// TransformerEngine d0067d0d read by hand, not measured): Qwen3-235B-A22B (h 4096, top-8 of
/// 128, expert width 1536), 1,025 KB per token and MoE layer forward and backward, of which
/// the SwiGLU (3 + 5 k·f·w: 192 KB) and the router and aux-loss terms (E-sized: 9 KB) are not
/// token copies: 824 KB left. One card per expert needs no regrouping (the two 4k·h·w sorts
/// each way go); dense models move nothing; a card holds its sequence-parallel share of the
/// tokens unless expert tensor parallelism gathers them back.
#[test]
fn moe_token_copies_follow_megatrons_kernels() {
    use gpu_planner::domain::compute::moe_token_bytes;
    use gpu_planner::domain::framework::Conventions;
    let qwen = Scenario { model: "qwen3-235b-a22b".into(), ..Scenario::default() };
    let m = qwen.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let moe_layers = f64::from(m.layers);
    let c = Conventions { sequence_parallel: true, ..Conventions::default() };
    let at = |tp: u32, dp: u32, ep: u32| {
        let l = Layout { tp, dp, ep, ..Layout::single() };
        moe_token_bytes(&m, &l, &c, 2.0) / moe_layers
    };
    let kb = at(1, 32, 32) / 1024.0;
    assert!((kb - 824.0).abs() <= 0.01 * 824.0, "{kb} KB per token and layer");
    // 128 experts on 128 cards: 2k + 2 + 2k + 5 copies of h values.
    let lone = at(1, 128, 128);
    common::assert_close(lone, (4.0 * 8.0 + 7.0) * 4096.0 * 2.0, 1e-12);
    // Folded over TP 2 (EP 32 over TP × DP of 2 × 16: expert TP 1): half the tokens each.
    common::assert_close(at(2, 16, 32), at(1, 32, 32) / 2.0, 1e-12);
    // Experts split by TP 2 (EP 8 within DP 16): the TP group's tokens gathered back.
    common::assert_close(at(2, 16, 8), at(1, 32, 32), 1e-12);
    let dense = Scenario { model: "qwen2.5-7b".into(), ..Scenario::default() };
    let d = dense.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    assert!(moe_token_bytes(&d, &Layout::single(), &c, 2.0).abs() < f64::MIN_POSITIVE, "a dense model moves no tokens");
    // DeepSeek-V3's first three layers are dense: 58 of 61 layers move tokens.
    let v3 = Scenario { model: "deepseek-v3".into(), ..Scenario::default() };
    let v = v3.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let l = Layout { dp: 64, ep: 64, ..Layout::single() };
    common::assert_close(moe_token_bytes(&v, &l, &c, 2.0), 58.0 * 103.0 * 7168.0 * 2.0, 1e-12);
}
