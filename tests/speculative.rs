//! Speculative decoding (serving/speculative.rs and the step model): held to Leviathan, Kalman &
//! Matias 2023 (tokens per step, Eq. 1; speed-up (1 − α^(k+1)) / ((1 − α)(kc + 1)), Theorem 3.8,
//! for a memory-bound model whose check costs no more than a plain step), to the published model
//! shapes for the draft's cost, and to the physics a deployment sees: a compute-bound batch gains
//! little, a MoE model's check touches more experts. Published runs with MTP are held-out rows of
//! the accuracy table (serve-*-mtp3-*), not used here.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use common::assert_close;
use gpu_planner::domain::format::{speculative_line, Lang};
use gpu_planner::domain::serving::simulate::{simulate, Load, Run};
use gpu_planner::domain::serving::speculative::{draft_cost, tokens_per_step};
use gpu_planner::domain::serving::Engine;
use gpu_planner::domain::{Catalog, Scenario};

fn inference(model: &str) -> Scenario {
    let mut s =
        Scenario { task: gpu_planner::domain::scenario::Task::Inference, model: model.into(), ..Scenario::default() };
    s.inference.context = 1024;
    s.inference.output_tokens = 256;
    s
}

/// [`inference`] with `k` drafted tokens per step, each accepted with probability `alpha`.
fn drafting(model: &str, k: u32, alpha: f64) -> Scenario {
    let mut s = inference(model);
    s.inference.spec_tokens = k;
    s.inference.spec_accept = alpha;
    s
}

fn engine(s: &Scenario, card: &str, tp: u32) -> Engine {
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu(card).cloned().unwrap_or_else(|| panic!("{card}"));
    Engine::new(&m, s, &g, tp, tp).unwrap_or_else(|| panic!("{} fits {tp} × {card}", s.model))
}

/// Mean time per output token at `rate` requests per second (the closed form).
fn tpot(e: &Engine, rate: f64) -> f64 {
    e.at(rate).unwrap_or_else(|| panic!("keeps up at {rate}/s")).tpot_mean_s
}

/// Eq. 1 by hand: 1 + α + … + α^k. k = 3 at α = 0.8: 1 + 0.8 + 0.64 + 0.512 = 2.952. DeepSeek-V3
/// (report §5.4.3): one MTP token accepted 85–90% of the time gives 1.85–1.90 tokens a step, of
/// which the report's measured "1.8 times TPS" is what remains after the draft and the check.
#[test]
fn tokens_per_step_is_the_geometric_sum_of_acceptance() {
    assert_close(tokens_per_step(3, 0.8), 2.952, 1e-9);
    assert_close(tokens_per_step(1, 0.85), 1.85, 1e-9);
    assert_close(tokens_per_step(1, 0.9), 1.9, 1e-9);
    assert_close(tokens_per_step(5, 0.5), 1.96875, 1e-9);
    assert_close(tokens_per_step(0, 0.9), 1.0, 0.0);
    assert_close(tokens_per_step(4, 0.0), 1.0, 0.0);
    // A draft always accepted would give k + 1; the cap at 0.999999 keeps it finite and below.
    assert!(tokens_per_step(3, 1.0) < 4.0 && tokens_per_step(3, 1.0) > 3.99);
}

/// c, by hand from the published shapes. Llama 3.1 8B (hidden 4,096, 32 layers, vocab 128,256,
/// untied, 8.03 B parameters): head 0.5253 B, the layers 8.03 − 2 × 0.5253 = 6.979 B, so
/// (6.979 / 32 + 0.5253) / (6.979 + 0.5253) = 0.0990. DeepSeek-R1 (hidden 7,168, 61 layers,
/// vocab 129,280, 37 B active): head 0.9267 B, layers 35.147 B → (0.5762 + 0.9267) / 36.073 =
/// 0.0417: a MoE model's one-layer draft is cheap beside its 61 layers.
#[test]
fn a_draft_pass_costs_one_layer_and_the_output_head() {
    let llama = inference("llama-3.1-8b");
    let m = llama.model_spec().unwrap_or_else(|e| panic!("{e}"));
    assert_close(draft_cost(m), 0.0990, 0.02);
    let r1 = inference("deepseek-r1");
    let m = r1.model_spec().unwrap_or_else(|e| panic!("{e}"));
    assert_close(draft_cost(m), 0.0417, 0.03);
}

/// Theorem 3.8 where its premise holds: a lone request on a dense model is memory-bound, so the
/// check of k + 1 tokens reads what a plain step reads and the speed-up is E / (1 + k·c). With no
/// fixed per-step time (which a draft does not repeat), that is the whole ratio.
#[test]
fn a_memory_bound_decode_speeds_up_by_leviathans_factor() {
    let mut s = inference("llama-3.1-8b");
    s.inference.step_overhead_ms = 0.0;
    let plain = tpot(&engine(&s, "a100-80gb-sxm4", 1), 0.01);
    s.inference.spec_tokens = 2;
    s.inference.spec_accept = 0.8;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let expected = tokens_per_step(2, 0.8) / (1.0 + 2.0 * draft_cost(&m));
    let spec = tpot(&engine(&s, "a100-80gb-sxm4", 1), 0.01);
    assert_close(plain / spec, expected, 0.01);
    assert!(expected > 2.0, "2.44 tokens a step for 1.2 steps' reads: {expected}");
}

/// Time per output token of `batch` requests decoding together.
fn per_token(e: &Engine, batch: f64) -> f64 {
    e.step(batch, 0.0) / e.per_step
}

/// A batch large enough to be compute-bound gains little: each request's k drafted tokens are
/// computed in the check whether accepted or not (the speed-up falls with the batch, as every
/// speculative-decoding paper measures: Leviathan et al. §5; Liu et al. 2024, "Optimizing
/// Speculative Decoding for Serving LLMs Using Goodput", Fig. 1).
#[test]
fn a_compute_bound_batch_gains_little() {
    // Short prompts: the KV cache (memory-bound reads) stays small beside the weights.
    let mut s = inference("llama-3.1-8b");
    s.inference.context = 64;
    s.inference.max_batched_tokens = 65_536;
    let plain = engine(&s, "l40s", 1);
    s.inference.spec_tokens = 4;
    s.inference.spec_accept = 0.7;
    let spec = engine(&s, "l40s", 1);
    let gain = |batch: f64| per_token(&plain, batch) / per_token(&spec, batch);
    let (lone, busy) = (gain(1.0), gain(256.0));
    assert!(lone > 1.8, "memory-bound: {lone}");
    // 256 × 5 tokens × 16 GFLOP ≈ 20 TFLOP a check, ~113 ms at half the L40S's 362 TFLOPS,
    // against ~25 ms of weight reads: drafting now costs more than it gains.
    assert!(busy < 1.0 && busy < 0.6 * lone, "compute-bound: {busy} against {lone} alone");
}

/// A MoE model's check sends k + 1 tokens per request through the router: more experts are read
/// than by a plain step, so its speed-up stays below a dense model's of the same draft (InferenceX
/// measures 1.4–1.6× for DeepSeek-R1 with three MTP tokens on H200, where Eq. 1 promises up to 4).
#[test]
fn a_moe_check_reads_more_experts_than_a_plain_step() {
    let mut s = inference("deepseek-r1");
    s.precision = gpu_planner::domain::scenario::Precision::Fp8;
    s.weight_quant = gpu_planner::domain::scenario::WeightQuant::Fp8;
    let plain = engine(&s, "h200-sxm", 8);
    s.inference.spec_tokens = 3;
    s.inference.spec_accept = 0.8;
    let spec = engine(&s, "h200-sxm", 8);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let bound = tokens_per_step(3, 0.8) / (1.0 + 3.0 * draft_cost(&m));
    let gain = per_token(&plain, 4.0) / per_token(&spec, 4.0);
    assert!(gain > 1.0 && gain < 0.8 * bound, "{gain} against the memory-bound {bound}");
}

/// The simulation advances each decoding request by the tokens a step gains: a lone request
/// finishes its whole answer in output / E steps, and its time per token is the closed form's.
#[test]
fn the_simulation_emits_the_tokens_a_step_gains() {
    let s = drafting("llama-3.1-8b", 3, 0.8);
    let e = engine(&s, "h100-sxm", 1);
    let o = simulate(&e, Load::Bench { concurrency: 1, prompts: 4 }, Run::default()).unwrap_or_else(|| panic!("runs"));
    assert!(o.finished);
    assert_close(o.tpot.p50, tpot(&e, 0.001), 0.03);
    let mut off = s.clone();
    off.inference.spec_tokens = 0;
    let plain = simulate(&engine(&off, "h100-sxm", 1), Load::Bench { concurrency: 1, prompts: 4 }, Run::default())
        .unwrap_or_else(|| panic!("runs"));
    assert!(plain.tpot.p50 > 2.0 * o.tpot.p50, "{} against {}", plain.tpot.p50, o.tpot.p50);
    // Under load the drafted tokens take the step's token budget and cache as well: the run
    // still finishes, with no more requests running than the cache holds.
    let busy =
        simulate(&e, Load::Users { users: 256, think_s: 0.0 }, Run { requests: 300, warmup: 256, ..Run::default() })
            .unwrap_or_else(|| panic!("runs"));
    assert!(busy.finished && busy.batch <= e.max_batch() * 1.5, "{}", busy.batch);
}

/// Bad values get the form's message, not a plan.
#[test]
fn acceptance_of_one_or_more_and_long_drafts_are_refused() {
    let mut s = inference("llama-3.1-8b");
    s.inference.spec_tokens = 3;
    s.inference.spec_accept = 1.0;
    let e = gpu_planner::domain::plan(&s, Catalog::embedded()).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("inference.spec_accept"), "{e}");
    s.inference.spec_accept = 0.8;
    s.inference.spec_tokens = 17;
    let e = gpu_planner::domain::plan(&s, Catalog::embedded()).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("inference.spec_tokens"), "{e}");
}

/// The scenario file and the share link carry both inputs.
#[test]
fn the_draft_travels_in_the_scenario_and_the_link() {
    let s: Scenario = serde_json::from_str(r#"{"task":"inference","inference":{"spec_tokens":3,"spec_accept":0.7}}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.inference.spec_tokens, s.inference.spec_accept), (3, 0.7));
    let link = gpu_planner::domain::share::encode(&s);
    let back = gpu_planner::domain::share::decode(&link).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((back.inference.spec_tokens, back.inference.spec_accept), (3, 0.7));
    assert_eq!(Scenario::default().inference.spec_tokens, 0, "off unless asked for");
}

/// The serving table's line: the tokens a step gains and the draft's cost, in both languages;
/// nothing when speculative decoding is off.
#[test]
fn the_serving_table_says_what_the_draft_gains() {
    let mut s = inference("llama-3.1-8b");
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    assert!(speculative_line(&s, &m, Lang::En).is_none());
    s.inference.spec_tokens = 3;
    s.inference.spec_accept = 0.8;
    let en = speculative_line(&s, &m, Lang::En).unwrap_or_default();
    assert!(en.contains("3 drafted tokens") && en.contains("80%") && en.contains("2.95 tokens"), "{en}");
    assert!(en.contains("9.9%") && en.contains("computes 4 tokens"), "{en}");
    let zh = speculative_line(&s, &m, Lang::Zh).unwrap_or_default();
    assert!(zh.contains("投机解码") && zh.contains("2.95") && zh.contains("80%"), "{zh}");
}

/// The closed form under load keeps Little's law (Little 1961): requests decoding = rate × the
/// time each spends decoding (its answer × the time per token), however many tokens a step
/// gains; its median time per token is the mean's when few prompts interrupt.
#[test]
fn the_closed_form_keeps_littles_law_with_a_draft() {
    let mut s = drafting("llama-3.1-8b", 3, 0.8);
    s.inference.context = 64;
    let e = engine(&s, "h100-sxm", 1);
    let rate = 2.0;
    let l = e.at(rate).unwrap_or_else(|| panic!("keeps up"));
    assert_close(l.batch, rate * 256.0 * l.tpot_mean_s, 0.01);
    assert_close(l.tpot_p50_s, l.tpot_mean_s, 0.1);
    assert!(l.tpot_p99_s >= l.tpot_p50_s);
    // The simulated engine agrees on the batch and the time per token.
    let o = simulate(&e, Load::Rate(rate), Run { requests: 600, warmup: 200, ..Run::default() })
        .unwrap_or_else(|| panic!("runs"));
    assert_close(o.tpot.mean, l.tpot_mean_s, 0.1);
    assert_close(o.batch, l.batch, 0.15);
}

/// With long prompts interrupting the decode, the closed form's median time per token (plain
/// steps over the tokens a step gains, plus the chunk steps a request meets while it decodes
/// for output / E steps) agrees with the simulated engine's.
#[test]
fn prompt_interruptions_are_counted_over_the_shorter_decode() {
    let mut s = drafting("llama-3.1-8b", 3, 0.8);
    s.inference.context = 4096;
    s.inference.max_batched_tokens = 512;
    let e = engine(&s, "h100-sxm", 1);
    for rate in [1.0, 3.0] {
        let l = e.at(rate).unwrap_or_else(|| panic!("keeps up"));
        let o = simulate(&e, Load::Rate(rate), Run { requests: 1000, warmup: 200, ..Run::default() })
            .unwrap_or_else(|| panic!("runs"));
        assert_close(l.tpot_p50_s, o.tpot.p50, 0.1);
    }
}

/// A request's answer ends at its last token even when a step would have gained more: its
/// end-to-end time is its first token plus (answer − 1) × its time per token, exactly.
#[test]
fn the_last_step_stops_at_the_answers_end() {
    let s = drafting("llama-3.1-8b", 3, 0.8);
    let e = engine(&s, "h100-sxm", 1);
    let o = simulate(&e, Load::Bench { concurrency: 1, prompts: 3 }, Run::default()).unwrap_or_else(|| panic!("runs"));
    assert_close(o.e2e.p50, o.ttft.p50 + 255.0 * o.tpot.p50, 1e-9);
}

/// The drafted tokens fill the cache and the step's token budget too: a cache that fills never
/// holds more than it has (stretches of decode steps stop where E tokens a request no longer
/// fit; a request is preempted when they would not), and a budget of 64 tokens checks at most 16
/// requests of 3 drafted tokens each (vLLM V1 schedules the drafted tokens within
/// max_num_batched_tokens).
#[test]
fn drafted_tokens_take_cache_and_budget() {
    let mut s = drafting("llama-3.1-8b", 3, 0.9);
    s.inference.context = 2048;
    s.inference.output_tokens = 1024;
    s.inference.mem_util = 0.3;
    let e = engine(&s, "a100-80gb-sxm4", 1);
    let users = (e.kv_tokens / 2049.0).floor() as u32 * 2;
    let o = simulate(&e, Load::Users { users, think_s: 0.0 }, Run { requests: 200, warmup: users, ..Run::default() })
        .unwrap_or_else(|| panic!("runs"));
    assert!(o.finished && o.preemptions > 0, "{o:?}");
    assert!(o.peak_kv <= e.kv_tokens.floor() + 1e-6, "{} > {}", o.peak_kv, e.kv_tokens);
    let mut tight = inference("llama-3.1-8b");
    tight.inference.context = 16;
    tight.inference.max_batched_tokens = 64;
    tight.inference.spec_tokens = 3;
    let e = engine(&tight, "h100-sxm", 1);
    let o =
        simulate(&e, Load::Users { users: 100, think_s: 0.0 }, Run { requests: 300, warmup: 100, ..Run::default() })
            .unwrap_or_else(|| panic!("runs"));
    assert!(o.batch <= 16.0 + 1e-9 && o.batch > 12.0, "{}", o.batch);
}

/// A long answer's cache grows by E tokens a step: the simulated lone request reads, on average,
/// the engine's mean context (the prompt + half the answer), so its time per token is one step
/// at that context over the tokens a step gains.
#[test]
fn a_long_answer_grows_the_cache_by_the_tokens_a_step_gains() {
    let mut s = drafting("llama-3.1-8b", 3, 0.8);
    s.inference.context = 64;
    s.inference.output_tokens = 60_000;
    let e = engine(&s, "l40s", 1);
    let o = simulate(&e, Load::Bench { concurrency: 1, prompts: 1 }, Run::default()).unwrap_or_else(|| panic!("runs"));
    assert_close(o.tpot.p50, per_token(&e, 1.0), 0.01);
}

/// The measured operators see a check of k + 1 tokens for each of B requests as B·(k + 1) query
/// tokens: DeepSeek-V3's MLA module and the tensor-parallel all-reduces at 4 requests × 4 tokens
/// cost what 16 single-token requests cost (same cached context per card, same tokens routed).
#[test]
fn the_measured_check_counts_its_query_tokens() {
    use gpu_planner::domain::serving::measured::DecodeOps;
    let s = inference("deepseek-v3");
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let o = DecodeOps::new(&m, &card("h200-sxm"), 1.0, true, 1.0, 8, 8).unwrap_or_else(|| panic!("measured"));
    assert_close(o.step(4.0, 4096.0, 16.0, 4.0), o.step(16.0, 4096.0, 16.0, 1.0), 1e-12);
    assert!(o.step(4.0, 4096.0, 16.0, 4.0) > o.step(4.0, 4096.0, 16.0, 1.0));
}

/// A closed loop of users with a draft returns faster: the bracket of the users' rate stays
/// above it (its first guess counts the steps of an answer at E tokens each).
#[test]
fn users_with_a_draft_are_served_at_their_rate() {
    let mut s = drafting("llama-3.1-8b", 4, 0.95);
    s.inference.context = 64;
    s.inference.concurrent = 1;
    s.cards.only = vec!["h100-sxm".into()];
    let r = gpu_planner::domain::plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let c = r.cards.iter().find_map(|v| v.serving.clone()).unwrap_or_else(|| panic!("a plan"));
    // One user, no think time: the rate is one answer per response time.
    let response = c.latency.ttft_p50_s + 256.0 * c.latency.tpot_mean_s;
    assert_close(c.rate_rps * response, 1.0, 0.02);
}

/// The catalog's card `id`.
fn card(id: &str) -> gpu_planner::domain::catalog::Gpu {
    gpu_planner::domain::Catalog::embedded().gpu(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

/// The drafts run for the decoding requests (Leviathan et al.'s k·c per step): a step that only
/// prefills a prompt, with no request decoding, drafts nothing and costs what it costs without
/// speculative decoding — on the roofline (Llama 3.1 8B on an L4) and on the measured operators
/// (Qwen2.5-7B on an H100) — while a step with one request decoding pays the drafts.
#[test]
fn a_prompt_only_step_runs_no_drafts() {
    for (model, card) in [("llama-3.1-8b", "l4"), ("qwen2.5-7b", "h100-sxm")] {
        let plain = engine(&inference(model), card, 1);
        let spec = engine(&drafting(model, 3, 0.7), card, 1);
        for prompt in [1.0, 512.0, 2048.0] {
            assert_close(spec.step(0.0, prompt), plain.step(0.0, prompt), 1e-12);
        }
        assert!(spec.step(1.0, 512.0) > plain.step(1.0, 512.0), "{model} on {card}");
    }
}

/// A static batch under speculative decoding decodes its answer in fewer, longer steps: after the
/// prompts, (output − 1) ÷ tokens a step steps of the whole batch (255 ÷ 2.952 with 3 drafts at
/// 0.8), each step checking the drafts. TensorRT-LLM's MTP throughput tables run such batches.
#[test]
fn a_static_batch_with_drafts_decodes_in_fewer_steps() {
    let mut s = drafting("llama-3.1-8b", 3, 0.8);
    s.inference.max_batched_tokens = 8192;
    let e = engine(&s, "h100-sxm", 1);
    let expected = e.step(0.0, 4096.0) + 255.0 / 2.952 * e.step(4.0, 0.0);
    assert_close(e.static_latency(4.0), expected, 1e-9);
}
