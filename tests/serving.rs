//! Serving capacity (domain/serving.rs): replicas, latency and cost at an offered load. The step
//! model itself is held to NVIDIA's published latencies in the accuracy table
//! (nemo-infer-* rows); these tests pin the queueing arithmetic and the planning rules.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use common::{assert_close, report};
use gpu_planner::domain::scenario::{CardFilter, Parallel, Task};
use gpu_planner::domain::serving::{capacity, elementwise_s, gemm_time, poisson_quantile, Engine};
use gpu_planner::domain::{Catalog, Scenario};

fn card(id: &str) -> gpu_planner::domain::Gpu {
    Catalog::embedded().gpu(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

/// Mixtral 8x7B on one H200: the engine, and the bytes its step reads with `touched` of the
/// routed experts and no KV, over the decode bandwidth, plus the step overhead.
fn mixtral_on_h200(s: &Scenario) -> (Engine, impl Fn(f64) -> f64) {
    use gpu_planner::domain::memory::weight_bytes;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h200-sxm");
    let e = Engine::new(&m, s, &g, 1, 1).unwrap_or_else(|| panic!("Mixtral fits one H200"));
    let weights = weight_bytes(&m.params(), s.weight_quant, s.precision, &s.training.conventions);
    let routed = m.routed_expert_fraction();
    let bw = g.memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9 * s.efficiency.decode_bandwidth;
    let overhead = s.inference.step_overhead_ms / 1e3;
    (e, move |touched: f64| (weights * (1.0 - routed) + weights * routed * touched) / bw + overhead)
}

/// The team: Qwen2.5-72B for 100 concurrent users at 4k-token prompts.
fn qwen72b(only: &str, gpus: u32) -> Scenario {
    let mut s = Scenario {
        task: Task::Inference,
        model: "qwen2.5-72b".into(),
        cards: CardFilter { only: vec![only.into()], ..CardFilter::default() },
        parallel: Parallel { gpus, ..Parallel::default() },
        ..Scenario::default()
    };
    s.inference.concurrent = 100;
    s.inference.context = 4096;
    s.inference.output_tokens = 512;
    s
}

/// Poisson quantiles from the standard tables: P(X ≤ 17) = 0.9857 and P(X ≤ 18) = 0.9928 for
/// mean 10, so the 99th percentile is 18; for mean 1, P(X ≤ 0) = 0.368 and P(X ≤ 1) = 0.736.
#[test]
fn poisson_quantiles_match_the_tables() {
    assert_close(poisson_quantile(10.0, 0.99), 18.0, 0.0);
    assert_close(poisson_quantile(1.0, 0.5), 1.0, 0.0);
    assert_close(poisson_quantile(0.0, 0.99), 0.0, 0.0);
}

/// "At 100 users with 4k prompts the prefill alone needs about twice the compute of 4 H100s":
/// 100 users / (≈ 13 s per answer) ≈ 7.5 requests/s × 4,096 tokens × 2 × 72.7e9 FLOPs ≈ 4.5 PFLOP/s
/// against 4 × 989 TFLOP/s × 0.5. Four H100s cannot meet the targets; the plan needs more.
#[test]
fn four_h100s_cannot_serve_100_users_of_a_72b_model_and_the_plan_says_how_many_can() {
    let fixed = report(&qwen72b("h100-sxm", 4));
    let c = fixed.cards[0].serving.clone().unwrap_or_else(|| panic!("no serving plan"));
    assert_eq!(c.cards, 4);
    assert!(!c.meets, "{c:?}");
    let free = report(&qwen72b("h100-sxm", 0));
    let c = free.cards[0].serving.clone().unwrap_or_else(|| panic!("no serving plan"));
    assert!(c.meets && c.cards > 4, "{c:?}");
    let i = &free.cards[0];
    assert_eq!(i.gpus, c.cards);
    // The latencies meet the default targets (1 s / 3 s to first token, 50 / 100 ms per token).
    assert!(c.latency.ttft_p50_s <= 1.0 && c.latency.ttft_p99_s <= 3.0, "{c:?}");
    assert!(c.latency.tpot_p50_s <= 0.05 && c.latency.tpot_p99_s <= 0.1, "{c:?}");
    // Cost per million output tokens = cards × hourly rent / (tokens/s × 3600) × 1e6.
    let rent = i.rent_hourly.unwrap_or_else(|| panic!("H100 has a rental price"));
    assert_close(i.cost.unwrap_or(f64::NAN), rent * f64::from(c.cards) / (c.tokens_s * 3600.0) * 1e6, 1e-9);
    assert!(i.own_cost.is_some_and(|o| o > 0.0), "owned cost per million tokens");
}

/// Little's law per replica: requests decoding = arrival rate × output tokens × mean time per
/// output token; and the KV cache bounds the concurrency at prompt + output tokens each.
#[test]
fn batch_follows_littles_law_and_the_cache_bounds_concurrency() {
    let s = qwen72b("h100-sxm", 0);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let e = Engine::new(&m, &s, &card("h100-sxm"), 8, 8).unwrap_or_else(|| panic!("engine"));
    let l = e.at(2.0).unwrap_or_else(|| panic!("2 req/s on 8 H100s"));
    assert_close(l.batch, 2.0 * 512.0 * l.tpot_mean_s, 0.02);
    let c = capacity(&m, &s, &card("h100-sxm")).unwrap_or_else(|| panic!("plan"));
    // What the simulated engine keeps running, at most what the cache holds at the mean occupancy
    // (prompt + half the answer), at least at the full one.
    assert!(
        c.max_concurrency <= c.kv_tokens / (4096.0 + 256.0)
            && c.max_concurrency >= 0.9 * c.kv_tokens / (4096.0 + 512.0),
        "{c:?}"
    );
    // Past what one replica can prefill, it refuses the load rather than quoting a latency.
    assert!(e.at(50.0).is_none());
}

/// A tighter time-per-token target never needs fewer cards; a prefix cache never needs more.
#[test]
fn tighter_targets_need_more_cards_and_a_prefix_cache_fewer() {
    let s = qwen72b("h100-sxm", 0);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h100-sxm");
    let base = capacity(&m, &s, &g).unwrap_or_else(|| panic!("plan"));
    let mut tight = s.clone();
    tight.inference.tpot_p50_ms = 25.0;
    tight.inference.tpot_p99_ms = 40.0;
    let t = capacity(&m, &tight, &g).unwrap_or_else(|| panic!("plan"));
    assert!(t.cards >= base.cards, "{} < {}", t.cards, base.cards);
    let mut cached = s.clone();
    cached.inference.prefix_share = 0.8;
    let c = capacity(&m, &cached, &g).unwrap_or_else(|| panic!("plan"));
    assert!(c.cards <= base.cards && c.latency.ttft_p50_s < base.latency.ttft_p50_s, "{c:?} vs {base:?}");
}

/// The rate a replica sustains is that of the engine the user runs: under a cap of four running
/// requests it completes at most four answers per answer's time (Little's law: rate = running /
/// response, and no answer of 512 tokens is shorter than 511 decode steps of one request).
#[test]
fn the_sustained_rate_keeps_the_sequence_cap() {
    let mut s = qwen72b("h100-sxm", 0);
    s.inference.max_seqs = 4;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h100-sxm");
    let c = capacity(&m, &s, &g).unwrap_or_else(|| panic!("plan"));
    let e = Engine::new(&m, &s, &g, c.tp, c.ep).unwrap_or_else(|| panic!("engine"));
    let fastest = 511.0 * e.step(1.0, 0.0);
    assert!(c.sustained_rps > 0.0 && c.sustained_rps <= 4.0 / fastest, "{} against {}", c.sustained_rps, 4.0 / fastest);
}

/// An offered rate in requests per second: the plan serves exactly that load.
#[test]
fn an_offered_rate_is_served_in_full() {
    let mut s = qwen72b("h100-sxm", 0);
    s.inference.rate_rps = Some(3.0);
    let r = report(&s);
    let c = r.cards[0].serving.clone().unwrap_or_else(|| panic!("plan"));
    assert_close(c.rate_rps, 3.0, 1e-9);
    assert_close(c.tokens_s, 3.0 * 512.0, 1e-9);
    assert_close(c.tokens_s_gpu, c.tokens_s / f64::from(c.cards), 1e-12);
}

/// In the ranking, every card that meets the latency targets comes before any that cannot.
#[test]
fn cards_that_meet_the_targets_rank_first() {
    let mut s = qwen72b("h100-sxm", 0);
    s.cards = CardFilter::default();
    let r = report(&s);
    let meets: Vec<bool> = r.cards.iter().filter_map(|v| v.serving.as_ref().map(|c| c.meets)).collect();
    assert!(meets.iter().any(|m| *m) && meets.iter().any(|m| !*m), "{meets:?}");
    let first_miss = meets.iter().position(|m| !*m).unwrap_or(meets.len());
    assert!(meets[first_miss..].iter().all(|m| !*m), "{meets:?}");
}

/// A MoE decode step reads the dense weights, the share of routed experts the batch touches —
/// 1 − (1 − k/E)^B, the chance an expert is picked by at least one of B tokens choosing k of E —
/// and the running requests' KV cache, at the decode bandwidth (memory-bound at small batch: the
/// math of 8 tokens hides under the reads, √(W² + C²) within 1e-3 of W).
/// Mixtral 8x7B (E = 8, k = 2) on one H200: a quarter of the experts at batch 1, 90% at batch 8.
#[test]
fn a_moe_decode_step_reads_only_the_experts_its_tokens_pick() {
    use gpu_planner::domain::memory::kv_cache_bytes;
    let mut s = Scenario { task: Task::Inference, model: "mixtral-8x7b".into(), ..Scenario::default() };
    s.inference.context = 1024;
    s.inference.output_tokens = 256;
    let (e, weights_s) = mixtral_on_h200(&s);
    let m = s.model_spec().unwrap_or_else(|err| panic!("{err}")).clone();
    let bw = card("h200-sxm").memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9 * s.efficiency.decode_bandwidth;
    let kv = kv_cache_bytes(&m, 1024.0 + 128.0, s.inference.kv.bytes());
    // And the element-wise kernels of each token (serving::elementwise_s).
    let (ew, ew_fixed) = elementwise_s(&m, 1, card("h200-sxm").memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9);
    for (batch, touched) in [(1.0, 0.25), (8.0, 1.0 - 0.75f64.powi(8))] {
        assert_close(e.step(batch, 0.0), weights_s(touched) + batch * kv / bw + batch * ew + ew_fixed, 1e-3);
    }
}

/// Prefill and large-batch decode are compute bound: tokens × (2·N_active + 4·L·heads·d·context)
/// FLOPs (Kaplan et al. 2020; attention against half the prompt while prefilling, against the
/// mean context while decoding) at the prefill efficiency of the card's peak, C; the linear layers
/// take √(W² + C²) with their weight read W (serving::gemm_time). A decode step then reads every
/// running request's KV cache after them: the attention kernels run in sequence with the GEMMs,
/// so that read never hides under the math (it did before session 41: a roofline max), and the
/// element-wise kernels of every token follow (serving::elementwise_s).
#[test]
fn prefill_and_large_batch_decode_are_compute_bound() {
    use gpu_planner::domain::memory::{kv_cache_bytes, weight_bytes};
    let mut s = Scenario { task: Task::Inference, model: "llama-3.1-8b".into(), ..Scenario::default() };
    s.inference.context = 128;
    s.inference.output_tokens = 16;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h100-sxm");
    let e = Engine::new(&m, &s, &g, 1, 1).unwrap_or_else(|| panic!("engine"));
    let flops = g.bf16_tflops.unwrap_or(f64::NAN) * 1e12 * s.efficiency.prefill_mfu;
    let bw = g.memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9 * s.efficiency.decode_bandwidth;
    let w = weight_bytes(&m.params(), s.weight_quant, s.precision, &s.training.conventions) / bw;
    let attention = |ctx: f64| 4.0 * f64::from(m.layers) * f64::from(m.heads) * f64::from(m.head_dim()) * ctx;
    let active = m.params().active;
    let overhead = s.inference.step_overhead_ms / 1e3;
    let gemms = |c: f64| gemm_time(w, c);
    let (ew, ew_fixed) = elementwise_s(&m, 1, g.memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9);
    let prefill = gemms(8192.0 * (2.0 * active + attention(64.0)) / flops) + 8192.0 * ew + ew_fixed + overhead;
    assert_close(e.step(0.0, 8192.0), prefill, 1e-9);
    let kv = 2048.0 * kv_cache_bytes(&m, 136.0, s.inference.kv.bytes()) / bw;
    let decode = gemms(2048.0 * (2.0 * active + attention(136.0)) / flops) + kv + 2048.0 * ew + ew_fixed + overhead;
    assert_close(e.step(2048.0, 0.0), decode, 1e-9);
    // The KV read is a tenth of the step here: the roofline's max would have dropped it.
    assert!(kv > 0.1 * decode, "{kv} of {decode}");
}

/// Prompt tokens route through the experts too: a prefill chunk of 64 Mixtral tokens touches
/// 1 − 0.75^64 of the routed experts (all but a 1e-8 share), not a quarter.
#[test]
fn prefill_tokens_route_through_the_experts_too() {
    let s = Scenario { task: Task::Inference, model: "mixtral-8x7b".into(), ..Scenario::default() };
    let (e, weights_s) = mixtral_on_h200(&s);
    let memory_bound = weights_s(1.0 - 0.75f64.powi(64));
    assert!(e.step(0.0, 64.0) >= memory_bound * (1.0 - 1e-9), "{} < {memory_bound}", e.step(0.0, 64.0));
    // 64 tokens' math (2·N_active each, attention aside: < 1e-3 here) beside the reads, in
    // quadrature (serving::gemm_time).
    let m = s.model_spec().unwrap_or_else(|err| panic!("{err}")).clone();
    let flops = card("h200-sxm").bf16_tflops.unwrap_or(f64::NAN) * 1e12 * s.efficiency.prefill_mfu;
    let math = 64.0 * 2.0 * m.params().active / flops;
    let overhead = s.inference.step_overhead_ms / 1e3;
    let reads = memory_bound - overhead;
    let (ew, ew_fixed) = elementwise_s(&m, 1, card("h200-sxm").memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9);
    assert_close(e.step(0.0, 64.0), gemm_time(reads, math) + 64.0 * ew + ew_fixed + overhead, 1e-3);
}

/// A log-normal with mean 1,000 and p90 2,000 has σ = z₀.₉ − √(z₀.₉² − 2 ln 2) = 0.7755; going
/// back through the log-normal's own formulas (mean = e^(μ+σ²/2), p90 = e^(μ+1.2816σ)) gives
/// the p90 again. Equal or shorter p90s mean equal prompts; a p90 too far out takes σ = z₀.₉.
#[test]
fn lognormal_spread_of_prompt_lengths() {
    use gpu_planner::domain::serving::lognormal_sigma;
    let sigma = lognormal_sigma(1000.0, 2000.0);
    assert_close(sigma, 0.775_508, 1e-5);
    let mu = 1000f64.ln() - sigma * sigma / 2.0;
    assert_close((mu + 1.281_551_565_545 * sigma).exp(), 2000.0, 1e-9);
    assert_close(lognormal_sigma(1000.0, 1000.0), 0.0, 0.0);
    assert_close(lognormal_sigma(1000.0, 900.0), 0.0, 0.0);
    assert_close(lognormal_sigma(1000.0, 10_000.0), 1.281_551_565_545, 1e-12);
    // No prompt at all has no spread.
    assert_close(lognormal_sigma(0.0, 1000.0), 0.0, 0.0);
}

/// Prompts of varying length (p90 = 2.5 × the mean) wait longer (Kingman: × (1 + c_s²)) and the
/// slowest prefill is longer: TTFT p99 grows, and a plan that meets the targets with them never
/// needs fewer cards than with equal prompts. A 1 s TTFT p99 is then out of reach on H100s: the
/// p99 prompt alone takes longer to prefill, and more replicas do not shorten one prompt.
#[test]
fn varied_prompt_lengths_raise_the_tail_and_never_lower_the_cards() {
    let g = card("h100-sxm");
    let mut s = qwen72b("h100-sxm", 0);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let even = Engine::new(&m, &s, &g, 4, 4).and_then(|e| e.at(1.5)).unwrap_or_else(|| panic!("keeps up"));
    s.inference.context_p90 = Some(10_240);
    let varied = Engine::new(&m, &s, &g, 4, 4).and_then(|e| e.at(1.5)).unwrap_or_else(|| panic!("keeps up"));
    assert!(varied.ttft_p99_s > even.ttft_p99_s, "{varied:?} vs {even:?}");
    let plan = |s: &Scenario| capacity(&m, s, &g).unwrap_or_else(|| panic!("a plan"));
    let (v, e) = (plan(&s), plan(&Scenario { inference: even_prompts(&s), ..s.clone() }));
    assert!(e.meets && (!v.meets || v.cards >= e.cards), "{} {} / {} {}", v.meets, v.cards, e.meets, e.cards);
    let mut tight = s.clone();
    tight.inference.ttft_p99_s = 1.0;
    assert!(!plan(&tight).meets);
    assert!(plan(&Scenario { inference: even_prompts(&tight), ..tight.clone() }).meets);
    s.inference.context_p90 = Some(4096); // p90 = mean: equal prompts
    let same = Engine::new(&m, &s, &g, 4, 4).and_then(|e| e.at(1.5)).unwrap_or_else(|| panic!("keeps up"));
    assert_close(same.ttft_p99_s, even.ttft_p99_s, 1e-12);
}

fn even_prompts(s: &Scenario) -> gpu_planner::domain::scenario::Inference {
    gpu_planner::domain::scenario::Inference { context_p90: None, ..s.inference.clone() }
}

/// DeepEP's low-latency kernels on H800 with one CX7 400 Gb/s NIC per card, 128 tokens per
/// card, hidden 7168, top-8, FP8 dispatch and BF16 combine (README, "Low-latency kernels with
/// pure RDMA"): dispatch + combine at EP16, 32, 64, 128 = 118 + 195, 155 + 273, 173 + 314,
/// 192 + 369 µs. Our all-to-all moves the same bytes over the fabric (the share on other servers)
/// and NVLink (the rest) at once. Tolerance ±25%: the kernels' own latency is not modelled, and
/// our times come out 7–17% short.
#[test]
fn moe_all_to_all_matches_deepeps_published_latencies() {
    use gpu_planner::domain::serving::all_to_all_s;
    let mut s = Scenario::default();
    s.infra.fabric_gbit_per_gpu = 400.0;
    s.parallel.gpus_per_server = 8;
    let g = card("h800-sxm");
    for (ep, published_us) in [(16, 313.0), (32, 428.0), (64, 487.0), (128, 561.0)] {
        let ours = 128.0 * all_to_all_s(&s, &g, ep, 7168.0, 8.0, 1.0) * 1e6;
        assert!((ours / published_us - 1.0).abs() <= 0.25, "EP{ep}: {ours:.0} µs vs {published_us}");
    }
    // Inside one server the bytes cross NVLink, not the NIC: faster than DeepEP's pure-RDMA
    // EP8 figure (77 + 114 µs).
    assert!(all_to_all_s(&s, &g, 8, 7168.0, 8.0, 1.0) * 128.0 * 1e6 < 191.0);
    assert!(all_to_all_s(&s, &g, 1, 7168.0, 8.0, 1.0).abs() < f64::EPSILON);
}

fn deepseek_v3(only: &str) -> Scenario {
    let mut s = Scenario {
        task: Task::Inference,
        model: "deepseek-v3".into(),
        precision: gpu_planner::domain::scenario::Precision::Fp8,
        weight_quant: gpu_planner::domain::scenario::WeightQuant::Fp8,
        cards: CardFilter { only: vec![only.into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    s.inference.concurrent = 64;
    s.inference.context = 2048;
    s.inference.output_tokens = 512;
    s
}

/// DeepSeek-V3 (671B) in FP8 does not fit one server of 8 × 80 GB H800s (its weights alone are
/// ~630 GiB of the 576 GiB the engine may use): as deployed (DeepSeek-V3 report §3.4; SGLang's
/// two-node H800 recipe), the replica spans servers with the experts spread over them.
#[test]
fn a_moe_model_too_large_for_one_server_is_served_by_an_expert_parallel_replica() {
    let s = deepseek_v3("h800-sxm");
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h800-sxm");
    assert!(Engine::new(&m, &s, &g, 8, 8).is_none(), "TP8 alone cannot hold the weights");
    let c = capacity(&m, &s, &g).unwrap_or_else(|| panic!("an EP replica serves it"));
    // Two servers hold it (SGLang's recipe runs it on two 8 × H800 nodes); four would be twice
    // the cards for a replica that two already hold.
    assert!(c.ep == 16 && c.cards.is_multiple_of(16), "{c:?}");
    // The report's layout carries the groups, and the memory per card is the expert shard.
    let r = report(&s);
    let v = r.cards.iter().find(|v| v.gpu == "h800-sxm").unwrap_or_else(|| panic!("ranked"));
    assert_eq!(v.layout.gpus(), c.cards);
    assert!(v.memory.total < 80.0 * 1024f64.powi(3), "{}", v.memory.total);
    // A dense model ignores the expert-parallel width.
    let mut dense = qwen72b("h100-sxm", 0);
    let before = capacity(&dense.model_spec().unwrap_or_else(|e| panic!("{e}")).clone(), &dense, &card("h100-sxm"));
    dense.inference.ep = 16;
    let after = capacity(&dense.model_spec().unwrap_or_else(|e| panic!("{e}")).clone(), &dense, &card("h100-sxm"));
    assert_eq!(before, after);
}

/// An expert-parallel width the user sets is the one planned, with the layout still searched for
/// the rest: DeepSeek-V3 in FP8 fits one server of 8 × 141 GB H200s, where the search settles,
/// but a team that runs it over two servers (EP 16, as DeepSeek's own deployment spreads experts
/// across nodes) gets that replica priced, not the one-server plan.
#[test]
fn an_expert_parallel_width_the_user_sets_is_the_one_planned() {
    let mut s = deepseek_v3("h200-sxm");
    assert!(s.parallel.auto, "the layout is searched");
    let g = card("h200-sxm");
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let searched = capacity(&m, &s, &g).unwrap_or_else(|| panic!("one server serves it"));
    assert_eq!(searched.ep, 8, "{searched:?}");
    s.inference.ep = 16;
    let set = capacity(&m, &s, &g).unwrap_or_else(|| panic!("two servers serve it"));
    assert!(set.ep == 16 && set.cards.is_multiple_of(16), "{set:?}");
}

/// MLA's latent KV cannot be split over tensor-parallel ranks, so TP8 keeps eight copies; with
/// data-parallel attention each card caches only its own requests (SGLang v0.4 release notes,
/// "data parallelism attention for DeepSeek models": less KV duplication, larger batches).
#[test]
fn data_parallel_attention_holds_more_mla_cache_than_tensor_parallel() {
    let s = deepseek_v3("h20");
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h20");
    // Two servers, experts over all 16 cards: attention in two TP8 groups, or in sixteen
    // single-card groups (each holding a copy of the ~17B non-expert weights).
    let tp8 = Engine::new(&m, &s, &g, 8, 16).unwrap_or_else(|| panic!("TP8 groups fit"));
    let dp = Engine::new(&m, &s, &g, 1, 16).unwrap_or_else(|| panic!("DP attention fits"));
    assert!(dp.kv_tokens > 4.0 * tp8.kv_tokens, "{} vs {}", dp.kv_tokens, tp8.kv_tokens);
    assert_eq!((dp.cards(), tp8.cards()), (16, 16));
    // One server: TP8 holds the FP8 weights (~640 GB of 8 × 96 GB) with room for a cache; the
    // same server with single-card attention groups does not (each card would hold 17 GB of
    // non-expert weights beside 1/8 of the experts).
    assert!(Engine::new(&m, &s, &g, 8, 8).is_some());
    assert!(Engine::new(&m, &s, &g, 1, 8).is_none());
    // A width that is not a multiple of the attention group is refused.
    assert!(Engine::new(&m, &s, &g, 4, 6).is_none());
}

/// Answers of varied length: a request holds its cache for as many steps as it generates, so the
/// cache in use per running request is the time-weighted mean p + E[o]/2 · (1 + c²) (the
/// renewal-reward theorem, e.g. Ross, "Introduction to Probability Models", §7.4; for a
/// log-normal, 1 + c² = e^(σ²)). With mean 512 and p90 1,024 output tokens, σ = 0.7755 and the
/// cache-bound batch shrinks by (4096 + 256) / (4096 + 256 · e^(σ²)).
#[test]
fn long_tailed_answers_hold_more_cache_and_never_need_fewer_cards() {
    use gpu_planner::domain::serving::lognormal_sigma;
    let mut s = qwen72b("h100-sxm", 0);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h100-sxm");
    let even = Engine::new(&m, &s, &g, 4, 4).unwrap_or_else(|| panic!("engine"));
    let before = capacity(&m, &s, &g).unwrap_or_else(|| panic!("plan"));
    s.inference.output_p90 = Some(1024);
    let sigma = lognormal_sigma(512.0, 1024.0);
    assert!((sigma - 0.7755).abs() < 1e-3, "{sigma}");
    let varied = Engine::new(&m, &s, &g, 4, 4).unwrap_or_else(|| panic!("engine"));
    let want = (4096.0 + 256.0) / (4096.0 + 256.0 * (sigma * sigma).exp());
    assert_close(varied.max_batch() / even.max_batch(), want, 1e-9);
    let after = capacity(&m, &s, &g).unwrap_or_else(|| panic!("plan"));
    assert!(after.cards >= before.cards, "{} < {}", after.cards, before.cards);
    // The link carries it.
    let back =
        gpu_planner::domain::share::decode(&gpu_planner::domain::share::encode(&s)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.inference.output_p90, Some(1024));
}

/// Poisson quantiles against the exact cumulative sums (P(X ≤ k) = Σ e^−λ λ^i / i!): λ = 0.5
/// has median 0 (P(0) = 0.607) and 99th percentile 3; λ = 1: 1 and 4; λ = 10: 10 and 18. Above
/// λ = 500 the normal approximation takes over and still lands on the exact values for
/// λ = 1000: 1000 and 1074.
#[test]
fn poisson_quantiles_match_the_exact_sums() {
    for (mean, p50, p99) in [(0.5, 0.0, 3.0), (1.0, 1.0, 4.0), (10.0, 10.0, 18.0), (1000.0, 1000.0, 1074.0)] {
        assert_eq!(poisson_quantile(mean, 0.5).to_bits(), f64::to_bits(p50), "λ {mean} median");
        assert_eq!(poisson_quantile(mean, 0.99).to_bits(), f64::to_bits(p99), "λ {mean} 99th");
    }
    assert_eq!(poisson_quantile(0.0, 0.99).to_bits(), 0f64.to_bits());
}

/// DeepEP's normal kernels inside one H800 server (EP8, README "Normal kernels with NVLink and
/// RDMA forwarding"): dispatch at 153 GB/s and combine at 158 GB/s over NVLink, FP8 dispatch and
/// BF16 combine, hidden 7168, top-8. A token owned by a card sends the 7/8 of its k copies that
/// go to other cards; our time for them must match those bandwidths within 10%.
#[test]
fn moe_all_to_all_inside_a_server_matches_deepeps_nvlink_bandwidth() {
    use gpu_planner::domain::serving::all_to_all_s;
    let mut s = Scenario::default();
    s.parallel.gpus_per_server = 8;
    let g = card("h800-sxm");
    let (h, k) = (7168.0, 8.0);
    let away = k * h * 7.0 / 8.0; // values per owned token that leave the card
    let published = away * (1.0 / 153e9 + 2.0 / 158e9);
    assert_close(all_to_all_s(&s, &g, 8, h, k, 1.0), published, 0.10);
    // Four cards of the server: 3 of every 4 copies leave the card.
    let published4 = k * h * 3.0 / 4.0 * (1.0 / 153e9 + 2.0 / 158e9);
    assert_close(all_to_all_s(&s, &g, 4, h, k, 1.0), published4, 0.10);
}

/// An encoder–decoder model reads its encoder's weights only in steps that encode a prompt:
/// a plain decode step of Flan-T5-XL is shorter than one that also prefills a single token by
/// at least the encoder's bytes over the decode bandwidth (about half the weights), while for a
/// decoder-only model one more prompt token costs next to nothing.
#[test]
fn only_steps_that_encode_read_the_encoder() {
    use gpu_planner::domain::memory::weight_bytes;
    for (model, encoder) in [("flan-t5-xl", true), ("qwen2.5-7b", false)] {
        let mut s = Scenario { task: Task::Inference, model: model.into(), ..Scenario::default() };
        s.inference.context = 256;
        s.inference.output_tokens = 64;
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let g = card("a100-80gb-sxm4");
        let e = Engine::new(&m, &s, &g, 1, 1).unwrap_or_else(|| panic!("{model} fits an A100"));
        let weights = weight_bytes(&m.params(), s.weight_quant, s.precision, &s.training.conventions);
        let bw = g.memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9 * s.efficiency.decode_bandwidth;
        let extra = e.step(1.0, 1.0) - e.step(1.0, 0.0);
        if encoder {
            assert!(m.encoder_fraction() > 0.3 && m.encoder_fraction() < 0.7, "{}", m.encoder_fraction());
            assert_close(extra, m.encoder_fraction() * weights / bw, 0.05);
        } else {
            assert!(extra < 0.01 * weights / bw, "{extra}");
        }
    }
}

/// The memory column is one card's: its replica's share of the users. Qwen2.5-72B's KV cache is
/// 2 (K, V) × 80 layers × 8 KV heads × 128 × 2 B = 327,680 B per token (its config.json), split
/// over the tensor-parallel cards; 100 users over `n` replicas hold ⌈100 / n⌉ × (4,096 + 512)
/// tokens each. Counting all 100 users on every replica read 146 GiB on a 94 GiB card marked "fits".
#[test]
fn the_serving_memory_column_counts_one_replicas_share_of_the_users() {
    let r = report(&qwen72b("h100-sxm", 0));
    let v = &r.cards[0];
    let c = v.serving.clone().unwrap_or_else(|| panic!("no serving plan"));
    assert!(c.replicas > 1, "the case needs several replicas: {c:?}");
    let users = (100.0 / f64::from(c.replicas)).ceil();
    assert_close(v.memory.kv_cache, users * 4608.0 * 327_680.0 / f64::from(c.tp), 1e-9);
    assert!(v.memory.total <= v.capacity, "{} of {}", v.memory.total, v.capacity);
}

/// The measured-operator decode step (serving/measured.rs) is built from AIConfigurator's
/// figures as published (docs/research/2026-12-02-decode-ops.md): on 8 H200s, DeepSeek-V3 in
/// FP8 at TP 8 adds, from 4 to 16 tokens per MoE layer, 58 × (182.00 − 92.26) µs (its MoE table,
/// one GPU of 8 expert-parallel, the busiest of the 8 under its default power-law routing); from batch 1 to 8 at 1,024 cached tokens each, 61 × (56.2 −
/// 51.7) µs of MLA module (16 local heads) and two all-reduces per layer growing from a 14 KB to
/// a 115 KB message. The custom all-reduce is read at its measured sizes (8 GPUs: 3.50 µs at
/// 8 KB, 4.58 µs at 64 KB; 4 GPUs: 3.61 µs at 64 KB) and between them linearly in ln(size).
#[test]
fn the_measured_decode_step_composes_the_published_operator_timings() {
    use gpu_planner::domain::serving::measured::{allreduce_s, ops, DecodeOps};
    let h200 = ops("h200-sxm").unwrap_or_else(|| panic!("H200 was measured"));
    assert_close(allreduce_s(h200, 8, 8192.0), 3.5e-6, 1e-12);
    assert_close(allreduce_s(h200, 8, 65_536.0), 4.58e-6, 1e-12);
    assert_close(allreduce_s(h200, 2, 8192.0), 2.8e-6, 1e-12);
    // Four GPUs read their own row (3.61 µs at 64 KB), as do 3 (the 2-GPU row) and 6 (the 4-GPU row).
    assert_close(allreduce_s(h200, 4, 65_536.0), 3.61e-6, 1e-12);
    assert_close(allreduce_s(h200, 3, 65_536.0), 2.95e-6, 1e-12);
    assert_close(allreduce_s(h200, 6, 65_536.0), 3.61e-6, 1e-12);
    assert_close(allreduce_s(h200, 8, (8192.0_f64 * 65_536.0).sqrt()), (3.5e-6 + 4.58e-6) / 2.0, 1e-9);
    // The largest measured size is read as measured (17.78 µs at 512 KB), and below the smallest
    // the smallest holds.
    assert_close(allreduce_s(h200, 8, 524_288.0), 17.78e-6, 1e-12);
    assert_close(allreduce_s(h200, 8, 100.0), 3.5e-6, 1e-12);
    assert!(allreduce_s(h200, 1, 1e6).abs() < 1e-15, "one card has nothing to reduce");
    assert!(ops("l40s").is_none() && ops("h20").is_none(), "cards without their own measurements");
    let s = Scenario { task: Task::Inference, model: "deepseek-v3".into(), ..Scenario::default() };
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let o = DecodeOps::new(&m, &card("h200-sxm"), 1.0, true, 1.0, 8, 8).unwrap_or_else(|| panic!("measured"));
    let moe = o.step(8.0, 8.0 * 1024.0, 16.0, 1.0) - o.step(8.0, 8.0 * 1024.0, 4.0, 1.0);
    assert_close(moe, 58.0 * (182.0 - 92.26) * 1e-6, 1e-9);
    let h = 7168.0 * 2.0;
    let ar = |b: f64| 122.0 * allreduce_s(h200, 8, b * h);
    let mla = o.step(8.0, 8.0 * 1024.0, 4.0, 1.0) - o.step(1.0, 1024.0, 4.0, 1.0);
    assert_close(mla, 61.0 * (56.2 - 51.7) * 1e-6 + ar(8.0) - ar(1.0), 1e-9);
    assert!(o.step(0.0, 0.0, 0.0, 1.0).abs() < 1e-15, "no decoding request, no decode step");
    // The module was measured at 1,024 cached tokens a request: shorter contexts cost the same,
    // longer ones add their latent cache's read, linearly (the MLA cache, 576 values a token and
    // layer, at the card's attention share of bandwidth).
    let at = |context: f64| o.step(1.0, context, 4.0, 1.0);
    assert_close(at(500.0), at(1024.0), 1e-15);
    let (one, two) = (at(1024.0 + 50_000.0) - at(1024.0), at(1024.0 + 100_000.0) - at(1024.0));
    assert!(one > 0.0 && (two / one - 2.0).abs() < 1e-9, "{one} {two}");
    // BF16 weights: DeepSeek's FP8 MoE table does not apply; the routed experts are read at
    // the measured GEMM share instead. The A100 (no MLA module measured) takes the H100's module,
    // the nearest in bandwidth, stretched by 3,350 / 2,039 GB/s: from one request to eight at
    // 16 local heads it grows by 61 × (60.8 − 54.5) µs × 1.643, with the all-reduces'.
    let bf16 = DecodeOps::new(&m, &card("h200-sxm"), 2.0, false, 2.0, 8, 8).unwrap_or_else(|| panic!("measured"));
    assert!(bf16.step(16.0, 16.0 * 1024.0, 16.0, 1.0) > o.step(16.0, 16.0 * 1024.0, 16.0, 1.0));
    let a100 = DecodeOps::new(&m, &card("a100-80gb-sxm4"), 2.0, false, 2.0, 8, 8).unwrap_or_else(|| panic!("figures"));
    assert_eq!(a100.source(), gpu_planner::domain::serving::measured::Source::Borrowed("h100-sxm"));
    let a100_ops = ops("a100-80gb-sxm4").unwrap_or_else(|| panic!("A100 was measured"));
    let ar = |b: f64| 122.0 * allreduce_s(a100_ops, 8, b * h);
    let grown = a100.step(8.0, 8.0 * 1024.0, 4.0, 1.0) - a100.step(1.0, 1024.0, 4.0, 1.0);
    assert_close(grown, 61.0 * (60.8 - 54.5) * 1e-6 * 3350.0 / 2039.0 + ar(8.0) - ar(1.0), 1e-9);
}

/// At a small batch of a deep sparse model the measured operators set the decode step:
/// DeepSeek-V3 (FP8) on 8 H200s at 4 requests takes the MoE and MLA tables' ~8 ms plus the 2 ms
/// step overhead, where the roofline alone gave under 8 ms in all (InferenceX measured 13.8 ms
/// per token with TensorRT-LLM at this load: the held-out row scores it).
#[test]
fn measured_operators_set_a_small_batch_decode_of_a_sparse_model() {
    let mut s = Scenario { task: Task::Inference, model: "deepseek-v3".into(), ..Scenario::default() };
    s.precision = gpu_planner::domain::scenario::Precision::Fp8;
    s.weight_quant = gpu_planner::domain::scenario::WeightQuant::Fp8;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let e = Engine::new(&m, &s, &card("h200-sxm"), 8, 8).unwrap_or_else(|| panic!("fits"));
    let step = e.step_at(4.0, 4.0 * 1024.0, 0.0);
    assert!(step > 0.0085 && step < 0.0125, "{step}");
    // More requests never make a step shorter.
    let steps: Vec<f64> = [1.0, 4.0, 16.0, 64.0, 256.0].iter().map(|&b| e.step_at(b, b * 2048.0, 0.0)).collect();
    assert!(steps.windows(2).all(|w| w[1] >= w[0]), "{steps:?}");
}

/// Past the largest measured message (512 KB) the all-reduce grows linearly at the slope between
/// 64 KB and 512 KB (H200, 8 GPUs: 4.58 → 17.78 µs), and a GQA model's decode step grows with the
/// context by its KV read: Qwen2.5-72B's 327,680 B per token, a quarter on each of 4 H100s, at the
/// measured 0.877 of 3,350 GB/s.
#[test]
fn measured_all_reduce_extrapolates_and_the_kv_read_follows_the_context() {
    use gpu_planner::domain::serving::measured::{allreduce_s, ops, DecodeOps};
    let h200 = ops("h200-sxm").unwrap_or_else(|| panic!("H200 was measured"));
    assert_close(allreduce_s(h200, 8, 2.0 * 524_288.0 - 65_536.0), (17.78 + 13.2) * 1e-6, 1e-9);
    let s = qwen72b("h100-sxm", 0);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let o = DecodeOps::new(&m, &card("h100-sxm"), 2.0, false, 2.0, 4, 4).unwrap_or_else(|| panic!("measured"));
    let grown = o.step(8.0, 8.0 * 5000.0, 8.0, 1.0) - o.step(8.0, 8.0 * 1000.0, 8.0, 1.0);
    assert_close(grown, 32_000.0 * 327_680.0 / 4.0 / (3350e9 * 0.877), 1e-9);
}

/// A request that generates no tokens (output 0: the proptest of tests/properties.rs found it)
/// has no decode steps: its per-user rate is 0, never infinity, and every other figure stays
/// finite.
#[test]
fn answers_of_no_tokens_have_a_finite_per_user_rate() {
    let mut s = Scenario { task: Task::Inference, model: "llama-3.1-8b".into(), ..Scenario::default() };
    s.inference.context = 1;
    s.inference.output_tokens = 0;
    s.inference.concurrent = 1;
    let r = report(&s);
    let t: Vec<_> = r.cards.iter().filter_map(|c| c.throughput).collect();
    assert!(!t.is_empty(), "some card serves it");
    for x in &t {
        assert!(x.per_request_tokens_s.is_finite() && x.per_request_tokens_s >= 0.0, "{x:?}");
    }
}

/// The rate a prompt of `tokens` × 128-token requests is prefilled at on one `id` card, in dense
/// TFLOPS of the model's matrix products (2 FLOPs per active parameter and token): Llama 2 70B,
/// FP8 weights and math, or BF16.
fn prefill_tflops(id: &str, fp8: bool) -> f64 {
    use gpu_planner::domain::scenario::{Precision, WeightQuant};
    let mut s = Scenario { task: Task::Inference, model: "llama-2-70b".into(), ..Scenario::default() };
    if fp8 {
        s.precision = Precision::Fp8;
        s.weight_quant = WeightQuant::Fp8;
    }
    s.inference.context = 128;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let tp = if fp8 { 1 } else { 2 };
    let e = Engine::new(&m, &s, &card(id), tp, tp).unwrap_or_else(|| panic!("Llama 2 70B fits {tp} × {id}"));
    let tokens = 16_384.0;
    tokens * 2.0 * m.params().active / e.step_at(0.0, 0.0, tokens) / f64::from(tp) / 1e12
}

/// A prefill is matrix products: it never outruns the card's own measured GEMMs
/// (serving::compute_share). AMD measures its best MI300X FP8 GEMM at 1,273 of 2,615 TFLOPS
/// (ROCm blogs, "Measuring Max-Achievable FLOPs – Part 2", Table 1, hipBLASLt-bench); at the 50%
/// default the engine prefilled at 1,307. The H100's best measured FP8 GEMM is 0.642 of its
/// 1,979 (aiconfigurator h100_sxm trtllm 1.3.0rc20, M 4096 × 16384 × 4096:
/// docs/research/2026-12-01-measured-gemm.json). BF16 GEMMs measure ~0.8 of peak, above the 50%
/// prefill default, which stands: 0.5 × 989.4 on an H100 (attention and launches aside).
#[test]
fn a_prefill_never_outruns_the_cards_measured_gemms() {
    let mi300x = prefill_tflops("mi300x", true);
    assert!(mi300x < 1_273.0, "MI300X FP8 prefill at {mi300x:.0} TFLOPS");
    let h100 = prefill_tflops("h100-sxm", true);
    assert!(h100 < 0.642 * 1_978.9, "H100 FP8 prefill at {h100:.0} TFLOPS");
    let bf16 = prefill_tflops("h100-sxm", false);
    assert!(bf16 > 0.45 * 989.4 && bf16 <= 0.5 * 989.4, "H100 BF16 prefill at {bf16:.0} TFLOPS");
}

/// The line under the serving table states the held-out serving rows' p90 per kind of figure, in
/// both languages (the figures themselves are held to the accuracy table by tests/accuracy.rs).
#[test]
fn the_serving_table_says_how_sure_its_figures_are() {
    use gpu_planner::domain::format::{serving_accuracy_line, Lang};
    use gpu_planner::domain::serving::SERVING_P90;
    let en = serving_accuracy_line(Lang::En);
    let zh = serving_accuracy_line(Lang::Zh);
    for (_, p90, n) in SERVING_P90 {
        // Rounded half away from zero, as the line rounds (`{:.0}` rounds 64.5 to even).
        let pct = format!("±{}%", (p90 * 100.0).round());
        assert!(en.contains(&pct) && zh.contains(&pct), "{pct}: {en} / {zh}");
        assert!(en.contains(&n.to_string()) && zh.contains(&n.to_string()), "{n}");
    }
    let (_, p90, n) = SERVING_P90[0];
    assert!(en.contains(&format!("first-token times came within ±{}% ({n} runs)", (p90 * 100.0).round())), "{en}");
}

/// A GEMM near its ridge point reads and multiplies at once only in part: its time is
/// √(W² + C²) (serving::gemm_time), not the roofline's max(W, C). Measured on an H200 (AIConfigurator
/// `h200_sxm/gemm/trtllm/1.3.0rc20/gemm_perf.parquet`, N = K = 8,192; docs/research/
/// 2026-12-06-gemm-transition.md): W is the shape's time at M = 1, C is M × its time per token at
/// M = 16,384. Each point within 16% (the fit's p90 on these files); the roofline is 19% fast on
/// the first.
#[test]
fn a_gemm_near_its_ridge_takes_its_reads_and_its_math_in_quadrature() {
    // (M = 1 µs, M = 16,384 µs, M, measured µs at M)
    let fp8_block = (24.357_333, 1_883.189_360, [(256.0, 36.442_667), (512.0, 65.040_002)]);
    let bf16 = (35.616_000, 2_809.813_182, [(256.0, 49.040_000), (512.0, 87.722_669)]);
    for (w, big, points) in [fp8_block, bf16] {
        for (m, measured) in points {
            let c = m * big / 16_384.0;
            let t = gemm_time(w, c);
            assert!((t / measured - 1.0).abs() < 0.16, "M {m}: {t:.1} µs against {measured:.1}");
            assert!(t >= w.max(c), "never below the roofline");
        }
    }
    assert_close(gemm_time(3.0, 4.0), 5.0, 1e-12);
    assert_close(gemm_time(0.0, 4.0), 4.0, 0.0);
}

/// A static batch (TensorRT-LLM's published throughput tables run one) prefills all its prompts
/// in chunks of `max_batched_tokens`, the last one partial, then decodes the whole batch for the
/// rest of the answer: 3 prompts of 1,000 tokens in chunks of 2,048 are one full chunk and one of
/// 952 tokens, then 63 decode steps of 3 requests; prompts that fill whole chunks leave none empty.
#[test]
fn a_static_batch_prefills_in_chunks_the_last_one_partial() {
    let mut s = Scenario { task: Task::Inference, model: "llama-3.1-8b".into(), ..Scenario::default() };
    s.inference.context = 1000;
    s.inference.output_tokens = 64;
    s.inference.max_batched_tokens = 2048;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let e = Engine::new(&m, &s, &card("h100-sxm"), 1, 1).unwrap_or_else(|| panic!("engine"));
    let expected = e.step(0.0, 2048.0) + e.step(0.0, 952.0) + 63.0 * e.step(3.0, 0.0);
    assert_close(e.static_latency(3.0), expected, 1e-12);
    // Two prompts fill no chunk: one partial chunk of 2,000.
    assert_close(e.static_latency(2.0), e.step(0.0, 2000.0) + 63.0 * e.step(2.0, 0.0), 1e-12);
    // Prompts that fill whole chunks leave no empty chunk behind: 4 × 1,024 tokens are two.
    s.inference.context = 1024;
    let e = Engine::new(&m, &s, &card("h100-sxm"), 1, 1).unwrap_or_else(|| panic!("engine"));
    assert_close(e.static_latency(4.0), 2.0 * e.step(0.0, 2048.0) + 63.0 * e.step(4.0, 0.0), 1e-12);
}

/// The serving plan's simulated replicas keep the engine's sequence cap (vLLM `max_num_seqs`): 16
/// users of Llama 3.1 8B on H100s, each replica running at most 2 requests at once, queue behind
/// the cap, so meeting the same targets takes more replicas than at the default cap.
#[test]
fn the_plan_keeps_the_engines_sequence_cap() {
    let mut s = Scenario { task: Task::Inference, model: "llama-3.1-8b".into(), ..Scenario::default() };
    s.cards = CardFilter { only: vec!["h100-sxm".into()], ..CardFilter::default() };
    s.inference.concurrent = 16;
    s.inference.context = 1024;
    s.inference.output_tokens = 256;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h100-sxm");
    let open = capacity(&m, &s, &g).unwrap_or_else(|| panic!("a plan"));
    s.inference.max_seqs = 2;
    let capped = capacity(&m, &s, &g).unwrap_or_else(|| panic!("a plan"));
    assert!(open.meets && capped.meets, "{} {}", open.meets, capped.meets);
    assert!(capped.replicas > open.replicas, "{} replicas capped against {}", capped.replicas, open.replicas);
}

/// vLLM V1's sequence cap when the user sets none (`vllm/engine/arg_utils.py`,
/// `_set_default_args`: "For GPUs like H100 and MI300x, use larger default values" — 1,024
/// sequences on a device of at least 70 GiB whose name does not contain "a100", else 256): the
/// cap follows both halves of that rule, and a scenario's own cap replaces it.
#[test]
fn the_default_sequence_cap_follows_vllms_rule() {
    for (id, cap) in [("h100-sxm", 1024), ("mi300x", 1024), ("a100-80gb-sxm4", 256), ("l40s", 256), ("rtx-4090", 256)] {
        assert_eq!(gpu_planner::domain::serving::default_max_seqs(&card(id)), cap, "{id}");
    }
    let mut s = Scenario { task: Task::Inference, ..Scenario::default() };
    assert_eq!(gpu_planner::domain::serving::max_seqs(&s, &card("l40s")), 256);
    s.inference.max_seqs = 48;
    assert_eq!(gpu_planner::domain::serving::max_seqs(&s, &card("h100-sxm")), 48);
}

/// The element-wise kernels between the linear layers, counted as AIConfigurator counts them
/// (`sdk/models/llama.py`, `moe.py`: two add-norms of 2h in and 2h out per layer, a dense MLP's
/// gated activation of 2·I/tp in and I/tp out, the embedding's h out, FP16; each a memory op at
/// 0.8 of peak bandwidth plus 3 µs). Llama-2-70B on two cards: 2 × (80 × 2 × 4 × 8,192 + 80 × 3 ×
/// 14,336 + 8,192) = 17,383,424 bytes a token on each card, 2 × 80 + 80 + 1 = 241 kernels a
/// forward. DeepSeek-V3 on eight: only its 3 dense layers have the activation outside the fused
/// expert kernels: 2 × (61 × 8 × 7,168 + 3 × 3 × 2,304 + 7,168) = 7,051,776 bytes, 126 kernels.
#[test]
fn elementwise_kernels_count_aiconfigurator_ops() {
    let spec = |id: &str| {
        Scenario { model: id.into(), ..Scenario::default() }.model_spec().unwrap_or_else(|e| panic!("{e}")).clone()
    };
    let (per_token, fixed) = elementwise_s(&spec("llama-2-70b"), 2, 1e12);
    assert_close(per_token, 17_383_424.0 / 0.8e12, 1e-12);
    assert_close(fixed, 241.0 * 3e-6, 1e-12);
    let (per_token, fixed) = elementwise_s(&spec("deepseek-v3"), 8, 1e12);
    assert_close(per_token, 7_051_776.0 / 0.8e12, 1e-12);
    assert_close(fixed, 126.0 * 3e-6, 1e-12);
}

/// Under expert parallelism with data-parallel attention each card's element-wise kernels see
/// only its group's decoding tokens, and the whole prompt chunk: DeepSeek-V3 on 16 H100s (TP 8,
/// EP 16, two attention groups, FP8 weights) at 256 decoding requests and a 512-token chunk runs 128 + 512
/// tokens' worth on the busiest card.
#[test]
fn elementwise_kernels_see_the_busiest_cards_tokens() {
    let mut s = Scenario { task: Task::Inference, model: "deepseek-v3".into(), ..Scenario::default() };
    s.inference.ep = 16;
    s.weight_quant = gpu_planner::domain::scenario::WeightQuant::Fp8;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = card("h100-sxm");
    let e = Engine::new(&m, &s, &g, 8, 16).unwrap_or_else(|| panic!("fits 16 H100s"));
    let (per_token, kernels) = elementwise_s(&m, 8, g.memory_bandwidth_gb_s.unwrap_or(f64::NAN) * 1e9);
    assert_close(e.elementwise(256.0, 512.0), (128.0 + 512.0) * per_token + kernels, 1e-12);
    assert_close(e.elementwise(0.0, 0.0), kernels, 1e-12);
}
