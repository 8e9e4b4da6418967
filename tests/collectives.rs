//! The latency of decode's small collectives by link (serving.rs `collective_latency_s`), held to
//! the published measurements it is read from: NVLink's custom all-reduce 6 µs (NCCL #1259), AMD's
//! 6.3 µs on 8 MI355X (vLLM PR #39080), Huawei's HCCL 18 µs on 8 × 910B (hccl_performance.cpp),
//! NCCL over PCIe 8–50 µs by width and P2P and 45 µs between servers (nccl-tests tables,
//! docs/research/2026-12-05-pcie-allreduce-latency.md).
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use common::assert_close;
use gpu_planner::domain::scenario::Task;
use gpu_planner::domain::serving::{collective_latency_s, Engine};
use gpu_planner::domain::{Catalog, Gpu, Scenario};

fn card(id: &str) -> Gpu {
    Catalog::embedded().gpu(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

#[test]
fn each_link_has_its_measured_latency() {
    let s = Scenario::default();
    let us = |id: &str, w: u32| collective_latency_s(&s, &card(id), w) * 1e6;
    assert_close(us("h100-sxm", 8), 6.0, 1e-9);
    assert_close(us("h20", 4), 6.0, 1e-9);
    assert_close(us("mi300x", 8), 6.3, 1e-9);
    assert_close(us("huawei-ascend-910b3", 8), 18.0, 1e-9);
    // PCIe: datacenter cards with P2P, GeForce without.
    assert_close(us("l40s", 2), 8.0, 1e-9);
    assert_close(us("l40s", 4), 18.0, 1e-9);
    assert_close(us("l20", 8), 40.0, 1e-9);
    assert_close(us("rtx-4090", 2), 13.0, 1e-9);
    assert_close(us("rtx-4090", 4), 27.0, 1e-9);
    assert_close(us("rtx-4090", 8), 50.0, 1e-9);
    // One card talks to nobody; past one server of 8, the fabric.
    assert_close(us("h100-sxm", 1), 0.0, 0.0);
    assert_close(us("h100-sxm", 16), 45.0, 1e-9);
    let mut four = Scenario::default();
    four.parallel.gpus_per_server = 4;
    assert_close(collective_latency_s(&four, &card("l40s"), 8) * 1e6, 45.0, 1e-9);
}

/// A decode step pays the latency twice per layer: Qwen2.5-72B (80 layers) on 4 RTX 4090s waits
/// 160 × 27 µs = 4.32 ms on its all-reduces, 160 × 9 µs more than the same cards with P2P.
#[test]
fn a_pcie_replica_waits_on_its_all_reduces_every_step() {
    let mut s = Scenario { task: Task::Inference, model: "qwen2.5-72b".into(), ..Scenario::default() };
    s.weight_quant = gpu_planner::domain::scenario::WeightQuant::Int4;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let geforce = card("rtx-4090");
    let mut p2p = geforce.clone();
    p2p.segment = "datacenter".into();
    let step = |g: &Gpu| Engine::new(&m, &s, g, 4, 4).unwrap_or_else(|| panic!("fits 4 cards")).step(0.0, 0.0);
    assert_close(step(&geforce) - step(&p2p), 160.0 * 9e-6, 1e-6);
}

/// Serving `model` with FP8 weights and math, as DeepSeek publishes its checkpoints.
fn fp8_serving(model: &str) -> Scenario {
    let mut s = Scenario { task: Task::Inference, model: model.into(), ..Scenario::default() };
    s.precision = gpu_planner::domain::scenario::Precision::Fp8;
    s.weight_quant = gpu_planner::domain::scenario::WeightQuant::Fp8;
    s
}

/// One step of DeepSeek-V3 (FP8) on H100s, TP 8 × EP 16, with `batch` requests decoding, in
/// servers of `per_server` cards.
fn deepseek_ep16_step(per_server: u32, batch: f64) -> f64 {
    let mut s = fp8_serving("deepseek-v3");
    s.parallel.gpus_per_server = per_server;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    Engine::new(&m, &s, &card("h100-sxm"), 8, 16).unwrap_or_else(|| panic!("fits")).step(batch, 0.0)
}

/// Expert parallelism over two servers: each MoE layer's dispatch and combine wait the fabric's
/// 45 µs, not the server's link (DeepSeek-V3, 58 MoE layers, TP 8 × EP 16: 116 of them a step).
#[test]
fn all_to_alls_across_servers_wait_on_the_fabric() {
    let two_servers = deepseek_ep16_step(8, 0.0);
    // One hypothetical 16-card server: its 16-wide group talks over PCIe at NCCL's 40 µs.
    assert_close(two_servers - deepseek_ep16_step(16, 0.0), 116.0 * 5e-6, 1e-6);
    // A group of three counts as four.
    assert_close(collective_latency_s(&Scenario::default(), &card("l40s"), 3) * 1e6, 18.0, 1e-9);
}

/// The same with requests decoding, where the measured operators set the step (DeepSeek-V3 on
/// H100 is timed from AIConfigurator's MLA and MoE tables): the all-to-alls' latency is still
/// paid, on top of the measured layers.
#[test]
fn measured_decode_steps_still_wait_on_the_all_to_alls() {
    let (two_servers, one_server) = (deepseek_ep16_step(8, 8.0), deepseek_ep16_step(16, 8.0));
    assert!(two_servers - one_server >= 0.9 * 116.0 * 5e-6, "{two_servers} vs {one_server}");
}

/// A prompt chunk riding on a decode step pays its own tensor-parallel all-reduces even when the
/// measured decode operators, not the roofline, set the step: Qwen2.5-72B (80 layers, hidden
/// 8,192) decoding 64 requests with 16 prompt tokens more, on 4 A100s and on 8 H100s. Each prompt
/// token's two all-reduces per layer carry 2 · 80 · 8,192 · 2 B × 2·(t − 1)/t per card (Narayanan
/// et al. 2021, §3.2; NCCL's ring bus bandwidth): 3.93 MB at t = 4, 4.59 MB at t = 8, which even at
/// NVLink's whole rate a direction (300 GB/s on the A100, 450 on the H100) take 13.1 and 10.2 µs.
/// The 16 tokens add at least that, and at most their own math besides (a step's GEMMs take
/// √(W² + C²), which grows by less than the C added: near the ridge, where 64 A100 requests of a
/// 72B model decode, about as much as that math; on 8 H100s little).
#[test]
fn a_prompt_chunk_pays_its_all_reduces_on_a_measured_decode_step() {
    let s = Scenario { task: Task::Inference, model: "qwen2.5-72b".into(), ..Scenario::default() };
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    for (id, tp, link) in [("a100-80gb-sxm4", 4, 300e9), ("h100-sxm", 8, 450e9)] {
        let e = Engine::new(&m, &s, &card(id), tp, tp).unwrap_or_else(|| panic!("fits {tp} × {id}"));
        assert!(e.tier() == gpu_planner::domain::tier::Tier::Measured, "{id}: {:?}", e.tier());
        let t = f64::from(tp);
        let per_token = 2.0 * 80.0 * 8192.0 * 2.0 * 2.0 * (t - 1.0) / t / link;
        let extra = e.step(64.0, 16.0) - e.step(64.0, 0.0);
        let peak = card(id).bf16_tflops.unwrap_or(f64::NAN) * 1e12 * s.efficiency.prefill_mfu;
        let math = 16.0 * 2.0 * m.params().active / (t * peak);
        assert!(extra >= 16.0 * per_token && extra < 3.0 * 16.0 * per_token + math, "{id}: {extra} s for 16 tokens");
    }
}

/// Two data-parallel attention groups (DeepSeek-R1 FP8 on 16 H200s, TP 8 × EP 16) each attend
/// over their own half of the replica's requests: past the short contexts where the measured MLA
/// attention is flat, a step's time grows with the replica's total context at half the rate of
/// one group of the same TP 8 holding all of it (TP 8 × EP 8), from 8 to 256 requests.
#[test]
fn each_attention_group_attends_over_its_own_share_of_the_context() {
    let s = fp8_serving("deepseek-r1");
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h200-sxm");
    let one = Engine::new(&m, &s, &g, 8, 8).unwrap_or_else(|| panic!("fits 8"));
    let two = Engine::new(&m, &s, &g, 8, 16).unwrap_or_else(|| panic!("fits 16"));
    for batch in [8.0, 64.0, 256.0] {
        let context = batch * 2000.0;
        let slope = |e: &Engine| e.step_at(batch, 2.0 * context, 0.0) - e.step_at(batch, context, 0.0);
        assert!(slope(&one) > 0.0, "{batch}");
        assert_close(slope(&two), slope(&one) / 2.0, 1e-6);
    }
}

/// Every decoding token of an expert-parallel replica pays its share of the MoE all-to-all, at the
/// bytes DeepEP's kernels move (serving::all_to_all_s, held to DeepEP's published latencies in
/// tests/serving.rs): DeepSeek-V3 (58 MoE layers, hidden 7,168, top-8) on two servers of 8 H100s,
/// TP 8 × EP 16, 256 requests decoding. Halving the fabric (400 → 200 Gb/s a GPU) lengthens the
/// step by exactly the tokens' extra all-to-all time, spread over the 16 cards.
#[test]
fn expert_parallel_decode_pays_each_tokens_all_to_all() {
    use gpu_planner::domain::serving::all_to_all_s;
    let step = |fabric: f64| {
        let mut s = fp8_serving("deepseek-v3");
        s.parallel.gpus_per_server = 8;
        s.infra.fabric_gbit_per_gpu = fabric;
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let e = Engine::new(&m, &s, &card("h100-sxm"), 8, 16).unwrap_or_else(|| panic!("fits"));
        (e.step(256.0, 0.0), all_to_all_s(&s, &card("h100-sxm"), 16, 7168.0, 8.0, 1.0))
    };
    let ((slow, a2a_slow), (fast, a2a_fast)) = (step(200.0), step(400.0));
    assert!(a2a_slow > 1.5 * a2a_fast, "{a2a_slow} vs {a2a_fast}");
    assert_close(slow - fast, 256.0 * 58.0 * (a2a_slow - a2a_fast) / 16.0, 1e-6);
}

/// Without expert parallelism (EP = TP) an MoE model's experts are split like a dense MLP: its
/// step waits on the two tensor-parallel all-reduces a layer (6 µs each on NVLink, NCCL #1259) and
/// on no all-to-all. Mixtral 8x7B (32 layers) on 2 H100s at TP 2: the step's fixed part is the
/// dense weights' read over both cards, 64 all-reduce latencies, the element-wise kernels'
/// launches and the engine's overhead.
#[test]
fn tensor_parallel_moe_waits_on_no_all_to_all() {
    use gpu_planner::domain::memory::weight_bytes;
    let s = Scenario { task: Task::Inference, model: "mixtral-8x7b".into(), ..Scenario::default() };
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h100-sxm");
    let e = Engine::new(&m, &s, &g, 2, 2).unwrap_or_else(|| panic!("fits"));
    let dense = weight_bytes(&m.params(), s.weight_quant, s.precision, &s.training.conventions)
        * (1.0 - m.routed_expert_fraction());
    let bw = 2.0 * g.memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9 * s.efficiency.decode_bandwidth;
    // And the element-wise kernels' launches (2 × 32 add-norms and the embedding's: 65 × 3 µs).
    let (_, kernels) = gpu_planner::domain::serving::elementwise_s(&m, 2, 1.0);
    assert_close(kernels, 65.0 * 3e-6, 1e-12);
    let expected = dense / bw + 2.0 * 32.0 * 6e-6 + kernels + s.inference.step_overhead_ms / 1e3;
    assert_close(e.step(0.0, 0.0), expected, 1e-9);
}

/// Over PCIe a decode step of `b` requests waits on Megatron's two all-reduces a layer of each
/// token's hidden state, 2·(t − 1)/t × h × 2 bytes each over the link (Shoeybi et al. 2019, §3),
/// and an MoE model split by tensor parallelism alone (EP = TP) on no all-to-all: the same cards
/// without peer-to-peer (a GeForce's slower link) lengthen the step by exactly that traffic's
/// extra time, besides the per-step latency the step of no requests shows.
#[test]
fn a_pcie_decode_step_moves_two_all_reduces_a_layer_per_token() {
    use gpu_planner::domain::comms::link_within;
    let mut dense = Scenario { task: Task::Inference, model: "qwen2.5-72b".into(), ..Scenario::default() };
    dense.weight_quant = gpu_planner::domain::scenario::WeightQuant::Int4;
    let mut moe = Scenario { task: Task::Inference, model: "mixtral-8x7b".into(), ..Scenario::default() };
    moe.weight_quant = gpu_planner::domain::scenario::WeightQuant::Fp8;
    let mut checked = 0;
    for (s, id, tp) in [(dense, "rtx-4090", 4), (moe, "l40s", 2)] {
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let with_p2p = {
            let mut g = card(id);
            g.segment = "datacenter".into();
            g
        };
        let without = {
            let mut g = card(id);
            g.segment = "consumer".into();
            g
        };
        let step =
            |g: &Gpu, b: f64| Engine::new(&m, &s, g, tp, tp).unwrap_or_else(|| panic!("fits {tp} × {id}")).step(b, 0.0);
        let t = f64::from(tp);
        let bytes = 2.0 * f64::from(m.layers) * 2.0 * (t - 1.0) / t * f64::from(m.hidden) * 2.0;
        let (slow, fast) = (link_within(&without, tp).0, link_within(&with_p2p, tp).0);
        assert!(slow < 0.8 * fast, "{id}: {slow} vs {fast} B/s");
        let b = 64.0;
        let extra = (step(&without, b) - step(&with_p2p, b)) - (step(&without, 0.0) - step(&with_p2p, 0.0));
        assert_close(extra, b * bytes * (1.0 / slow - 1.0 / fast), 1e-6);
        checked += 1;
    }
    assert_eq!(checked, 2);
    // With expert parallelism (Mixtral on 4 L40S, two attention groups of TP 2, experts over all
    // four) the MLP's all-reduce becomes the all-to-all: one all-reduce a layer within each group
    // for that group's tokens, and every token's dispatch and combine spread over the 4 cards.
    use gpu_planner::domain::serving::all_to_all_s;
    let mut s = Scenario { task: Task::Inference, model: "mixtral-8x7b".into(), ..Scenario::default() };
    s.weight_quant = gpu_planner::domain::scenario::WeightQuant::Fp8;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let flip = |segment: &str| {
        let mut g = card("l40s");
        g.segment = segment.into();
        g
    };
    let (without, with_p2p) = (flip("consumer"), flip("datacenter"));
    let step = |g: &Gpu, b: f64| Engine::new(&m, &s, g, 2, 4).unwrap_or_else(|| panic!("fits")).step(b, 0.0);
    let all_reduce = 32.0 * 2.0 * 0.5 * 4096.0 * 2.0;
    let link = |g: &Gpu| link_within(g, 2).0;
    let a2a = |g: &Gpu| 32.0 * all_to_all_s(&s, g, 4, 4096.0, 2.0, 2.0);
    let b = 64.0;
    let extra = (step(&without, b) - step(&with_p2p, b)) - (step(&without, 0.0) - step(&with_p2p, 0.0));
    let expected = b
        * (all_reduce / 2.0 * (1.0 / link(&without) - 1.0 / link(&with_p2p)) + (a2a(&without) - a2a(&with_p2p)) / 4.0);
    assert!(a2a(&without) > a2a(&with_p2p), "the all-to-all runs over the link");
    assert_close(extra, expected, 1e-6);
}
