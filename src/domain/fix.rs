//! "Cheapest fix": when the user's plan does not fit or misses the deadline, the changes that
//! would make it work, each checked by planning the changed scenario, cheapest first.

use super::catalog::Catalog;
use super::change::Change;
use super::format::Lang;
use super::report::report as plan;
use super::scenario::{KvPrecision, Scenario, Task, WeightQuant};
use super::search;
use super::verdict::{focus, CardVerdict};
use serde::Serialize;

/// One change that fixes the plan, with its effect.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fix {
    /// The edit; `en` and `zh` are its label.
    #[serde(skip)]
    pub change: Change,
    pub en: String,
    pub zh: String,
    pub gpu: String,
    pub gpus: u32,
    pub hours: Option<f64>,
    /// Rental cost of the run (training) or per million tokens (inference).
    pub cost: Option<f64>,
    /// The changed scenario: applying it reproduces the figures above.
    pub scenario: Scenario,
}

/// Whether a verdict is a working plan: fits, meets the deadline when there is one, and when
/// serving (language or vision models) meets the latency targets at the load.
#[must_use]
pub fn works(s: &Scenario, v: &CardVerdict) -> bool {
    shortfalls(s, v).is_empty()
}

/// Why the focus card's plan does not work, as the fixes' heading says it.
#[derive(Debug, Clone, PartialEq)]
pub enum Shortfall {
    /// Bytes needed per card and the card's capacity.
    DoesNotFit { needed: f64, capacity: f64 },
    /// Hours the run takes (None: the card's speed is unknown) against the deadline's.
    MissesDeadline { hours: Option<f64>, deadline_h: f64 },
    /// Serving: the latency targets (a vision service's latency) are missed at the load.
    MissesTargets,
}

/// The ways `v` fails [`works`] (empty when it works).
#[must_use]
pub fn shortfalls(s: &Scenario, v: &CardVerdict) -> Vec<Shortfall> {
    let mut out = Vec::new();
    if !v.fits {
        out.push(Shortfall::DoesNotFit { needed: v.memory.total, capacity: v.capacity });
    }
    if let Some(d) = s.search.deadline_days.map(|d| d * 24.0) {
        if !v.hours.is_some_and(|h| h <= d) {
            out.push(Shortfall::MissesDeadline { hours: v.hours, deadline_h: d });
        }
    }
    if v.serving.as_ref().is_some_and(|c| !c.meets) || v.vision.as_ref().is_some_and(|f| !f.meets) {
        out.push(Shortfall::MissesTargets);
    }
    out
}

/// The change applied to the scenario with the focus on `gpu`, planned: a fix when it works.
fn try_fix(base: &Scenario, catalog: &Catalog, gpu: &str, change: Change) -> Option<Fix> {
    let mut s = base.clone();
    change.apply(&mut s);
    s.ownership.gpu = gpu.to_string();
    let r = plan(&s, catalog).ok()?;
    let v = r.cards.iter().find(|c| c.gpu == gpu)?;
    works(&s, v).then(|| Fix {
        en: change.label(Lang::En),
        zh: change.label(Lang::Zh),
        change,
        gpu: gpu.to_string(),
        gpus: v.gpus,
        hours: v.hours,
        cost: v.cost,
        scenario: s,
    })
}

/// The fixes for the scenario's focus card (empty when its plan already works).
#[must_use]
pub fn fixes(s: &Scenario, catalog: &Catalog) -> Vec<Fix> {
    diagnose(s, catalog).map_or_else(Vec::new, |d| d.fixes)
}

/// The focus card's plan, why it fails and the fixes: what the auto-plan's fixes list says.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnosis {
    pub current: CardVerdict,
    pub shortfalls: Vec<Shortfall>,
    pub fixes: Vec<Fix>,
}

/// [`Diagnosis`] of the scenario; `None` when it cannot be planned or its focus card's plan
/// works.
#[must_use]
pub fn diagnose(s: &Scenario, catalog: &Catalog) -> Option<Diagnosis> {
    let r = plan(s, catalog).ok()?;
    let v = focus(s, &r.cards)?;
    let short = shortfalls(s, v);
    if short.is_empty() {
        return None;
    }
    Some(Diagnosis { current: v.clone(), shortfalls: short, fixes: fixes_for(s, catalog, v) })
}

fn fixes_for(s: &Scenario, catalog: &Catalog, v: &CardVerdict) -> Vec<Fix> {
    let mut out: Vec<Fix> = more_cards(s, catalog, v).into_iter().collect();
    if super::vision::model(&s.model).is_some() {
        vision_fixes(s, catalog, v, &mut out);
    } else {
        if s.task.is_training() {
            memory_layout_fixes(s, catalog, v, &mut out);
        }
        task_fixes(s, catalog, v, &mut out);
        shape_fixes(s, catalog, v, &mut out);
    }
    sort(&mut out);
    out
}

/// The fewest more of the same card (doubling up to the card limit) that works.
fn more_cards(s: &Scenario, catalog: &Catalog, v: &CardVerdict) -> Option<Fix> {
    let g = &v.gpu;
    let mut n = v.gpus.max(1);
    let limit = search::card_limit(s);
    while n < limit {
        n = (n * 2).min(limit);
        let f = try_fix(s, catalog, g, Change::Cards(n));
        if f.is_some() {
            return f;
        }
    }
    None
}

/// A vision job: a smaller batch per card (memory), or another card.
fn vision_fixes(s: &Scenario, catalog: &Catalog, v: &CardVerdict, out: &mut Vec<Fix>) {
    let g = &v.gpu;
    let half = (s.vision.batch / 2).max(1);
    if half < s.vision.batch {
        out.extend(try_fix(s, catalog, g, Change::VisionBatch { batch: half, keep: v.gpus }));
    }
    if s.task.is_training() {
        out.extend(another_card(s, catalog, g));
    }
}

/// Memory layouts of training on the same cards (serving picks its own replica shape).
fn memory_layout_fixes(s: &Scenario, catalog: &Catalog, v: &CardVerdict, out: &mut Vec<Fix>) {
    let keep = v.gpus;
    for change in [Change::Zero3 { keep }, Change::FullRecompute { keep }, Change::OffloadOptimizer { keep }] {
        out.extend(try_fix(s, catalog, &v.gpu, change));
    }
}

/// What the task itself can give up: lighter weights and cache for serving, adapters instead of
/// full training.
fn task_fixes(s: &Scenario, catalog: &Catalog, v: &CardVerdict, out: &mut Vec<Fix>) {
    let g = &v.gpu;
    match s.task {
        Task::Inference => {
            for q in [WeightQuant::Fp8, WeightQuant::Int8, WeightQuant::Int4] {
                if s.weight_quant != q {
                    out.extend(try_fix(s, catalog, g, Change::Weights(q)));
                }
            }
            if s.inference.kv != KvPrecision::Fp8 {
                out.extend(try_fix(s, catalog, g, Change::KvFp8));
            }
            out.extend(try_fix(s, catalog, g, Change::Prompts((s.inference.context / 2).max(1))));
            out.extend(another_serving_card(s, catalog, g));
        }
        Task::Pretrain | Task::FullFinetune => {
            out.extend(try_fix(s, catalog, g, Change::Lora));
            out.extend(try_fix(s, catalog, g, Change::Qlora));
        }
        Task::Lora => out.extend(try_fix(s, catalog, g, Change::Qlora)),
        Task::Qlora => {}
    }
}

/// Smaller steps: a shorter sequence or micro-batch, fewer concurrent requests, another card.
fn shape_fixes(s: &Scenario, catalog: &Catalog, v: &CardVerdict, out: &mut Vec<Fix>) {
    let g = &v.gpu;
    if s.task.is_training() {
        out.extend(try_fix(s, catalog, g, Change::SeqLen((s.training.seq_len / 2).max(1))));
        if s.training.micro_batch > 1 {
            out.extend(try_fix(s, catalog, g, Change::MicroBatchOne));
        }
        out.extend(another_card(s, catalog, g));
    } else {
        let half = (s.inference.concurrent / 2).max(1);
        if half < s.inference.concurrent {
            out.extend(try_fix(s, catalog, g, Change::Concurrent(half)));
        }
    }
}

/// Cheapest first, then fastest.
fn sort(out: &mut Vec<Fix>) {
    super::units::sort_stable_by(out, |a, b| {
        a.cost
            .unwrap_or(f64::INFINITY)
            .total_cmp(&b.cost.unwrap_or(f64::INFINITY))
            .then(a.hours.unwrap_or(f64::INFINITY).total_cmp(&b.hours.unwrap_or(f64::INFINITY)))
    });
}

/// Another card: the cheapest feasible plan the search finds on a different card.
fn another_card(s: &Scenario, catalog: &Catalog, g: &str) -> Option<Fix> {
    let mut anywhere = s.clone();
    anywhere.cards.only.clear();
    let found = search::search(&anywhere, catalog).ok()?;
    let c = found.per_card.iter().find(|c| c.gpu != g)?;
    let change = Change::Card { id: c.gpu.clone(), name: c.name.clone(), cards: c.layout.gpus(), count: true };
    try_fix(s, catalog, &c.gpu, change)
}

/// Another card for serving: the cheapest in the whole ranking whose serving plan meets the
/// targets (the search does not plan serving; the ranking does).
fn another_serving_card(s: &Scenario, catalog: &Catalog, g: &str) -> Option<Fix> {
    let mut anywhere = s.clone();
    anywhere.cards.only.clear();
    let all = plan(&anywhere, catalog).ok()?.cards;
    let o = all.iter().find(|c| c.gpu != g && c.serving.as_ref().is_some_and(|c| c.meets))?;
    let change = Change::Card { id: o.gpu.clone(), name: o.name.clone(), cards: o.gpus, count: false };
    try_fix(s, catalog, &o.gpu, change)
}
