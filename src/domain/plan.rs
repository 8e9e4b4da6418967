//! The first stage of a report: for one card, does the workload fit, on how many cards and which
//! layout (tensor, pipeline, data, expert, context parallel; ZeRO; recompute), how long it takes
//! and what renting it costs.

use super::catalog::{Catalog, Gpu};
use super::compute::{self, Throughput};
use super::memory::{self, Layout, MemoryBreakdown};
use super::model::ModelSpec;
use super::pricing;
use super::scenario::{Recompute, Scenario, Task};
use super::units::GIB;

use super::verdict::CardPlan;

/// Whether the scenario's card filter keeps `g`.
#[must_use]
pub fn selected(s: &Scenario, g: &Gpu) -> bool {
    let f = &s.cards;
    (f.only.is_empty() || f.only.contains(&g.id))
        && (f.segments.is_empty() || f.segments.contains(&g.segment))
        && (f.vendors.is_empty() || f.vendors.contains(&g.vendor))
        && g.memory_gb.unwrap_or(0.0) >= f.min_memory_gb
        && match f.interconnect.as_str() {
            "fast" => g.interconnect.is_fast(),
            "pcie" => !g.interconnect.is_fast(),
            _ => true,
        }
}

/// Memory totals already sized in one report. Memory does not depend on the card, so the
/// catalog's cards share one table instead of each sizing the same layouts again (the layout
/// search was two thirds of a training plan's time). An open-addressing table: a few lines,
/// where a `BTreeMap` cost 1.4 KB of wasm and a sorted `Vec` was slower than no table for a
/// 405B model's thousands of layouts.
pub struct Totals {
    keep: bool,
    /// The slots and how many are used.
    table: std::cell::RefCell<(Vec<Slot>, usize)>,
}

/// No layout packs to this: the third word holds at most 50 bits.
const EMPTY: [u64; 3] = [u64::MAX; 3];

/// A packed layout and its memory total.
type Slot = ([u64; 3], f64);

impl Default for Totals {
    fn default() -> Self {
        Self { keep: true, table: std::cell::RefCell::new((vec![(EMPTY, 0.0); 1024], 0)) }
    }
}

impl Totals {
    /// A table that keeps nothing: every layout sized afresh (the reference the tests hold the
    /// shared table to).
    #[must_use]
    pub fn unkept() -> Self {
        Self { keep: false, table: std::cell::RefCell::default() }
    }

    /// How many layouts the table holds.
    #[must_use]
    pub fn kept(&self) -> usize {
        self.table.borrow().1
    }

    /// The memory total of `l` (bytes per card, overhead in), from the table when it has it.
    #[must_use]
    pub fn total(&self, m: &ModelSpec, s: &Scenario, l: &Layout) -> f64 {
        if !self.keep {
            return memory_for(m, s, l).total;
        }
        // Every field, losslessly.
        let key = [
            u64::from(l.tp) | u64::from(l.pp) << 32,
            u64::from(l.dp) | u64::from(l.ep) << 32,
            u64::from(l.cp) | u64::from(l.zero) << 32 | (l.recompute as u64) << 40 | (l.offload as u64) << 48,
        ];
        let mut table = self.table.borrow_mut();
        let (slots, used) = &mut *table;
        let i = probe(slots, &key);
        // The probe stops at the key or at an empty slot.
        if filled(&slots[i].0) {
            return slots[i].1;
        }
        let t = memory_for(m, s, l).total;
        slots[i] = (key, t);
        *used += 1;
        // Keep the table at most half full: double it and re-place every entry.
        if *used * 2 > slots.len() {
            let old = std::mem::replace(slots, vec![(EMPTY, 0.0); slots.len() * 2]);
            for e in old.into_iter().filter(|e| filled(&e.0)) {
                let j = probe(slots, &e.0);
                slots[j] = e;
            }
        }
        t
    }
}

/// The slot holding `key`, or the empty slot where it goes (linear probing; the length is a
/// power of two and never full).
fn probe(slots: &[Slot], key: &[u64; 3]) -> usize {
    let mask = slots.len() - 1;
    let h = (key[0] ^ key[1].rotate_left(21) ^ key[2].rotate_left(42)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut i = (h >> 40) as usize & mask;
    // Word by word, the most varied (dp) first: comparing whole arrays calls `memcmp`, which was
    // a fifth of a plan's time (and still 9% behind a first-word check).
    let same = |k: &[u64; 3]| k[1] == key[1] && k[0] == key[0] && k[2] == key[2];
    while filled(&slots[i].0) && !same(&slots[i].0) {
        i = (i + 1) & mask;
    }
    i
}

/// Whether a slot's key is a layout's: the third word is [`EMPTY`]'s only in an empty slot.
fn filled(key: &[u64; 3]) -> bool {
    key[2] != EMPTY[2]
}

/// Memory of the scenario's task under a layout.
#[must_use]
pub fn memory_for(m: &ModelSpec, s: &Scenario, layout: &Layout) -> MemoryBreakdown {
    if s.task.is_training() {
        memory::training(m, s, layout)
    } else {
        memory::inference(m, s, layout)
    }
}

/// Largest tensor-parallel degree a card allows: its NVLink domain for training; up to 8 over
/// PCIe for serving (common with vLLM, flagged as a warning).
/// Tensor-parallel degrees a card allows for a model: 1, 2, 4, 8 within `max_tp`, dividing the heads.
#[must_use]
pub fn tensor_degrees(m: &ModelSpec, g: &Gpu, task: Task) -> Vec<u32> {
    [1, 2, 4, 8].into_iter().filter(|&t| t <= max_tp(g, task) && m.heads.is_multiple_of(t)).collect()
}

fn max_tp(g: &Gpu, task: Task) -> u32 {
    if task.is_training() {
        g.nvlink_domain().min(8)
    } else {
        8
    }
}

fn candidates(m: &ModelSpec, s: &Scenario, g: &Gpu) -> Vec<Layout> {
    let p = &s.parallel;
    if !p.auto {
        let (ep, cp) = (p.ep.max(1), p.cp.max(1));
        return vec![Layout {
            tp: p.tp,
            pp: p.pp,
            dp: 1,
            zero: p.zero,
            recompute: p.recompute,
            offload: p.offload,
            ep,
            cp,
        }];
    }
    let tps = tensor_degrees(m, g, s.task);
    let pps: Vec<u32> = [1, 2, 4, 8, 16, 32, 64].into_iter().filter(|&q| q <= m.layers).collect();
    let (zeros, recomputes): (&[u8], &[Recompute]) = if s.task.is_training() {
        (&[0, 1, 2, 3], &[Recompute::None, Recompute::Selective, Recompute::Full])
    } else {
        (&[0], &[Recompute::None])
    };
    let eps = expert_degrees(m, s.task);
    let cps = context_degrees(s);
    let mut out = Vec::with_capacity(tps.len() * pps.len() * zeros.len() * recomputes.len() * eps.len() * cps.len());
    for &tp in &tps {
        for &pp in &pps {
            for &zero in zeros {
                for &recompute in recomputes {
                    for &ep in &eps {
                        for &cp in &cps {
                            out.push(Layout { tp, pp, dp: 1, zero, recompute, offload: p.offload, ep, cp });
                        }
                    }
                }
            }
        }
    }
    out
}

/// Expert-parallel degrees for training a MoE model: powers of two dividing the routed experts
/// (up to 64, DeepSeek-V3's degree); 1 for dense models and for serving.
#[must_use]
pub fn expert_degrees(m: &ModelSpec, task: Task) -> Vec<u32> {
    match (&m.moe, task.is_training()) {
        (Some(e), true) => [1, 2, 4, 8, 16, 32, 64].into_iter().filter(|&d| e.experts.is_multiple_of(d)).collect(),
        _ => vec![1],
    }
}

/// Context-parallel degrees: only for sequences of 16k tokens and more, where one card's
/// activations for a whole sequence become the limit (Llama 3 used CP 16 at 128k).
#[must_use]
pub fn context_degrees(s: &Scenario) -> Vec<u32> {
    if s.task.is_training() && s.training.seq_len >= 16_384 {
        [1, 2, 4, 8, 16].into_iter().filter(|&c| s.training.seq_len.is_multiple_of(2 * c)).collect()
    } else {
        vec![1]
    }
}

/// Data-parallel degree limit: each rank needs at least one micro-batch per step.
fn max_dp(s: &Scenario) -> u32 {
    if s.task.is_training() {
        (s.training.global_batch / s.training.micro_batch.max(1)).max(1)
    } else {
        4096
    }
}

/// Smallest dp (≤ `limit`, a multiple of the layout's `ep`) at which `layout` fits under `cap`
/// bytes, using that memory only falls as dp grows (serving: dp 1 or nothing).
#[must_use]
pub fn min_dp(m: &ModelSpec, s: &Scenario, layout: Layout, cap: f64, limit: u32, sized: &Totals) -> Option<u32> {
    let ep = layout.ep.max(1);
    let at = |k: u32| sized.total(m, s, &Layout { dp: k * ep, ..layout }) <= cap;
    let kmax = limit / ep;
    if kmax == 0 {
        return None;
    }
    if at(1) {
        return Some(ep);
    }
    if !s.task.is_training() || !at(kmax) {
        return None;
    }
    // Gallop up from 1 to bracket the answer (most plans need a few ranks, not `kmax`), then
    // bisect: at(lo) false, at(hi) true.
    let (mut lo, mut hi) = (1u32, 2u32.min(kmax));
    while hi < kmax && !at(hi) {
        lo = hi;
        hi = hi.saturating_mul(2).min(kmax);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if at(mid) {
            hi = mid
        } else {
            lo = mid
        }
    }
    Some(hi * ep)
}

/// The card count a buyer can order for `needed` cards: 1, 2, 4 or 8 cards in one machine (a
/// workstation or a server is sold with a power-of-two count), else whole servers of
/// `per_server` cards. A server of 10 holds 9 as 10.
#[must_use]
pub fn orderable(needed: u32, per_server: u32) -> u32 {
    let per_server = per_server.max(1);
    if needed <= per_server {
        needed.max(1).next_power_of_two().min(per_server)
    } else {
        needed.div_ceil(per_server) * per_server
    }
}

/// The least data-parallel width ≥ `dp` (a multiple of the layout's `ep`, at most `limit`) whose
/// card count is orderable; `dp` itself when no such width exists (e.g. a pipeline of 3 stages
/// never fills 8-card servers evenly): the count is then what the layout needs.
fn orderable_dp(s: &Scenario, layout: &Layout, dp: u32, limit: u32) -> u32 {
    let shards = (layout.tp * layout.pp * layout.cp.max(1)).max(1);
    let ep = layout.ep.max(1);
    let per_server = s.parallel.gpus_per_server.max(1);
    let mut n = orderable(dp * shards, per_server);
    // A few orderable counts up: past that the rounding would cost more than it tidies.
    for _ in 0..4 {
        let d = n / shards;
        if n.is_multiple_of(shards) && d.is_multiple_of(ep) && d >= dp {
            return if d <= limit || !s.task.is_training() { d } else { dp };
        }
        n = orderable(n + 1, per_server);
    }
    dp
}

/// Estimated time of a layout relative to others (for choosing among fitting layouts): training
/// by the predicted MFU (bubble, recompute, communication, offload); serving by its old proxy.
/// `shares`: the card's kernel shares for a training job, looked up once per card
/// (compute::kernel_shares); `None` when serving.
fn speed_cost(m: &ModelSpec, s: &Scenario, g: &Gpu, l: &Layout, shares: Option<compute::KernelShares>) -> f64 {
    if let Some(k) = shares {
        if let Some(u) = compute::mfu_with(m, s, g, l, s.training.micro_batch, k) {
            return 1.0 / u.predicted.max(1e-12);
        }
    }
    let micro =
        f64::from(s.training.global_batch) / (f64::from(l.dp.max(1)) * f64::from(s.training.micro_batch.max(1)));
    let comm = 1.0 + 0.02 * f64::from(l.tp - 1) + 0.01 * f64::from(l.zero);
    compute::layout_recompute_factor(m, s, l)
        * compute::pipeline_factor(l.pp, micro, 1)
        * comm
        * compute::offload_factor(l.offload)
}

/// Whether a layout fits, the layout, and the fewest cards it needed before its count was
/// rounded to an orderable one.
fn choose(m: &ModelSpec, s: &Scenario, g: &Gpu, cap: f64, sized: &Totals) -> (bool, Layout, u32) {
    let cands = candidates(m, s, g);
    let limit = max_dp(s);
    let want = s.parallel.gpus;
    let shares = s.task.is_training().then(|| compute::kernel_shares(m, s, g));
    let mut best: Option<(u32, f64, Layout, u32)> = None;
    for c in &cands {
        let shards = c.tp * c.pp * c.cp.max(1);
        // Fewest cards first: a layout that cannot beat the best count is not worth sizing.
        let fewest = best.as_ref().map_or(u32::MAX, |(n, _, _, _)| *n);
        if want == 0 && shards * c.ep.max(1) > fewest {
            continue;
        }
        let (layout, needed) = if want > 0 {
            let dp = want / shards.max(1);
            if !want.is_multiple_of(shards)
                || !(Layout { dp, ..*c }).ep_fits()
                || dp > limit.max(1) && s.task.is_training()
            {
                continue;
            }
            let l = Layout { dp, ..*c };
            if sized.total(m, s, &l) > cap {
                continue;
            }
            (l, l.gpus())
        } else {
            // A width past the best count cannot win: the search stops there (the count it would
            // find beyond is rounded up, never down, so nothing it skips could have been chosen).
            let within = if fewest == u32::MAX { limit } else { limit.min(fewest / shards.max(1)) };
            match min_dp(m, s, *c, cap, within, sized) {
                Some(dp) => (Layout { dp: orderable_dp(s, c, dp, limit), ..*c }, Layout { dp, ..*c }.gpus()),
                None => continue,
            }
        };
        if layout.gpus() > fewest {
            continue;
        }
        let key = (layout.gpus(), speed_cost(m, s, g, &layout, shares));
        let better = best.as_ref().is_none_or(|(n, t, _, _)| key.0 < *n || (key.0 == *n && key.1 < *t));
        if better {
            best = Some((key.0, key.1, layout, needed));
        }
    }
    if let Some((_, _, l, needed)) = best {
        return (true, l, needed);
    }
    // Nothing fits: show the layout with the least memory at the user's (or one server's) count.
    let n = if want > 0 { want } else { 8 };
    let fallback = cands
        .iter()
        .filter(|c| n.is_multiple_of(c.tp * c.pp * c.cp) && (n / (c.tp * c.pp * c.cp)).is_multiple_of(c.ep))
        .map(|c| Layout { dp: n / (c.tp * c.pp * c.cp), ..*c })
        .min_by(|a, b| sized.total(m, s, a).total_cmp(&sized.total(m, s, b)))
        .unwrap_or_else(Layout::single);
    (false, fallback, fallback.gpus())
}

/// One card's fit, layout, time and rent; the report adds the owned cost and the warnings.
/// `sized` is shared by the cards of one report.
#[must_use]
pub fn verdict(m: &ModelSpec, s: &Scenario, g: &Gpu, catalog: &Catalog, sized: &Totals) -> Option<CardPlan> {
    let cap = g.memory_gb? * GIB;
    // A plan fits within the card's memory less the stated headroom.
    let usable = s.parallel.usable(cap);
    let (mut fits, mut layout, mut needed) = choose(m, s, g, usable, sized);
    // Serving: the layout is the replicas the load and the latency targets need.
    let serving = if s.task.is_training() { None } else { super::serving::entry().and_then(|e| (e.capacity)(m, s, g)) };
    if let Some(c) = &serving {
        fits = true;
        let groups = (c.ep / c.tp.max(1)).max(1);
        layout = Layout { tp: c.tp, pp: 1, dp: c.replicas * groups, ep: groups, ..Layout::single() };
        needed = layout.gpus();
    }
    let memory = memory_for(m, s, &layout);
    let gpus = layout.gpus();
    let utilisation = if s.task.is_training() { compute::mfu(m, s, g, &layout) } else { None };
    let mfu = utilisation.as_ref().map_or(0.0, compute::Mfu::used);
    let price = pricing::quote(s, catalog, &g.id, "rent_hourly");
    let rent_hourly = price.as_ref().map(|q| q.amount);
    let (mut hours, mut throughput, mut cost) = (None, None, None);
    if s.task.is_training() {
        hours = fits.then(|| compute::training_hours(m, s, g, &layout)).flatten();
        cost = hours.zip(rent_hourly).map(|(h, r)| h * f64::from(gpus) * r);
    } else if let Some(c) = &serving {
        throughput = Some(Throughput {
            prefill_tokens_s: c.rate_rps * f64::from(s.inference.context),
            time_to_first_token_s: c.latency.ttft_p50_s,
            decode_tokens_s: c.tokens_s,
            per_request_tokens_s: c.tokens_s_user,
        });
        cost = rent_hourly.filter(|_| c.tokens_s > 0.0).map(|r| r * f64::from(gpus) / (c.tokens_s * 3600.0) * 1e6);
    }
    let needs_fabric = layout.tp > 1;
    let tier = s.task.is_training().then(|| super::tier::of(s, g, catalog));
    let v = CardPlan {
        gpu: g.id.clone(),
        name: g.name.clone(),
        fits,
        gpus,
        servers: gpus.div_ceil(s.parallel.gpus_per_server.max(1)),
        needed_gpus: needed.min(gpus),
        layout,
        memory,
        capacity: cap,
        hours,
        gpu_hours: hours.map(|h| h * f64::from(gpus)),
        mfu,
        utilisation,
        throughput,
        rent_hourly,
        price,
        cost,
        serving,
        vision: None,
        interconnect_needed: if needs_fabric { "nvlink".into() } else { "pcie".into() },
        tier: tier.clone(),
        hours_band: hours.zip(tier.as_ref()).map(|(h, t)| super::tier::band(h, super::tier::p90(t, &g.id))),
    };
    Some(v)
}
