//! Eager prompt steps (serving/launch.rs): the launch time per layer held to the two measurements
//! that set it (SGLang PR #12160: DeepSeek-V3's one-token eager prefill, 82.64 ms; sfllm PR #46:
//! Qwen3-4B's eager prefill flat at 16.61 ms), each engine's graph policy as its documentation
//! states it, and what a step does with it: a short prompt waits for the launches, a long one's
//! compute hides them, a decode-only step never pays them. Published first-token times are
//! held-out rows of the accuracy table (serve-*-ttft_*), not used here.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use common::assert_close;
use gpu_planner::domain::format::{launch_line, Lang};
use gpu_planner::domain::scenario::{ServingEngine, Task, WeightQuant};
use gpu_planner::domain::serving::launch::{
    eager_forward_s, graph_tokens, stack_layer_s, CANN_LAYER_S, DENSE_LAYER_S, MOE_LAYER_S,
};
use gpu_planner::domain::serving::simulate::{simulate, Load, Run};
use gpu_planner::domain::serving::Engine;
use gpu_planner::domain::{Catalog, Scenario};

fn serving(model: &str, engine: ServingEngine, context: u32) -> Scenario {
    let mut s = Scenario { task: Task::Inference, model: model.into(), ..Scenario::default() };
    s.inference.context = context;
    s.inference.output_tokens = 128;
    s.inference.engine = engine;
    s
}

/// DeepSeek-R1 in FP8 on 8 × H200, as the published TensorRT-LLM and SGLang runs serve it.
fn dsr1(engine: ServingEngine, context: u32) -> Engine {
    let mut s = serving("deepseek-r1", engine, context);
    s.precision = gpu_planner::domain::scenario::Precision::Fp8;
    s.weight_quant = WeightQuant::Fp8;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu("h200-sxm").cloned().expect("h200-sxm");
    Engine::new(&m, &s, &g, 8, 8).expect("DeepSeek-R1 fits 8 × H200")
}

/// The constants reproduce the measurements that set them: DeepSeek-V3's 58 MoE and 3 dense
/// layers give 82.64 ms, Qwen3-4B's 36 dense layers 16.61 ms.
#[test]
fn launch_time_reproduces_the_measured_eager_forwards() {
    assert_close(DENSE_LAYER_S * 36.0, 16.613e-3, 1e-9);
    assert_close(MOE_LAYER_S * 58.0 + DENSE_LAYER_S * 3.0, 82.64e-3, 1e-9);
    let s = serving("qwen3-4b", ServingEngine::Sglang, 129);
    assert_close(eager_forward_s(s.model_spec().expect("qwen3-4b")), 16.613e-3, 1e-9);
    let v3 = serving("deepseek-v3", ServingEngine::Sglang, 1);
    assert_close(eager_forward_s(v3.model_spec().expect("deepseek-v3")), 82.64e-3, 1e-9);
    // An MoE layer launches more kernels than a dense one (routing, permutation, grouped GEMMs).
    let per_layer = |model: &str| {
        let m = serving(model, ServingEngine::Sglang, 1).model_spec().expect("model").clone();
        eager_forward_s(&m) / f64::from(m.layers)
    };
    assert!(per_layer("qwen3-30b-a3b") > 2.0 * per_layer("qwen3-8b"));
}

/// Each engine's default capture policy, as documented: vLLM V1 min(2 · max_num_seqs, 512);
/// SGLang to 0.5.9 and TensorRT-LLM's context phase none; SGLang's piecewise prefill graphs up to
/// the chunk (2,048 tokens for MLA), off under speculative decoding and expert/DP attention.
#[test]
fn graph_sizes_follow_each_engine_default() {
    let tokens = |model: &str, engine, edit: fn(&mut Scenario), (tp, ep): (u32, u32)| {
        let mut s = serving(model, engine, 1024);
        edit(&mut s);
        graph_tokens(s.model_spec().expect("model"), &s, 8192.0, tp, ep)
    };
    let none = |_: &mut Scenario| {};
    assert_close(tokens("qwen3-8b", ServingEngine::Vllm, none, (1, 1)), 512.0, 0.0);
    assert_close(tokens("qwen3-8b", ServingEngine::Vllm, |s| s.inference.max_seqs = 30, (1, 1)), 60.0, 0.0);
    assert_close(tokens("qwen3-8b", ServingEngine::Vllm, |s| s.inference.max_seqs = 1024, (1, 1)), 512.0, 0.0);
    assert_close(tokens("qwen3-8b", ServingEngine::Sglang, none, (1, 1)), 0.0, 0.0);
    assert_close(tokens("qwen3-8b", ServingEngine::Trtllm, none, (1, 1)), 0.0, 0.0);
    // vLLM V0's model runner replays a graph only for a batch with no prompt tokens.
    assert_close(tokens("qwen3-8b", ServingEngine::VllmV0, none, (1, 1)), 0.0, 0.0);
    assert_close(tokens("qwen3-8b", ServingEngine::SglangGraphs, none, (1, 1)), 8192.0, 0.0);
    assert_close(tokens("deepseek-r1", ServingEngine::SglangGraphs, none, (8, 8)), 2048.0, 0.0);
    assert_close(tokens("deepseek-r1", ServingEngine::SglangGraphs, none, (1, 8)), 0.0, 0.0);
    assert_close(tokens("deepseek-r1", ServingEngine::SglangGraphs, |s| s.inference.spec_tokens = 3, (8, 8)), 0.0, 0.0);
}

/// A short prompt under an eager engine lasts the launches; under vLLM's graphs it does not; a
/// long prompt's compute hides them; a decode-only step never pays them.
#[test]
fn a_short_eager_prompt_waits_for_its_launches() {
    let floor = eager_forward_s(serving("deepseek-r1", ServingEngine::Trtllm, 1).model_spec().expect("r1"));
    let trt = dsr1(ServingEngine::Trtllm, 1024);
    let vllm = dsr1(ServingEngine::Vllm, 1024);
    assert!(trt.step(0.0, 256.0) >= floor, "{} < {floor}", trt.step(0.0, 256.0));
    assert!(vllm.step(0.0, 256.0) < 0.5 * floor, "vLLM replays 256 tokens from a graph: {}", vllm.step(0.0, 256.0));
    // Past vLLM's 512 captured tokens, its prompt steps run eagerly too.
    assert_close(vllm.step(0.0, 1024.0), trt.step(0.0, 1024.0), 1e-12);
    assert!(vllm.step(0.0, 1024.0) >= floor);
    // vLLM counts the step's decode tokens too: 400 decoding + 200 prompt tokens exceed 512.
    assert_close(vllm.step(400.0, 200.0), trt.step(400.0, 200.0), 1e-12);
    assert!(vllm.step(100.0, 200.0) < trt.step(100.0, 200.0));
    // Decoding alone: graphs on every engine, the same step.
    assert_close(trt.step(16.0, 0.0), vllm.step(16.0, 0.0), 1e-12);
    assert!(trt.step(16.0, 0.0) < floor);
    // 16k prompt tokens: the GPU's work outlasts the launches, the step is the same with prompt
    // graphs or without (SGLang both ways: the same host policy, serving::hides_host).
    assert!(trt.step(0.0, 16_384.0) > floor);
    let sglang = dsr1(ServingEngine::Sglang, 1024);
    assert!(sglang.step(0.0, 256.0) >= floor);
    assert_close(sglang.step(0.0, 16_384.0), dsr1(ServingEngine::SglangGraphs, 1024).step(0.0, 16_384.0), 1e-12);
}

/// With graphs off (`--enforce-eager`) every step waits for its launches, decoding too, on every
/// engine; the page's line says so.
#[test]
fn with_graphs_off_every_step_waits_for_its_launches() {
    let floor = eager_forward_s(serving("deepseek-r1", ServingEngine::Vllm, 1).model_spec().expect("r1"));
    let engine = |eager: bool| {
        let mut s = serving("deepseek-r1", ServingEngine::SglangGraphs, 1024);
        s.precision = gpu_planner::domain::scenario::Precision::Fp8;
        s.weight_quant = WeightQuant::Fp8;
        s.inference.enforce_eager = eager;
        let m = s.model_spec().expect("r1").clone();
        assert_close(graph_tokens(&m, &s, 8192.0, 8, 8), if eager { 0.0 } else { 2048.0 }, 0.0);
        let g = Catalog::embedded().gpu("h200-sxm").cloned().expect("h200-sxm");
        (Engine::new(&m, &s, &g, 8, 8).expect("fits"), s)
    };
    let ((graphs, _), (eager, s)) = (engine(false), engine(true));
    assert!(graphs.step(4.0, 0.0) < floor);
    assert!(eager.step(4.0, 0.0) >= floor, "{}", eager.step(4.0, 0.0));
    assert!(eager.step(4.0, 256.0) >= floor && graphs.step(4.0, 256.0) < floor);
    // Nothing to launch in an empty step.
    assert_close(eager.step(0.0, 0.0), graphs.step(0.0, 0.0), 1e-12);
    let m = s.model_spec().expect("r1");
    let en = launch_line(&s, m, Lang::En);
    assert!(en.contains("every step, decoding too (--enforce-eager), runs without CUDA graphs"), "{en}");
    assert!(launch_line(&s, m, Lang::Zh).contains("含解码"));
}

/// One request at a time (a benchmark with concurrency 1): the first token of a 1k-token prompt
/// under TensorRT-LLM comes after at least the launches; under SGLang with prefill graphs (2,048
/// captured tokens for MLA) well before.
#[test]
fn a_lone_request_first_token_includes_the_launches_when_eager() {
    let median = |e: &Engine| {
        let run = Run { requests: 8, warmup: 0, max_seqs: 0, seed: 7 };
        simulate(e, Load::Bench { concurrency: 1, prompts: 8 }, run).expect("runs").ttft.p50
    };
    let floor = eager_forward_s(serving("deepseek-r1", ServingEngine::Trtllm, 1).model_spec().expect("r1"));
    let eager = median(&dsr1(ServingEngine::Trtllm, 1024));
    let graphs = median(&dsr1(ServingEngine::SglangGraphs, 1024));
    assert!(eager >= floor, "{eager} < {floor}");
    assert!(graphs < 0.6 * eager, "{graphs} vs {eager}");
}

/// The page's line names the engine, the rule and the launch time, in both languages.
#[test]
fn the_launch_line_names_the_engine_and_the_floor() {
    let s = serving("deepseek-r1", ServingEngine::Vllm, 1024);
    let m = s.model_spec().expect("r1");
    let en = launch_line(&s, m, Lang::En);
    assert!(en.starts_with("vLLM V1") && en.contains("512 tokens") && en.contains("82.6 ms"), "{en}");
    let s = serving("deepseek-r1", ServingEngine::Sglang, 1024);
    let en = launch_line(&s, m, Lang::En);
    assert!(en.starts_with("SGLang ≤ 0.5.9: every step that carries a prompt runs without CUDA graphs"), "{en}");
    // SGLang's overlap scheduler hides the fixed step time (serving::hides_host), and says so.
    assert!(en.contains("the 2.0 ms of fixed host time a step is hidden"), "{en}");
    assert!(launch_line(&s, m, Lang::Zh).contains("2.0 毫秒主机时间被隐藏"));
    let graphs = serving("deepseek-r1", ServingEngine::SglangGraphs, 1024);
    assert!(launch_line(&graphs, m, Lang::En).contains("is hidden"));
    let s = serving("deepseek-r1", ServingEngine::Trtllm, 1024);
    let zh = launch_line(&s, m, Lang::Zh);
    assert!(zh.starts_with("TensorRT-LLM") && zh.contains("每个含预填充的步骤") && zh.contains("82.6 毫秒"), "{zh}");
    assert!(!zh.contains("主机"), "TensorRT-LLM neither hides its fixed time nor pays time per request");
    let en = launch_line(&s, m, Lang::En);
    assert!(!en.contains("host time"), "{en}");
    // vLLM V0 names its host time per running request too (Vidur's 43 µs).
    let s = serving("deepseek-r1", ServingEngine::VllmV0, 1024);
    let en = launch_line(&s, m, Lang::En);
    assert!(
        en.starts_with("vLLM V0: every step that carries a prompt") && en.contains("43 µs of Python host time"),
        "{en}"
    );
    assert!(launch_line(&s, m, Lang::Zh).contains("43 微秒"));
}

/// The engine travels through a scenario file and back; an unknown name is an error, not a panic.
#[test]
fn the_engine_reads_and_writes_by_name() {
    let mut s = Scenario::default();
    s.inference.engine = ServingEngine::SglangGraphs;
    let json = serde_json::to_value(&s).expect("writes");
    assert_eq!(json["inference"]["engine"], "sglang_graphs");
    let back: Scenario = serde_json::from_value(json.clone()).expect("reads");
    assert_eq!(back.inference.engine, ServingEngine::SglangGraphs);
    s.inference.engine = ServingEngine::VllmV0;
    let v0 = serde_json::to_value(&s).expect("writes");
    assert_eq!(v0["inference"]["engine"], "vllm_v0");
    assert_eq!(serde_json::from_value::<Scenario>(v0).expect("reads").inference.engine, ServingEngine::VllmV0);
    let mut bad = json;
    bad["inference"]["engine"] = "tgi".into();
    let err = serde_json::from_value::<Scenario>(bad).expect_err("an unknown engine is refused");
    assert!(err.to_string().contains("tgi") || err.to_string().contains("engine"), "{err}");
}

/// Under speculative decoding a step's decoding requests bring their drafted tokens too, and the
/// engine pads the step's whole token count to a captured graph size (vLLM V1's
/// `num_scheduled_tokens` counts the spec tokens): 100 requests verifying 3 drafts each (400 tokens)
/// with a 200-token prompt chunk outgrow vLLM's 512-token graphs and launch eagerly, where the
/// same step without drafts (300 tokens) replays.
#[test]
fn drafted_tokens_count_toward_the_captured_graph_sizes() {
    let mut s = serving("llama-3.1-8b", ServingEngine::Vllm, 1024);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
    let plain = Engine::new(&m, &s, &g, 1, 1).unwrap_or_else(|| panic!("engine"));
    assert_close(plain.launch_floor(100.0, 200.0), 0.0, 0.0);
    s.inference.spec_tokens = 3;
    let drafting = Engine::new(&m, &s, &g, 1, 1).unwrap_or_else(|| panic!("engine"));
    assert_close(drafting.launch_floor(100.0, 200.0), eager_forward_s(&m), 1e-12);
}

/// A CANN card's every step — decode-only, a prompt chunk, a lone request — lasts exactly the
/// same card's step under another stack plus [`CANN_LAYER_S`] per layer (Qwen3-32B: 64 layers,
/// 35.2 ms), on one card (wider replicas' collectives are priced by stack too); CUDA and ROCm
/// cards pay nothing. The cost is the device's (per-layer synchronisation and small kernels), so
/// an overlap scheduler that hides the host's fixed time (SGLang) does not hide it. The value
/// itself is held to the rows that set it in tests/accuracy.rs.
#[test]
fn a_cann_card_pays_its_per_layer_cost_on_every_step() {
    let cat = Catalog::embedded();
    let ascend = cat.gpu("huawei-ascend-910b3").cloned().expect("910B3");
    assert_eq!(ascend.software, "cann");
    let relabelled = gpu_planner::domain::catalog::Gpu { software: "cuda".into(), ..ascend.clone() };
    for engine in [ServingEngine::Vllm, ServingEngine::Sglang, ServingEngine::Trtllm] {
        let mut s = serving("qwen3-32b", engine, 1024);
        s.inference.max_batched_tokens = 8192;
        s.weight_quant = WeightQuant::Int8; // 33 GB: one 64 GB card holds it
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let (with, without) =
            (Engine::new(&m, &s, &ascend, 1, 1).expect("fits"), Engine::new(&m, &s, &relabelled, 1, 1).expect("fits"));
        for (batch, prefill) in [(1.0, 0.0), (32.0, 0.0), (0.0, 1024.0), (8.0, 512.0)] {
            let paid = with.step(batch, prefill) - without.step(batch, prefill);
            assert_close(paid, 64.0 * CANN_LAYER_S, 1e-9);
        }
    }
    assert_close(64.0 * CANN_LAYER_S, 35.2e-3, 1e-9);
    for id in ["h100-sxm", "mi300x", "a100-80gb-sxm4"] {
        let g = cat.gpu(id).expect(id);
        assert!(stack_layer_s(g).abs() < f64::EPSILON, "{id} pays a CANN cost");
    }
    assert_close(stack_layer_s(&ascend), CANN_LAYER_S, 1e-12);
}

/// The line under the serving table states the CANN cost and what it comes to for the model, in
/// both languages (Qwen3-32B: 64 layers, +35.2 ms a step).
#[test]
fn the_serving_table_states_the_cann_cost() {
    let s = serving("qwen3-32b", ServingEngine::Vllm, 1024);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let en = gpu_planner::domain::format::stack_line(&m, Lang::En);
    let zh = gpu_planner::domain::format::stack_line(&m, Lang::Zh);
    assert!(en.contains("0.55 ms a layer") && en.contains("+35.2 ms a step") && en.contains("64 layers"), "{en}");
    assert!(zh.contains("0.55 毫秒") && zh.contains("+35.2 毫秒") && zh.contains("64 层"), "{zh}");
}

/// vLLM V0 runs its scheduling, input preparation, sampling and output processing in Python on
/// every step's path, and they grow with the running requests: Vidur's profiles of a vLLM-style
/// engine (microsoft/vidur @6d98aa8, `data/profiling/a100/cpu_overheads.csv`, Llama-2-7B on an
/// A100, TP 1) put the per-step median at 1.17 ms for 8 sequences and 6.22 ms for 128. A V0 decode
/// step grows by that difference over V1's between those batches (±10%: the constant is the slope
/// over four models, 42–44 µs); a V1 step, and a step with no decoding request, pay none of it.
#[test]
fn a_vllm_v0_step_pays_host_time_per_running_request() {
    use gpu_planner::domain::serving::V0_HOST_PER_SEQ_S;
    let engine = |e: ServingEngine| {
        let s = serving("llama-2-7b", e, 512);
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let g = Catalog::embedded().gpu("a100-80gb-sxm4").cloned().expect("a100");
        Engine::new(&m, &s, &g, 1, 1).expect("Llama-2-7B fits an A100")
    };
    let (v0, v1) = (engine(ServingEngine::VllmV0), engine(ServingEngine::Vllm));
    let growth = |e: &Engine| e.step(128.0, 0.0) - e.step(8.0, 0.0);
    let host = growth(&v0) - growth(&v1);
    assert!((host / (6.22e-3 - 1.17e-3) - 1.0).abs() < 0.1, "{host} s of host time from 8 to 128 sequences");
    assert_close(v0.step(64.0, 0.0) - v1.step(64.0, 0.0), 64.0 * V0_HOST_PER_SEQ_S, 1e-12);
    assert_close(v0.cpu_time(64.0, 0.0, 0.0) - v1.cpu_time(64.0, 0.0, 0.0), 64.0 * V0_HOST_PER_SEQ_S, 1e-12);
    // A prompt-only step has no decoding request to process, but V0 launches it eagerly where V1
    // replays a graph: a short prompt waits for 32 layers' launches.
    let fixed = |e: &Engine| e.cpu_time(0.0, 32.0, 0.0) - e.launch_floor(0.0, 32.0);
    assert_close(fixed(&v0), fixed(&v1), 1e-15);
    assert!(v0.launch_floor(0.0, 32.0) > 0.0 && v1.launch_floor(0.0, 32.0) == 0.0);
    assert!(v0.step(0.0, 32.0) > v1.step(0.0, 32.0) + 1e-3, "{} against {}", v0.step(0.0, 32.0), v1.step(0.0, 32.0));
}
