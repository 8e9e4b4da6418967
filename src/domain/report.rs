//! `report(&Scenario, &Catalog) -> Report`, assembled in stages that each read only the stages
//! before them (DESIGN.md §1): plan (fit, layout, time and rent per card) → infra (storage,
//! network, power) → economics (owning, rent vs buy, budget) → warnings → the ranking.

use super::catalog::{Catalog, Gpu};
use super::compute;
use super::error::{Engine, PlanError};
use super::memory::{self, Layout, MemoryBreakdown, QuickRule};
use super::plan::{memory_for, selected, verdict, Totals};
use super::pricing;
use super::scenario::{Scenario, Task};
use super::verdict::{focus, CardPlan, CardVerdict, Warning};
use serde::{Deserialize, Serialize};

/// Everything the page and the CLI show for one scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub version: u32,
    pub model: String,
    pub task: Task,
    pub params: f64,
    pub active_params: f64,
    /// Model memory on a single card without parallelism (what the model needs in total).
    pub memory_single: MemoryBreakdown,
    pub quick_rule: QuickRule,
    pub training_flops: Option<f64>,
    /// Cards ranked: fitting first, then by cost (when known) and time.
    pub cards: Vec<CardVerdict>,
    /// Owning versus renting the focus card.
    pub rent_vs_buy: Option<super::cost::RentVsBuy>,
    /// Storage, network, power and cooling of the focus card's plan.
    pub infra: Option<super::infra::InfraReport>,
    /// What the budget (if any) can buy or rent.
    pub budget: Vec<super::cost::BudgetOption>,
    /// Cards left out because their memory size is not published, by name.
    pub unknown_specs: Vec<String>,
    pub warnings: Vec<Warning>,
}

/// A vision job's report ([`vision_report`]), an entry point of the vision engine.
pub type VisionReport = fn(&Scenario, &Catalog, &super::vision::VisionModel) -> Result<Report, PlanError>;

static VISION: super::hook::Hook<VisionReport> = super::hook::Hook::new(vision_report);

/// Hands the downloaded vision engine's report over (the page's build only).
#[cfg(feature = "split")]
pub fn install_vision(f: VisionReport) {
    VISION.install(f);
}

/// The engine a scenario's plan needs beyond the main code ([`Engine`]), if any.
#[must_use]
pub fn needed(s: &Scenario) -> Option<Engine> {
    if super::vision::model(&s.model).is_some() {
        Some(Engine::Vision)
    } else if s.task.is_training() {
        None
    } else {
        Some(Engine::Serving)
    }
}

/// Whether `e` is there to use.
#[must_use]
pub fn loaded(e: Engine) -> bool {
    match e {
        Engine::Serving => super::serving::entry().is_some(),
        Engine::Vision => VISION.get().is_some(),
    }
}

/// Computes every figure shown on the page from one scenario and the catalog.
///
/// # Errors
/// Returns [`PlanError`] when inputs are out of range, the model is unknown, or no card matches.
pub fn report(s: &Scenario, catalog: &Catalog) -> Result<Report, PlanError> {
    s.validate()?;
    if let Some(e) = needed(s).filter(|&e| !loaded(e)) {
        return Err(PlanError::NotLoaded(e));
    }
    if let Some(m) = super::vision::model(&s.model) {
        let vision = VISION.get().ok_or(PlanError::NotLoaded(Engine::Vision))?;
        return vision(s, catalog, m);
    }
    let calibrated = super::calibrate::calibrated(s, catalog);
    let s: &Scenario = &calibrated;
    let m = s.model_spec()?;
    let (cards, left_out) = cards_of(s, catalog)?;
    let sized = Totals::default();
    let mut verdicts = finish(s, catalog, &cards, |g| verdict(m, s, g, catalog, &sized));
    super::units::sort_stable_by(&mut verdicts, |a, b| rank(a, b, !s.task.is_training()));
    let p = m.params();
    let infra = focus(s, &verdicts).and_then(|v| {
        let g = catalog.gpu(&v.gpu).or_else(|| s.custom_gpus.iter().find(|g| g.id == v.gpu))?;
        Some(super::infra::infra(m, s, g, v))
    });
    Ok(Report {
        version: super::scenario::VERSION,
        model: m.name.clone(),
        task: s.task,
        params: p.total,
        active_params: p.active,
        memory_single: memory_for(m, s, &Layout::single()),
        quick_rule: memory::quick_rule(m, s),
        training_flops: s.task.is_training().then(|| compute::model_flops(m, s)),
        rent_vs_buy: super::cost::rent_vs_buy(s, catalog, &verdicts),
        budget: super::cost::budget_options(s, catalog, &verdicts),
        infra,
        unknown_specs: unknown(&cards),
        cards: verdicts,
        warnings: [left_out, super::warnings::scenario_warnings(m, s)].concat(),
    })
}

/// A vision, OCR, speech or diffusion job: the same stages with the measured-speed model
/// (domain/vision.rs); no infrastructure sizing (it follows LLM checkpoints and datasets).
pub fn vision_report(s: &Scenario, catalog: &Catalog, m: &super::vision::VisionModel) -> Result<Report, PlanError> {
    if s.task == Task::Qlora {
        return Err(PlanError::QloraNeedsLanguageModel(m.name.clone()));
    }
    if m.is_pipeline() && s.task.is_training() {
        let name = |id: &String| super::vision::model(id).map_or_else(|| id.clone(), |p| p.name.clone());
        let parts = m.parts.iter().map(name).collect::<Vec<_>>().join(" + ");
        return Err(PlanError::PipelineTraining { model: m.name.clone(), parts });
    }
    if !super::vision::speed_measured(m, s) {
        // Whisper is also an encoder–decoder transformer preset: there a job the measurements
        // cannot answer is estimated from the architecture.
        let speech = m.family == "speech";
        return Err(PlanError::NoData { model: m.name.clone(), training: s.task.is_training(), speech });
    }
    let (cards, left_out) = cards_of(s, catalog)?;
    let mut verdicts = finish(s, catalog, &cards, |g| super::vision::verdict(m, s, g, catalog));
    super::units::sort_stable_by(&mut verdicts, |a, b| rank(a, b, !s.task.is_training()));
    let memory_single = super::vision::memory(m, s, s.vision.batch);
    let estimated = match super::vision::activation_basis(m, s).1 {
        super::vision::MemoryBasis::Borrowed { from, scale, .. } => {
            let from = super::vision::model(&from).map_or(from, |o| o.name.clone());
            vec![Warning::MemoryEstimated { from, scale }]
        }
        super::vision::MemoryBasis::LowerBound { from_inference } => {
            vec![Warning::MemoryLowerBound { from_inference }]
        }
        super::vision::MemoryBasis::Own | super::vision::MemoryBasis::EagerScores => Vec::new(),
    };
    Ok(Report {
        version: super::scenario::VERSION,
        model: m.name.clone(),
        task: s.task,
        params: m.params_m * 1e6,
        active_params: m.params_m * 1e6,
        // The params × bytes × factor rule is a language-model rule: none for vision jobs.
        quick_rule: QuickRule { bytes_per_param: 0.0, factor_low: 0.0, factor_high: 0.0, low: 0.0, high: 0.0 },
        memory_single,
        training_flops: s.task.is_training().then(|| super::vision::training_flops(m, s)).flatten(),
        rent_vs_buy: super::cost::rent_vs_buy(s, catalog, &verdicts),
        budget: super::cost::budget_options(s, catalog, &verdicts),
        infra: None,
        unknown_specs: unknown(&cards),
        cards: verdicts,
        warnings: [left_out, estimated].concat(),
    })
}

/// The cards the filter keeps, and the ids in it that neither the catalog nor the user's own
/// cards know (an old link, a card renamed since): those are left out with a warning, and only
/// a filter that names no known card at all is an error.
fn cards_of<'a>(s: &'a Scenario, catalog: &'a Catalog) -> Result<(Vec<&'a Gpu>, Vec<Warning>), PlanError> {
    let known = |id: &String| catalog.gpu(id).is_some() || s.custom_gpus.iter().any(|g| &g.id == id);
    let missing: Vec<&String> = s.cards.only.iter().filter(|id| !known(id)).collect();
    if let Some(id) = missing.first().filter(|_| missing.len() == s.cards.only.len()) {
        return Err(PlanError::UnknownGpu((*id).clone()));
    }
    let cards: Vec<&Gpu> = catalog.gpus.iter().chain(s.custom_gpus.iter()).filter(|g| selected(s, g)).collect();
    if cards.is_empty() {
        return Err(PlanError::NoCards);
    }
    Ok((cards, missing.into_iter().map(|id| Warning::UnknownCard { id: id.clone() }).collect()))
}

/// Each card's plan with its owned cost and warnings, assembled from the finished parts.
fn finish(
    s: &Scenario,
    catalog: &Catalog,
    cards: &[&Gpu],
    plan: impl Fn(&Gpu) -> Option<CardPlan>,
) -> Vec<CardVerdict> {
    cards
        .iter()
        .filter_map(|g| {
            let plan = plan(g)?;
            let own_cost = super::cost::own_cost_of_run(s, catalog, g, &plan);
            let warnings = super::warnings::card_warnings(s, catalog, g, &plan);
            Some(CardVerdict { plan, own_cost, warnings })
        })
        .collect()
}

fn unknown(cards: &[&Gpu]) -> Vec<String> {
    cards.iter().filter(|g| g.memory_gb.is_none()).map(|g| g.name.clone()).collect()
}

/// Fitting first; for serving, cards shown to meet the latency targets before the rest (a card
/// whose speed is unknown is not shown to meet them); in the China market, cards obtainable
/// there before grey-market ones; for serving, cards with figures before cards without (the
/// Whisper page once opened on eight rows of "—"); then cards with a cost, those whose only price is stale or a
/// press report after those with a current price page (the row says so); then by cost and time.
fn rank(a: &CardVerdict, b: &CardVerdict, serving: bool) -> std::cmp::Ordering {
    let key =
        |v: &CardVerdict| (!v.fits, v.cost.is_none(), v.cost.unwrap_or(f64::MAX), v.hours.unwrap_or(f64::MAX), v.gpus);
    let (ka, kb) = (key(a), key(b));
    let flagged = |v: &CardVerdict| v.price.as_ref().is_some_and(pricing::Quote::flagged);
    // Serving: a card that cannot meet the latency targets ranks after every card that can.
    let unknown = |v: &CardVerdict| serving && v.serving.is_none() && v.vision.is_none();
    let misses = |v: &CardVerdict| {
        v.serving.as_ref().is_some_and(|c| !c.meets) || v.vision.as_ref().is_some_and(|x| !x.meets) || unknown(v)
    };
    let grey = |v: &CardVerdict| v.china_supply() == Some("grey");
    ka.0.cmp(&kb.0)
        .then(misses(a).cmp(&misses(b)))
        .then(grey(a).cmp(&grey(b)))
        .then(unknown(a).cmp(&unknown(b)))
        .then(ka.1.cmp(&kb.1))
        .then(flagged(a).cmp(&flagged(b)))
        .then(ka.2.total_cmp(&kb.2))
        .then(ka.3.total_cmp(&kb.3))
        .then(ka.4.cmp(&kb.4))
        .then(a.gpu.cmp(&b.gpu))
}
