//! Auto-plan: an exhaustive search over card × card count × data/tensor/pipeline degree × ZeRO
//! stage × recompute × micro-batch × offload for training. Memory is the engine's own accounting
//! (memory.rs), evaluated in closed form per configuration so the whole space fits in a frame.

use super::catalog::{Catalog, Gpu};
use super::compute;
use super::cost;
use super::error::PlanError;
use super::memory::{self, ActivationShape, Layout, Stage};
use super::model::ModelSpec;
use super::pricing;
use super::scenario::{Offload, Recompute, Scenario};
use super::units::GIB;
use serde::{Deserialize, Serialize};

/// One configuration that fits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub gpu: String,
    pub name: String,
    pub layout: Layout,
    pub micro_batch: u32,
    pub hours: f64,
    /// Renting the cards for the run, scenario currency.
    pub rent_cost: Option<f64>,
    /// Running it on owned cards at the ownership utilisation.
    pub own_cost: Option<f64>,
    /// Per-card memory, bytes, and the card's capacity.
    pub memory: f64,
    pub capacity: f64,
}

impl Candidate {
    /// Cost used for ranking: rent when known, else own.
    #[must_use]
    pub fn cost(&self) -> Option<f64> {
        self.rent_cost.or(self.own_cost)
    }
}

/// What the search found.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SearchReport {
    /// Configurations evaluated.
    pub searched: u64,
    /// Of those, the ones that fit in memory.
    pub fitting: u64,
    /// Of those, the ones that meet the deadline and the budget.
    pub feasible: u64,
    pub by_cost: Vec<Candidate>,
    pub by_time: Vec<Candidate>,
    /// Time-vs-cost Pareto front (no other plan is both faster and cheaper), by time.
    pub pareto: Vec<Candidate>,
    /// Each card's cheapest feasible plan (fastest when no price is known).
    pub per_card: Vec<Candidate>,
}

const TOP: usize = 15;

/// Plans a reader would call the same: one card, count and split, differing only in the ZeRO
/// stage or the micro-batch. The lists keep the better of such a pair, not both.
fn same_shape(a: &Candidate, b: &Candidate) -> bool {
    // The layouts first: the lists hold mostly the same card, so its id usually matches and
    // comparing it first cost a string compare per entry (a fifth of the search's time).
    Layout { zero: 0, ..a.layout } == Layout { zero: 0, ..b.layout } && a.gpu == b.gpu
}

fn keep_top(v: &mut Vec<Candidate>, c: &Candidate, key: impl Fn(&Candidate) -> f64) {
    // A full list whose last entry is no worse than `c` stays as it is: a same-shape entry ranks
    // at or above the last, so `c` would replace nothing and enter nowhere. Most candidates of a
    // search end here, before the scan for a same-shape entry.
    if v.len() >= TOP && v.last().is_some_and(|x| key(c) >= key(x)) {
        return;
    }
    if let Some(i) = v.iter().position(|x| same_shape(x, c)) {
        if key(c) >= key(&v[i]) {
            return;
        }
        v.remove(i);
    }
    if v.len() < TOP || key(c) < v.last().map_or(f64::INFINITY, &key) {
        let at = v.partition_point(|x| key(x) <= key(c));
        v.insert(at, c.clone());
        v.truncate(TOP);
    }
}

fn add_pareto(front: &mut Vec<Candidate>, c: &Candidate) {
    let Some(cc) = c.cost() else { return };
    if front.iter().any(|f| f.hours <= c.hours && f.cost().is_some_and(|fc| fc <= cc)) {
        return;
    }
    front.retain(|f| !(c.hours <= f.hours && f.cost().is_some_and(|fc| cc <= fc)));
    let at = front.partition_point(|f| f.hours < c.hours);
    front.insert(at, c.clone());
}

/// Whether a plan meets the deadline and the budget; if so it is counted and kept among the
/// cheapest, the fastest and the Pareto front.
fn keep_feasible(rep: &mut SearchReport, c: &Candidate, deadline_h: Option<f64>, budget: Option<f64>) -> bool {
    let ok = deadline_h.is_none_or(|d| c.hours <= d) && budget.is_none_or(|b| c.cost().is_some_and(|x| x <= b));
    if ok {
        rep.feasible += 1;
        keep_top(&mut rep.by_cost, c, |x| x.cost().unwrap_or(f64::INFINITY));
        keep_top(&mut rep.by_time, c, |x| x.hours);
        add_pareto(&mut rep.pareto, c);
    }
    ok
}

/// Each card's plan, cheapest first, then fastest.
fn sort_per_card(v: &mut Vec<Candidate>) {
    super::units::sort_stable_by(v, |a, b| {
        a.cost()
            .unwrap_or(f64::INFINITY)
            .total_cmp(&b.cost().unwrap_or(f64::INFINITY))
            .then(a.hours.total_cmp(&b.hours))
    });
}

/// a + b/dp from one stage's states at dp = 1 and dp = 2 (every state term is constant or ∝ 1/dp).
fn states_coeffs(m: &ModelSpec, s: &Scenario, l: Layout, stage: Stage) -> (f64, f64) {
    let sum = |dp: u32| {
        let b = memory::training_states(m, s, &Layout { dp, ..l }, stage);
        b.weights + b.gradients + b.optimizer + b.master_weights + b.buffers
    };
    // a + b/dp, read at dp = ep and 2·ep: the widths the search tries, where the experts are
    // never folded (memory::Layout::folds_experts would change the shares below that).
    let e = l.ep.max(1);
    let (s1, s2) = (sum(e), sum(2 * e));
    let b = 2.0 * f64::from(e) * (s1 - s2);
    (s1 - b / f64::from(e), b)
}

/// Both pipeline ends' state coefficients (the same twice without a pipeline).
fn stage_coeffs(m: &ModelSpec, s: &Scenario, l: Layout) -> [(f64, f64); 2] {
    match Stage::of(&l) {
        [only] => {
            let c = states_coeffs(m, s, l, *only);
            [c, c]
        }
        _ => [states_coeffs(m, s, l, Stage::First), states_coeffs(m, s, l, Stage::Last)],
    }
}

/// Activations = K · in-flight micro-batches + W.
fn act_coeffs(m: &ModelSpec, s: &Scenario, l: Layout, mb: u32) -> (f64, f64) {
    let x = ActivationShape::of_training(m, s, mb);
    let a = |n: f64| memory::model_activation_bytes(m, &x, &l, s.training.flash_attention, n);
    let (a1, a2) = (a(1.0), a(2.0));
    (a2 - a1, 2.0 * a1 - a2)
}

/// The sum of the worst stage: the first holds min(pp, micro-batches) in flight, the last one
/// micro-batch and the logits.
fn worst_stage(st: [(f64, f64); 2], dp: u32, k: f64, w: f64, in_flight: f64, logits: f64, pp: u32) -> f64 {
    let dp = f64::from(dp);
    let only_or_first = st[0].0 + st[0].1 / dp + k * in_flight + w;
    if pp <= 1 {
        return only_or_first + logits;
    }
    only_or_first.max(st[1].0 + st[1].1 / dp + k + w + logits)
}

/// Memory of one configuration by the closed form the search uses (equal to
/// `memory::training(..).total` for the same layout and micro-batch; tests/search.rs checks it).
#[must_use]
pub fn fast_total(m: &ModelSpec, s: &Scenario, l: Layout, mb: u32) -> f64 {
    let st = stage_coeffs(m, s, l);
    let (k, w) = act_coeffs(m, s, l, mb);
    let micro = f64::from(s.training.global_batch) / (f64::from(l.dp) * f64::from(mb));
    let in_flight = memory::Stage::First.in_flight_interleaved(l.pp, micro, s.parallel.virtual_stages);
    let logits = memory::loss_bytes(m, s, mb, l.tp * l.cp.max(1));
    memory::total_with_overhead(worst_stage(st, l.dp, k, w, in_flight, logits, l.pp), s)
}

/// BF16 dense peak of the H100 SXM (NVIDIA datasheet, 1,979 TFLOPS with sparsity / 2) and a
/// typical well-tuned MFU (Llama 3 405B: 38–43%, Dubey et al. 2024 Table 4): the reference rate
/// the automatic card limit counts a run's size with.
const LIMIT_TFLOPS: f64 = 989.4;
const LIMIT_MFU: f64 = 0.4;

/// The largest card count the auto-plan tries: the user's limit, else one from the task and
/// model, so that a 7B LoRA is not offered ×1,024. Twice the cards that would finish the run's
/// FLOPs within the deadline (a day when there is none) at [`LIMIT_TFLOPS`] × [`LIMIT_MFU`], or
/// eight times the 80 GB cards the unsplit model needs, whichever is more; a power of two from 8
/// to 16,384 (Llama 3 405B trained on 16,384 H100s).
#[must_use]
pub fn card_limit(s: &Scenario) -> u32 {
    if s.search.max_gpus > 0 {
        return s.search.max_gpus;
    }
    let Ok(m) = s.model_spec() else { return 1024 };
    if super::vision::model(&s.model).is_some() || !s.task.is_training() {
        return 1024;
    }
    let horizon_s = s.search.deadline_days.map_or(86_400.0, |d| (d * 86_400.0).min(86_400.0)).max(3_600.0);
    let by_time = compute::model_flops(m, s) / (LIMIT_TFLOPS * 1e12 * LIMIT_MFU * horizon_s) * 2.0;
    let by_memory = memory::training(m, s, &Layout::single()).total / (80.0 * GIB) * 8.0;
    let want = by_time.max(by_memory).clamp(8.0, 16_384.0);
    // `want` is in [8, 16384]: the cast cannot truncate.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let n = want.ceil() as u32;
    n.next_power_of_two()
}

struct CardCtx<'a> {
    g: &'a Gpu,
    cap: f64,
    peak: f64,
    /// The card's kernel shares (compute::kernel_shares), looked up once.
    shares: compute::KernelShares,
    hourly: Option<f64>,
    price: Option<f64>,
}

/// Searches every configuration for training the scenario's model.
///
/// # Errors
/// [`PlanError`] when the scenario is invalid or the task is inference (nothing to schedule).
pub fn search(s: &Scenario, catalog: &Catalog) -> Result<SearchReport, PlanError> {
    s.validate()?;
    if !s.task.is_training() {
        return Ok(SearchReport::default());
    }
    if let Some(v) = super::vision::model(&s.model) {
        let vision = VISION.get().ok_or(PlanError::NotLoaded(super::error::Engine::Vision))?;
        return Ok(vision(v, s, catalog));
    }
    let calibrated = super::calibrate::calibrated(s, catalog);
    let s: &Scenario = &calibrated;
    let m = s.model_spec()?;
    let flops = compute::model_flops(m, s);
    let deadline_h = s.search.deadline_days.map(|d| d * 24.0);
    let budget = s.search.budget;
    let mut rep = SearchReport::default();
    let cards: Vec<&Gpu> =
        catalog.gpus.iter().chain(s.custom_gpus.iter()).filter(|g| super::plan::selected(s, g)).collect();
    let mut per_card: Vec<Candidate> = Vec::new();
    for g in cards {
        let (Some(mem), Some(peak)) = (g.memory_gb, compute::peak_tflops(g, s.precision)) else { continue };
        let ctx = CardCtx {
            g,
            // Plans fit within the card's memory less the scenario's stated headroom.
            cap: s.parallel.usable(mem * GIB),
            peak,
            shares: compute::kernel_shares(m, s, g),
            hourly: pricing::rent_hourly(s, catalog, &g.id),
            price: cost::card_price(s, catalog, &g.id, s.ownership.gpu == g.id),
        };
        let mut best: Option<Candidate> = None;
        search_card(m, s, &ctx, flops, deadline_h, budget, &mut rep, &mut best);
        per_card.extend(best);
    }
    sort_per_card(&mut per_card);
    rep.per_card = per_card;
    Ok(rep)
}

#[allow(clippy::too_many_arguments)]
fn search_card(
    m: &ModelSpec,
    s: &Scenario,
    c: &CardCtx,
    flops: f64,
    deadline_h: Option<f64>,
    budget: Option<f64>,
    rep: &mut SearchReport,
    best: &mut Option<Candidate>,
) {
    let t = &s.training;
    let gb = t.global_batch;
    let limit = card_limit(s);
    let tps = super::plan::tensor_degrees(m, c.g, s.task);
    // Expert and context parallel degrees (1 and 1 for a dense model at a short sequence).
    let ep_cp: Vec<(u32, u32)> = super::plan::expert_degrees(m, s.task)
        .into_iter()
        .flat_map(|ep| super::plan::context_degrees(s).into_iter().map(move |cp| (ep, cp)))
        .collect();
    let mut own_rate: Vec<(u32, Option<f64>)> = Vec::new();
    for tp in tps {
        for pp in [1u32, 2, 4, 8, 16, 32].into_iter().filter(|&p| p == 1 || p * 2 <= m.layers) {
            for zero in 0u8..=3 {
                for (offload, &(ep, cp)) in
                    [Offload::None, Offload::Optimizer].into_iter().flat_map(|o| ep_cp.iter().map(move |x| (o, x)))
                {
                    let base = Layout { tp, pp, dp: 1, zero, recompute: Recompute::None, offload, ep, cp };
                    let st = stage_coeffs(m, s, base);
                    for mb in [1u32, 2, 4, 8].into_iter().filter(|&b| b <= gb) {
                        let logits = memory::loss_bytes(m, s, mb, tp * cp);
                        for recompute in [Recompute::None, Recompute::Selective, Recompute::Full] {
                            let l = Layout { recompute, ..base };
                            let (k, w) = act_coeffs(m, s, l, mb);
                            let mut dp = ep;
                            while tp * pp * dp * cp <= limit && dp * mb <= gb {
                                rep.searched += 1;
                                let micro = f64::from(gb) / (f64::from(dp) * f64::from(mb));
                                let in_flight =
                                    memory::Stage::First.in_flight_interleaved(pp, micro, s.parallel.virtual_stages);
                                let total =
                                    memory::total_with_overhead(worst_stage(st, dp, k, w, in_flight, logits, pp), s);
                                if total <= c.cap {
                                    rep.fitting += 1;
                                    let n = tp * pp * dp * cp;
                                    let layout = Layout { dp, ..l };
                                    let hours = compute::mfu_with(m, s, c.g, &layout, mb, c.shares)
                                        .map_or(f64::INFINITY, |u| {
                                            compute::hours_for(flops, n, c.peak, u.used(), s.efficiency.goodput)
                                        });
                                    let own = own_per_hour(s, c, n, &mut own_rate);
                                    let cand = Candidate {
                                        gpu: c.g.id.clone(),
                                        name: c.g.name.clone(),
                                        layout: Layout { dp, ..l },
                                        micro_batch: mb,
                                        hours,
                                        rent_cost: c.hourly.map(|r| r * hours * f64::from(n)),
                                        own_cost: own.map(|r| r * hours * f64::from(n)),
                                        memory: total,
                                        capacity: c.g.memory_gb.unwrap_or(0.0) * GIB,
                                    };
                                    if keep_feasible(rep, &cand, deadline_h, budget) {
                                        let better = best.as_ref().is_none_or(|b| {
                                            let (cb, cc) = (
                                                b.cost().unwrap_or(f64::INFINITY),
                                                cand.cost().unwrap_or(f64::INFINITY),
                                            );
                                            cc.total_cmp(&cb).then(cand.hours.total_cmp(&b.hours)).is_lt()
                                        });
                                        if better {
                                            *best = Some(cand);
                                        }
                                    }
                                }
                                dp *= 2;
                            }
                        }
                    }
                }
            }
        }
    }
}

fn own_per_hour(s: &Scenario, c: &CardCtx, n: u32, cache: &mut Vec<(u32, Option<f64>)>) -> Option<f64> {
    if let Some((_, v)) = cache.iter().find(|(k, _)| *k == n) {
        return *v;
    }
    let v = c.price.map(|p| cost::own_costs(s, c.g, n, p).per_gpu_hour(s.ownership.utilisation));
    cache.push((n, v));
    v
}

/// A vision job's auto-plan ([`search_vision`]), an entry point of the vision engine
/// ([`super::error::Engine`]).
pub type VisionSearch = fn(&super::vision::VisionModel, &Scenario, &Catalog) -> SearchReport;

static VISION: super::hook::Hook<VisionSearch> = super::hook::Hook::new(search_vision);

/// Hands the downloaded vision engine's auto-plan over (the page's build only).
#[cfg(feature = "split")]
pub fn install_vision(f: VisionSearch) {
    VISION.install(f);
}

/// Auto-plan of a vision job: every card × a power-of-two card count (data parallel, each card
/// with the scenario's batch), timed by the vision model (measured speed, exposed gradient
/// all-reduce) and kept when it meets the deadline and the budget. A card's plan is its fewest
/// cards that do: card-hours only grow with the count (the all-reduce adds, nothing subtracts),
/// so it is also its cheapest, and more cards would only raise the global batch.
pub fn search_vision(v: &super::vision::VisionModel, s: &Scenario, catalog: &Catalog) -> SearchReport {
    let (deadline_h, budget) = (s.search.deadline_days.map(|d| d * 24.0), s.search.budget);
    let mut rep = SearchReport::default();
    let mut per_card: Vec<Candidate> = Vec::new();
    let limit = card_limit(s);
    for g in catalog.gpus.iter().chain(s.custom_gpus.iter()).filter(|g| super::plan::selected(s, g)) {
        let price = cost::card_price(s, catalog, &g.id, s.ownership.gpu == g.id);
        let mut best: Option<Candidate> = None;
        let mut n = 1;
        while n <= limit {
            rep.searched += 1;
            let mut at = s.clone();
            at.parallel.gpus = n;
            let Some(c) = super::vision::verdict(v, &at, g, catalog) else { break };
            let Some(hours) = c.hours else { break };
            rep.fitting += 1;
            let own =
                price.map(|p| cost::own_costs(s, g, n, p).per_gpu_hour(s.ownership.utilisation) * hours * f64::from(n));
            let cand = Candidate {
                gpu: g.id.clone(),
                name: g.name.clone(),
                layout: c.layout,
                micro_batch: s.vision.batch,
                hours,
                rent_cost: c.cost,
                own_cost: own,
                memory: c.memory.total,
                capacity: c.capacity,
            };
            if keep_feasible(&mut rep, &cand, deadline_h, budget) && best.is_none() {
                best = Some(cand);
            }
            n *= 2;
        }
        per_card.extend(best);
    }
    sort_per_card(&mut per_card);
    rep.per_card = per_card;
    rep
}
