//! Encoder–decoder models (T5, Flan-T5, mT0, Whisper): parameters, LoRA adapters, FLOPs, the
//! cross-attention cache and decoding, held to published figures or to the architecture's own
//! arithmetic (Vaswani et al. 2017; Raffel et al. 2020; Radford et al. 2022).
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::{assert_close, report};
use gpu_planner::domain::compute::training_flops;
use gpu_planner::domain::memory::lora_params;
use gpu_planner::domain::model::preset;
use gpu_planner::domain::scenario::{CardFilter, LoraTargets, Task};
use gpu_planner::domain::serving::Engine;
use gpu_planner::domain::{Catalog, ModelSpec, Scenario};

fn model(id: &str) -> ModelSpec {
    preset(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

/// PEFT's `print_trainable_parameters()` for Flan-T5-XXL with LoRA r = 16 on q and v
/// (P. Schmid, "Efficient Large Language Model training with LoRA and Hugging Face", 2023,
/// reproduced in many public copies): "trainable params: 18874368 || all params: 11154206720".
/// The adapters sit in the encoder's and the decoder's self-attention and in the decoder's
/// cross-attention: 72 modules × 16 × (2·4096 + 2·4096). All params less the adapters is the
/// base model, 11,135,332,352 (T5's relative-position tables and norms, ~0.01%, not counted).
#[test]
fn flan_t5_xxl_lora_adapters_match_peft() {
    let m = model("flan-t5-xxl");
    assert_close(lora_params(&m, 16, LoraTargets::Qv), 18_874_368.0, 0.0);
    assert_close(m.computed_params().total, 11_154_206_720.0 - 18_874_368.0, 0.001);
}

/// Training FLOPs: 6 per parameter per position each stack processes (Kaplan et al. 2020, applied
/// to each stack), so with the encoder reading 4× the decoder's length its parameters weigh 4×;
/// at equal lengths the count is plain 6·N. The attention term adds the encoder's
/// self-attention (enc² / dec per decoder token) and the decoder's cross-attention.
#[test]
fn each_stack_counts_its_own_positions() {
    let m = model("flan-t5-large");
    let n = m.params().active;
    let enc = n * m.encoder_fraction();
    assert!((0.35..0.5).contains(&m.encoder_fraction()), "{}", m.encoder_fraction());
    assert_close(training_flops(&m, Task::FullFinetune, 512, 1.0, false), 6.0 * n, 1e-12);
    assert_close(training_flops(&m, Task::FullFinetune, 128, 1.0, false), 6.0 * (n - enc + 4.0 * enc), 1e-12);
    let width = 16.0 * 64.0;
    let attention = 12.0 * width * (24.0 * 128.0 + 24.0 * 512.0 + 24.0 * 512.0 * 512.0 / 128.0);
    let with = training_flops(&m, Task::FullFinetune, 128, 1.0, true);
    assert_close(with - training_flops(&m, Task::FullFinetune, 128, 1.0, false), attention, 1e-12);
}

fn whisper_serving(card: &str) -> Scenario {
    let mut s = Scenario {
        task: Task::Inference,
        model: "whisper-large-v3".into(),
        cards: CardFilter { only: vec![card.into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    s.inference.context = 4;
    s.inference.output_tokens = 200;
    s.inference.concurrent = 1;
    s
}

fn l4() -> gpu_planner::domain::Gpu {
    Catalog::embedded().gpu("l4").cloned().unwrap_or_else(|| panic!("l4"))
}

/// Whisper large-v3 served from one L4.
fn whisper_on_l4(s: &Scenario) -> Engine {
    Engine::new(&model("whisper-large-v3"), s, &l4(), 1, 1).unwrap_or_else(|| panic!("fits an L4"))
}

/// Every request keeps the encoder output's keys and values in each decoder layer's
/// cross-attention: 2 · 32 layers · 1,500 frames · 1,280 · 2 B = 245.8 MB for Whisper large-v3,
/// beside its own tokens' self-attention cache of the same size per token.
#[test]
fn whisper_requests_hold_the_cross_attention_cache() {
    let s = whisper_serving("l4");
    let r = report(&s);
    let v = r.cards.first().unwrap_or_else(|| panic!("planned"));
    let per_position = 2.0 * 32.0 * 1280.0 * 2.0;
    assert_close(v.memory.kv_cache, per_position * (1500.0 + 4.0 + 200.0), 1e-9);
    let c = v.serving.clone().unwrap_or_else(|| panic!("a serving plan"));
    // Whole requests in the cache (each holds its 1,500 encoder positions too).
    assert_close(c.max_concurrency, (c.kv_tokens / (1500.0 + 4.0 + 200.0)).floor().min(256.0), 1e-12);
}

/// A decode step reads the decoder's weights and the cache, not the encoder's weights: those are
/// read only by a step that encodes a new request.
#[test]
fn whisper_decoding_reads_only_the_decoder() {
    let s = whisper_serving("l4");
    let m = model("whisper-large-v3");
    let g = l4();
    let e = whisper_on_l4(&s);
    let bw = g.memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9 * s.efficiency.decode_bandwidth;
    let weights = m.params().total * 2.0;
    let decoder = weights * (1.0 - m.encoder_fraction());
    let cache = 2.0 * 32.0 * 1280.0 * 2.0 * (1500.0 + 4.0 + 100.0);
    let overhead = s.inference.step_overhead_ms / 1e3;
    // One token's math hides under the read but for (C/W)²/2 of it (√(W² + C²)): under 1e-5.
    // Its element-wise kernels follow (serving::elementwise_s).
    let (ew, kernels) =
        gpu_planner::domain::serving::elementwise_s(&m, 1, g.memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9);
    assert_close(e.step(1.0, 0.0), (decoder + cache) / bw + ew + kernels + overhead, 1e-5);
    assert!(e.step(1.0, 1.0) > e.step(1.0, 0.0) + m.encoder_fraction() * weights / bw * 0.99);
}

/// In the step-level simulation a lone Whisper request brings its 1,500 encoder positions with its
/// 4 prompt tokens: its first token takes the trip to the scheduler and one step that prefills
/// all 1,504, and the cache peaks at the encoder output, the prompt and the whole answer. An
/// audio clip too long for a small cache is cut so the request still fits (one token of answer),
/// and every request is served.
#[test]
fn a_lone_whisper_request_prefills_and_holds_its_encoder_positions() {
    use gpu_planner::domain::serving::simulate::{simulate, Load, Run};
    use gpu_planner::domain::serving::FRONTEND_S;
    let e = whisper_on_l4(&whisper_serving("l4"));
    let run = Run { requests: 50, warmup: 0, max_seqs: 256, ..Run::default() };
    let o = simulate(&e, Load::Users { users: 1, think_s: 0.0 }, run).unwrap_or_else(|| panic!("runs"));
    assert_close(o.ttft.p50, FRONTEND_S + e.step_at(0.0, 0.0, 1504.0), 1e-9);
    assert_close(o.peak_kv, 1500.0 + 4.0 + 200.0, 1e-12);
    // Prompts drawn around 400 tokens (p90 4,000) in a cache of a few of them: cut to fit.
    let mut small = whisper_serving("l4");
    small.inference.context = 400;
    small.inference.context_p90 = Some(4000);
    small.inference.output_tokens = 8;
    let mut tight = whisper_on_l4(&small);
    tight.kv_tokens = 3000.0;
    let o = simulate(&tight, Load::Users { users: 2, think_s: 0.0 }, Run { requests: 300, ..run })
        .unwrap_or_else(|| panic!("runs"));
    assert!(o.finished && o.peak_kv <= 3000.0, "{o:?}");
}

/// Training holds both stacks' activations: removing the encoder from the same model leaves
/// less, by at least the encoder stack's own share at its 1,500 positions.
#[test]
fn training_holds_both_stacks_activations() {
    let mut s = Scenario { task: Task::FullFinetune, model: "custom".into(), ..Scenario::default() };
    s.custom_model = model("whisper-large-v3").as_custom();
    s.training.seq_len = 448;
    let both = report(&s).memory_single.activations;
    s.custom_model.encoder = None;
    let decoder_only = report(&s).memory_single.activations;
    assert!(both > decoder_only * (1.0 + 1500.0 / 448.0), "{both} vs {decoder_only}");
}

/// "How this was computed" says where the encoder's share of the figures comes from, with the
/// same numbers the report uses.
#[test]
fn the_explanation_names_the_encoder() {
    use gpu_planner::domain::explain::explain;
    use gpu_planner::domain::format::{self, Lang};
    for task in [Task::FullFinetune, Task::Inference] {
        let s = Scenario { task, model: "flan-t5-large".into(), ..Scenario::default() };
        let r = report(&s);
        let v = &r.cards[0];
        let lines = explain(&s, Catalog::embedded(), v, Lang::En);
        let line = |id: &str| lines.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id}")).clone();
        let m = model("flan-t5-large");
        assert_eq!(line("encoder").result, format!("{:.2} B", m.params().total * m.encoder_fraction() / 1e9));
        assert!(line("encoder").formula.contains("24 encoder layers × 512 positions"), "{}", line("encoder").formula);
        if task.is_training() {
            assert_eq!(line("activations").result, format::gib(v.memory.activations));
            assert!(line("activations").formula.contains("encoder's 24 layers at s=512"));
        } else {
            assert_eq!(line("kv_cache").result, format::gib(v.memory.kv_cache));
            assert!(line("kv_cache").formula.contains("+ 512 encoder positions"));
        }
    }
}
