//! A step-level simulation of one replica's continuous-batching scheduler: what the closed-form
//! queue ([`Engine::at`]) cannot see — the batch growing with the load, the KV cache filling,
//! preemption, a sequence cap — feeds back into every step's time here.
//!
//! The scheduler follows vLLM V1's (`vllm/v1/core/sched/scheduler.py`): every step first gives
//! each running request its tokens (one for a decoding request, a chunk for one still
//! prefilling), in admission order, within `max_num_batched_tokens`; then admits waiting requests
//! first come, first served while the token budget, the sequence cap (`max_num_seqs`) and the KV
//! cache allow. A request's first token comes at the end of the step that prefills its last prompt
//! token. When a decoding step finds no KV room, the most recently admitted request is preempted
//! (its cache freed, re-queued at the head, recomputed: prompt and tokens so far), as vLLM V1's
//! FCFS policy does (`self.running.pop()`). Each step lasts [`Engine::step_at`] with the decoding
//! requests' own contexts. Between events (an arrival, a completion, a full cache) the batch is
//! fixed, so those pure decode steps are taken in one stride, timed at their middle step (exact
//! while the step time is linear in the context, which it is within a roofline branch).
//!
//! Loads: Poisson arrivals at a rate, or a closed loop of users who send their next request an
//! exponential think time after the last answer (vLLM's `benchmark_serving.py --max-concurrency`
//! with no think time). Prompt and answer lengths are log-normal from their mean and p90 (equal
//! when no p90 is given). The first requests warm the replica up and are not measured; the
//! percentiles come with the 95% confidence interval of their order statistic. Seeded (SplitMix64,
//! Steele et al. 2014): a scenario gives the same figures every time.

use super::bound::{self, Bound};
use super::measured::StepMemo;
use super::Engine;

/// How requests arrive at one replica.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Load {
    /// Poisson arrivals at this many requests per second.
    Rate(f64),
    /// A closed loop: `users` each wait for their answer, think, and ask again.
    Users { users: u32, think_s: f64 },
    /// A serving benchmark from a cold start: `prompts` requests, at most `concurrency` in
    /// flight, the first `concurrency` sent at once and each answer releasing the next, every one
    /// measured (vLLM's `benchmark_serving.py --max-concurrency` with no `--request-rate`; with
    /// `concurrency` ≥ `prompts`, all sent at once).
    Bench { concurrency: u32, prompts: u32 },
}

/// Knobs of one simulation run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    /// Requests measured after the warm-up.
    pub requests: u32,
    /// Requests simulated first and not measured (the cache and the batch filling up).
    pub warmup: u32,
    /// The engine's cap on running requests (vLLM `max_num_seqs`; 0 = none).
    pub max_seqs: u32,
    pub seed: u64,
}

impl Default for Run {
    fn default() -> Self {
        Self { requests: 1_000, warmup: 250, max_seqs: 0, seed: 0x5eed_cafe }
    }
}

/// Latency targets a search run is judged against (seconds; time per output token in ms, as
/// the scenario states them), so that it may stop once they are missed for certain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Targets {
    pub ttft_p50_s: f64,
    pub ttft_p99_s: f64,
    pub tpot_p50_ms: f64,
    pub tpot_p99_ms: f64,
}

/// Measured requests over a target so far: (first token over its median and its p99 target,
/// time per token over its median and its p99 target).
#[derive(Default)]
struct Over([u32; 4]);

impl Over {
    /// Counts `r`'s latencies over the targets, with the comparisons `Latency::meets` makes.
    fn count(&mut self, t: &Targets, ttft: f64, tpot: Option<f64>) {
        self.0[0] += u32::from(ttft > t.ttft_p50_s);
        self.0[1] += u32::from(ttft > t.ttft_p99_s);
        if let Some(x) = tpot {
            self.0[2] += u32::from(x * 1e3 > t.tpot_p50_ms);
            self.0[3] += u32::from(x * 1e3 > t.tpot_p99_ms);
        }
    }

    /// Whether a quantile of the `n` measured requests is already over its target whatever the
    /// rest do: [`Spread::of`] reads quantile q at rank ⌈n·q⌉, so it lies over a target once
    /// n − ⌈n·q⌉ + 1 values do. Time per token leaves out one-token answers, so its count is
    /// judged against n as well: n − ⌈n·q⌉ never falls as n grows, so fewer values only need
    /// fewer.
    fn missed(&self, n: usize) -> bool {
        let needed = |q: f64| {
            let rank = ((n as f64 * q).ceil() as usize).clamp(1, n.max(1));
            (n + 1).saturating_sub(rank) as u32
        };
        let [p50, p99, t50, t99] = self.0;
        p50 >= needed(0.5) || p99 >= needed(0.99) || t50 >= needed(0.5) || t99 >= needed(0.99)
    }
}

/// Quantiles of one measured latency, seconds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Spread {
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    /// 95% confidence interval of the p99 (order statistics: ranks n·q ∓ 1.96·√(n·q·(1 − q))).
    pub p99_low: f64,
    pub p99_high: f64,
    /// Half the 95% confidence interval of the mean, 1.96·s/√n (the values taken as
    /// independent).
    pub mean_half: f64,
}

impl Spread {
    #[must_use]
    pub fn of(v: Vec<f64>) -> Spread {
        if v.is_empty() {
            return Spread::default();
        }
        let n = v.len() as f64;
        let mean = v.iter().sum::<f64>() / n;
        let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0).at_least(1.0);
        let mean_half = 1.96 * (var / n).sqrt();
        let index = |rank: f64| (rank.ceil().at_least(1.0) as usize).min(v.len()) - 1;
        let half = 1.96 * (n * 0.99 * 0.01).sqrt();
        // Five order statistics, the lowest first: each selection leaves every larger value to
        // its right, where the next is sought, so the five cost about 1.6 passes over the run's
        // latencies (the highest first cost five: the p99's neighbours lie near the end), where
        // sorting the thousand values three times was a tenth of a serving plan.
        // The ranks never fall along this list: the p99's lower bound, 0.99·n − 1.96·√(0.0099·n),
        // could fall below the p90's 0.9·n only for n < 5, where both round up to n.
        let ranks = [n * 0.5, n * 0.9, n * 0.99 - half, n * 0.99, n * 0.99 + half].map(index);
        // Selected as integers ordered as f64::total_cmp orders the values (the size-optimised
        // build calls a float comparator out of line at every comparison).
        let mut keys: Vec<u64> = v.into_iter().map(total_order_key).collect();
        let (mut start, mut at) = (0, [0; 5]);
        for (k, &i) in ranks.iter().enumerate() {
            // A rank equal to the previous one has its value already.
            debug_assert!(k == 0 || i >= ranks[k - 1], "ranks {ranks:?}");
            at[k] = if i < start { at[k - 1] } else { *keys[start..].select_nth_unstable(i - start).1 };
            start = i + 1;
        }
        let [p50, p90, p99_low, p99, p99_high] = at.map(from_total_order_key);
        Spread { mean, p50, p90, p99, p99_low, p99_high, mean_half }
    }
}

/// `x`'s bits as an integer that orders as [`f64::total_cmp`] orders the values: a positive
/// value's with the sign bit set, a negative value's all inverted.
#[must_use]
pub fn total_order_key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 0 {
        b | 1 << 63
    } else {
        !b
    }
}

/// The value whose [`total_order_key`] is `k`.
#[must_use]
pub fn from_total_order_key(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// What one replica did under the load.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Outcome {
    /// Time to first token, time per output token (per request: (end − first token) / (answer −
    /// 1), as vLLM's benchmark defines it), and end-to-end latency of the measured requests.
    pub ttft: Spread,
    pub tpot: Spread,
    pub e2e: Spread,
    /// Measured requests completed per second, and requests decoding per step on average.
    pub rate: f64,
    pub batch: f64,
    /// Share of the time spent in steps that prefill.
    pub prefill_busy: f64,
    pub preemptions: u32,
    /// The most cache tokens the running requests held at the end of any step (the engine's
    /// cache is `Engine::kv_tokens`: never above it).
    pub peak_kv: f64,
    /// The measured requests all finished: false when the replica fell behind an open load
    /// (its queue still growing when the step limit was reached).
    pub finished: bool,
}

/// SplitMix64 (Steele, Lea & Flood 2014): small, fast and the same on every platform. Public for
/// its tests (the reference sequence, the distributions' moments).
#[derive(Debug, Clone, Copy)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in (0, 1]: 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        ((self.bits() >> 11) as f64 + 1.0) / 9_007_199_254_740_992.0
    }
    /// Exponential with this mean.
    pub fn exp(&mut self, mean: f64) -> f64 {
        -mean * bound::ln(self.uniform())
    }
    /// A log-normal with this mean and σ: mean · e^(σZ − σ²/2), Z by Box–Muller.
    pub fn lognormal(&mut self, mean: f64, sigma: f64) -> f64 {
        if sigma <= 0.0 {
            return mean;
        }
        let z = (-2.0 * bound::ln(self.uniform())).sqrt() * (std::f64::consts::TAU * self.uniform()).cos();
        mean * (sigma * z - sigma * sigma / 2.0).exp()
    }
}

#[derive(Debug, Clone, Copy)]
struct Request {
    /// Its place in arrival order (the warm-up's requests come first).
    id: usize,
    arrival: f64,
    /// Tokens the cache holds for the prompt (its own tokens + encoder positions).
    prompt: f64,
    /// Tokens to compute before it decodes (the prompt less its prefix-cache hit; after a
    /// preemption, also the tokens it had made), and those computed so far.
    prefill: f64,
    done: f64,
    base: f64,
    /// Tokens to generate, and generated so far (while it decodes, [`Batch::made`] knows better).
    output: f64,
    made: f64,
    first: f64,
    user: u32,
    /// Whether it decodes (its first token is out): its tokens then follow the decode clock.
    decoding: bool,
    /// Its admission number (running requests in admission order), and, while it decodes, the
    /// decode clock less the tokens it had made when it started decoding.
    seq: u64,
    offset: f64,
}

/// Arrivals not yet queued, earliest first. Times are finite and ≥ 0, so their bit patterns order
/// as the numbers do. Each entry is (time bits, user) packed into one integer: the size-optimised
/// build calls a tuple's comparison out of line, an integer's it inlines (a tenth of a serving
/// plan was spent in the two heaps' sifting).
#[derive(Default)]
struct Pending(std::collections::BinaryHeap<std::cmp::Reverse<u128>>);

impl Pending {
    fn push(&mut self, t: f64, user: u32) {
        self.0.push(std::cmp::Reverse(u128::from(t.at_least(0.0).to_bits()) << 32 | u128::from(user)));
    }
    /// The arrival time of a packed entry.
    fn time(entry: u128) -> f64 {
        f64::from_bits((entry >> 32) as u64)
    }
    fn next(&self) -> f64 {
        self.0.peek().map_or(f64::INFINITY, |r| Self::time(r.0))
    }
    fn due(&mut self, now: f64) -> Option<(f64, u32)> {
        (self.next() <= now).then(|| self.0.pop()).flatten().map(|r| (Self::time(r.0), r.0 as u32))
    }
}

/// A finish point packed for [`Batch::finishes`]: its bits, then the admission number and the
/// slot, ordered as the triple (admission numbers stay below 2⁴⁰ and slots below 2²⁴: a run has
/// at most 2²⁰ requests and 2·10⁶ steps).
#[inline]
fn finish_key(key: u64, seq: u64, slot: usize) -> std::cmp::Reverse<u128> {
    debug_assert!(seq < 1 << 40 && slot < 1 << 24, "admission {seq}, slot {slot}");
    std::cmp::Reverse(u128::from(key) << 64 | u128::from(seq) << 24 | slot as u128)
}

/// The (finish bits, admission number, slot) of a packed finish point.
#[inline]
fn finish_of(k: std::cmp::Reverse<u128>) -> (u64, u64, usize) {
    ((k.0 >> 64) as u64, (k.0 as u64) >> 24, (k.0 as usize) & ((1 << 24) - 1))
}

/// What the running requests bring to a step: how many decode and their context, the fewest
/// tokens any decoding request has left (a prefilling one makes nothing in a pure decode
/// stride), and how many are still prefilling (each may make its first token).
#[derive(Clone, Copy)]
struct Mix {
    decoding: f64,
    context: f64,
    finish: f64,
    prefilling: f64,
}

impl Mix {
    /// Cache tokens the running requests may add in a step: E for each decoding request, the
    /// first token for each one still prefilling.
    fn growth(&self, per_step: f64) -> f64 {
        self.decoding * per_step + self.prefilling
    }

    /// A pure decode stretch (nothing to prefill, nothing arriving, nobody finishing, the cache
    /// not filling) runs as one stride of steps: until the first running request finishes, the
    /// `free` cache tokens fill, or the next arrival `until_arrival` seconds away; at least one.
    fn stride(&self, e: &Engine, memo: &mut StepMemo, free: f64, until_arrival: f64) -> f64 {
        let fill = (free / (self.decoding * e.per_step)).floor();
        let arrive = (until_arrival / e.step_remembered(Some(memo), self.decoding, self.context, 0.0, 0.0)).ceil();
        (self.finish / e.per_step).ceil().at_most(fill).at_most(arrive).at_least(1.0)
    }
}

/// The running requests. Every decoding request gains the same tokens each step, so they follow
/// one decode clock (tokens per request since the start) instead of being visited every step:
/// a request's tokens are the clock less its offset, the batch's context is kept as sums, and
/// the next to finish waits at the top of a heap of finish points. A step then costs the
/// requests that start, finish or prefill in it, not the whole batch (Qwen2.5-72B for 100 users
/// over the catalog visited 6.2 million running requests one by one). Requests live in slots;
/// the admission order, the prefilling list and the heap name a slot and the admission number
/// it held, and an entry whose slot no longer holds that admission is stale and skipped.
#[derive(Default)]
struct Batch {
    /// Slots of requests (`None`: free), and the free ones.
    slots: Vec<Option<Request>>,
    free: Vec<usize>,
    running: usize,
    /// (Admission number, slot) in admission order: the newest is preempted first.
    order: std::collections::VecDeque<(u64, usize)>,
    /// (Admission number, slot) of the requests still prefilling, oldest first.
    prefilling: std::collections::VecDeque<(u64, usize)>,
    /// (Finish point on the decode clock, admission number, slot) of each decoding request,
    /// packed by [`finish_key`], earliest first; finish points are ≥ 0, so their bit patterns
    /// order as the numbers do.
    finishes: std::collections::BinaryHeap<std::cmp::Reverse<u128>>,
    clock: f64,
    decoding: f64,
    /// Σ prompt and Σ offset over the decoding requests: their context is
    /// prompts + decoding × clock − offsets.
    prompts: f64,
    offsets: f64,
    admitted: u64,
}

impl Batch {
    /// The request admitted as `seq` in `slot`, if it still runs.
    fn at(&self, (seq, slot): (u64, usize)) -> Option<&Request> {
        self.slots.get(slot).and_then(Option::as_ref).filter(|r| r.seq == seq)
    }

    fn take(&mut self, slot: usize) -> Option<Request> {
        let r = self.slots.get_mut(slot)?.take()?;
        self.free.push(slot);
        self.running -= 1;
        Some(r)
    }

    fn put(&mut self, r: Request) -> usize {
        self.running += 1;
        if let Some(slot) = self.free.pop() {
            self.slots[slot] = Some(r);
            slot
        } else {
            self.slots.push(Some(r));
            self.slots.len() - 1
        }
    }

    /// Tokens `r` has made: a decoding request's follow the clock, never past its answer.
    fn made(&self, r: &Request) -> f64 {
        if r.decoding {
            (self.clock - r.offset).at_most(r.output)
        } else {
            r.made
        }
    }

    /// Cache tokens the running requests hold: prompt and tokens made. A walk over every
    /// request, for the tests' bookkeeping check.
    fn held(&self) -> f64 {
        self.slots.iter().flatten().map(|r| r.prompt + self.made(r)).sum()
    }

    /// The mix of the next step. Drops finish points of requests no longer decoding.
    fn mix(&mut self) -> Mix {
        let mut finish = f64::INFINITY;
        while let Some((key, seq, slot)) = self.finishes.peek().map(|&k| finish_of(k)) {
            if self.at((seq, slot)).is_some_and(|r| r.decoding) {
                finish = f64::from_bits(key) - self.clock;
                break;
            }
            self.finishes.pop();
        }
        Mix {
            decoding: self.decoding,
            context: self.prompts + self.decoding * self.clock - self.offsets,
            finish,
            prefilling: self.prefilling.len() as f64,
        }
    }

    /// The request in `slot` starts decoding at the current clock.
    fn start_decoding(&mut self, slot: usize) {
        let clock = self.clock;
        let Some(r) = self.slots.get_mut(slot).and_then(Option::as_mut) else { return };
        r.decoding = true;
        r.offset = clock - r.made;
        let (prompt, offset, key, seq) = (r.prompt, r.offset, r.output + r.offset, r.seq);
        self.decoding += 1.0;
        self.prompts += prompt;
        self.offsets += offset;
        self.finishes.push(finish_key(key.at_least(0.0).to_bits(), seq, slot));
    }

    /// Takes decoding request `r` out of the decoding sums with the tokens it made.
    fn stop_decoding(&mut self, r: &mut Request) {
        r.made = self.made(r);
        r.decoding = false;
        self.decoding -= 1.0;
        self.prompts -= r.prompt;
        self.offsets -= r.offset;
    }

    /// No cache room for this step's tokens: preempts the newest running requests until there
    /// is (they go back to the front of the queue to recompute: prompt and tokens so far), as
    /// vLLM V1's FCFS policy does (`self.running.pop()`), and returns how many were preempted.
    fn preempt(
        &mut self,
        waiting: &mut std::collections::VecDeque<Request>,
        kv: &mut f64,
        (cap, per_step): (f64, f64),
    ) -> u32 {
        let mut n = 0;
        while *kv + self.decoding * per_step + self.prefilling.len() as f64 > cap && self.running > 1 {
            let Some((seq, slot)) = self.order.pop_back() else { break };
            if self.at((seq, slot)).is_none() {
                continue;
            }
            let Some(mut r) = self.take(slot) else { break };
            if r.decoding {
                self.stop_decoding(&mut r);
            } else {
                self.prefilling.pop_back();
            }
            *kv -= r.prompt + r.made;
            r.prefill = r.base + r.made;
            r.done = 0.0;
            waiting.push_front(r);
            n += 1;
        }
        n
    }

    /// Fills a step's `room` of batched tokens with prefill: the running prompts' chunks in
    /// admission order, then requests admitted from the queue while the `limits` allow. Returns
    /// the tokens prefilled.
    fn prefill(
        &mut self,
        waiting: &mut std::collections::VecDeque<Request>,
        kv: &mut f64,
        mut room: f64,
        limits: Limits,
    ) -> f64 {
        let mut chunk = 0.0;
        for &(_, slot) in &self.prefilling {
            if room < 1.0 {
                break;
            }
            if let Some(r) = self.slots.get_mut(slot).and_then(Option::as_mut) {
                let take = (r.prefill - r.done).at_most(room);
                r.done += take;
                room -= take;
                chunk += take;
            }
        }
        // Each admitted request may make its first token this step too.
        let mut reserved = limits.reserved;
        while let Some(r) = waiting.front().filter(|_| limits.admit) {
            if room < 1.0 || self.running as f64 >= limits.seqs || *kv + reserved + r.prompt + r.made + 1.0 > limits.cap
            {
                break;
            }
            let Some(mut r) = waiting.pop_front() else { break };
            let take = r.prefill.at_most(room);
            r.done = take;
            room -= take;
            chunk += take;
            *kv += r.prompt + r.made;
            reserved += 1.0;
            self.admitted += 1;
            r.seq = self.admitted;
            let slot = self.put(r);
            self.prefilling.push_back((r.seq, slot));
            self.order.push_back((r.seq, slot));
        }
        chunk
    }

    /// Tokens out of a stride of `n` steps ending at `now`: `n · per_step` for each decoding
    /// request (never past its answer), the first for each whose prompt is now computed. Adds
    /// them to the cache `kv`, frees the finished requests' cache and returns them in admission
    /// order in `done` (emptied first), and the cache tokens they held.
    fn emit(&mut self, n: f64, per_step: f64, now: f64, kv: &mut f64, done: &mut Vec<Request>) -> f64 {
        let gain = n * per_step;
        done.clear();
        *kv += self.decoding * gain;
        self.clock += gain;
        while let Some((key, seq, slot)) = self.finishes.peek().map(|&k| finish_of(k)) {
            if f64::from_bits(key) > self.clock {
                break;
            }
            self.finishes.pop();
            if !self.at((seq, slot)).is_some_and(|r| r.decoding) {
                continue;
            }
            let Some(mut r) = self.take(slot) else { continue };
            // It gained only what its answer had left.
            let before = (self.clock - gain - r.offset).at_most(r.output);
            self.stop_decoding(&mut r);
            *kv -= gain - (r.output - before);
            r.made = r.output;
            done.push(r);
        }
        let mut k = 0;
        while k < self.prefilling.len() {
            let (seq, slot) = self.prefilling[k];
            let Some(r) = self.slots.get_mut(slot).and_then(Option::as_mut).filter(|r| r.seq == seq) else {
                self.prefilling.remove(k);
                continue;
            };
            if r.done < r.prefill {
                k += 1;
                continue;
            }
            r.made += 1.0;
            *kv += 1.0;
            if r.first.is_nan() {
                r.first = now;
            }
            let finished = r.made >= r.output;
            self.prefilling.remove(k);
            if finished {
                done.extend(self.take(slot));
            } else {
                self.start_decoding(slot);
            }
        }
        // The admission order forgets what has left from its oldest end.
        while self.order.front().is_some_and(|&entry| self.at(entry).is_none()) {
            self.order.pop_front();
        }
        if done.len() > 1 {
            done.sort_unstable_by_key(|r| r.seq);
        }
        let mut freed = 0.0;
        for r in done.iter() {
            freed += r.prompt + r.made;
            *kv -= r.prompt + r.made;
        }
        freed
    }
}

/// A request arriving at `arrival` from `user`, its prompt and answer drawn around the engine's
/// means (log-normal) within the cache of `cap` tokens.
fn draw(e: &Engine, rng: &mut Rng, (cap, mean_prompt): (f64, f64), id: usize, (arrival, user): (f64, u32)) -> Request {
    // A request longer than the cache is cut to fit: engines refuse longer ones outright.
    let own = bound::round(rng.lognormal(mean_prompt, e.sigma)).within(1.0, cap - e.enc_seq - 1.0);
    let output = bound::round(rng.lognormal(e.output, e.out_sigma)).within(1.0, cap - e.enc_seq - own);
    let prefill = (own * (1.0 - e.prefix_share)).ceil().at_least(1.0) + e.enc_seq;
    Request {
        id,
        arrival,
        prompt: own + e.enc_seq,
        prefill,
        done: 0.0,
        base: prefill,
        output,
        made: 0.0,
        first: f64::NAN,
        user,
        decoding: false,
        seq: 0,
        offset: 0.0,
    }
}

/// Arrivals not yet queued at the start: an open load keeps its next one here, a closed loop
/// one per thinking user. `None` for a rate that is not a positive number.
fn first_arrivals(e: &Engine, load: Load, users: u32, last: usize, rng: &mut Rng) -> Option<Pending> {
    let mut pending = Pending::default();
    match load {
        Load::Rate(r) if r > 0.0 && r.is_finite() => pending.push(rng.exp(1.0 / r), 0),
        Load::Rate(_) => return None,
        Load::Bench { concurrency, .. } => {
            (0..concurrency.clamp(1, 1 << 20).min(last as u32)).for_each(|u| pending.push(0.0, u));
        }
        Load::Users { think_s, .. } => {
            // Users who never think are spread over one request's time at their load, as if
            // they had been asking for a while: all asking at once would keep equal requests in
            // lock step for the whole run.
            let life = e.step(0.0, e.uncached) + e.output * e.step(f64::from(users), 0.0);
            for u in 0..users {
                pending.push(if think_s > 0.0 { rng.exp(think_s) } else { life * rng.uniform() }, u);
            }
        }
    }
    Some(pending)
}

/// The measured requests' latencies and the completions the rate counts.
#[derive(Default)]
struct Tally {
    /// Every request past the warm-up that finished, in finish order: (id, first token, time per
    /// token (NaN for a one-token answer), end to end, finish time). Those past the measured
    /// window are kept for a run carried on over more of them ([`Sim::widen`]).
    done: Vec<(usize, f64, f64, f64, f64)>,
    completed: f64,
    /// Measured requests still running or to come.
    left: usize,
    /// When the last measured request finished.
    end: f64,
    /// Ids of the measured requests (after the warm-up).
    window: std::ops::Range<usize>,
    /// The targets a search run stops at, and the measured requests over them so far.
    targets: Option<Targets>,
    over: Over,
}

impl Tally {
    /// The run's figures once every measured request finished, measured from `start`: the
    /// completion rate, the mean batch (`batch_time` = Σ running × step time), the prefill's
    /// share of the time (`prefill_busy`) and the latencies' spreads.
    fn outcome(
        &self,
        start: f64,
        (batch_time, prefill_busy): (f64, f64),
        (preemptions, peak_kv): (u32, f64),
    ) -> Outcome {
        let span = (self.end - start).at_least(1e-12);
        let measured = || self.done.iter().filter(|d| d.0 < self.window.end);
        Outcome {
            rate: self.completed / span,
            batch: batch_time / span,
            prefill_busy,
            preemptions,
            peak_kv,
            finished: true,
            ttft: Spread::of(measured().map(|d| d.1).collect()),
            tpot: Spread::of(measured().map(|d| d.2).filter(|t| !t.is_nan()).collect()),
            e2e: Spread::of(measured().map(|d| d.3).collect()),
        }
    }

    /// A tally of the requests numbered `window`.
    fn new(window: std::ops::Range<usize>, targets: Option<Targets>) -> Self {
        let measured = window.len();
        Self { left: measured, window, targets, done: Vec::with_capacity(measured + measured / 8), ..Self::default() }
    }

    /// The measured requests now run up to `last`: those of them already finished count, and
    /// no targets are judged any more.
    fn widen(&mut self, last: usize) {
        let old = std::mem::replace(&mut self.window.end, last);
        self.targets = None;
        self.left += last - old;
        for d in self.done.iter().filter(|d| (old..last).contains(&d.0)) {
            self.left -= 1;
            self.end = self.end.at_least(d.4);
        }
    }

    /// `r` finished at `now`; `measuring` once the first measured request has arrived.
    fn finished(&mut self, r: &Request, now: f64, measuring: bool) {
        // Every completion inside the measured window counts towards the rate, whoever's.
        self.completed += if measuring { 1.0 } else { 0.0 };
        if r.id < self.window.start {
            return;
        }
        let ttft = r.first - r.arrival;
        let tpot = (r.made > 1.0).then(|| (now - r.first) / (r.made - 1.0));
        self.done.push((r.id, ttft, tpot.unwrap_or(f64::NAN), now - r.arrival, now));
        if r.id < self.window.end {
            if let Some(t) = &self.targets {
                self.over.count(t, ttft, tpot);
            }
            self.left -= 1;
            self.end = now;
        }
    }
}

/// What a step may admit: at most `seqs` running requests, `cap` cache tokens less the
/// `reserved` ones the running requests decode into this step (vLLM V1 allocates the running
/// requests' slots before it admits anyone), and nobody in a step that preempted.
#[derive(Clone, Copy)]
struct Limits {
    seqs: f64,
    cap: f64,
    reserved: f64,
    admit: bool,
}

/// Rounds of a closed loop's users its warm-up need not exceed: the users start spread over one
/// request's time ([`first_arrivals`]), so a few rounds mix them (a lone user has no queue to
/// fill: ten requests, not 250).
const ROUNDS: u32 = 10;

/// The closed loop's users, and the warm-up's and the run's request counts. A closed loop starts
/// with every user asking at once: the warm-up lets that burst clear (one round of every user)
/// and the measured requests span another round at least; a benchmark measures every prompt.
fn window(load: Load, run: Run) -> (u32, usize, usize) {
    let users = if let Load::Users { users, .. } = load { users.clamp(1, 1 << 20) } else { 0 };
    let (warmup, last) = match load {
        Load::Bench { prompts, .. } => (0, prompts.clamp(1, 1 << 20) as usize),
        Load::Users { .. } => {
            let warmup = run.warmup.min(ROUNDS.saturating_mul(users)).max(users) as usize;
            (warmup, warmup + run.requests.max(users) as usize)
        }
        Load::Rate(_) => (run.warmup as usize, run.warmup as usize + run.requests.max(1) as usize),
    };
    (users, warmup, last)
}

/// An overlap scheduler's CPU: when the step starting now was formed (under an overlap
/// scheduler the start of the step before it, as the engine was busy then), and how long before
/// now the CPU could begin its launches (it launches a step while the one before it runs, once
/// it has made that one's launches and its fixed time).
#[derive(Clone, Copy, Default)]
struct Overlap {
    formed: f64,
    head: f64,
}

impl Overlap {
    /// Requests that reached the scheduler by this time join the step starting `now`.
    fn cutoff(self, e: &Engine, now: f64) -> f64 {
        if e.overlap {
            self.formed
        } else {
            now
        }
    }
    /// After `n` steps of `dt` in all from `now`: the next is formed as the last of them starts.
    fn after(self, e: &Engine, (now, dt, n): (f64, f64, f64), decoding: f64, prefill: f64) -> Self {
        let head = if e.overlap { (dt / n - e.cpu_time(decoding, prefill, self.head)).at_least(0.0) } else { 0.0 };
        Self { formed: now + dt * (n - 1.0) / n, head }
    }
}

/// Steps a run may take before it counts as fallen behind.
const STEP_LIMIT: u32 = 2_000_000;

/// Simulates `e` under `load` and returns the measured requests' latencies, or `None` when the
/// replica cannot hold a single mean request (its prompt and answer exceed the KV cache) or the
/// load is empty.
#[must_use]
pub fn simulate(e: &Engine, load: Load, run: Run) -> Option<Outcome> {
    simulate_against(e, load, run, None)
}

/// [`simulate`], stopping as soon as the measured requests miss one of the `targets` for
/// certain (then `finished` is false and the figures are partial): a search only asks whether a
/// replica count meets them, and the answer is the full run's.
#[must_use]
pub fn simulate_against(e: &Engine, load: Load, run: Run, targets: Option<Targets>) -> Option<Outcome> {
    Sim::start(e, load, run, targets).map(|mut sim| sim.advance())
}

/// One replica's run in progress: everything the simulation keeps between steps. A run that
/// finished can be carried on over more measured requests ([`Sim::widen`]): arrivals never
/// depend on how many requests are measured, so a short run is the first part of a longer one
/// with the same seed and warm-up, step for step, and its steps need not be taken again (a
/// search's run at the replica count it chose becomes the start of the run whose figures are
/// shown).
pub struct Sim<'e> {
    e: &'e Engine,
    load: Load,
    /// The cache's tokens, and the mean prompt a request brings.
    cap: f64,
    mean_prompt: f64,
    /// The step's token budget and the cap on running requests.
    budget: f64,
    seqs: f64,
    users: u32,
    warmup: usize,
    last: usize,
    rng: Rng,
    pending: Pending,
    arrived: usize,
    waiting: std::collections::VecDeque<Request>,
    running: Batch,
    /// The requests finishing in a step (one buffer for the whole run).
    finished: Vec<Request>,
    now: f64,
    kv: f64,
    tally: Tally,
    preemptions: u32,
    prefill_time: f64,
    batch_time: f64,
    peak_kv: f64,
    /// When the first measured request arrived (NaN before).
    start: f64,
    cpu: Overlap,
    memo: StepMemo,
    steps: u32,
    /// Stopped at the step limit: the figures cannot be carried on.
    stopped: bool,
    /// Stopped where the measured requests missed the targets for certain: the run can carry
    /// on without them ([`Sim::unjudged`]).
    missed: bool,
}

impl<'e> Sim<'e> {
    /// A run of `e` under `load`, nothing simulated yet; `None` when the replica cannot hold a
    /// single mean request (its prompt and answer exceed the KV cache) or the load is empty.
    #[must_use]
    pub fn start(e: &'e Engine, load: Load, run: Run, targets: Option<Targets>) -> Option<Self> {
        let cap = e.kv_tokens.floor();
        let mean_prompt = (e.prompt - e.enc_seq).at_least(1.0);
        if e.enc_seq + mean_prompt + e.output.at_least(1.0) > cap {
            return None;
        }
        // vLLM counts decode tokens against max_num_batched_tokens too, so no more requests run
        // than the budget has tokens.
        let budget = (e.chunk * e.groups).floor().at_least(1.0);
        let seqs = if run.max_seqs == 0 { budget } else { f64::from(run.max_seqs).at_most(budget) };
        let (users, warmup, last) = window(load, run);
        let mut rng = Rng(run.seed);
        let pending = first_arrivals(e, load, users, last, &mut rng)?;
        Some(Self {
            e,
            load,
            cap,
            mean_prompt,
            budget,
            seqs,
            users,
            warmup,
            last,
            rng,
            pending,
            arrived: 0,
            waiting: std::collections::VecDeque::new(),
            running: Batch::default(),
            finished: Vec::new(),
            now: 0.0,
            kv: 0.0,
            tally: Tally::new(warmup..last, targets),
            preemptions: 0,
            prefill_time: 0.0,
            batch_time: 0.0,
            peak_kv: 0.0,
            start: f64::NAN,
            cpu: Overlap::default(),
            memo: StepMemo::default(),
            steps: 0,
            stopped: false,
            missed: false,
        })
    }

    /// Carries a finished run on until `requests` are measured (the warm-up kept): false, and
    /// nothing changed, when it cannot be — a benchmark's fixed prompts, a run stopped at its
    /// targets or the step limit, or fewer requests than it measured. The targets are dropped.
    pub fn widen(&mut self, requests: u32) -> bool {
        let last = self.warmup + requests.max(self.users).max(1) as usize;
        if self.stopped || self.missed || matches!(self.load, Load::Bench { .. }) || last < self.last {
            return false;
        }
        self.last = last;
        self.tally.widen(last);
        true
    }

    /// Steps simulated so far.
    #[must_use]
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// Whether the run stopped where it missed its targets for certain.
    #[must_use]
    pub fn missed(&self) -> bool {
        self.missed
    }

    /// Drops the targets, so that a run stopped at them carries on ([`Sim::advance`]) as the
    /// run without targets: they decide only where a run stops, never a step, so it ends as that
    /// run would, step for step (a search that judged a count and found it short asks for the
    /// same count's figures unjudged when no count meets). False, and nothing changed, for a run
    /// stopped at the step limit.
    pub fn unjudged(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        self.tally.targets = None;
        self.missed = false;
        true
    }

    /// Steps until every measured request has finished (or the run misses its targets for
    /// certain, or reaches the step limit: then `finished` is false and the figures are partial).
    pub fn advance(&mut self) -> Outcome {
        while self.tally.left > 0 {
            if self.steps == STEP_LIMIT {
                self.stopped = true;
                return self.partial();
            }
            self.steps += 1;
            if self.step() {
                self.missed = true;
                return self.partial();
            }
        }
        // The cache holds exactly the running requests' tokens (debug builds: the tests).
        debug_assert!(
            (self.kv - self.running.held()).abs() <= 1e-6 * self.kv.max(1.0),
            "cache {} against {}",
            self.kv,
            self.running.held()
        );
        self.tally.outcome(
            self.start,
            (self.batch_time, self.prefill_time / self.now.max(1e-12)),
            (self.preemptions, self.peak_kv),
        )
    }

    fn partial(&self) -> Outcome {
        Outcome { preemptions: self.preemptions, peak_kv: self.peak_kv, ..Outcome::default() }
    }

    /// One scheduler step (or one stride of pure decode steps); true when the measured
    /// requests have missed the targets for certain.
    fn step(&mut self) -> bool {
        let (e, load, cap) = (self.e, self.load, self.cap);
        if self.running.running == 0 && self.waiting.is_empty() {
            // Idle: wait for the next arrival; an idle engine forms a step at once.
            self.now = self.now.at_least(self.pending.next() + e.frontend_s);
            self.cpu = Overlap { formed: self.now, head: 0.0 };
        }
        // A request sent at t reaches the scheduler frontend_s later: one sent as the last answer
        // ends misses the step that starts then (its first token is still timed from t).
        while let Some((t, user)) = self.pending.due(self.cpu.cutoff(e, self.now) - e.frontend_s) {
            self.waiting.push_back(draw(e, &mut self.rng, (cap, self.mean_prompt), self.arrived, (t, user)));
            self.arrived += 1;
            if self.arrived == self.warmup + 1 {
                self.start = self.now;
            }
            if let Load::Rate(r) = load {
                self.pending.push(t + self.rng.exp(1.0 / r), 0);
            }
        }
        let before = self.preemptions;
        self.preemptions += self.running.preempt(&mut self.waiting, &mut self.kv, (cap, e.per_step));
        let step_mix = self.running.mix();
        let Mix { decoding, context, .. } = step_mix;
        // Decode tokens first, then prefill chunks in admission order, then admissions; vLLM V1
        // admits nobody in a step that preempted.
        // Under speculative decoding a decoding request's drafted tokens take budget too.
        let room = (self.budget - decoding * e.verify).at_least(0.0);
        let limits =
            Limits { seqs: self.seqs, cap, reserved: step_mix.growth(e.per_step), admit: self.preemptions == before };
        let chunk = self.running.prefill(&mut self.waiting, &mut self.kv, room, limits);
        let until_arrival =
            if self.waiting.is_empty() { self.pending.next() + e.frontend_s - self.now } else { f64::INFINITY };
        let n = if chunk == 0.0 && decoding > 0.0 {
            step_mix.stride(e, &mut self.memo, cap - self.kv, until_arrival)
        } else {
            1.0
        };
        let (prefill, ctx) = (chunk / e.groups.at_least(1.0), context + decoding * e.per_step * (n - 1.0) / 2.0);
        let dt = n * e.step_remembered(Some(&mut self.memo), decoding, ctx, prefill, self.cpu.head);
        self.cpu = self.cpu.after(e, (self.now, dt, n), decoding, prefill);
        self.now += dt;
        if chunk > 0.0 {
            self.prefill_time += dt;
        }
        if !self.start.is_nan() {
            self.batch_time += decoding * dt;
        }
        // Tokens out: n for each decoding request, the first for each prompt just completed.
        let freed = self.running.emit(n, e.per_step, self.now, &mut self.kv, &mut self.finished);
        for r in &self.finished {
            self.tally.finished(r, self.now, !self.start.is_nan());
            match load {
                Load::Users { think_s, .. } => {
                    let think = if think_s > 0.0 { self.rng.exp(think_s) } else { 0.0 };
                    self.pending.push(self.now + think, r.user);
                }
                Load::Bench { .. } if self.arrived + self.pending.0.len() < self.last => {
                    self.pending.push(self.now, r.user);
                }
                _ => {}
            }
        }
        self.peak_kv = self.peak_kv.at_least(self.kv + freed);
        self.tally.targets.is_some() && !self.finished.is_empty() && self.tally.over.missed(self.last - self.warmup)
    }
}

#[cfg(test)]
mod tests {
    use super::{finish_key, finish_of, Rng};

    /// Packed finish points order as the (finish bits, admission number, slot) triples they
    /// hold, and give them back, across the bounds a run stays within.
    #[test]
    fn packed_finish_points_order_as_their_triples() {
        let mut rng = Rng(7);
        let mut triple = || {
            // Few distinct finish points and admissions, so the later fields decide often.
            let key = [0, 1, 0x3ff0_0000_0000_0000, u64::MAX >> 1][(rng.bits() % 4) as usize];
            let seq = [0, 1, 2, (1 << 40) - 1][(rng.bits() % 4) as usize];
            let slot = [0, 1, 5, (1 << 24) - 1][(rng.bits() % 4) as usize];
            (key, seq, slot)
        };
        for _ in 0..2_000 {
            let (a, b) = (triple(), triple());
            assert_eq!(finish_of(finish_key(a.0, a.1, a.2)), a);
            assert_eq!(finish_key(a.0, a.1, a.2).cmp(&finish_key(b.0, b.1, b.2)), b.cmp(&a), "{a:?} against {b:?}");
        }
    }
}
