//! Replicas and tensor-parallel width for the offered load: the rate one replica sustains within
//! the latency targets, the fewest replicas, and the latency–throughput trade-off curve.

use super::simulate::{simulate, Load, Outcome, Run, Sim, Targets};
use super::{Engine, Latency, MAX_CARDS, TP_DEGREES};
use crate::domain::catalog::Gpu;
use crate::domain::model::ModelSpec;
use crate::domain::scenario::Scenario;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// What one card type needs to serve the load.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Capacity {
    pub tp: u32,
    /// Cards a replica's experts are spread over (expert parallelism); `tp` without it.
    pub ep: u32,
    pub replicas: u32,
    pub cards: u32,
    /// KV-cache tokens per replica, and the requests one replica runs at once at most: whole
    /// requests in the cache, the sequence cap and the token budget, whichever is least.
    pub kv_tokens: f64,
    pub max_concurrency: f64,
    /// Requests per second one replica sustains (a lower bound: a simulated closed loop of half the
    /// cache's whole requests, at most 256), and whether an offered rate runs each replica above
    /// 80% of it, where latency climbs steeply.
    pub sustained_rps: f64,
    pub near_saturation: bool,
    /// Offered load, requests per second (all replicas).
    pub rate_rps: f64,
    pub latency: Latency,
    /// Output tokens per second: all replicas, per card, and as one user sees them.
    pub tokens_s: f64,
    pub tokens_s_gpu: f64,
    pub tokens_s_user: f64,
    /// Whether the targets are met; when not, the plan is the best reachable (fewest cards at
    /// the lowest p99 time to first token).
    pub meets: bool,
    /// Where the decode step's operator timings come from (measured on this card, borrowed from
    /// a measured card, or none: the roofline alone).
    #[serde(default)]
    pub tier: crate::domain::tier::Tier,
}

/// Tokens per second one user sees while decoding: 1 / TPOT, and 0 when requests have no decode
/// steps (answers of at most one token, whose time per output token is 0), never infinity.
fn per_user(tpot_s: f64) -> f64 {
    if tpot_s > 0.0 {
        1.0 / tpot_s
    } else {
        0.0
    }
}

/// The replica's request rate: the offered rate split over `replicas`, or for a closed loop of
/// users the rate at which they return, users / (think time + response time), solved by bisection.
fn replica_rate(e: &Engine, s: &Scenario, replicas: u32) -> Option<(f64, Latency)> {
    let i = &s.inference;
    let n = f64::from(replicas.max(1));
    if let Some(r) = i.rate_rps {
        return e.at(r / n).map(|l| (r / n, l));
    }
    let users = f64::from(i.concurrent.max(1)) / n;
    let response = |l: &Latency| l.ttft_p50_s + e.output * l.tpot_mean_s;
    // users(rate) = rate × (think + response(rate)) rises with the rate: find where it meets the
    // users by false position with the Illinois step (Dowell & Jarratt 1971), falling back to
    // halving while the top of the bracket is an overload with no latency. 40% fewer engine
    // evaluations than bisection at the same 0.1–0.2% precision (a plan of Qwen2.5-72B for 100
    // users over the catalog: 5,585 against 9,132).
    let excess = |rate: f64, l: &Latency| rate * (i.think_s + response(l)) - users;
    let (mut lo, mut hi) = (0.0, users / (i.think_s + e.step(0.0, 0.0) * (1.0 + e.decode_steps())).max(1e-9));
    let (mut f_lo, mut f_hi) = (-users, None::<f64>);
    let mut last_low = None;
    let mut best = None;
    let mut overloaded = false;
    let mut close = false;
    for _ in 0..40 {
        let mid = match f_hi {
            Some(fh) if fh > f_lo => {
                (lo + (hi - lo) * -f_lo / (fh - f_lo)).clamp(lo + 0.01 * (hi - lo), hi - 0.01 * (hi - lo))
            }
            _ => (lo + hi) / 2.0,
        };
        match e.at(mid) {
            Some(l) => {
                let v = excess(mid, &l);
                let low = v <= 0.0;
                if low {
                    (lo, f_lo) = (mid, v);
                    best = Some((mid, l));
                    close = -v <= 1e-3 * users;
                } else {
                    (hi, f_hi) = (mid, Some(v));
                    overloaded = false;
                }
                // The same end kept twice running: halve its value so the next step moves it.
                if last_low == Some(low) {
                    if low {
                        f_hi = f_hi.map(|f| f / 2.0);
                    } else {
                        f_lo /= 2.0;
                    }
                }
                last_low = Some(low);
            }
            None => {
                (hi, f_hi, last_low) = (mid, None, None);
                overloaded = true;
            }
        }
        if close || hi - lo <= 2e-3 * hi {
            break;
        }
    }
    // When the rate was capped by overload rather than by the users' own pace, the replica
    // cannot hold them: the rest wait for admission and the response time has no bound.
    best.filter(|(rate, l)| {
        (!overloaded || rate * (i.think_s + response(l)) >= users * 0.98) && l.batch <= e.max_batch()
    })
}

/// Requests measured per simulation while searching the replica count, and for the figures shown.
/// The two share seed and warm-up, so a search run is the first part of the shown run at its
/// count and is carried on rather than simulated again ([`Sim::widen`]). The search warms up as
/// long as the shown run (it warmed up 100 requests until 2026-12-07): Qwen2.5-72B's p99 first
/// token for 25 users a replica on H200s read 1.47 s after 100 requests of warm-up and 0.73 s
/// after 250, the first rounds' burst still clearing.
pub const SEARCH: Run = Run { requests: 300, warmup: 250, max_seqs: 0, seed: 0x5eed_cafe };
pub const SHOWN: Run = Run { requests: 1_000, ..SEARCH };

/// How closely the shown figures are read: the run whose figures are shown measures the search's
/// requests, then carries on [`MORE`] at a time until the 95% intervals of the p99 first token
/// and time per token (order statistics, [`super::simulate::Spread`]) each lie within ±0.5% of
/// them, and under a closed loop that of the rate too ([`read`]), or [`SHOWN`]'s requests are
/// measured. Requests alike (one prompt length, no queue) read exactly from the first 300;
/// anything random takes all 1,000. Not ±5%: those intervals take the requests as independent,
/// and a queue's are not — Llama 3.1 8B at 20 requests/s on three pairs of H200s reads its p99
/// time per token 25.9 ms [25.6, 26.2] after 300 requests, 27.3 [27.1, 27.9] after 500 and
/// 40.4 ms after 1,000.
pub const SETTLED: f64 = 0.005;
const MORE: u32 = 100;

/// Whether `o`'s figures under `load` are read within ±[`SETTLED`].
#[must_use]
pub fn settled(o: &Outcome, load: Load) -> bool {
    let p99s = [o.ttft, o.tpot].iter().all(|p| p.p99_high - p.p99_low <= 2.0 * SETTLED * p.p99);
    // A closed loop's rate is users / (think + mean response): as close as the mean response.
    let rate = match load {
        Load::Users { think_s, .. } => o.e2e.mean_half <= SETTLED * (think_s + o.e2e.mean),
        _ => true,
    };
    p99s && rate
}

/// vLLM V1's `max_num_seqs` when the user gives none: 1,024 on cards of 70 GiB or more other than
/// the A100, 256 elsewhere (`vllm/engine/arg_utils.py`, `_set_default_args`).
#[must_use]
pub fn default_max_seqs(g: &Gpu) -> u32 {
    let big = g.memory_gb.is_some_and(|gb| gb * 1e9 >= 70.0 * crate::domain::units::GIB);
    if big && !g.name.contains("A100") {
        1024
    } else {
        256
    }
}

/// The scenario's cap on running requests, or the card's vLLM default.
#[must_use]
pub fn max_seqs(s: &Scenario, g: &Gpu) -> u32 {
    if s.inference.max_seqs > 0 {
        s.inference.max_seqs
    } else {
        default_max_seqs(g)
    }
}

/// One replica of `n` under the scenario's load, simulated: the offered rate split evenly, or the
/// users (the busiest replica takes the rounded-up share). `None` when it falls behind an offered
/// rate (completes under 80% of it) or cannot hold a request.
pub fn replica(e: &Engine, s: &Scenario, g: &Gpu, n: u32, run: Run) -> Option<(f64, Latency, Outcome)> {
    let mut sim = start(e, s, g, n, run, None)?;
    read(&sim.advance(), sim_load(s, n))
}

/// The scenario's latency targets, as a run is judged against them.
fn targets(s: &Scenario) -> Targets {
    let i = &s.inference;
    Targets {
        ttft_p50_s: i.ttft_p50_s,
        ttft_p99_s: i.ttft_p99_s,
        tpot_p50_ms: i.tpot_p50_ms,
        tpot_p99_ms: i.tpot_p99_ms,
    }
}

/// The largest Poisson rate one replica `e` serves with the scenario's latency targets met, in
/// runs of `run` (the planner's question turned round: the replicas a load needs are about the
/// load over this rate; an MLPerf server run answers it for its own limits), to 1%: the largest
/// rate 1.01ᵏ requests/s (k whole) that meets them. Arrivals at rate r are the seed's draws scaled
/// by 1/r, so a higher rate is the same requests sooner and whether the targets are met changes
/// once. Bracketed from the rate the replica completes with 2,000 requests sent at once (an
/// offline benchmark), halved or doubled until the targets are met below and missed above, then
/// bisected. `None` when the replica cannot hold a request or meets the targets at no rate tried
/// (down to 1/64 of the offline rate).
#[must_use]
pub fn rate_at_targets(e: &Engine, s: &Scenario, g: &Gpu, run: Run) -> Option<f64> {
    const STEP: f64 = 1.01;
    let run = Run { max_seqs: max_seqs(s, g), ..run };
    let t = targets(s);
    let rate = |k: i32| STEP.powi(k);
    let meets = |k: i32| {
        let load = Load::Rate(rate(k));
        Sim::start(e, load, run, Some(t))
            .and_then(|mut sim| read(&sim.advance(), load))
            .is_some_and(|(_, l, _)| l.meets(s))
    };
    let sent = run.requests.min(2_000);
    let offline = simulate(e, Load::Bench { concurrency: sent, prompts: sent }, run)?.rate;
    // 70 steps of 1% are a factor of two.
    let k = (offline.ln() / STEP.ln()).round();
    if !k.is_finite() {
        return None;
    }
    let (mut lo, mut hi) = (k as i32 - 70, k as i32 + 70);
    let mut tries = 0;
    while !meets(lo) {
        tries += 1;
        if tries > 5 {
            return None;
        }
        (hi, lo) = (lo, lo - 70);
    }
    while meets(hi) {
        tries += 1;
        if tries > 12 {
            return Some(rate(hi));
        }
        (lo, hi) = (hi, hi + 70);
    }
    // meets(lo), not meets(hi): the first grid step above lo that misses, less one.
    let miss = smallest((hi - lo) as u32, &|d| !meets(lo + d as i32))?;
    Some(rate(lo + miss as i32 - 1))
}

/// The load on the busiest of `n` replicas: the offered rate split evenly, or the users (the
/// busiest replica takes the rounded-up share).
fn sim_load(s: &Scenario, n: u32) -> Load {
    let i = &s.inference;
    match i.rate_rps {
        Some(r) => Load::Rate(r / f64::from(n.max(1))),
        None => Load::Users { users: i.concurrent.max(1).div_ceil(n.max(1)), think_s: i.think_s },
    }
}

/// A run of one replica of `n`, nothing simulated yet.
fn start<'e>(e: &'e Engine, s: &Scenario, g: &Gpu, n: u32, run: Run, targets: Option<Targets>) -> Option<Sim<'e>> {
    Sim::start(e, sim_load(s, n), Run { max_seqs: max_seqs(s, g), ..run }, targets)
}

/// What a run under `load` reads: the rate it served, its latencies and the outcome; `None`
/// when it did not finish or fell behind an open load (completed under 80% of it).
fn read(o: &Outcome, load: Load) -> Option<(f64, Latency, Outcome)> {
    if !o.finished {
        return None;
    }
    if let Load::Rate(r) = load {
        // 300 Poisson arrivals measure the rate within ±6% (one σ); well below it, the queue grew.
        if o.rate < 0.8 * r {
            return None;
        }
    }
    let latency = Latency {
        ttft_p50_s: o.ttft.p50,
        ttft_p99_s: o.ttft.p99,
        tpot_p50_s: o.tpot.p50,
        tpot_p99_s: o.tpot.p99,
        tpot_mean_s: o.tpot.mean,
        batch: o.batch,
        prefill_load: o.prefill_busy,
    };
    // An open load is served at its rate. A closed loop's rate is read off its mean response,
    // users / (think + response) (Denning & Buzen's response-time law): the indirect estimator
    // Carson & Law (1980, "Conservation equations and variance reduction in queueing
    // simulations", Operations Research 28(3)) show varies less than completions counted over
    // the run, which the users' random think times and the run's two ends make noisy.
    let rate = match load {
        Load::Rate(r) => r,
        Load::Users { users, think_s } => f64::from(users) / (think_s + o.e2e.mean).max(1e-12),
        Load::Bench { .. } => o.rate,
    };
    Some((rate, latency, *o))
}

/// The rate a replica serves and its latencies, as a run read them.
type Read = (f64, Latency);

/// One replica shape's search for its count: the fewest replicas whose simulation meets the
/// targets, searched from the count the closed-form queue suggests. Each count is simulated once
/// (the searches ask for some twice) and the runs that finished are kept: the longer run whose
/// figures are shown carries the one at the count chosen on rather than simulating its first
/// requests again.
struct Search<'a> {
    e: &'a Engine,
    s: &'a Scenario,
    g: &'a Gpu,
    targets: Targets,
    /// (count, the rate and latencies read) of every run, the last read at each count.
    runs: RefCell<Vec<(u32, Option<Read>)>>,
    kept: RefCell<Vec<(u32, Sim<'a>)>>,
    /// Steps simulated by the search's runs (what reusing them saves).
    steps: std::cell::Cell<u64>,
    /// The count chosen, and whether it met the targets in the search (not the user's own count
    /// nor the fewest that keep up at all).
    n: u32,
    searched: bool,
    guess_n: u32,
    max_replicas: u32,
}

impl<'a> Search<'a> {
    /// The search of replica `e` from `guess_n`; `hopeful` when the closed form's plan met the
    /// targets (see [`found`]).
    fn new(e: &'a Engine, s: &'a Scenario, g: &'a Gpu, (guess_n, hopeful): (u32, bool)) -> Self {
        let mut search = Self::unsearched(e, s, g, guess_n);
        // The fewest replicas that meet the targets (a run stops once it misses them for
        // certain), else the fewest that keep up at all; the user's own card count as it is.
        let max = search.max_replicas;
        let ok = |n: u32| search.run(n, true).is_some_and(|(_, l)| l.meets(s));
        (search.n, search.searched) = if s.parallel.gpus > 0 {
            ((s.parallel.gpus / e.cards()).max(1), false)
        } else {
            match found(guess_n.clamp(1, max), max, hopeful, &ok) {
                Some(n) => (n, true),
                // One replica nearly always keeps up: try it before `max`.
                None => (found(1, max, true, &|n| search.run(n, false).is_some()).unwrap_or(max), false),
            }
        };
        search
    }

    /// The search of replica `e` before any run.
    fn unsearched(e: &'a Engine, s: &'a Scenario, g: &'a Gpu, guess_n: u32) -> Self {
        let users = if s.inference.rate_rps.is_some() { u32::MAX } else { s.inference.concurrent.max(1) };
        Search {
            e,
            s,
            g,
            targets: targets(s),
            runs: RefCell::default(),
            kept: RefCell::default(),
            steps: std::cell::Cell::new(0),
            n: 0,
            searched: false,
            guess_n,
            max_replicas: (MAX_CARDS / e.cards()).min(users).max(1),
        }
    }

    /// A search run of `n` replicas, `judged` against the targets or not. Judging decides only
    /// where a run stops, never its figures: a judged run that finished is the unjudged run,
    /// one stopped at the targets carries on unjudged ([`Sim::unjudged`]) rather than starting
    /// again, and an unjudged run answers a judged question (it meets the targets or not).
    fn run(&self, n: u32, judged: bool) -> Option<Read> {
        // A run stopped at the targets answers a judged question as it is, an unjudged one once
        // carried on; every other run answers both.
        let missed = self.kept.borrow().iter().position(|(k, sim)| *k == n && sim.missed());
        if judged || missed.is_none() {
            if let Some(&(_, r)) = self.runs.borrow().iter().find(|&&(k, _)| k == n) {
                return r;
            }
        }
        let sim = match missed {
            Some(at) => {
                let mut sim = self.kept.borrow_mut().swap_remove(at).1;
                sim.unjudged().then_some(sim)
            }
            _ => start(self.e, self.s, self.g, n, SEARCH, judged.then_some(self.targets)),
        };
        let r = sim.and_then(|mut sim| {
            let before = sim.steps();
            let o = sim.advance();
            self.steps.set(self.steps.get() + u64::from(sim.steps() - before));
            let r = read(&o, sim_load(self.s, n)).map(|(rate, l, _)| (rate, l));
            if r.is_some() || sim.missed() {
                self.kept.borrow_mut().push((n, sim));
            }
            r
        });
        let mut runs = self.runs.borrow_mut();
        runs.retain(|&(k, _)| k != n);
        runs.push((n, r));
        r
    }

    /// The search's figures at the count chosen: what shapes are ranked by.
    fn figures(&self) -> Option<Read> {
        self.run(self.n, self.searched)
    }

    /// Whether the search met the targets, the cards it needs and its p99 first-token latency:
    /// the fewer cards that meet the targets first.
    fn rank(&self) -> (bool, u32, f64) {
        let f = self.figures();
        (
            !f.is_some_and(|(_, l)| l.meets(self.s)),
            self.n * self.e.cards(),
            f.map_or(f64::INFINITY, |(_, l)| l.ttft_p99_s),
        )
    }

    /// The shown run of `n` replicas: the search's run carried on where one finished, until its
    /// p99s are [`settled`] or [`SHOWN`]'s requests are measured. A card that meets the targets
    /// at no count is shown at the fewest replicas that keep up, read from the search's
    /// requests alone: its figures say how far it is from the targets, and carrying those runs
    /// on to ±0.5% took a third of the catalog's serving plan (Qwen2.5-72B for 100 users: 22 of
    /// 50 cards, 11.8 of 34 ms natively) for precision nobody choosing a card reads.
    fn shown(&self, n: u32) -> Option<(f64, Latency, Outcome)> {
        let settle = self.searched || self.s.parallel.gpus > 0;
        let at = self.kept.borrow().iter().position(|(k, _)| *k == n);
        let carried = at.map(|at| self.kept.borrow_mut().swap_remove(at).1);
        let mut sim = match carried.and_then(|mut sim| sim.unjudged().then_some(sim)) {
            Some(sim) => sim,
            None => start(self.e, self.s, self.g, n, SEARCH, None)?,
        };
        let mut measured = SEARCH.requests;
        loop {
            let o = sim.advance();
            let load = sim_load(self.s, n);
            if !o.finished || !settle || settled(&o, load) || measured >= SHOWN.requests || !sim.widen(measured + MORE)
            {
                return read(&o, load);
            }
            measured += MORE;
        }
    }

    /// The plan at the count chosen, its figures those of the longer run. The rate the replica
    /// sustains is left for [`sustain`] (only the chosen shape's is shown); the rate each
    /// replica serves comes back beside the plan for it.
    fn plan(&self) -> Option<(Capacity, f64)> {
        let (e, s) = (self.e, self.s);
        // The longer run can land either side of a target the short one met: step up until it
        // meets too (a few replicas at most); a count that kept up in the short run but not the
        // long one steps up until it keeps up. The user's own card count stays.
        let (mut n, mut shown) = (self.n, self.shown(self.n));
        let misses = |shown: &Option<(f64, Latency, Outcome)>| match shown {
            None => true,
            Some((_, l, _)) => self.searched && !l.meets(s),
        };
        while s.parallel.gpus == 0 && n < self.max_replicas && misses(&shown) && n <= self.guess_n + 8 {
            match self.shown(n + 1) {
                Some(next) if next.1.meets(s) || shown.is_none() => (n, shown) = (n + 1, Some(next)),
                _ => break,
            }
        }
        let (rate, l, _) = shown?;
        // What the engine admits at once: whole requests in the cache, the sequence cap and the
        // token budget (vLLM caps max_num_seqs at max_num_batched_tokens), whichever is least.
        let concurrency = f64::from(full_requests(e, s, self.g)).min(e.chunk * e.groups);
        Some((planned(e, n, (rate, l), l.meets(s), concurrency), rate))
    }
}

/// The plan of `n` replicas of `e`, each serving `rate` with latencies `l` and admitting
/// `concurrency` requests at once (the sustained rate is left for [`sustain`]).
fn planned(e: &Engine, n: u32, (rate, l): Read, meets: bool, concurrency: f64) -> Capacity {
    let cards = n * e.cards();
    let tokens = rate * f64::from(n) * e.output;
    Capacity {
        tp: e.tp,
        ep: e.ep,
        replicas: n,
        cards,
        kv_tokens: e.kv_tokens,
        max_concurrency: concurrency,
        sustained_rps: 0.0,
        near_saturation: false,
        rate_rps: rate * f64::from(n),
        latency: l,
        tokens_s: tokens,
        tokens_s_gpu: tokens / f64::from(cards),
        tokens_s_user: per_user(l.tpot_p50_s),
        meets,
        tier: e.tier(),
    }
}

/// Whole requests replica `e`'s cache holds, within the sequence cap.
fn full_requests(e: &Engine, s: &Scenario, g: &Gpu) -> u32 {
    ((e.kv_tokens / (e.prompt + e.output).max(1.0)).floor() as u32).clamp(1, max_seqs(s, g))
}

/// `plan` of replica `e` with the rate the replica sustains, and whether the `rate` each of its
/// replicas serves is near it.
fn sustain(e: &Engine, s: &Scenario, g: &Gpu, plan: Capacity, rate: f64) -> Capacity {
    // Past some concurrency, prompts prefilled beside a full batch stall it more than the batch
    // gains (simulated: 207 users of Qwen2.5-72B on 4 H100s complete 2.8 requests/s, 103 users
    // 3.3): the loop runs half the cache's requests, at most 256 to bound its cost, so the
    // sustained rate is a lower bound of what the replica can carry.
    let users = (full_requests(e, s, g) / 2).clamp(1, 256);
    let run = Run { requests: 100, warmup: 0, max_seqs: max_seqs(s, g), ..SEARCH };
    let mut sustained =
        simulate(e, Load::Users { users, think_s: 0.0 }, run).filter(|o| o.finished).map_or(0.0, |o| o.rate);
    // A closed loop of the scenario's own users may carry more.
    if s.inference.rate_rps.is_none() {
        sustained = sustained.max(rate);
    }
    Capacity {
        sustained_rps: sustained,
        near_saturation: s.inference.rate_rps.is_some() && rate > 0.8 * sustained,
        ..plan
    }
}

/// The smallest n in 1..=max with `pred(n)` (a `pred` that stays true once true), searched from
/// a guess: down from it when it holds, galloping up when it does not. Unless `hopeful` (the
/// guess comes from a plan that met the targets), `max` is checked first: a card too slow for
/// the targets at any count is then one probe, not the guess and `max` nor a gallop (over the
/// catalog for Qwen2.5-72B and 100 users, 44 replica shapes cannot meet the default targets;
/// probing their guesses first took 8% of the plan's steps); a hopeful guess that misses is
/// usually a count or two short, which the gallop finds before `max` (the most replicas, each
/// with the least load, the longest run of the search).
fn found(guess: u32, max: u32, hopeful: bool, pred: &dyn Fn(u32) -> bool) -> Option<u32> {
    if !hopeful && guess < max && !pred(max) {
        return None;
    }
    if pred(guess) {
        if guess == 1 || !pred(guess - 1) {
            return Some(guess);
        }
        return smallest(guess - 1, pred);
    }
    if guess >= max {
        return None;
    }
    let mut lo = guess;
    let mut step = 1;
    loop {
        let hi = lo.saturating_add(step).min(max);
        if hi <= lo {
            return None;
        }
        if pred(hi) {
            return Some(lo + smallest(hi - lo, &|k| pred(lo + k))?);
        }
        lo = hi;
        step *= 2;
    }
}

/// `f` remembering its answer for each replica count (the searches ask for some counts twice).
fn memoized<'a>(f: impl Fn(u32) -> Option<(f64, Latency)> + 'a) -> impl Fn(u32) -> Option<(f64, Latency)> + 'a {
    let memo = std::cell::RefCell::new(Vec::<(u32, Option<(f64, Latency)>)>::new());
    move |n| {
        if let Some(&(_, r)) = memo.borrow().iter().find(|(k, _)| *k == n) {
            return r;
        }
        let r = f(n);
        memo.borrow_mut().push((n, r));
        r
    }
}

/// The closed-form plan (Engine::at): the starting guess of the simulated search.
fn closed_form_plan(e: &Engine, s: &Scenario) -> Option<Capacity> {
    // A closed loop of users needs no more replicas than users.
    let users = if s.inference.rate_rps.is_some() { u32::MAX } else { s.inference.concurrent.max(1) };
    let max_replicas = (MAX_CARDS / e.cards()).min(users);
    // Each replica count is solved once: the searches below ask for some of them twice.
    let rate_of = memoized(|n| replica_rate(e, s, n));
    let ok = |n: u32| rate_of(n).filter(|(_, l)| l.meets(s));
    let build =
        |n: u32, read: Read, meets: bool| planned(e, n, read, meets, e.kv_tokens / (e.prompt + e.output).max(1.0));
    // The user's own card count: that many replicas, whatever the targets say.
    if s.parallel.gpus > 0 {
        let n = (s.parallel.gpus / e.cards()).max(1);
        return replica_rate(e, s, n).map(|r| build(n, r, r.1.meets(s)));
    }
    if let Some(n) = smallest(max_replicas, &|n| ok(n).is_some()) {
        return ok(n).map(|r| build(n, r, true));
    }
    // Best effort: the fewest replicas that keep up at all.
    let n = smallest(max_replicas, &|n| rate_of(n).is_some())?;
    rate_of(n).map(|r| build(n, r, false))
}

/// The smallest n in 1..=max with `pred(n)`, for a `pred` that stays true once true.
fn smallest(max: u32, pred: &dyn Fn(u32) -> bool) -> Option<u32> {
    if max == 0 || !pred(max) {
        return None;
    }
    let (mut lo, mut hi) = (0, max); // pred(hi); lo = 0 is never tested
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// The serving plan of card `g`: the replica shape (the scenario's, or each tensor-parallel width
/// of [`TP_DEGREES`] the card's server holds; for MoE models also expert-parallel replicas of one,
/// two and four servers) and the replica count with the fewest cards that meet the targets;
/// `None` when the model does not fit or the card's figures are unknown.
#[must_use]
pub fn capacity(m: &ModelSpec, s: &Scenario, g: &Gpu) -> Option<Capacity> {
    let i = &s.inference;
    let degrees: Vec<u32> = if i.tp > 0 {
        vec![i.tp]
    } else if !s.parallel.auto {
        vec![s.parallel.tp.max(1)]
    } else {
        widths(m, s).collect()
    };
    let server = s.parallel.gpus_per_server.max(1);
    let experts = m.moe.as_ref().map_or(0, |x| x.experts);
    let spans: Vec<u32> = if experts == 0 {
        vec![0]
    } else if i.ep > 0 || !s.parallel.auto {
        vec![i.ep]
    } else {
        [0, server, 2 * server, 4 * server].into_iter().filter(|&e| e <= experts).collect()
    };
    let want = s.parallel.gpus;
    let key = |c: &Capacity| (!c.meets, c.cards, c.latency.ttft_p99_s);
    let mut shapes: Vec<(u32, u32)> = Vec::new();
    for &t in &degrees {
        for &e in &spans {
            let shape = (t, e.max(t));
            if !shapes.contains(&shape) && (want == 0 || (shape.1 <= want && want.is_multiple_of(shape.1))) {
                shapes.push(shape);
            }
        }
    }
    // Narrow replicas first: once a plan meets the targets, a wider replica (at least as many
    // cards in one replica as the plan has in all) cannot need fewer cards, and is not tried.
    super::super::units::sort_stable_by(&mut shapes, |a, b| (a.1, a.0).cmp(&(b.1, b.0)));
    // The closed-form queue ranks the shapes cheaply; the simulation then sizes the best, and the
    // second when the best misses the targets (the closed form can misrank near a target).
    let better = |c: &Capacity, b: &Capacity| ahead(key(c), key(b));
    let mut ranked: Vec<(Capacity, Engine)> = Vec::new();
    for (t, e) in shapes {
        if ranked.iter().any(|(b, _)| b.meets && e > b.cards) {
            break;
        }
        let Some(engine) = Engine::new(m, s, g, t, e) else { continue };
        let c = closed_form_plan(&engine, s).unwrap_or_else(|| Capacity {
            tp: t,
            ep: e,
            cards: u32::MAX,
            ..Capacity::default()
        });
        let at = ranked.iter().position(|(b, _)| better(&c, b)).unwrap_or(ranked.len());
        ranked.insert(at, (c, engine));
    }
    // The searches rank the shapes they size (the fewest cards that meet the targets); the
    // longer run is taken for the best, or the next when the best's cannot keep up at all.
    let mut searched: Vec<Search> = Vec::new();
    for (guess, engine) in ranked.iter().take(2) {
        // Once a search meets the targets the next shape is not tried. Trying it when its closed
        // form needs fewer cards finds cheaper plans the closed form misranked (Llama 3.1 8B at
        // 20 requests/s on H20s: 4 × 7 cards, not 2 × 17) but searched ~20% more steps over the
        // catalog, past the 50 ms budget (docs/research/2026-12-07-session43.md).
        if searched.first().is_some_and(|b| !b.rank().0) {
            break;
        }
        let search = Search::new(engine, s, g, (guess.replicas, guess.meets));
        let rank = search.rank();
        let at = searched.iter().position(|b| ahead(rank, b.rank()));
        searched.insert(at.unwrap_or(searched.len()), search);
    }
    // Only the chosen shape's sustained rate is simulated (a closed loop of up to 256 users).
    searched.iter().find_map(|search| search.plan().map(|(c, rate)| sustain(search.e, s, g, c, rate)))
}

/// Whether a plan ranked (misses the targets, cards, p99 first-token latency) comes before
/// another: the fewest cards that meet the targets, then the quickest first token.
fn ahead(a: (bool, u32, f64), b: (bool, u32, f64)) -> bool {
    a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2)).is_lt()
}

/// The tensor-parallel widths a replica may use: [`TP_DEGREES`] that fit in one server and
/// divide the attention heads.
fn widths<'a>(m: &'a ModelSpec, s: &Scenario) -> impl Iterator<Item = u32> + 'a {
    let per_server = s.parallel.gpus_per_server.max(1);
    TP_DEGREES.into_iter().filter(move |&t| t <= per_server && m.heads.is_multiple_of(t))
}

/// The trade-off curve ([`tradeoff`]) of every width a replica of `g` may use.
#[must_use]
pub fn tradeoffs(m: &ModelSpec, s: &Scenario, g: &Gpu) -> super::Curves {
    widths(m, s).filter_map(|t| Engine::new(m, s, g, t, t).map(|e| (t, tradeoff(&e)))).collect()
}

/// The throughput/latency trade-off of one replica, decoding only: (output tokens/s one user
/// sees, output tokens/s per card) at batch 1, 2, 4, … up to what the KV cache holds.
#[must_use]
pub fn tradeoff(e: &Engine) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut b = 1.0;
    while b <= e.max_batch().max(1.0) {
        let t = e.step(b, 0.0);
        out.push((1.0 / t, b / t / f64::from(e.cards())));
        b *= 2.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{found, replica, replica_rate, Engine, Search, SEARCH};
    use crate::domain::scenario::{Scenario, Task};
    use crate::domain::Catalog;

    fn engine(s: &Scenario) -> Engine {
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
        Engine::new(&m, s, &g, 1, 1).unwrap_or_else(|| panic!("fits"))
    }

    /// The closed form that seeds the replica search: a closed loop of users returns at the rate
    /// where each replica's users = rate × (think time + response time) (Little's law), found
    /// to the solver's 0.2%, for one to four replicas, with and without think time; an offered
    /// rate is split over the replicas as given.
    #[test]
    fn the_closed_loop_rate_keeps_littles_law() {
        let mut s = Scenario { task: Task::Inference, model: "qwen2.5-7b".into(), ..Scenario::default() };
        s.inference.concurrent = 40;
        for think in [0.0, 5.0] {
            s.inference.think_s = think;
            let e = engine(&s);
            for n in 1..=4 {
                let (rate, l) = replica_rate(&e, &s, n).unwrap_or_else(|| panic!("{n} replicas keep up"));
                let users = 40.0 / f64::from(n);
                let held = rate * (think + l.ttft_p50_s + e.output * l.tpot_mean_s);
                assert!((held / users - 1.0).abs() < 3e-3, "think {think}, {n} replicas: {held} of {users} users");
            }
        }
        // Far more users than one replica's cache holds: it cannot keep them, and says so.
        s.inference.think_s = 0.0;
        s.inference.concurrent = 100_000;
        let e = engine(&s);
        assert!(replica_rate(&e, &s, 1).is_none(), "100,000 users on one H100");
        s.inference.rate_rps = Some(6.0);
        let e = engine(&s);
        let (rate, l) = replica_rate(&e, &s, 3).unwrap_or_else(|| panic!("keeps up"));
        assert!((rate - 2.0).abs() < 1e-12);
        assert_eq!(Some(l), e.at(2.0));
    }

    /// `found` gives the smallest count that holds for every guess, hopeful or not (a predicate
    /// that stays true once true); unless hopeful, a count that never holds costs one probe,
    /// of `max`, and a hopeful guess that holds never probes `max`.
    #[test]
    fn found_is_the_smallest_count_and_a_hopeless_search_one_probe() {
        let max = 20;
        for t in 1..=max + 1 {
            for guess in 1..=max {
                for hopeful in [false, true] {
                    let probes = std::cell::RefCell::new(Vec::new());
                    let pred = |n: u32| {
                        probes.borrow_mut().push(n);
                        n >= t
                    };
                    let got = found(guess, max, hopeful, &pred);
                    assert_eq!(got, (t <= max).then_some(t), "threshold {t}, guess {guess}, hopeful {hopeful}");
                    let probes = probes.into_inner();
                    if t > max && !hopeful {
                        assert_eq!(probes, [max], "guess {guess}");
                    }
                    if hopeful && guess >= t && guess < max {
                        assert!(!probes.contains(&max), "threshold {t}, guess {guess}: {probes:?}");
                    }
                }
            }
        }
    }

    /// Judging decides only where a search run stops, so each count is simulated once: a count
    /// judged short and then asked for unjudged carries its run on (no more steps than one
    /// unjudged run, the same figures as a fresh one), a run that finished answers both
    /// questions, and asking again, after other counts, simulates nothing.
    #[test]
    fn each_count_is_simulated_once_judged_or_not() {
        let mut s = Scenario { task: Task::Inference, model: "qwen2.5-7b".into(), ..Scenario::default() };
        s.inference.concurrent = 40;
        let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
        let fresh = |s: &Scenario, n: u32| {
            let e = engine(s);
            let one = Search::unsearched(&e, s, &g, 1);
            let r = one.run(n, false);
            assert_eq!(r, replica(&e, s, &g, n, SEARCH).map(|(rate, l, _)| (rate, l)));
            (r, one.steps.get())
        };
        // Unreachable: a judged run stops early; loose: it runs to the end.
        for (tpot_ms, stops) in [(0.1, true), (1e6, false)] {
            s.inference.tpot_p50_ms = tpot_ms;
            let e = engine(&s);
            let (alone, cost) = fresh(&s, 2);
            assert!(alone.is_some() && cost > 0);
            let search = Search::unsearched(&e, &s, &g, 1);
            let judged = search.run(2, true);
            let first = search.steps.get();
            assert_eq!(search.run(2, true), judged);
            assert_eq!(search.steps.get(), first, "judged twice");
            assert_eq!(judged.is_none(), stops);
            assert_eq!(first < cost, stops, "{first} of {cost} steps");
            assert_eq!(search.run(2, false), alone);
            assert_eq!(search.steps.get(), cost, "judged, then unjudged");
            let _ = search.run(3, true);
            // Another count's stopped run is not this one's.
            assert_eq!(search.run(1, false), fresh(&s, 1).0);
            let after = search.steps.get();
            assert_eq!((search.run(2, true), search.run(2, false)), (alone, alone));
            assert_eq!(search.steps.get(), after, "asked again");
            // Unjudged first: the judged question costs nothing more.
            let other = Search::unsearched(&e, &s, &g, 1);
            assert_eq!(other.run(2, false), alone);
            assert_eq!(other.run(2, true), alone);
            assert_eq!(other.steps.get(), cost, "unjudged, then judged");
        }
    }
}
