//! Memory terms held to their published definitions, from memory.rs mutants that survived the
//! rest of the suite.
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::framework::StateDtype;
use gpu_planner::domain::memory::optimizer_bytes;
use gpu_planner::domain::model::preset;
use gpu_planner::domain::scenario::Optimizer;

/// 8-bit AdamW (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization", §2): both
/// moments in 8 bits, quantized in blocks of 2,048 values, each block with one fp32 absmax:
/// 2 × (1 + 4/2048) = 2.00390625 bytes per parameter.
#[test]
fn eight_bit_adam_keeps_one_fp32_scale_per_2048_values() {
    let m = preset("llama-3.1-8b").unwrap_or_else(|| panic!("preset"));
    let got = optimizer_bytes(Optimizer::AdamW8bit, m, StateDtype::Fp32);
    assert!((got - 2.003_906_25).abs() < 1e-12, "{got}");
}

/// Adafactor without momentum (Shazeer & Stern 2018, §3): the second moment of an n × m matrix
/// is kept as its row and column sums, n + m fp32 values instead of n·m. For Llama 3.1 8B's
/// MLP matrices (4,096 × 14,336): 4 · (4,096 + 14,336) bytes per 4,096 · 14,336 parameters.
#[test]
fn adafactor_keeps_row_and_column_sums() {
    let m = preset("llama-3.1-8b").unwrap_or_else(|| panic!("preset"));
    let got = optimizer_bytes(Optimizer::Adafactor, m, StateDtype::Fp32);
    let want = 4.0 * (4096.0 + 14336.0) / (4096.0 * 14336.0);
    assert!((got / want - 1.0).abs() < 1e-12, "{got} vs {want}");
    // Full AdamW at fp32 for comparison: two moments, 8 bytes.
    assert!((optimizer_bytes(Optimizer::AdamW, m, StateDtype::Fp32) - 8.0).abs() < 1e-12);
}

/// Korthikanti et al. 2022, §4.1, term by term: of the 34·s·b·h bytes per layer, 2·sbh are the
/// two 1-byte dropout masks (attention output, MLP output), and of the 5·a·s²·b the 1-byte
/// attention-dropout mask is a·s²·b. With 4-byte activations (fp32 training) everything else
/// doubles and the masks stay: (34 − 2)·2 + 2 = 66 per sbh and (5 − 1)·2 + 1 = 9 per a·s²·b.
/// GPT-3 175B's shape (h 12288, a 96, s 2048, b 1): 5·a·s/h = 80, so 9·a·s/h = 144.
#[test]
fn fp32_activations_double_everything_but_the_dropout_masks() {
    use gpu_planner::domain::memory::{layer_activation_bytes, ActivationShape};
    let x = gpt3(1.0, 4.0);
    let sbh = 2048.0 * 12288.0;
    assert!((layer_activation_bytes(&x, 1, true) / (sbh * (66.0 + 144.0)) - 1.0).abs() < 1e-12);
    assert!((layer_activation_bytes(&x, 1, false) / (sbh * 66.0) - 1.0).abs() < 1e-12);
    // Tensor parallelism without sequence parallelism keeps the norms, their inputs and both
    // masks whole (eq. 4's 10·sbh at 2 bytes): 4 + 4 doubled + 2 masks = 18 per sbh.
    let no_sp = ActivationShape { sequence_parallel: false, ..x };
    let want = sbh * (18.0 + (66.0 - 18.0 + 144.0) / 8.0);
    assert!((layer_activation_bytes(&no_sp, 8, true) / want - 1.0).abs() < 1e-12);
}

/// A MoE token passes through its top-k routed experts and the shared ones (DeepSeek-V3:
/// 8 routed + 1 shared of width 2,048): its MLP activations are 9 experts wide.
#[test]
fn moe_activations_are_routed_plus_shared_experts_wide() {
    use gpu_planner::domain::memory::ActivationShape;
    let m = preset("deepseek-v3").unwrap_or_else(|| panic!("preset"));
    let x = ActivationShape::of(m, 4096, 1, 2.0);
    assert!((x.ffn - 9.0 * 2048.0).abs() < 1e-9, "{}", x.ffn);
}

fn gpt3(batch: f64, bytes: f64) -> gpu_planner::domain::memory::ActivationShape {
    gpu_planner::domain::memory::ActivationShape {
        seq: 2048.0,
        batch,
        hidden: 12288.0,
        heads: 96.0,
        q_width: 12288.0,
        kv_width: 12288.0,
        ffn: 4.0 * 12288.0,
        gated: false,
        dropout: true,
        sequence_parallel: true,
        fused_swiglu: false,
        op_sac: false,
        fp8_gemm_inputs: false,
        frozen_mlp: false,
        recompute_layers: 0,
        bytes,
    }
}

/// A pipeline stage of GPT-3 175B (96 layers, pp 8: 12 layers) holding 8 micro-batches of 2
/// sequences, TP 8 with sequence parallelism (Korthikanti et al. 2022):
/// - no recompute, no flash attention: the scores are kept, eq. 5: sbh·(34 + 5as/h)/t per layer;
/// - full recompute (§4.2): each layer keeps only its input, 2·sbh/t, plus one layer's working
///   set being recomputed (scores included without flash attention).
#[test]
fn a_pipeline_stage_holds_its_layers_times_the_micro_batches_in_flight() {
    use gpu_planner::domain::memory::{stage_activation_bytes, Layout};
    use gpu_planner::domain::scenario::Recompute;
    let x = gpt3(2.0, 2.0);
    let sbh = 2048.0 * 2.0 * 12288.0;
    let l = Layout { tp: 8, pp: 8, dp: 1, ..Layout::single() };
    let kept = stage_activation_bytes(&x, 96, &l, false, 8.0);
    assert!((kept / (12.0 * 8.0 * sbh * (34.0 + 80.0) / 8.0) - 1.0).abs() < 1e-12, "{kept}");
    let full = Layout { recompute: Recompute::Full, ..l };
    let want = 12.0 * 8.0 * 2.0 * sbh / 8.0 + sbh * (34.0 + 80.0) / 8.0;
    let got = stage_activation_bytes(&x, 96, &full, false, 8.0);
    assert!((got / want - 1.0).abs() < 1e-12, "{got} vs {want}");
}

/// Megatron-Core's block recompute (`--recompute-method block --recompute-num-layers 4`) on the
/// same GPT-3 stage: 4 of its 12 layers keep only their input (2·sbh/t), the other 8 keep
/// everything (sbh·(34 + 5as/h)/t without flash attention), each × 8 micro-batches in flight,
/// plus the working set of the layer being recomputed.
#[test]
fn block_recompute_of_some_layers_keeps_the_others_whole() {
    use gpu_planner::domain::memory::{stage_activation_bytes, Layout};
    use gpu_planner::domain::scenario::Recompute;
    let x = gpu_planner::domain::memory::ActivationShape { recompute_layers: 4, ..gpt3(2.0, 2.0) };
    let sbh = 2048.0 * 2.0 * 12288.0;
    let l = Layout { tp: 8, pp: 8, dp: 1, recompute: Recompute::Full, ..Layout::single() };
    let want = 8.0 * (4.0 * 2.0 * sbh / 8.0 + 8.0 * sbh * (34.0 + 80.0) / 8.0) + sbh * (34.0 + 80.0) / 8.0;
    let got = stage_activation_bytes(&x, 96, &l, false, 8.0);
    assert!((got / want - 1.0).abs() < 1e-12, "{got} vs {want}");
    // More layers than the stage has: every layer, as 0 means.
    let all = gpu_planner::domain::memory::ActivationShape { recompute_layers: 40, ..x };
    let every = gpu_planner::domain::memory::ActivationShape { recompute_layers: 0, ..x };
    let (a, b) = (stage_activation_bytes(&all, 96, &l, false, 8.0), stage_activation_bytes(&every, 96, &l, false, 8.0));
    assert!((a / b - 1.0).abs() < 1e-12, "{a} vs {b}");
}

/// LoRA on the attention projections only leaves the MLP frozen: its two GEMMs compute no
/// weight gradient, so neither input is kept — the MLP input (2h bytes per token at 16 bits)
/// and the second GEMM's input (2f): Transformer Engine's LayerNormMLP skips them when the
/// weight needs no gradient (TE PR #739), PyTorch's matmul saves an input only for the other
/// operand's gradient (pytorch#42371). Llama 2 70B (h 8192, f 28672, 80 layers), 8192 tokens,
/// one card, flash attention: 80 · 8192 · (2·8192 + 2·28672) bytes fewer than LoRA on every
/// linear layer, which keeps them all.
#[test]
fn lora_on_attention_keeps_no_input_of_the_frozen_mlp() {
    use gpu_planner::domain::memory::{worst_stage, Layout};
    use gpu_planner::domain::scenario::{LoraTargets, Recompute, Task};
    let mut s = gpu_planner::domain::Scenario { model: "llama-2-70b".into(), task: Task::Lora, ..Default::default() };
    s.training.seq_len = 8192;
    s.training.micro_batch = 1;
    s.training.global_batch = 8;
    s.training.flash_attention = true;
    let m = preset("llama-2-70b").unwrap_or_else(|| panic!("preset"));
    let l = Layout { dp: 8, recompute: Recompute::None, ..Layout::single() };
    s.lora.targets = LoraTargets::AllLinear;
    let every = worst_stage(m, &s, &l).breakdown.activations;
    s.lora.targets = LoraTargets::Attention;
    let attention = worst_stage(m, &s, &l).breakdown.activations;
    let want = 80.0 * 8192.0 * (2.0 * 8192.0 + 2.0 * 28672.0);
    assert!(((every - attention) / want - 1.0).abs() < 1e-9, "{} vs {want}", every - attention);
    // Full fine-tuning trains the MLP: nothing dropped.
    s.task = Task::FullFinetune;
    let full = worst_stage(m, &s, &l).breakdown.activations;
    assert!((full / every - 1.0).abs() < 1e-12, "{full} vs {every}");
}

/// Whisper large-v3 (h = q = kv = 1280, plain 5,120-wide MLP, 32 + 32 layers, 1,500 encoder
/// positions), 448 decoder tokens, 16-bit, flash attention, no dropout. Korthikanti's count for
/// such a layer is 4h (norms) + 10h (attention) + 18h (MLP) = 32h bytes per position, so:
/// - the encoder stack: 32 layers × 1,500 positions × 32h;
/// - the encoder output the decoder reads: 2·1,500·h;
/// - per decoder layer, cross-attention: 448 positions × (4h norm/query inputs + 4q query and
///   projection input) + 1,500 positions × 4·kv (keys and values).
///
/// With pipeline stages each stage holds its share of both stacks; with micro-batches in flight,
/// that many copies; tensor parallelism divides it all.
#[test]
fn encoder_activations_are_the_encoder_stack_its_output_and_the_cross_attention() {
    use gpu_planner::domain::memory::{encoder_activation_bytes, ActivationShape, Layout};
    use gpu_planner::domain::scenario::Recompute;
    let m = preset("whisper-large-v3").unwrap_or_else(|| panic!("preset"));
    let x = ActivationShape::of(m, 448, 1, 2.0);
    let h = 1280.0;
    let stack = 32.0 * 1500.0 * 32.0 * h;
    let output = 2.0 * 1500.0 * h;
    let cross = 32.0 * (448.0 * (4.0 * h + 4.0 * h) + 1500.0 * 4.0 * h);
    let one = Layout::single();
    let got = encoder_activation_bytes(m, &x, &one, true, 1.0);
    assert!((got / (stack + output + cross) - 1.0).abs() < 1e-12, "{got} vs {}", stack + output + cross);
    // Two stages, two micro-batches in flight, TP 2: half the layers, twice, halved.
    let l = Layout { tp: 2, pp: 2, ..one };
    let got = encoder_activation_bytes(m, &x, &l, true, 2.0);
    assert!((got / ((stack + output * 2.0 + cross) / 2.0) - 1.0).abs() < 1e-12, "{got}");
    // Full recompute keeps each encoder layer's input and the encoder output, not the
    // cross-attention tensors (recomputed from the decoder layer's input).
    let full = Layout { recompute: Recompute::Full, ..one };
    let want = 32.0 * 2.0 * 1500.0 * h + 1500.0 * 32.0 * h + output;
    let got = encoder_activation_bytes(m, &x, &full, true, 1.0);
    assert!((got / want - 1.0).abs() < 1e-12, "{got} vs {want}");
    // Context parallelism splits the encoder's positions too.
    let cp = Layout { cp: 2, ..one };
    let got = encoder_activation_bytes(m, &x, &cp, true, 1.0);
    assert!((got / ((stack + output + cross) / 2.0) - 1.0).abs() < 1e-12, "{got}");
    // Without flash attention (and no recompute) the cross-attention scores are kept too:
    // heads · 448 · 1,500 · 2 B per decoder layer.
    let got = encoder_activation_bytes(m, &x, &one, false, 1.0);
    let scores_enc = 32.0 * 20.0 * 1500.0 * 1500.0 * 2.0;
    let scores_cross = 32.0 * 20.0 * 448.0 * 1500.0 * 2.0;
    assert!((got / (stack + output + cross + scores_enc + scores_cross) - 1.0).abs() < 1e-12, "{got}");
    // Two sequences of fp32 activations: every term is per sequence and per byte of a value
    // (Whisper has no dropout masks, the one 1-byte term), so each case holds four times as much.
    let x4 = ActivationShape::of(m, 448, 2, 4.0);
    for (l, flash, in_flight) in
        [(one, true, 1.0), (l, true, 2.0), (full, true, 1.0), (cp, true, 1.0), (one, false, 1.0)]
    {
        let (a, b) = (
            encoder_activation_bytes(m, &x, &l, flash, in_flight),
            encoder_activation_bytes(m, &x4, &l, flash, in_flight),
        );
        assert!((b / (4.0 * a) - 1.0).abs() < 1e-12, "{l:?} flash {flash}: {b} vs 4 × {a}");
    }
}

/// LoRA on every linear layer (Hu et al. 2021: r·(d_in + d_out) per adapted matrix), Mixtral
/// 8x7B's published shape (h 4096, 32 heads and 8 KV heads of 128, experts 14,336 wide, 8 per
/// layer, 32 layers), rank 16: per layer q and o 2·(4096 + 4096), k and v 2·(4096 + 1024), and
/// three matrices of (4096 + 14336) in each of the 8 experts. (PEFT's "all-linear" would also
/// adapt the 4096 × 8 router, 0.03% more; the planner leaves it out.) And a plain two-matrix
/// MLP (GPT-style) has two adapted MLP matrices per layer, not three.
#[test]
fn lora_on_all_linear_layers_counts_every_expert() {
    use gpu_planner::domain::memory::lora_params;
    use gpu_planner::domain::scenario::LoraTargets;
    let m = preset("mixtral-8x7b").unwrap_or_else(|| panic!("preset"));
    let per_layer = 2.0 * 8192.0 + 2.0 * 5120.0 + 8.0 * 3.0 * (4096.0 + 14336.0);
    let want = 16.0 * per_layer * 32.0;
    assert!((lora_params(m, 16, LoraTargets::AllLinear) / want - 1.0).abs() < 1e-12);
    // Shared experts (DeepSeek, Qwen-MoE) carry adapters too: two more experts per layer.
    let mut shared = m.as_custom();
    if let Some(e) = shared.moe.as_mut() {
        e.shared_experts = 2;
    }
    let extra = 16.0 * 2.0 * 3.0 * (4096.0 + 14336.0) * 32.0;
    assert!((lora_params(&shared, 16, LoraTargets::AllLinear) / (want + extra) - 1.0).abs() < 1e-12);
    let mut plain = preset("llama-3.1-8b").unwrap_or_else(|| panic!("preset")).as_custom();
    plain.gated_mlp = false;
    let per_layer = 2.0 * 8192.0 + 2.0 * 5120.0 + 2.0 * (4096.0 + 14336.0);
    let got = lora_params(&plain, 16, LoraTargets::AllLinear);
    assert!((got / (16.0 * per_layer * 32.0) - 1.0).abs() < 1e-12, "{got}");
}

/// Pipeline stages are not equal (Narayanan et al. 2021; Megatron-LM): the first holds the input
/// embedding, the last the output layer, each besides its ceil(L / pp) transformer layers.
/// Llama 3.1 8B (32 layers, vocab 128,256 × 4,096, untied head) on 4 stages: 8 layers each.
#[test]
fn pipeline_ends_hold_the_embedding_and_the_output_layer() {
    use gpu_planner::domain::memory::Stage;
    let m = preset("llama-3.1-8b").unwrap_or_else(|| panic!("preset"));
    let p = m.params();
    let emb = 128_256.0 * 4096.0;
    let per_layer = (p.total - 2.0 * emb) / 32.0;
    for stage in [Stage::First, Stage::Last] {
        let (params, embedding) = stage.params(m, &p, 4);
        assert!((params / (8.0 * per_layer + emb) - 1.0).abs() < 1e-12, "{stage:?}: {params}");
        assert!((embedding - emb).abs() < 1.0);
    }
    assert_eq!(Stage::Only.params(m, &p, 1), (p.total, p.embedding));
}

/// Activations are stored in the compute precision: 4 bytes in fp32/tf32 training, 2 in
/// bf16/fp16, and 2 in FP8 training (Transformer Engine keeps activations in 16 bits between
/// its FP8 GEMMs).
#[test]
fn activations_are_stored_in_the_compute_precision() {
    use gpu_planner::domain::memory::activation_value_bytes;
    use gpu_planner::domain::scenario::Precision;
    use gpu_planner::domain::Scenario;
    for (p, bytes) in [(Precision::Fp32, 4.0), (Precision::Tf32, 4.0), (Precision::Bf16, 2.0), (Precision::Fp8, 2.0)] {
        let s = Scenario { precision: p, ..Scenario::default() };
        assert!((activation_value_bytes(&s) - bytes).abs() < 1e-12, "{p:?}");
    }
}

/// The unit a ZeRO-3/FSDP rank gathers: per module (DeepSpeed's estimator), the largest single
/// weight matrix — for T5-11B's shape (d_model 1024, d_ff 65,536, 128 heads × 128, vocab
/// 32,128) the MLP's 1024 × 65,536, larger than the 32,128 × 1024 embedding; per block (FSDP's
/// auto-wrap of a decoder layer), one whole block with all its experts — DeepSeek-V3's MoE blocks
/// dwarf its embedding.
#[test]
fn the_gathered_unit_is_the_largest_matrix_or_block() {
    use gpu_planner::domain::memory::largest_layer_params;
    let mut t5 = preset("flan-t5-xxl").unwrap_or_else(|| panic!("preset")).as_custom();
    (t5.hidden, t5.intermediate, t5.heads, t5.kv_heads, t5.head_dim) = (1024, 65_536, 128, 128, Some(128));
    assert!((largest_layer_params(&t5, true) - 1024.0 * 65_536.0).abs() < 1.0);
    // The same attention with a narrow MLP and a small vocabulary: the query projection,
    // 1024 × (128 heads × 128), is now the widest matrix.
    (t5.intermediate, t5.vocab) = (512, 1000);
    assert!((largest_layer_params(&t5, true) - 1024.0 * 16_384.0).abs() < 1.0);
    let v3 = preset("deepseek-v3").unwrap_or_else(|| panic!("preset"));
    let c = v3.computed_params();
    let block = (c.total - c.embedding) / 61.0;
    assert!(block > 10.0 * 129_280.0 * 7168.0, "a MoE block is far larger than the embedding");
    assert!((largest_layer_params(v3, false) / block - 1.0).abs() < 1e-12);
}

/// The runtime reserve is whole GiB on top of the fragmentation share (2 GiB here, so a
/// reserve added rather than multiplied shows).
#[test]
fn the_runtime_reserve_is_counted_in_gib() {
    use gpu_planner::domain::memory::total_with_overhead;
    use gpu_planner::domain::Scenario;
    let mut s = Scenario::default();
    (s.efficiency.runtime_gib, s.efficiency.fragmentation) = (2.0, 0.05);
    let gib = 1024.0_f64.powi(3);
    assert!((total_with_overhead(10.0 * gib, &s) - (10.5 * gib + 2.0 * gib)).abs() < 0.5);
}

/// Pure fp32 training keeps no master copy: 4 B weights + 4 B gradients + 8 B Adam moments =
/// 16 B per parameter (Rajbhandari et al. 2019 count 16 B for mixed precision because of the
/// fp32 master copy beside 2 B weights and gradients; fp32 has none). And ZeRO-3 with the
/// parameters offloaded keeps none of them on the card beyond the gathered layers.
#[test]
fn fp32_training_has_no_master_copy_and_offloaded_parameters_leave_the_card() {
    use gpu_planner::domain::framework::{Conventions, Framework};
    use gpu_planner::domain::memory::{training_states, Layout, Stage};
    use gpu_planner::domain::scenario::{Offload, Precision};
    use gpu_planner::domain::Scenario;
    let mut s = Scenario { precision: Precision::Fp32, ..Scenario::default() };
    s.training.set_framework(Framework::Custom);
    s.training.conventions = Conventions::of(Framework::Custom);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let b = training_states(&m, &s, &Layout::single(), Stage::Only);
    let psi = m.params().total;
    assert!(b.master_weights.abs() < 1.0, "{}", b.master_weights);
    assert!(((b.weights + b.gradients + b.optimizer) / (16.0 * psi) - 1.0).abs() < 1e-9);
    s.precision = Precision::Bf16;
    let l = Layout { dp: 8, zero: 3, offload: Offload::OptimizerAndParams, ..Layout::single() };
    let on = training_states(&m, &s, &Layout { offload: Offload::Optimizer, ..l }, Stage::Only).weights;
    let off = training_states(&m, &s, &l, Stage::Only).weights;
    assert!(off < on, "{off} vs {on}");
}

/// A scenario under `framework`'s conventions (`set_framework` applies them).
fn under(
    model: &str,
    task: gpu_planner::domain::scenario::Task,
    framework: gpu_planner::domain::framework::Framework,
) -> gpu_planner::domain::Scenario {
    let mut s = gpu_planner::domain::Scenario { model: model.into(), task, ..Default::default() };
    s.training.set_framework(framework);
    s
}

fn lora_scenario(framework: gpu_planner::domain::framework::Framework) -> gpu_planner::domain::Scenario {
    use gpu_planner::domain::scenario::{LoraTargets, Task};
    let mut s = under("llama-3.1-8b", Task::Lora, framework);
    (s.lora.rank, s.lora.targets) = (16, LoraTargets::Qv);
    s
}

/// LoRA r = 16 on q and v of Llama 3.1 8B: peft prints "trainable params: 6,815,744"
/// (32 layers × 16 · ((4096 + 4096) + (4096 + 1024))), kept in fp32 (peft's
/// autocast_adapter_dtype), so 4 B of gradients each. Tensor parallelism splits the frozen base
/// and the adapters alike; a pipeline stage of 3 holds ⌈32/3⌉ = 11 of the 32 layers' adapters.
#[test]
fn lora_adapters_split_over_tensor_and_pipeline_ranks() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::memory::{training_states, Layout, Stage};
    let s = lora_scenario(Framework::Fsdp);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    let one = Layout::single();
    let only = training_states(m, &s, &one, Stage::Only);
    assert!((only.gradients - 4.0 * 6_815_744.0).abs() < 1.0, "{}", only.gradients);
    let tp2 = training_states(m, &s, &Layout { tp: 2, ..one }, Stage::Only);
    assert!((tp2.gradients / only.gradients - 0.5).abs() < 1e-12);
    assert!((tp2.weights / only.weights - 0.5).abs() < 1e-12, "base and adapters both halve");
    let pp3 = training_states(m, &s, &Layout { pp: 3, ..one }, Stage::Last);
    assert!((pp3.gradients / only.gradients - 11.0 / 32.0).abs() < 1e-12, "{}", pp3.gradients / only.gradients);
    // Adapters kept in bf16 under mixed precision get an fp32 master copy, 4 B each.
    let mut s = lora_scenario(Framework::DeepSpeed);
    s.training.conventions.adapter_fp32 = false;
    s.training.master_weights = true;
    let b = training_states(m, &s, &one, Stage::Only);
    assert!((b.master_weights - 4.0 * 6_815_744.0).abs() < 1.0, "{}", b.master_weights);
    // ZeRO-1 over two ranks shards that copy.
    let b = training_states(m, &s, &Layout { dp: 2, zero: 1, ..one }, Stage::Only);
    assert!((b.master_weights - 2.0 * 6_815_744.0).abs() < 1.0, "{}", b.master_weights);
}

/// FSDP keeps fp32 parameters and, unsharded, autocast's 16-bit copy: 4 + 2 B per parameter
/// of this card. With experts over two cards (EP 2) that is every shared parameter and half of
/// the routed experts', for both copies (Mixtral 8x7B).
#[test]
fn autocast_copies_only_this_cards_experts() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::memory::{training_states, Layout, Stage};
    use gpu_planner::domain::scenario::Task;
    let s = under("mixtral-8x7b", Task::FullFinetune, Framework::Fsdp);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    let total = m.params().total;
    let routed = m.routed_expert_fraction();
    assert!(routed > 0.9, "Mixtral's experts are most of it: {routed}");
    let here = total * (1.0 - routed / 2.0);
    let l = Layout { dp: 2, ep: 2, zero: 1, ..Layout::single() };
    let b = training_states(m, &s, &l, Stage::Only);
    assert!((b.weights / (6.0 * here) - 1.0).abs() < 1e-12, "{} vs {}", b.weights, 6.0 * here);
}

/// A model share smaller than the unit ZeRO-3/FSDP gathers: a one-layer MoE with a tiny
/// vocabulary (its block, all eight experts, is nearly the whole model) and its experts over
/// two cards, so this card holds about half the block. FSDP gathers the current block and the
/// prefetched one, but a card cannot hold more gathered weights than its own share of the
/// model; gradients kept one layer at a time (the optimizer stepping in the backward pass)
/// likewise.
#[test]
fn a_model_share_smaller_than_the_gathered_units_is_gathered_once() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::memory::{largest_layer_params, training_states, Layout, Stage};
    use gpu_planner::domain::scenario::Task;
    let mut m = preset("mixtral-8x7b").unwrap_or_else(|| panic!("preset")).as_custom();
    (m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.intermediate, m.vocab) = (1, 512, 8, 8, None, 1024, 1000);
    (m.tied_embeddings, m.params_b, m.active_params_b) = (true, None, None);
    if let Some(e) = m.moe.as_mut() {
        e.expert_intermediate = 1024;
    }
    let mut s = under("custom", Task::FullFinetune, Framework::Fsdp);
    s.custom_model = m.clone();
    s.training.conventions.optimizer_in_backward = true;
    let total = m.params().total;
    let here = total * (1.0 - m.routed_expert_fraction() / 2.0);
    let block = largest_layer_params(&m, false);
    assert!(block > here, "the block ({block}) exceeds this card's share ({here})");
    let b = training_states(&m, &s, &Layout { dp: 2, ep: 2, zero: 3, ..Layout::single() }, Stage::Only);
    // fp32 parameters sharded over the two ranks, plus the gathered 16-bit share.
    let want = 4.0 * total / 2.0 + 2.0 * here;
    assert!((b.weights / want - 1.0).abs() < 1e-12, "{} vs {want}", b.weights);
    // fp32 gradients (FSDP's), one unit at a time, capped the same way.
    assert!((b.gradients / (4.0 * here) - 1.0).abs() < 1e-12, "{}", b.gradients);
    // DeepSpeed ZeRO-2's reduce bucket (5e8 elements) never holds more than the card's own
    // gradients: here, all of them at 16 bits.
    s.training.set_framework(Framework::DeepSpeed);
    assert!(s.training.conventions.bucket_elems > here);
    let b = training_states(&m, &s, &Layout { dp: 2, ep: 2, zero: 2, ..Layout::single() }, Stage::Only);
    assert!((b.buffers / (2.0 * here) - 1.0).abs() < 1e-12, "{}", b.buffers);
    // ZeRO-1 has no reduce bucket.
    let b = training_states(&m, &s, &Layout { dp: 2, zero: 1, ..Layout::single() }, Stage::Only);
    assert!(b.buffers.abs() < 1e-9, "{}", b.buffers);
    // ZeRO-3 over TP 2: the bucket and the prefetch (5e7 elements) are each capped by the
    // rank's half of this small model: 2 B × total/2 each.
    let b = training_states(&m, &s, &Layout { tp: 2, dp: 2, zero: 3, ..Layout::single() }, Stage::Only);
    assert!((b.buffers / (2.0 * total) - 1.0).abs() < 1e-12, "{} vs {}", b.buffers, 2.0 * total);
}

/// ZeRO-3's prefetch bucket on a tensor-parallel rank: DeepSpeed's 5e7 elements of the rank's
/// own shard, 2 B each, beside the 5e8-element reduce bucket (Llama 3.1 8B, TP 2).
#[test]
fn the_zero3_prefetch_bucket_is_per_tensor_parallel_rank() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::memory::{training_states, Layout, Stage};
    use gpu_planner::domain::scenario::Task;
    let s = under("llama-3.1-8b", Task::FullFinetune, Framework::DeepSpeed);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    let b = training_states(m, &s, &Layout { tp: 2, dp: 4, zero: 3, ..Layout::single() }, Stage::Only);
    let want = 2.0 * 5e8 + 2.0 * 5e7 / 2.0;
    assert!((b.buffers / want - 1.0).abs() < 1e-12, "{} vs {want}", b.buffers);
}

/// Serving memory per card, term by term (Mixtral 8x7B, 16-bit, 8 users of 1,024 + 256
/// tokens, TP 4 × PP 2 with the experts over 2 attention groups): the weights are the shared
/// part plus half the routed experts, over TP·PP; each group serves half the users; the KV cache
/// (32 layers × 8 KV heads × 128 × K,V × 2 B = 131,072 B a token) splits its 8 KV heads over
/// TP 4 and its layers over PP 2; fp32 logits of the last position per user over TP; and one
/// prompt's prefill working set (2h + 3·ffn/TP per token, 2 B, ffn the token's two experts).
#[test]
fn serving_memory_splits_weights_cache_and_logits_over_its_layout() {
    use gpu_planner::domain::memory::{inference, Layout};
    use gpu_planner::domain::scenario::Task;
    let mut s =
        gpu_planner::domain::Scenario { model: "mixtral-8x7b".into(), task: Task::Inference, ..Default::default() };
    (s.inference.concurrent, s.inference.context, s.inference.output_tokens) = (8, 1024, 256);
    s.precision = gpu_planner::domain::scenario::Precision::Bf16;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    let b = inference(m, &s, &Layout { tp: 4, pp: 2, ep: 2, ..Layout::single() });
    let total = m.params().total;
    let weights = 2.0 * total * (1.0 - m.routed_expert_fraction() / 2.0) / 8.0;
    assert!((b.weights / weights - 1.0).abs() < 1e-12, "{} vs {weights}", b.weights);
    let kv = 131_072.0 * 1280.0 * 4.0 * 0.25 / 2.0;
    assert!((b.kv_cache / kv - 1.0).abs() < 1e-12, "{} vs {kv}", b.kv_cache);
    let logits = 4.0 * 32_000.0 * 4.0 / 4.0;
    assert!((b.logits / logits - 1.0).abs() < 1e-12, "{} vs {logits}", b.logits);
    // Each token runs its two experts' MLPs: ffn = 2 × 14,336.
    let prefill = 1024.0 * (2.0 * 4096.0 + 3.0 * 2.0 * 14_336.0 / 4.0) * 2.0;
    assert!((b.activations / prefill - 1.0).abs() < 1e-12, "{} vs {prefill}", b.activations);
}

/// Gemma 2 9B alternates sliding-window (4,096) and global attention layers (Gemma Team 2024,
/// §2): 42 layers × 8 KV heads × 256 × K,V × 2 B = 344,064 B a token, but past 4,096 tokens only
/// the 21 global layers keep growing: 8,192 tokens hold 21 × 8,192 + 21 × 4,096 layer-tokens of
/// 8,192 B; 2,048 tokens (inside the window) hold every layer's.
#[test]
fn sliding_window_layers_stop_growing_at_the_window() {
    use gpu_planner::domain::memory::kv_cache_bytes;
    let m = preset("gemma-2-9b").unwrap_or_else(|| panic!("preset"));
    let long = kv_cache_bytes(m, 8192.0, 2.0);
    assert!((long - 21.0 * 8192.0 * (8192.0 + 4096.0)).abs() < 1.0, "{long}");
    let short = kv_cache_bytes(m, 2048.0, 2.0);
    assert!((short - 42.0 * 2048.0 * 8192.0).abs() < 1.0, "{short}");
}

/// The seeds' rule of thumb beside the itemised figure: parameters × bytes × 3–6 for training,
/// × 1.2 for serving; QLoRA counts the NF4 base (4 bits + a double-quantized scale).
#[test]
fn the_rule_of_thumb_is_parameters_times_bytes_times_the_factor() {
    use gpu_planner::domain::memory::quick_rule;
    use gpu_planner::domain::scenario::Task;
    let mut s = gpu_planner::domain::Scenario { model: "llama-3.1-8b".into(), ..Default::default() };
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let psi = m.params().total;
    for (task, bytes, lo, hi) in [
        (Task::FullFinetune, 2.0, 3.0, 6.0),
        (Task::Inference, 2.0, 1.2, 1.2),
        (Task::Qlora, (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0, 1.5, 3.0),
    ] {
        s.task = task;
        let q = quick_rule(&m, &s);
        assert!((q.low / (psi * bytes * lo) - 1.0).abs() < 1e-12, "{task:?} low {}", q.low);
        assert!((q.high / (psi * bytes * hi) - 1.0).abs() < 1e-12, "{task:?} high {}", q.high);
    }
}

/// Every breakdown's overhead is the runtime reserve in whole GiB plus the fragmentation share.
#[test]
fn every_breakdown_carries_the_runtime_reserve_and_fragmentation() {
    use gpu_planner::domain::memory::{inference, Layout};
    use gpu_planner::domain::scenario::Task;
    let mut s =
        gpu_planner::domain::Scenario { model: "llama-3.1-8b".into(), task: Task::Inference, ..Default::default() };
    (s.efficiency.runtime_gib, s.efficiency.fragmentation) = (2.0, 0.05);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    let b = inference(m, &s, &Layout::single());
    let sum = b.total - b.overhead;
    assert!((b.overhead - (2.0 * 1024.0_f64.powi(3) + 0.05 * sum)).abs() < 0.5, "{}", b.overhead);
}

/// Megatron-Core's own accounting (megatron/training/theoretical_memory_usage.py,
/// `compute_activation_memory`): the first stage holds s·b·h·(18 + 4·ffn/h) bytes per layer
/// for all L layers (p micro-batches of L/p layers each), plus the embedding's 8·s·b·p and
/// s·b·h·p, times the interleaved schedule's 1 + (p − 1)/(p·v), all divided by t (sequence
/// parallelism). Exact for GPT-style layers (multi-head attention, plain MLP, dropout):
/// GPT-3 175B at TP 8, PP 16, one 2,048-token sequence per micro-batch.
#[test]
fn first_stage_activations_follow_megatron_cores_accounting_under_interleaving() {
    use gpu_planner::domain::framework::{Conventions, Framework};
    use gpu_planner::domain::memory::{training, Layout};
    use gpu_planner::domain::scenario::{Recompute, Task};
    use gpu_planner::domain::Scenario;
    let (s_len, h, layers, p, t) = (2048.0, 12288.0, 96.0, 16.0, 8.0);
    for v in [1u32, 2, 3, 6] {
        let mut s = Scenario { task: Task::Pretrain, ..Scenario::default() };
        s.model = "custom".into();
        s.custom_model = gpu_planner::domain::ModelSpec {
            layers: 96,
            hidden: 12288,
            heads: 96,
            kv_heads: 96,
            intermediate: 4 * 12288,
            vocab: 51200,
            gated_mlp: false,
            tied_embeddings: true,
            ..s.custom_model.clone()
        };
        s.training.set_framework(Framework::Megatron);
        assert_eq!(s.training.conventions, Conventions::of(Framework::Megatron));
        s.training.seq_len = 2048;
        s.training.global_batch = 1536;
        s.parallel.virtual_stages = v;
        let l = Layout { tp: 8, pp: 16, dp: 8, recompute: Recompute::None, ..Layout::single() };
        let got = training(s.model_spec().expect("model"), &s, &l).activations;
        let penalty = if v > 1 { 1.0 + (p - 1.0) / (p * f64::from(v)) } else { 1.0 };
        let megatron = (s_len * h * (18.0 + 4.0 * 4.0) * layers + 8.0 * s_len * p + s_len * h * p) * penalty / t;
        assert!((got / megatron - 1.0).abs() < 0.01, "v {v}: {got} vs Megatron-Core {megatron}");
    }
}

/// A fused SwiGLU keeps [gate, up] and the product (3·f values per token, 6·f bytes at 16 bits),
/// one f-wide tensor fewer than eager PyTorch, which keeps gate, SiLU(gate), up and the product
/// (Megatron-Core `BiasSwiGLUFunction.forward` saves only its input).
#[test]
fn fused_swiglu_saves_one_ffn_wide_tensor_per_token() {
    use gpu_planner::domain::memory::{layer_activation_bytes, ActivationShape};
    let m = preset("llama-3.1-8b").expect("preset");
    let eager = ActivationShape::of(m, 4096, 1, 2.0);
    let fused = ActivationShape { fused_swiglu: true, ..eager };
    let saved = layer_activation_bytes(&eager, 1, false) - layer_activation_bytes(&fused, 1, false);
    assert!((saved - 2.0 * 4096.0 * f64::from(m.intermediate)).abs() < 1.0, "{saved}");
}

/// The framework's name brings those conventions: Megatron-Core fuses SwiGLU (its GPT layer specs
/// use `bias_swiglu_fusion`, the saving above) and keeps LoRA adapters in the model's dtype with
/// an fp32 master copy; DeepSpeed with peft runs eager SwiGLU and keeps adapters in fp32
/// (`autocast_adapter_dtype`). A Llama 3.1 8B layer at 4,096 tokens under Megatron keeps
/// 2 × 4,096 × 14,336 bytes less than it would unfused.
#[test]
fn megatron_fuses_swiglu_and_keeps_adapters_in_the_model_dtype() {
    use gpu_planner::domain::framework::{Conventions, Framework};
    use gpu_planner::domain::memory::{layer_activation_bytes, ActivationShape};
    let (mega, ds) = (Conventions::of(Framework::Megatron), Conventions::of(Framework::DeepSpeed));
    assert!(mega.fused_swiglu && !mega.adapter_fp32, "{mega:?}");
    assert!(!ds.fused_swiglu && ds.adapter_fp32, "{ds:?}");
    let m = preset("llama-3.1-8b").expect("preset");
    let of = |c: &Conventions| ActivationShape::of(m, 4096, 1, 2.0).with(c);
    let unfused = Conventions { fused_swiglu: false, ..mega };
    let saved = layer_activation_bytes(&of(&unfused), 1, false) - layer_activation_bytes(&of(&mega), 1, false);
    assert!((saved - 2.0 * 4096.0 * 14_336.0).abs() < 1.0, "{saved}");
}

/// Each framework name brings the conventions its code uses (the sources are cited in
/// framework.rs): DeepSpeed holds full 16-bit gradients under ZeRO-2 until the reduce, gathers one
/// module at a time under ZeRO-3 and keeps fp32 master weights; torchtune keeps bf16 AdamW states,
/// steps the optimizer inside the backward pass, chunks the loss, prefetches one FSDP2 unit ahead
/// (two gathered), keeps LoRA adapters in bf16 and no fp32 master copy; FSDP keeps fp32
/// parameters (no separate master copy either).
#[test]
fn each_framework_name_brings_its_conventions() {
    use gpu_planner::domain::framework::{Conventions, Framework};
    let ds = Conventions::of(Framework::DeepSpeed);
    assert!(ds.zero2_full_grads && ds.gather_per_module && ds.fp32_grad_partition, "{ds:?}");
    assert!((ds.gathered_layers - 1.0).abs() < 1e-12 && (ds.bucket_elems - 5e8).abs() < 1.0, "{ds:?}");
    let tt = Conventions::of(Framework::Torchtune);
    assert_eq!(tt.optimizer_state, StateDtype::Bf16);
    assert!(tt.optimizer_in_backward && tt.chunked_loss && !tt.adapter_fp32, "{tt:?}");
    assert!((tt.gathered_layers - 2.0).abs() < 1e-12, "{tt:?}");
    let base = Conventions::of(Framework::Custom);
    assert!(!base.zero2_full_grads && !base.optimizer_in_backward && !base.chunked_loss && base.adapter_fp32);
    assert!(Conventions::default_master_weights(Framework::DeepSpeed));
    assert!(Conventions::default_master_weights(Framework::Megatron));
    assert!(!Conventions::default_master_weights(Framework::Torchtune));
    assert!(!Conventions::default_master_weights(Framework::Fsdp));
}

/// torchtitan's op-level selective recompute (`selective_ac_option = "op"`, its
/// `_apply_ac_to_transformer_block`) saves of each block its input and the outputs of the SDPA
/// kernel and of every other matmul in forward order — Q and V of Q, K, V, O; w1 and w2 of w1,
/// w3, w2 — and recomputes the rest. Llama 3.1 8B (h 4096, q 4096, kv 1024, ffn 14336), 8192
/// tokens × 2 per micro-batch, 16-bit: 4096 + 4096 + 4096 + 1024 + 14336 + 4096 = 31,744 values
/// a token, × 32 layers, plus the working set of the one layer the backward is recomputing —
/// which is what Megatron's selective recompute keeps of every layer (its figure ÷ 32).
#[test]
fn op_level_selective_recompute_keeps_every_second_matmul_output() {
    use gpu_planner::domain::memory::{worst_stage, Layout};
    use gpu_planner::domain::scenario::{Recompute, Task};
    let mut s =
        gpu_planner::domain::Scenario { model: "llama-3.1-8b".into(), task: Task::Pretrain, ..Default::default() };
    s.training.seq_len = 8192;
    s.training.micro_batch = 2;
    s.training.global_batch = 16;
    s.training.flash_attention = true;
    let m = preset("llama-3.1-8b").unwrap_or_else(|| panic!("preset"));
    let l = Layout { dp: 8, recompute: Recompute::Selective, ..Layout::single() };
    let megatron = worst_stage(m, &s, &l).breakdown.activations;
    s.training.conventions.op_sac = true;
    let op = worst_stage(m, &s, &l).breakdown.activations;
    let want = 32.0 * 8192.0 * 2.0 * 31_744.0 * 2.0 + megatron / 32.0;
    assert!((op / want - 1.0).abs() < 1e-9, "{op} vs {want}");
    assert!(op < megatron, "keeps less than Megatron's selective: {op} vs {megatron}");
}
