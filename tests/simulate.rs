//! The step-level serving simulation (`serving::simulate`), held to what must be true of any
//! continuous-batching engine rather than to the code's own expressions:
//! - a lone request runs at the engine's own step times (nothing to queue behind);
//! - Little's law (Little 1961) on the decoding batch: requests decoding = completion rate × time
//!   each spends decoding;
//! - quantiles are ordered, and latency rises with the load without a jump below saturation;
//! - the engine's caps hold (sequences, KV cache), and a run is reproducible from its seed.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use common::assert_close;
use gpu_planner::domain::serving::simulate::{simulate, Load, Outcome, Run};
use gpu_planner::domain::serving::{capacity, Engine, FRONTEND_S};
use gpu_planner::domain::{Catalog, Scenario};

fn scenario(context: u32, output: u32) -> Scenario {
    common::qwen72b_on_h100(context, output, None)
}

fn engine(s: &Scenario, tp: u32) -> Engine {
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
    Engine::new(&m, s, &g, tp, tp).unwrap_or_else(|| panic!("Qwen2.5-72B fits {tp} H100s"))
}

fn run(e: &Engine, load: Load) -> Outcome {
    simulate(e, load, Run { max_seqs: 1024, ..Run::default() }).unwrap_or_else(|| panic!("runs"))
}

/// One user who asks again the moment an answer ends never waits for anyone: every first token
/// takes exactly the trip to the scheduler and the prompt's prefill step, every later token a
/// decode step of one request over its own context, for each prompt length.
#[test]
fn a_lone_user_never_waits_behind_itself() {
    for (context, output, prefix) in [(2048, 256, 0.0), (6000, 64, 0.0), (4096, 512, 0.8)] {
        let mut s = scenario(context, output);
        s.inference.prefix_share = prefix;
        let e = engine(&s, 4);
        let o = run(&e, Load::Users { users: 1, think_s: 0.0 });
        let prefill = f64::from(context) * (1.0 - prefix);
        // Prompts longer than the 8,192-token budget would take two chunks; these fit in one.
        let first = FRONTEND_S + e.step_at(0.0, 0.0, prefill.ceil());
        assert_close(o.ttft.p50, first, 1e-9);
        assert_close(o.ttft.p99, first, 1e-9);
        // Decode steps over contexts prompt + 1 … prompt + output − 1: their mean is the step at
        // the middle context (the step is linear in the context while memory-bound).
        let c = f64::from(context);
        let mid = e.step_at(1.0, c + f64::from(output) / 2.0, 0.0);
        assert_close(o.tpot.p50, mid, 0.01);
        assert_close(o.tpot.p99, o.tpot.p50, 1e-6);
        // Every one of the answer's tokens after the first is one decode step over its context.
        let decode: f64 = (1..output).map(|k| e.step_at(1.0, c + f64::from(k), 0.0)).sum();
        assert_close(o.e2e.p50, first + decode, 1e-6);
        assert_eq!(o.preemptions, 0);
        // The engine idles while each request travels to it, prefills it in one step, then
        // decodes: the prefill's share of the time is that step over the whole cycle (within
        // 0.1%: the clock starts before the user's first request, which comes at a random point
        // of one request's life, less than one cycle of the run's thousand and more).
        let prefill_step = first - FRONTEND_S;
        assert_close(o.prefill_busy, prefill_step / (FRONTEND_S + prefill_step + decode), 1e-3);
        // The cache peaks as the answer's last token is made: the whole prompt (a cached prefix
        // is held too) and the whole answer.
        assert_close(o.peak_kv, f64::from(context + output), 1e-12);
    }
}

/// Little's law on the decoding batch: the mean number of requests decoding equals the
/// completion rate times the mean time each spends decoding (end-to-end less the first token).
#[test]
fn the_decoding_batch_follows_littles_law() {
    let s = scenario(2048, 256);
    let e = engine(&s, 4);
    for rate in [0.5, 1.5, 3.0] {
        let o = simulate(&e, Load::Rate(rate), Run { requests: 3_000, warmup: 500, max_seqs: 1024, ..Run::default() })
            .unwrap_or_else(|| panic!("runs"));
        assert_close(o.rate, rate, 0.06);
        assert_close(o.batch, o.rate * (o.e2e.mean - o.ttft.mean), 0.05);
    }
}

/// Percentiles are ordered and bracket their confidence interval; a heavier load never gives a
/// shorter median, and between 10% and 80% of the rate a replica sustains no 10% step in load
/// more than doubles the p99 time to first token or time per token (no cliff before the warning).
#[test]
fn latency_rises_smoothly_with_the_load() {
    let s = scenario(2048, 256);
    let e = engine(&s, 4);
    let users = (e.kv_tokens / (2048.0 + 256.0)).floor() as u32;
    let sustained = run(&e, Load::Users { users: users.min(1024), think_s: 0.0 }).rate;
    let mut last: Option<Outcome> = None;
    for tenth in 1..=12 {
        let o = run(&e, Load::Rate(sustained * f64::from(tenth) / 10.0));
        for q in [o.ttft, o.tpot, o.e2e] {
            assert!(q.p50 <= q.p90 && q.p90 <= q.p99, "{q:?}");
            assert!(q.p99_low <= q.p99 && q.p99 <= q.p99_high, "{q:?}");
        }
        if let Some(p) = last {
            assert!(o.tpot.p50 >= p.tpot.p50 * 0.98 && o.ttft.p50 >= p.ttft.p50 * 0.98, "{tenth}: {o:?} after {p:?}");
            if tenth <= 8 {
                assert!(o.ttft.p99 <= 2.0 * p.ttft.p99 && o.tpot.p99 <= 2.0 * p.tpot.p99, "{tenth}: {o:?} after {p:?}");
            }
        }
        last = Some(o);
    }
}

/// Replicas of `s` (2,048-token prompts, 256-token answers, on 4 H100s) whose caches admit more
/// prompts than can grow to their full answers, with the prompts each admits: memory fractions
/// from 0.47 to 0.7.
fn small_caches(s: &Scenario) -> impl Iterator<Item = (Engine, f64)> + '_ {
    [0.47, 0.5, 0.55, 0.6, 0.7].into_iter().filter_map(|util| {
        let mut small = s.clone();
        small.inference.mem_util = util;
        let e = engine(&small, 4);
        let admitted = (e.kv_tokens / 2049.0).floor();
        (admitted * 2304.0 > e.kv_tokens + 2304.0).then_some((e, admitted))
    })
}

/// The sequence cap bounds the batch; a cache too small for every running request forces
/// preemptions, and every request still completes, the cache never holding more than it has.
#[test]
fn the_caps_hold_and_a_full_cache_preempts() {
    let s = scenario(2048, 256);
    let e = engine(&s, 4);
    let capped = simulate(&e, Load::Users { users: 64, think_s: 0.0 }, Run { max_seqs: 8, ..Run::default() })
        .unwrap_or_else(|| panic!("runs"));
    assert!(capped.batch <= 8.0 + 1e-9 && capped.batch > 6.0, "{capped:?}");
    assert_eq!(capped.preemptions, 0);
    // Caches that admit more prompts than can grow to their full answers: the newest are
    // preempted and recomputed, and every request still completes within the cache.
    let mut seen = 0;
    for (e, admitted) in small_caches(&s) {
        let o = run(&e, Load::Users { users: (2.0 * admitted) as u32, think_s: 0.0 });
        assert!(o.finished && o.preemptions > 0, "{o:?}");
        assert!(o.batch <= admitted, "{o:?} with room for {admitted}");
        // Nobody is admitted into the tokens the running requests decode into this step.
        assert!(o.peak_kv <= e.kv_tokens.floor(), "{} tokens held in a cache of {}", o.peak_kv, e.kv_tokens);
        seen += 1;
    }
    assert!(seen >= 3, "{seen}");
}

/// A batch decoding together through a stretch with nothing arriving (every request sent at once)
/// stops where the cache fills, never past it: with caches too small for every prompt's full
/// answer, the most tokens held at the end of any step stay within the cache, and every request
/// completes.
#[test]
fn a_decode_stretch_stops_where_the_cache_fills() {
    let mut seen = 0;
    for (e, admitted) in small_caches(&scenario(2048, 256)) {
        let n = (3.0 * admitted) as u32;
        let o = simulate(
            &e,
            Load::Bench { concurrency: n, prompts: n },
            Run { max_seqs: 1024, warmup: 0, ..Run::default() },
        )
        .unwrap_or_else(|| panic!("runs"));
        assert!(o.finished && o.preemptions > 0, "{o:?}");
        assert!(o.peak_kv <= e.kv_tokens.floor(), "{} tokens held in a cache of {}", o.peak_kv, e.kv_tokens);
        seen += 1;
    }
    assert!(seen >= 3, "{seen}");
}

/// A benchmark sends its next prompt as an answer ends and never more than it states: with two in
/// flight and three prompts of equal length, the first two run together and the third, sent when
/// both end in the same step, runs alone on the idle engine, exactly as a lone request does.
#[test]
fn a_benchmark_sends_only_its_prompts() {
    let e = engine(&scenario(2048, 256), 4);
    let bench = |concurrency, prompts| {
        let run = Run { max_seqs: 1024, warmup: 0, ..Run::default() };
        simulate(&e, Load::Bench { concurrency, prompts }, run).unwrap_or_else(|| panic!("runs")).e2e.mean
    };
    let (lone, pair, three) = (bench(1, 1), bench(2, 2), bench(2, 3));
    assert!(pair > lone, "{pair} vs {lone}");
    assert_close(three, (2.0 * pair + lone) / 3.0, 1e-9);
}

/// A preempted request gives back its cache and later computes again what it held, its prompt
/// and the tokens it had made (vLLM V1's `_preempt_request` sets `num_computed_tokens = 0`), and
/// no more: two 2,048-token prompts in a cache with room for both prompts but not both 256-token
/// answers, the second is preempted once, waits for the first to finish, and ends within twice
/// a lone request's time plus the first's answer.
#[test]
fn a_preempted_request_computes_again_what_it_held() {
    let s = scenario(2048, 256);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
    let e = (0..2000)
        .filter_map(|i| {
            let mut t = s.clone();
            t.inference.mem_util = 0.40 + 0.0001 * f64::from(i);
            Engine::new(&m, &t, &g, 4, 4)
        })
        .find(|e| (2.0 * 2049.0 + 64.0..2.0 * 2304.0 - 64.0).contains(&e.kv_tokens))
        .unwrap_or_else(|| panic!("a cache between two prompts and two answers"));
    let run = Run { max_seqs: 1024, warmup: 0, ..Run::default() };
    let go = |concurrency| simulate(&e, Load::Bench { concurrency, prompts: 2 }, run).unwrap_or_else(|| panic!("runs"));
    let (lone, pair) = (go(1), go(2));
    assert_eq!((lone.preemptions, pair.preemptions), (0, 1), "{pair:?}");
    assert!(pair.finished && pair.peak_kv <= e.kv_tokens.floor(), "{pair:?}");
    // One after the other the two take 2 × lone; sharing, the second waits at most the first's
    // answer and computes its 2,048 + k tokens again (a prompt's prefill, about).
    let one = lone.e2e.mean;
    assert!(pair.e2e.p99 > one && pair.e2e.p99 < 2.0 * one + lone.ttft.mean * 2.0, "{} vs {one}", pair.e2e.p99);
}

/// A request is admitted only with room for its first token beside the prompt: in a cache of
/// two prompts and one token, the second user waits rather than take the token the first one's
/// answer needs, and the cache never holds more than it has.
#[test]
fn admission_leaves_room_for_the_first_token() {
    let s = scenario(1000, 100);
    let mut e = engine(&s, 4);
    e.kv_tokens = 2001.0;
    let o = run(&e, Load::Users { users: 2, think_s: 0.0 });
    assert!(o.finished && o.peak_kv <= 2001.0, "{o:?}");
    assert_close(o.peak_kv, 1100.0, 1e-12); // one request at a time
                                            // Room for both whole requests: both run at once.
    e.kv_tokens = 2200.0;
    let both = run(&e, Load::Users { users: 2, think_s: 0.0 });
    assert!(both.finished && both.peak_kv > 1100.0 && both.peak_kv <= 2200.0, "{both:?}");
}

/// The same scenario and seed give the same figures; another seed other draws.
#[test]
fn a_run_is_reproducible_from_its_seed() {
    let mut s = scenario(2048, 256);
    s.inference.context_p90 = Some(4000);
    s.inference.output_p90 = Some(500);
    let e = engine(&s, 4);
    let a = run(&e, Load::Rate(2.0));
    assert_eq!(a, run(&e, Load::Rate(2.0)));
    let b = simulate(&e, Load::Rate(2.0), Run { seed: 7, max_seqs: 1024, ..Run::default() });
    assert_ne!(Some(a), b);
    // Varied lengths widen the tail against equal ones at the same load.
    let equal = run(&engine(&scenario(2048, 256), 4), Load::Rate(2.0));
    assert!(a.ttft.p99 / a.ttft.p50 > equal.ttft.p99 / equal.ttft.p50, "{a:?} vs {equal:?}");
}

/// The plan's replica runs below the rate it sustains; an offered load past 80% of it is flagged.
#[test]
fn a_plan_near_saturation_says_so() {
    let mut s = scenario(2048, 256);
    s.inference.rate_rps = Some(3.0);
    s.inference.tp = 4;
    s.parallel.gpus = 4;
    s.inference.ttft_p99_s = 1e3;
    s.inference.ttft_p50_s = 1e3;
    s.inference.tpot_p50_ms = 1e6;
    s.inference.tpot_p99_ms = 1e6;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
    let c = capacity(&m, &s, &g).unwrap_or_else(|| panic!("plan"));
    assert!(c.sustained_rps > 3.0 && c.near_saturation == (3.0 > 0.8 * c.sustained_rps), "{c:?}");
    s.inference.rate_rps = Some(0.5);
    let c = capacity(&m, &s, &g).unwrap_or_else(|| panic!("plan"));
    assert!(!c.near_saturation, "{c:?}");
    // 85% of what the replica sustains (a closed loop's rate, whatever the offered one): it
    // keeps up, and is flagged.
    let sustained = c.sustained_rps;
    s.inference.rate_rps = Some(0.85 * sustained);
    let c = capacity(&m, &s, &g).unwrap_or_else(|| panic!("keeps up at 85%"));
    assert!(c.sustained_rps.to_bits() == sustained.to_bits() && c.near_saturation, "{c:?}");
}

/// A benchmark from a cold start (vLLM's `benchmark_serving.py` with `--max-concurrency`): with a
/// concurrency of one, the prompts run one after another, each exactly a lone user's request.
/// With four 4,096-token prompts sent at once into an 8,192-token step budget (decode tokens count
/// against it, as in vLLM V1): step one prefills two prompts; step two decodes those two and
/// prefills the third and 4,094 tokens of the fourth; step three decodes three and finishes the
/// fourth's last two tokens. Every request is measured.
#[test]
fn a_cold_start_benchmark_replays_the_clients_schedule() {
    let s = scenario(4096, 128);
    let e = engine(&s, 4);
    let one = run(&e, Load::Bench { concurrency: 1, prompts: 5 });
    let first = FRONTEND_S + e.step_at(0.0, 0.0, 4096.0);
    assert_close(one.ttft.p50, first, 1e-9);
    assert_close(one.ttft.p99, first, 1e-9);
    let burst = run(&e, Load::Bench { concurrency: 4, prompts: 4 });
    // Every request reaches the scheduler FRONTEND_S after it is sent.
    let step1 = FRONTEND_S + e.step_at(0.0, 0.0, 8192.0);
    let step2 = e.step_at(2.0, 2.0 * 4097.0, 8190.0);
    let step3 = e.step_at(3.0, 2.0 * 4098.0 + 4097.0, 2.0);
    assert_close(burst.ttft.p50, step1, 1e-9);
    assert_close(burst.ttft.mean, (2.0 * step1 + 2.0 * step1 + step2 + step2 + step3) / 4.0, 1e-9);
    assert_close(burst.ttft.p99, step1 + step2 + step3, 1e-9);
    assert!(burst.finished && burst.rate > 0.0);
}

/// A closed loop of users who ask again the moment an answer ends: each new request reaches the
/// scheduler FRONTEND_S after it was sent, when the next step has already begun, and waits for it
/// (the median first token comes a decode step or more after its own prefill step would). With no
/// trip to the scheduler it would join the step that starts as the answer ends.
#[test]
fn a_request_sent_as_an_answer_ends_waits_for_the_step_in_flight() {
    let s = scenario(1024, 256);
    let mut e = engine(&s, 4);
    let users = Load::Users { users: 8, think_s: 0.0 };
    let with = run(&e, users);
    e.frontend_s = 0.0;
    let without = run(&e, users);
    let decode = e.step_at(7.0, 7.0 * (1024.0 + 128.0), 0.0);
    assert!(
        with.ttft.p50 > without.ttft.p50 + 0.5 * decode,
        "{} vs {} (a step {decode})",
        with.ttft.p50,
        without.ttft.p50
    );
    assert!(with.ttft.p50 < without.ttft.p50 + 3.0 * decode + FRONTEND_S, "{} vs {}", with.ttft.p50, without.ttft.p50);
}

/// Quantiles of 1, 2, …, 1000 by the nearest-rank rule (rank ⌈n·q⌉): p50 500, p90 900, p99 990,
/// mean 500.5; the p99's 95% interval by the normal approximation to the binomial order
/// statistic (Conover, Practical Nonparametric Statistics, 3rd ed., §3.2): ranks
/// 990 ∓ 1.96·√(1000·0.99·0.01) = 983.8 … 996.2, so the 984th and the 997th values.
#[test]
fn quantiles_and_the_p99_interval_follow_the_order_statistics() {
    use gpu_planner::domain::serving::simulate::Spread;
    let mut v: Vec<f64> = (1..=1000).map(f64::from).collect();
    v.reverse(); // any order
    let s = Spread::of(v);
    assert_eq!((s.p50, s.p90, s.p99), (500.0, 900.0, 990.0));
    assert_close(s.mean, 500.5, 1e-12);
    assert_eq!((s.p99_low, s.p99_high), (984.0, 997.0));
    // The mean's 95% half-width, 1.96·s/√n: 1, …, 1000 have s² = n(n + 1)/12 = 83,416.7.
    assert_close(s.mean_half, 1.96 * (1000.0 * 1001.0 / 12.0 / 1000.0_f64).sqrt(), 1e-12);
    // Ten values: ranks 5, 9, 10; the interval clamps to the sample (ranks 9.9 ∓ 0.62).
    let t = Spread::of((1..=10).map(f64::from).collect());
    assert_eq!((t.p50, t.p90, t.p99, t.p99_low, t.p99_high), (5.0, 9.0, 10.0, 10.0, 10.0));
    assert_eq!(Spread::of(Vec::new()), Spread::default());
}

/// The quantiles are the sorted sample's nearest ranks whatever the order, size or ties: against
/// the definition (sort, read rank ⌈n·q⌉) on samples of 1 to 60 values with repeats.
#[test]
fn quantiles_match_the_sorted_definition_for_any_sample() {
    use gpu_planner::domain::serving::simulate::{Rng, Spread};
    let mut rng = Rng(42);
    for n in 1..=60_usize {
        for _ in 0..20 {
            // Few distinct values, so ties are common.
            // Negative values too: Spread::of selects on integer keys, whose order must be the
            // floats' on both sides of zero.
            let v: Vec<f64> = (0..n).map(|_| (rng.uniform() * 7.0).floor() - 3.0).collect();
            let mut sorted = v.clone();
            sorted.sort_by(f64::total_cmp);
            let m = n as f64;
            let at = |rank: f64| sorted[(rank.ceil().max(1.0) as usize).min(n) - 1];
            let half = 1.96 * (m * 0.99 * 0.01).sqrt();
            let s = Spread::of(v);
            let want = (at(m * 0.5), at(m * 0.9), at(m * 0.99), at(m * 0.99 - half), at(m * 0.99 + half));
            assert_eq!((s.p50, s.p90, s.p99, s.p99_low, s.p99_high), want, "n = {n}");
            assert_close(s.mean, sorted.iter().sum::<f64>() / m, 1e-12);
        }
    }
    // Distinct values, shuffled, up to 300: every rank's neighbours differ, so a rank one off
    // shows (the p99's interval moves by one at n = 55: ranks 53.8 ∓ 1.45).
    for n in 1..=300_usize {
        let mut v: Vec<f64> = (1..=n).map(|i| i as f64).collect();
        for i in (1..n).rev() {
            v.swap(i, (rng.uniform() * (i + 1) as f64) as usize % (i + 1));
        }
        let m = n as f64;
        let at = |rank: f64| (rank.ceil().max(1.0) as usize).min(n) as f64;
        let half = 1.96 * (m * 0.99 * 0.01).sqrt();
        let s = Spread::of(v);
        let want = (at(m * 0.5), at(m * 0.9), at(m * 0.99), at(m * 0.99 - half), at(m * 0.99 + half));
        assert_eq!((s.p50, s.p90, s.p99, s.p99_low, s.p99_high), want, "n = {n}");
    }
}

/// The integer keys the quantiles are selected on order as `f64::total_cmp` orders the values
/// (IEEE 754 totalOrder: −NaN < −∞ < … < −0 < +0 < … < +∞ < NaN) and give the value back.
#[test]
fn total_order_keys_order_as_the_floats_do() {
    use gpu_planner::domain::serving::simulate::{from_total_order_key, total_order_key};
    let values = [
        -f64::NAN,
        f64::NEG_INFINITY,
        -1e300,
        -2.5,
        -f64::MIN_POSITIVE,
        -5e-324,
        -0.0,
        0.0,
        5e-324,
        f64::MIN_POSITIVE,
        1.0,
        2.5,
        1e300,
        f64::INFINITY,
        f64::NAN,
    ];
    for a in values {
        assert_eq!(from_total_order_key(total_order_key(a)).to_bits(), a.to_bits(), "{a}");
        for b in values {
            assert_eq!(total_order_key(a).cmp(&total_order_key(b)), a.total_cmp(&b), "{a} against {b}");
        }
    }
}

/// A search run judged against targets stops only when the full run would miss them: where it
/// finishes it is the full run, and where it stops the full run's quantiles miss a target
/// (checked over tight to loose targets, open and closed loads, with and without think time).
#[test]
fn a_search_run_stops_only_when_the_full_run_misses() {
    use gpu_planner::domain::serving::simulate::{simulate_against, Targets};
    let e = engine(&scenario(2048, 256), 4);
    let (mut stopped, mut kept) = (0, 0);
    for load in [
        Load::Users { users: 40, think_s: 0.0 },
        Load::Users { users: 120, think_s: 3.0 },
        Load::Rate(1.0),
        Load::Rate(6.0),
    ] {
        let run = Run { requests: 300, warmup: 100, max_seqs: 1024, ..Run::default() };
        let full = simulate(&e, load, run).unwrap_or_else(|| panic!("runs"));
        for scale in [0.3, 0.6, 0.9, 1.0, 1.1, 1.5, 3.0] {
            for which in 0..4 {
                let loose = |x: f64| x * 1e3;
                let mut t = Targets {
                    ttft_p50_s: loose(full.ttft.p50),
                    ttft_p99_s: loose(full.ttft.p99),
                    tpot_p50_ms: loose(full.tpot.p50 * 1e3),
                    tpot_p99_ms: loose(full.tpot.p99 * 1e3),
                };
                match which {
                    0 => t.ttft_p50_s = full.ttft.p50 * scale,
                    1 => t.ttft_p99_s = full.ttft.p99 * scale,
                    2 => t.tpot_p50_ms = full.tpot.p50 * 1e3 * scale,
                    _ => t.tpot_p99_ms = full.tpot.p99 * 1e3 * scale,
                }
                let meets = full.ttft.p50 <= t.ttft_p50_s
                    && full.ttft.p99 <= t.ttft_p99_s
                    && full.tpot.p50 * 1e3 <= t.tpot_p50_ms
                    && full.tpot.p99 * 1e3 <= t.tpot_p99_ms;
                let judged = simulate_against(&e, load, run, Some(t)).unwrap_or_else(|| panic!("runs"));
                // Each target alone stops a run that misses it by a wide margin.
                assert!(scale > 0.3 || !judged.finished, "target {which} at ×{scale} under {load:?} did not stop");
                if judged.finished {
                    assert_eq!(judged, full, "{load:?} {t:?}");
                    kept += 1;
                } else {
                    assert!(!meets, "stopped although the full run meets {t:?} under {load:?}");
                    stopped += 1;
                }
            }
        }
    }
    assert!(stopped > 10 && kept > 10, "stopped {stopped}, kept {kept}");
}

/// A finished run carried on over more measured requests is the longer run from the start, to
/// the last bit: arrivals never depend on how many requests are measured, so the short run is the
/// long one's first part (what lets the shown run continue the search's). Requests past the short
/// run's window that finished before it ended count once they are measured, and a run judged
/// against targets it met drops them when carried on.
#[test]
fn a_run_carried_on_is_the_longer_run() {
    use gpu_planner::domain::serving::simulate::{Sim, Targets};
    let mut s = scenario(2048, 256);
    s.inference.context_p90 = Some(6000);
    s.inference.output_p90 = Some(700);
    let e = engine(&s, 4);
    let loose = Targets { ttft_p50_s: 1e9, ttft_p99_s: 1e9, tpot_p50_ms: 1e9, tpot_p99_ms: 1e9 };
    let mut carried = 0;
    for load in [Load::Users { users: 40, think_s: 0.0 }, Load::Users { users: 120, think_s: 3.0 }, Load::Rate(6.0)] {
        for targets in [None, Some(loose)] {
            let short = Run { requests: 300, warmup: 250, max_seqs: 1024, ..Run::default() };
            let mut sim = Sim::start(&e, load, short, targets).unwrap_or_else(|| panic!("starts"));
            let first = sim.advance();
            assert_eq!(first, simulate(&e, load, short).unwrap_or_else(|| panic!("runs")), "{load:?}");
            for requests in [400, 1000] {
                assert!(sim.widen(requests), "{load:?}");
                let fresh = simulate(&e, load, Run { requests, ..short }).unwrap_or_else(|| panic!("runs"));
                assert_eq!(sim.advance(), fresh, "{load:?} carried on to {requests}");
                carried += 1;
            }
            // Never back to fewer.
            assert!(!sim.widen(500));
        }
    }
    assert_eq!(carried, 12);
}

/// What cannot be carried on says so and is left as it was: a benchmark's fixed prompts, and a
/// run stopped at targets it missed (its figures are partial).
#[test]
fn a_benchmark_or_a_stopped_run_is_not_carried_on() {
    use gpu_planner::domain::serving::simulate::{Sim, Targets};
    let e = engine(&scenario(2048, 256), 4);
    let run = Run { requests: 300, warmup: 100, max_seqs: 1024, ..Run::default() };
    let mut bench =
        Sim::start(&e, Load::Bench { concurrency: 16, prompts: 200 }, run, None).unwrap_or_else(|| panic!("starts"));
    let once = bench.advance();
    assert!(once.finished && !bench.widen(1000));
    assert_eq!(bench.advance(), once);
    let tight = Targets { ttft_p50_s: 1e-6, ttft_p99_s: 1e-6, tpot_p50_ms: 1e-3, tpot_p99_ms: 1e-3 };
    let mut missed = Sim::start(&e, Load::Rate(1.0), run, Some(tight)).unwrap_or_else(|| panic!("starts"));
    assert!(!missed.advance().finished);
    assert!(!missed.widen(1000));
}

/// A run stopped where it missed its targets carries on without them as the run that never had
/// them, to the last bit: targets decide only where a run stops (a search that judged a count
/// short asks for its figures unjudged when no count meets). Each of the four targets stops some
/// run here, at a closed loop and an open load; once carried on it can be widened like any
/// finished run.
#[test]
fn a_run_stopped_at_its_targets_carries_on_as_the_unjudged_run() {
    use gpu_planner::domain::serving::simulate::{simulate_against, Sim, Targets};
    let mut s = scenario(2048, 256);
    s.inference.context_p90 = Some(6000);
    let e = engine(&s, 4);
    let run = Run { requests: 300, warmup: 250, max_seqs: 1024, ..Run::default() };
    let far = Targets { ttft_p50_s: 1e9, ttft_p99_s: 1e9, tpot_p50_ms: 1e9, tpot_p99_ms: 1e9 };
    for load in [Load::Users { users: 40, think_s: 0.0 }, Load::Rate(4.0)] {
        let fresh = simulate(&e, load, run).unwrap_or_else(|| panic!("runs"));
        // Each target just under what the run without targets reads, the others far away.
        let each = [
            Targets { ttft_p50_s: 0.9 * fresh.ttft.p50, ..far },
            Targets { ttft_p99_s: 0.9 * fresh.ttft.p99, ..far },
            Targets { tpot_p50_ms: 900.0 * fresh.tpot.p50, ..far },
            Targets { tpot_p99_ms: 900.0 * fresh.tpot.p99, ..far },
        ];
        for t in each {
            let mut sim = Sim::start(&e, load, run, Some(t)).unwrap_or_else(|| panic!("starts"));
            let stopped = sim.advance();
            assert!(!stopped.finished && sim.missed(), "{load:?} {t:?}");
            assert_eq!(simulate_against(&e, load, run, Some(t)), Some(stopped));
            assert!(sim.unjudged() && !sim.missed());
            assert_eq!(sim.advance(), fresh, "{load:?} {t:?} carried on");
            assert!(sim.widen(400));
            assert_eq!(
                sim.advance(),
                simulate(&e, load, Run { requests: 400, ..run }).unwrap_or_else(|| panic!("runs"))
            );
        }
    }
}

/// A closed loop's warm-up is at most ten rounds of its users (at least one): a lone user has no
/// queue to fill, so ten of its requests warm it up as well as 250 (the same figures, to the
/// last bit, from the same measured requests); 40 users keep the whole warm-up asked for, and so
/// does an open load.
#[test]
fn a_closed_loops_warm_up_is_at_most_ten_rounds() {
    let e = engine(&scenario(2048, 256), 4);
    let lone = Load::Users { users: 1, think_s: 0.0 };
    let with = |load, warmup| simulate(&e, load, Run { requests: 300, warmup, max_seqs: 1024, ..Run::default() });
    assert_eq!(with(lone, 250), with(lone, 10));
    assert_ne!(with(lone, 250), with(lone, 9));
    let many = Load::Users { users: 40, think_s: 0.0 };
    assert_ne!(with(many, 250), with(many, 240));
    // An open load has no rounds: its warm-up is the one asked for.
    let open = Load::Rate(6.0);
    assert_ne!(with(open, 250), with(open, 0));
}

/// The shown run stops once its figures are read within ±0.5% at 95%: each p99's interval, and
/// under a closed loop the mean response its rate is read from (users / (think + response)).
#[test]
fn figures_are_settled_within_half_a_percent() {
    use gpu_planner::domain::serving::settled;
    use gpu_planner::domain::serving::simulate::Spread;
    // A p99 of 2 s, not 1, so the band is read relative to it (2 × 0.5% of 2 s is 0.02 s).
    let exact = Spread { mean: 2.0, p99: 2.0, p99_low: 2.0, p99_high: 2.0, ..Spread::default() };
    let o = |ttft: Spread, tpot: Spread, e2e: Spread| Outcome { ttft, tpot, e2e, finished: true, ..Outcome::default() };
    let users = Load::Users { users: 8, think_s: 1.0 };
    assert!(settled(&o(exact, exact, exact), users));
    let within = Spread { p99_low: 1.9902, p99_high: 2.0098, ..exact };
    let wide = Spread { p99_low: 1.988, p99_high: 2.014, ..exact };
    assert!(settled(&o(within, within, exact), Load::Rate(1.0)));
    assert!(!settled(&o(wide, exact, exact), Load::Rate(1.0)));
    assert!(!settled(&o(exact, wide, exact), Load::Rate(1.0)));
    // A response of 2 s ± 0.016 after 1 s of thought reads the rate within ±0.53%: not yet; an
    // open load's rate is the one offered, whatever the responses.
    let loose = Spread { mean_half: 0.016, ..exact };
    assert!(!settled(&o(exact, exact, loose), users));
    assert!(settled(&o(exact, exact, Spread { mean_half: 0.014, ..exact }), users));
    assert!(settled(&o(exact, exact, loose), Load::Rate(1.0)));
}

/// The generator is SplitMix64 exactly: seeded with 1234567 it gives Rosetta Code's reference
/// sequence (task "Pseudo-random numbers/Splitmix64"): 6457827717110365317, 3203168211198807973,
/// 9817491932198370423, 4593380528125082431, 16408922859458223821. Its draws have the moments
/// they claim: uniform mean ½, exponential mean as given, and the log-normal the mean and the
/// p90 it was asked for (σ from `lognormal_sigma`, which solves p90 = mean · e^(1.2816σ − σ²/2)).
#[test]
fn the_generator_is_splitmix64_and_its_draws_have_their_moments() {
    use gpu_planner::domain::serving::simulate::Rng;
    let mut r = Rng(1_234_567);
    let seq: Vec<u64> = (0..5).map(|_| r.bits()).collect();
    assert_eq!(
        seq,
        [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821
        ]
    );
    let n = 200_000;
    let mut r = Rng(7);
    let u: Vec<f64> = (0..n).map(|_| r.uniform()).collect();
    assert!(u.iter().all(|&x| x > 0.0 && x <= 1.0));
    assert_close(u.iter().sum::<f64>() / f64::from(n), 0.5, 0.005);
    let e: f64 = (0..n).map(|_| r.exp(3.0)).sum::<f64>() / f64::from(n);
    assert_close(e, 3.0, 0.01);
    let sigma = gpu_planner::domain::serving::lognormal_sigma(1000.0, 2000.0);
    let mut l: Vec<f64> = (0..n).map(|_| r.lognormal(1000.0, sigma)).collect();
    assert_close(l.iter().sum::<f64>() / f64::from(n), 1000.0, 0.01);
    l.sort_by(f64::total_cmp);
    assert_close(l[(0.9 * f64::from(n)) as usize], 2000.0, 0.02);
    assert_close(r.lognormal(1000.0, 0.0), 1000.0, 0.0);
}

/// An overlap scheduler (SGLang's default `event_loop_overlap`, TensorRT-LLM's PyExecutor:
/// "launches GPU computation for step n+1 without waiting for CPU tasks ... from step n", which
/// "introduces one extra decoding step", TensorRT-LLM docs/source/features/overlap-scheduler.md)
/// forms a step while the one before it runs, so a request that reaches a busy engine waits a
/// whole step more than under a synchronous scheduler: eight users asking again as each answer
/// ends, prompts short enough to be replayed from a CUDA graph (no launch floor), the median
/// first token comes about one decode step later; a lone user (an idle engine) waits for nobody.
#[test]
fn an_overlap_scheduler_adds_a_step_to_a_busy_engines_first_token() {
    let s = scenario(256, 256);
    let mut e = engine(&s, 4);
    assert!(e.launch_floor(7.0, 256.0) <= 0.0, "replayed from a graph");
    let users = Load::Users { users: 8, think_s: 0.0 };
    e.overlap = false;
    let sync = run(&e, users);
    let lone_sync = run(&e, Load::Users { users: 1, think_s: 0.0 });
    e.overlap = true;
    let overlap = run(&e, users);
    let decode = e.step_at(7.0, 7.0 * (256.0 + 128.0), 0.0);
    let extra = overlap.ttft.p50 - sync.ttft.p50;
    assert!(extra > 0.5 * decode && extra < 1.5 * decode, "{extra} s more against a {decode} s step");
    let lone = run(&e, Load::Users { users: 1, think_s: 0.0 });
    assert_close(lone.ttft.p50, lone_sync.ttft.p50, 1e-12);
    // The engines' defaults: vLLM V1 synchronous, SGLang and TensorRT-LLM overlapped.
    use gpu_planner::domain::scenario::ServingEngine;
    for (engine, overlap) in [
        (ServingEngine::Vllm, false),
        (ServingEngine::Sglang, true),
        (ServingEngine::SglangGraphs, true),
        (ServingEngine::Trtllm, true),
        (ServingEngine::VllmV0, false),
    ] {
        let mut t = scenario(256, 256);
        t.inference.engine = engine;
        assert_eq!(self::engine(&t, 4).overlap, overlap, "{engine:?}");
    }
}

/// SGLang's overlap scheduler keeps the GPU busy across steps ("there is no single idle time on
/// the GPU" over five consecutive decode batches, LMSYS, "SGLang v0.4", 2024-12-04): its fixed
/// host time a step is hidden behind a longer GPU step, and sets the step only when it is the
/// longer of the two. TensorRT-LLM's overlapped PyExecutor still "exposes ~580 µs/iter of host
/// overhead as GPU idle" (TensorRT-LLM #13957), and vLLM schedules synchronously: their fixed time
/// adds to every step.
#[test]
fn sglang_hides_its_fixed_time_behind_the_gpu_step_and_the_others_pay_it() {
    use gpu_planner::domain::scenario::ServingEngine;
    for (engine, hidden) in [
        (ServingEngine::Sglang, true),
        (ServingEngine::SglangGraphs, true),
        (ServingEngine::Trtllm, false),
        (ServingEngine::Vllm, false),
        (ServingEngine::VllmV0, false),
    ] {
        let step = |overhead_ms: f64| {
            let mut s = scenario(256, 256);
            s.inference.engine = engine;
            s.inference.step_overhead_ms = overhead_ms;
            let e = self::engine(&s, 4);
            (e.step_at(8.0, 8.0 * 384.0, 0.0), e.cpu_time(8.0, 0.0, 0.0))
        };
        let (bare, _) = step(0.0);
        let (paid, cpu) = step(2.0);
        assert!(bare > 2e-3 && cpu >= 2e-3, "{engine:?}: a {bare} s GPU step, {cpu} s of CPU");
        let expected = if hidden { bare } else { bare + 2e-3 };
        assert_close(paid, expected, 1e-9);
        // A host time longer than the GPU step sets the step under every engine.
        let (slow, cpu) = step(1e3 * (bare + 0.05));
        assert!(slow >= cpu * (1.0 - 1e-12) && cpu > bare + 0.049, "{engine:?}: {slow} s against {cpu} s of CPU");
        assert_eq!(slow <= cpu * (1.0 + 1e-12), hidden, "{engine:?}: {slow} s against {cpu} s of CPU");
    }
}

/// Launching a step while the one before it runs hides those launches, but a CPU busy launching
/// every step (`--enforce-eager`, launches longer than the GPU work) stays the bottleneck: one
/// user decoding eagerly runs a step per launch time and fixed CPU time with or without the
/// overlap, never faster.
#[test]
fn overlapped_launches_never_beat_the_cpu_that_makes_them() {
    let mut s = scenario(256, 256);
    s.inference.enforce_eager = true;
    let mut e = engine(&s, 4);
    let floor = e.launch_floor(1.0, 0.0);
    assert!(floor > e.step_at(1.0, 384.0, 0.0) * 0.5, "launch-bound: {floor}");
    let lone = Load::Users { users: 1, think_s: 0.0 };
    e.overlap = false;
    let sync = run(&e, lone);
    e.overlap = true;
    let overlap = run(&e, lone);
    let cpu = e.cpu_time(1.0, 0.0, 0.0);
    assert!(cpu > floor, "launches and the fixed time: {cpu}");
    assert!(overlap.tpot.p50 >= cpu * (1.0 - 1e-9), "{} s a token against {cpu} s of CPU", overlap.tpot.p50);
    assert_close(overlap.tpot.p50, sync.tpot.p50, 1e-6);
}

/// The step an overlap scheduler makes a request wait for is not lost when the request's prompt
/// step runs eagerly (TensorRT-LLM launches context steps kernel by kernel): its launches are
/// made while that step runs, so a short prompt whose first token waits for its launches gets
/// it about as soon as under a synchronous scheduler (the launches, not the extra step, set it).
#[test]
fn launches_made_during_the_step_in_flight_hide_the_overlap_wait() {
    let mut s = scenario(256, 256);
    s.inference.engine = gpu_planner::domain::scenario::ServingEngine::Trtllm;
    let mut e = engine(&s, 4);
    let floor = e.launch_floor(0.0, 256.0);
    let decode = e.step_at(7.0, 7.0 * (256.0 + 128.0), 0.0);
    assert!(floor > 2.0 * decode, "launch-bound prompt steps: {floor} s of launches, {decode} s a decode step");
    let users = Load::Users { users: 8, think_s: 0.0 };
    e.overlap = false;
    let sync = run(&e, users);
    e.overlap = true;
    let overlap = run(&e, users);
    // Launches not made during the step in flight would cost the whole step (1.00 of it when the
    // head start is dropped); made then, 0.51 of it (0.23 before session 41: a mixed step's GEMMs
    // now take √(W² + C²), so its GPU time outlasts more of the launches left after the head
    // start).
    let extra = overlap.ttft.p50 - sync.ttft.p50;
    assert!(extra.abs() < 0.75 * decode, "{extra} s against a {decode} s step");
    // The CPU's part of that prompt step: its launches less the head start, then the fixed time;
    // a head start as long as the launches leaves only the fixed time, a decode step's share.
    let fixed = e.cpu_time(7.0, 0.0, 0.0);
    assert_close(e.cpu_time(0.0, 256.0, 0.0), floor + fixed, 1e-12);
    assert_close(e.cpu_time(0.0, 256.0, 0.25 * floor), 0.75 * floor + fixed, 1e-12);
    assert_close(e.cpu_time(0.0, 256.0, 2.0 * floor), fixed, 1e-12);
}

/// `uniform` never returns 0, so an exponential draw stays finite: at the state whose next
/// SplitMix64 output is 0 (the finalizer maps 0 to 0, so the state one golden-ratio step before
/// 0) it returns the smallest value of (0, 1], 2⁻⁵³, and the exponential draw is 53 ln 2 means.
#[test]
fn the_smallest_uniform_draw_is_above_zero() {
    use gpu_planner::domain::serving::simulate::Rng;
    let before_zero = 0u64.wrapping_sub(0x9e37_79b9_7f4a_7c15);
    assert_eq!(Rng(before_zero).bits(), 0);
    assert_close(Rng(before_zero).uniform(), 2f64.powi(-53), 1e-15);
    assert_close(Rng(before_zero).exp(1.0), 53.0 * std::f64::consts::LN_2, 1e-12);
}

/// An offered rate that is not a positive number gives no run (the page says so instead of
/// simulating an empty or endless load); a positive one runs.
#[test]
fn a_rate_that_is_not_a_positive_number_runs_nothing() {
    let e = engine(&scenario(1024, 128), 4);
    for r in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(simulate(&e, Load::Rate(r), Run::default()).is_none(), "rate {r}");
    }
    assert!(simulate(&e, Load::Rate(0.5), Run::default()).is_some_and(|o| o.finished));
}

/// Prompts drawn longer than the whole KV cache are cut to fit (engines refuse longer ones): a
/// replica whose cache holds only a few mean prompts, under a spread whose tail passes it, still
/// serves every request, and never holds more cache than it has.
#[test]
fn prompts_drawn_past_the_cache_are_cut_to_fit() {
    let mut s = scenario(2048, 64);
    s.inference.context_p90 = Some(60_000);
    let e = engine(&s, 2);
    assert!(e.kv_tokens < 120_000.0 && e.kv_tokens > 4096.0, "a small cache: {}", e.kv_tokens);
    let o = run(&e, Load::Users { users: 4, think_s: 0.0 });
    assert!(o.finished && o.ttft.p99.is_finite(), "{o:?}");
    assert!(o.peak_kv <= e.kv_tokens.floor() + 1e-9, "{} of {}", o.peak_kv, e.kv_tokens);
}

/// The simulation keeps each batch size's context-free step terms (`StepMemo`): a remembered
/// step must be the number a fresh one is, to the last bit, for a dense model (the all-reduce
/// table), an MLA model with the measured DeepSeek-V3 MoE layer (one and two attention groups),
/// and a MoE model priced from its expert reads (a power), at whole and fractional batches,
/// asked twice.
#[test]
fn a_remembered_step_is_the_step() {
    use gpu_planner::domain::scenario::{Precision, Task, WeightQuant};
    use gpu_planner::domain::serving::measured::StepMemo;
    let cat = Catalog::embedded();
    // DeepSeek-R1 over two servers (EP 16, two data-parallel attention groups): each group's
    // step takes half the batch, which the memo (kept for one group) must not answer.
    // Qwen2.5-7B on 4 cards (its all-reduces outlast its weight reads) with three drafted
    // tokens: each request verifies four, which the memo (kept for one) must not answer either.
    let shapes = [
        ("qwen2.5-72b", "h100-sxm", 4, 4, 0),
        ("qwen2.5-7b", "h100-sxm", 4, 4, 3),
        ("deepseek-r1", "h200-sxm", 8, 8, 0),
        ("deepseek-r1", "h200-sxm", 8, 16, 0),
        ("mixtral-8x7b", "h100-sxm", 2, 2, 0),
    ];
    for (model, card, tp, ep, drafts) in shapes {
        let mut s = Scenario { task: Task::Inference, model: model.into(), ..Scenario::default() };
        s.inference.spec_tokens = drafts;
        if model == "deepseek-r1" {
            s.precision = Precision::Fp8;
            s.weight_quant = WeightQuant::Fp8;
        }
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let g = cat.gpu(card).cloned().unwrap_or_else(|| panic!("{card}"));
        let e = Engine::new(&m, &s, &g, tp, ep).unwrap_or_else(|| panic!("{model} fits {ep} × {card}"));
        let mut memo = StepMemo::default();
        for round in 0..2 {
            for batch in [0.0, 0.5, 1.0, 2.0, 3.0, 7.0, 8.0, 9.0, 9.5, 9.25, 64.0, 100.0, 255.0, 1000.0, 70_000.0] {
                for (context, prefill, head) in
                    [(0.0, 0.0, 0.0), (batch * 1500.0, 0.0, 0.0), (batch * 900.0, 512.0, 1e-4)]
                {
                    let fresh = e.step_after(batch, context, prefill, head);
                    let kept = e.step_remembered(Some(&mut memo), batch, context, prefill, head);
                    assert_eq!(
                        fresh.to_bits(),
                        kept.to_bits(),
                        "{model} round {round} batch {batch}: {fresh} vs {kept}"
                    );
                }
            }
        }
    }
}

/// The simulation charges each step for its requests' own contexts (`Engine::step_at`), so the
/// scenario's mean context, which only sets the closed form's typical step, must not change the
/// time of a step whose contexts are given: two engines for prompts of 512 and of 4,096 tokens
/// price the same step alike, on the roofline (Llama 3.1 8B on an L4) and on the measured
/// operators (Qwen2.5-7B on an H100), from one request to a compute-bound 512.
#[test]
fn a_steps_time_follows_its_own_contexts_not_the_mean() {
    let on = |model: &str, card: &str, context: u32| {
        let mut s = Scenario {
            task: gpu_planner::domain::scenario::Task::Inference,
            model: model.into(),
            ..Scenario::default()
        };
        s.inference.context = context;
        s.inference.output_tokens = 256;
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let g = Catalog::embedded().gpu(card).cloned().unwrap_or_else(|| panic!("{card}"));
        Engine::new(&m, &s, &g, 1, 1).unwrap_or_else(|| panic!("{model} fits one {card}"))
    };
    for (model, card) in [("llama-3.1-8b", "l4"), ("qwen2.5-7b", "h100-sxm")] {
        let (a, b) = (on(model, card, 512), on(model, card, 4096));
        for batch in [1.0, 64.0, 512.0] {
            for per_request in [300.0, 3000.0] {
                let context = batch * per_request;
                assert_close(a.step_at(batch, context, 0.0), b.step_at(batch, context, 0.0), 1e-9);
            }
        }
        // And the contexts do count: ten times the context is a longer step.
        assert!(a.step_at(512.0, 512.0 * 3000.0, 0.0) > a.step_at(512.0, 512.0 * 300.0, 0.0));
    }
}

/// A replica whose KV cache holds a mean prompt but not the prompt and its answer cannot serve a
/// single mean request (vLLM refuses to start when its longest request, `max_model_len`, exceeds
/// the cache): no run, where the same prompt with an answer that fits runs.
#[test]
fn a_cache_that_cannot_hold_a_whole_request_runs_nothing() {
    let mut s = scenario(2048, 256);
    s.inference.mem_util = 0.5; // a small cache: a few thousand tokens on four H100s
    let cache = engine(&s, 4).kv_tokens;
    assert!((1_000.0..200_000.0).contains(&cache), "{cache} tokens");
    // Each half of the request fits the cache alone; together they do not.
    let most = (cache * 0.6) as u32;
    let mut long = scenario(most, most);
    long.inference.mem_util = 0.5;
    let e = engine(&long, 4);
    assert_close(e.kv_tokens, cache, 1e-9); // the cache does not depend on the lengths
    assert!(simulate(&e, Load::Users { users: 1, think_s: 0.0 }, Run::default()).is_none());
    let mut fits = scenario(most, most / 2);
    fits.inference.mem_util = 0.5;
    let e = engine(&fits, 4);
    assert!(simulate(&e, Load::Users { users: 1, think_s: 0.0 }, Run::default()).is_some());
}

/// Users who think between requests return at the interactive response-time law's rate (Denning
/// & Buzen 1978, §4): users = rate × (think time + response time). Twenty users thinking 4 s on
/// average (exponentially) between answers of a 2,048 + 256-token request each.
#[test]
fn users_who_think_return_at_the_response_time_laws_rate() {
    let e = engine(&scenario(2048, 256), 4);
    let o = simulate(
        &e,
        Load::Users { users: 20, think_s: 4.0 },
        Run { requests: 2_000, warmup: 200, max_seqs: 1024, ..Run::default() },
    )
    .unwrap_or_else(|| panic!("runs"));
    assert!(o.e2e.mean > 1.0, "a response takes {} s", o.e2e.mean);
    assert_close(o.rate, 20.0 / (4.0 + o.e2e.mean), 0.05);
}
