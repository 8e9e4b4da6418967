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
}

impl Spread {
    #[must_use]
    pub fn of(mut v: Vec<f64>) -> Spread {
        if v.is_empty() {
            return Spread::default();
        }
        v.sort_by(f64::total_cmp);
        let n = v.len() as f64;
        let at = |rank: f64| v[(rank.ceil().max(1.0) as usize).min(v.len()) - 1];
        let q = |p: f64| at(n * p);
        let half = 1.96 * (n * 0.99 * 0.01).sqrt();
        Spread {
            mean: v.iter().sum::<f64>() / n,
            p50: q(0.5),
            p90: q(0.9),
            p99: q(0.99),
            p99_low: at(n * 0.99 - half),
            p99_high: at(n * 0.99 + half),
        }
    }
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
        -mean * self.uniform().ln()
    }
    /// A log-normal with this mean and σ: mean · e^(σZ − σ²/2), Z by Box–Muller.
    pub fn lognormal(&mut self, mean: f64, sigma: f64) -> f64 {
        if sigma <= 0.0 {
            return mean;
        }
        let z = (-2.0 * self.uniform().ln()).sqrt() * (std::f64::consts::TAU * self.uniform()).cos();
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
    /// Tokens to generate, and generated so far.
    output: f64,
    made: f64,
    first: f64,
    user: u32,
    /// Whether it decodes in the current step (its prompt was in before the step began).
    decoding: bool,
}

impl Request {
    /// Its tokens out of a stride of `n` decode steps ending at `now`, each gaining `per_step`
    /// tokens: `n · per_step` while it decodes (never past its answer), the first when its prompt
    /// has just been computed, none while it prefills; the first token's time is kept. Returns
    /// the tokens added to the cache.
    fn emit(&mut self, n: f64, per_step: f64, now: f64) -> f64 {
        let made = if self.decoding {
            (n * per_step).min(self.output - self.made)
        } else if self.done >= self.prefill {
            1.0
        } else {
            0.0
        };
        self.made += made;
        if made > 0.0 && self.first.is_nan() {
            self.first = now;
        }
        made
    }
}

/// Arrivals not yet queued, earliest first. Times are finite and ≥ 0, so their bit patterns order
/// as the numbers do.
#[derive(Default)]
struct Pending(std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32)>>);

impl Pending {
    fn push(&mut self, t: f64, user: u32) {
        self.0.push(std::cmp::Reverse((t.max(0.0).to_bits(), user)));
    }
    fn next(&self) -> f64 {
        self.0.peek().map_or(f64::INFINITY, |r| f64::from_bits(r.0 .0))
    }
    fn due(&mut self, now: f64) -> Option<(f64, u32)> {
        (self.next() <= now).then(|| self.0.pop()).flatten().map(|r| (f64::from_bits(r.0 .0), r.0 .1))
    }
}

/// One pass over the running requests: marks who decodes this step and returns how many do, their
/// context, the fewest tokens any running request has left, and whether any is still prefilling.
fn scan(running: &mut [Request]) -> Mix {
    let mut m = Mix::default();
    for r in running {
        m.add(r);
    }
    m
}

/// What the running requests bring to a step: how many decode and their context, the fewest
/// tokens any has left, and how many are still prefilling (each may make its first token).
#[derive(Clone, Copy)]
struct Mix {
    decoding: f64,
    context: f64,
    finish: f64,
    prefilling: f64,
}

impl Default for Mix {
    fn default() -> Self {
        Self { decoding: 0.0, context: 0.0, finish: f64::INFINITY, prefilling: 0.0 }
    }
}

impl Mix {
    /// Cache tokens the running requests may add in a step: E for each decoding request, the
    /// first token for each one still prefilling.
    fn growth(&self, per_step: f64) -> f64 {
        self.decoding * per_step + self.prefilling
    }
}

impl Mix {
    /// A pure decode stretch (nothing to prefill, nothing arriving, nobody finishing, the cache
    /// not filling) runs as one stride of steps: until the first running request finishes, the
    /// `free` cache tokens fill, or the next arrival `until_arrival` seconds away; at least one.
    fn stride(&self, e: &Engine, free: f64, until_arrival: f64) -> f64 {
        let fill = (free / (self.decoding * e.per_step)).floor();
        let arrive = (until_arrival / e.step_at(self.decoding, self.context, 0.0)).ceil();
        (self.finish / e.per_step).ceil().min(fill).min(arrive).max(1.0)
    }

    /// Marks whether `r` decodes this step and counts it.
    fn add(&mut self, r: &mut Request) {
        r.decoding = r.done >= r.prefill;
        if r.decoding {
            self.decoding += 1.0;
            self.context += r.prompt + r.made;
        } else {
            self.prefilling += 1.0;
        }
        self.finish = self.finish.min(r.output - r.made);
    }
}

/// A request arriving at `arrival` from `user`, its prompt and answer drawn around the engine's
/// means (log-normal) within the cache of `cap` tokens.
fn draw(e: &Engine, rng: &mut Rng, (cap, mean_prompt): (f64, f64), id: usize, (arrival, user): (f64, u32)) -> Request {
    // A request longer than the cache is cut to fit: engines refuse longer ones outright.
    let own = rng.lognormal(mean_prompt, e.sigma).round().clamp(1.0, cap - e.enc_seq - 1.0);
    let output = rng.lognormal(e.output, e.out_sigma).round().clamp(1.0, cap - e.enc_seq - own);
    let prefill = (own * (1.0 - e.prefix_share)).ceil().max(1.0) + e.enc_seq;
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

/// No cache room for this step's tokens: preempts the newest running requests until there is
/// (they go back to the front of the queue to recompute), rescans the mix, and returns how
/// many were preempted.
fn preempt(
    running: &mut Vec<Request>,
    waiting: &mut std::collections::VecDeque<Request>,
    kv: &mut f64,
    mix: &mut Mix,
    (cap, per_step): (f64, f64),
) -> u32 {
    let mut n = 0;
    while *kv + mix.growth(per_step) > cap && running.len() > 1 {
        let Some(mut r) = running.pop() else { break };
        *kv -= r.prompt + r.made;
        if r.decoding {
            mix.decoding -= 1.0;
        } else {
            mix.prefilling -= 1.0;
        }
        r.prefill = r.base + r.made;
        r.done = 0.0;
        r.decoding = false;
        waiting.push_front(r);
        n += 1;
    }
    if n > 0 {
        *mix = scan(running);
    }
    n
}

/// The measured requests' latencies and the completions the rate counts.
#[derive(Default)]
struct Tally {
    ttft: Vec<f64>,
    tpot: Vec<f64>,
    e2e: Vec<f64>,
    completed: f64,
    /// Measured requests still running or to come.
    left: usize,
    /// When the last measured request finished.
    end: f64,
    /// Ids of the measured requests (after the warm-up).
    window: std::ops::Range<usize>,
}

impl Tally {
    /// The run's figures once every measured request finished, measured from `start`: the
    /// completion rate, the mean batch (`batch_time` = Σ running × step time), the prefill's
    /// share of the time (`prefill_busy`) and the latencies' spreads.
    fn outcome(
        self,
        start: f64,
        (batch_time, prefill_busy): (f64, f64),
        (preemptions, peak_kv): (u32, f64),
    ) -> Outcome {
        let span = (self.end - start).max(1e-12);
        Outcome {
            rate: self.completed / span,
            batch: batch_time / span,
            prefill_busy,
            preemptions,
            peak_kv,
            finished: true,
            ttft: Spread::of(self.ttft),
            tpot: Spread::of(self.tpot),
            e2e: Spread::of(self.e2e),
        }
    }

    /// `r` finished at `now`; `measuring` once the first measured request has arrived.
    fn finished(&mut self, r: &Request, now: f64, measuring: bool) {
        // Every completion inside the measured window counts towards the rate, whoever's.
        self.completed += if measuring { 1.0 } else { 0.0 };
        if self.window.contains(&r.id) {
            self.ttft.push(r.first - r.arrival);
            self.e2e.push(now - r.arrival);
            if r.made > 1.0 {
                self.tpot.push((now - r.first) / (r.made - 1.0));
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

/// Fills a step's `room` of batched tokens with prefill: the running prompts' chunks in
/// admission order (when any is `prefilling`), then requests admitted from the queue while the
/// `limits` allow. Returns the tokens prefilled.
fn prefill(
    running: &mut Vec<Request>,
    waiting: &mut std::collections::VecDeque<Request>,
    kv: &mut f64,
    mut room: f64,
    prefilling: bool,
    limits: Limits,
) -> f64 {
    let mut chunk = 0.0;
    // Each admitted request may make its first token this step too.
    let mut reserved = limits.reserved;
    for r in running.iter_mut().filter(|_| prefilling) {
        if !r.decoding && room >= 1.0 {
            let take = (r.prefill - r.done).min(room);
            r.done += take;
            room -= take;
            chunk += take;
        }
    }
    while let Some(r) = waiting.front().filter(|_| limits.admit) {
        if room < 1.0 || running.len() as f64 >= limits.seqs || *kv + reserved + r.prompt + r.made + 1.0 > limits.cap {
            break;
        }
        let Some(mut r) = waiting.pop_front() else { break };
        let take = r.prefill.min(room);
        r.done = take;
        room -= take;
        chunk += take;
        *kv += r.prompt + r.made;
        reserved += 1.0;
        running.push(r);
    }
    chunk
}

/// The closed loop's users, and the warm-up's and the run's request counts. A closed loop starts
/// with every user asking at once: the warm-up lets that burst clear (one round of every user)
/// and the measured requests span another round at least; a benchmark measures every prompt.
fn window(load: Load, run: Run) -> (u32, usize, usize) {
    let users = if let Load::Users { users, .. } = load { users.clamp(1, 1 << 20) } else { 0 };
    let (warmup, last) = match load {
        Load::Bench { prompts, .. } => (0, prompts.clamp(1, 1 << 20) as usize),
        _ => {
            let warmup = run.warmup.max(users) as usize;
            (warmup, warmup + run.requests.max(users).max(1) as usize)
        }
    };
    (users, warmup, last)
}

/// Steps a run may take before it counts as fallen behind.
const STEP_LIMIT: u32 = 2_000_000;

/// Simulates `e` under `load` and returns the measured requests' latencies, or `None` when the
/// replica cannot hold a single mean request (its prompt and answer exceed the KV cache) or the
/// load is empty.
#[must_use]
pub fn simulate(e: &Engine, load: Load, run: Run) -> Option<Outcome> {
    let cap = e.kv_tokens.floor();
    let mean_prompt = (e.prompt - e.enc_seq).max(1.0);
    if e.enc_seq + mean_prompt + e.output.max(1.0) > cap {
        return None;
    }
    // vLLM counts decode tokens against max_num_batched_tokens too, so no more requests run than
    // the budget has tokens.
    let budget = (e.chunk * e.groups).floor().max(1.0);
    let seqs = if run.max_seqs == 0 { budget } else { f64::from(run.max_seqs).min(budget) };
    let (users, warmup, last) = window(load, run);
    let mut rng = Rng(run.seed);
    let mut pending = first_arrivals(e, load, users, last, &mut rng)?;
    let mut arrived = 0;
    let mut waiting = std::collections::VecDeque::<Request>::new();
    // Running requests in admission order (the newest is preempted first), held in place: the
    // per-step passes over them are the simulation's inner loop.
    let mut running: Vec<Request> = Vec::new();
    let (mut now, mut kv) = (0.0_f64, 0.0_f64);
    let mut tally = Tally { left: last - warmup, window: warmup..last, ..Tally::default() };
    let (mut preemptions, mut prefill_time, mut batch_time, mut peak_kv) = (0, 0.0, 0.0, 0.0_f64);
    let mut start = f64::NAN;
    // The running requests' mix at the start of the next step: each step's last pass counts it.
    let mut mix = Mix::default();

    for _ in 0..STEP_LIMIT {
        if running.is_empty() && waiting.is_empty() {
            // Idle: wait for the next arrival.
            now = now.max(pending.next() + e.frontend_s);
        }
        // A request sent at t reaches the scheduler frontend_s later: one sent as the last answer
        // ends misses the step that starts then (its first token is still timed from t).
        while let Some((t, user)) = pending.due(now - e.frontend_s) {
            waiting.push_back(draw(e, &mut rng, (cap, mean_prompt), arrived, (t, user)));
            arrived += 1;
            if arrived == warmup + 1 {
                start = now;
            }
            if let Load::Rate(r) = load {
                pending.push(t + rng.exp(1.0 / r), 0);
            }
        }
        let before = preemptions;
        preemptions += preempt(&mut running, &mut waiting, &mut kv, &mut mix, (cap, e.per_step));
        let step_mix = mix;
        let Mix { decoding, context, prefilling, .. } = mix;
        // Decode tokens first, then prefill chunks in admission order, then admissions; vLLM V1
        // admits nobody in a step that preempted.
        // Under speculative decoding a decoding request's drafted tokens take budget too.
        let room = (budget - decoding * e.verify).max(0.0);
        let limits = Limits { seqs, cap, reserved: step_mix.growth(e.per_step), admit: preemptions == before };
        let chunk = prefill(&mut running, &mut waiting, &mut kv, room, prefilling > 0.0, limits);
        let until_arrival = if waiting.is_empty() { pending.next() + e.frontend_s - now } else { f64::INFINITY };
        let n = if chunk == 0.0 && decoding > 0.0 { step_mix.stride(e, cap - kv, until_arrival) } else { 1.0 };
        let dt = n * e.step_at(decoding, context + decoding * e.per_step * (n - 1.0) / 2.0, chunk / e.groups.max(1.0));
        now += dt;
        if chunk > 0.0 {
            prefill_time += dt;
        }
        if !start.is_nan() {
            batch_time += decoding * dt;
        }
        // Tokens out: n for each decoding request, the first for each prompt just completed; the
        // requests left running make the next step's mix.
        mix = Mix::default();
        let mut kept = 0;
        let mut freed = 0.0;
        for k in 0..running.len() {
            let mut r = running[k];
            kv += r.emit(n, e.per_step, now);
            if r.made < r.output {
                mix.add(&mut r);
                running[kept] = r;
                kept += 1;
                continue;
            }
            freed += r.prompt + r.made;
            kv -= r.prompt + r.made;
            tally.finished(&r, now, !start.is_nan());
            match load {
                Load::Users { think_s, .. } => {
                    pending.push(now + if think_s > 0.0 { rng.exp(think_s) } else { 0.0 }, r.user);
                }
                Load::Bench { .. } if arrived + pending.0.len() < last => pending.push(now, r.user),
                _ => {}
            }
        }
        running.truncate(kept);
        peak_kv = peak_kv.max(kv + freed);
        if tally.left == 0 {
            return Some(tally.outcome(start, (batch_time, prefill_time / now.max(1e-12)), (preemptions, peak_kv)));
        }
    }
    Some(Outcome { preemptions, peak_kv, ..Outcome::default() })
}
