//! The user's own benchmark calibrates every card: a measured training speed on one card (the
//! Beijing team's first step: "run your own data and model on 2–3 candidate cards") gives the
//! factor on the kernels' share of peak that makes the engine reproduce it there; every other
//! card is then predicted through the same model with that factor, so communication, bubbles and
//! memory still differ card by card. A measured MFU (`efficiency.mfu`) instead replaces the
//! prediction on every card alike.

use super::catalog::Catalog;
use super::scenario::Scenario;
use std::borrow::Cow;

/// Speed per card the engine predicts for `gpu` at the scenario's workload and the plan's layout
/// for that card, at steady state (no failures), or `None` when it has no time for it.
#[must_use]
pub fn predicted_tokens_s(s: &Scenario, catalog: &Catalog, gpu: &str) -> Option<f64> {
    let mut one = s.clone();
    one.efficiency.benchmark = None;
    one.efficiency.mfu = None;
    one.efficiency.goodput = Some(1.0);
    let g = catalog.gpu(gpu).or_else(|| s.custom_gpus.iter().find(|g| g.id == gpu))?;
    let m = one.model_spec().ok()?;
    let v = super::plan::verdict(m, &one, g, catalog, &super::plan::Totals::default())?;
    let gpu_hours = v.gpu_hours.filter(|h| *h > 0.0)?;
    Some(s.training.tokens / (gpu_hours * 3600.0))
}

/// The scenario with `efficiency.kernel_scale` set from its benchmark (1 when the benchmark's
/// card has no predicted time; as it is, not copied, without a benchmark: every plan() comes
/// here). The factor is refined a few times because exposed communication does not shrink with
/// the kernels.
#[must_use]
pub fn calibrated<'a>(s: &'a Scenario, catalog: &Catalog) -> Cow<'a, Scenario> {
    let Some(b) = s.efficiency.benchmark.as_ref() else { return Cow::Borrowed(s) };
    let mut out = s.clone();
    out.efficiency.kernel_scale = 1.0;
    if !s.task.is_training() || s.efficiency.mfu.is_some() || b.tokens_per_s_gpu <= 0.0 {
        return Cow::Owned(out);
    }
    let mut scale = 1.0;
    for _ in 0..4 {
        let mut trial = out.clone();
        trial.efficiency.kernel_scale = scale;
        let Some(p) = predicted_tokens_s(&trial, catalog, &b.gpu) else { return Cow::Owned(out) };
        scale = (scale * b.tokens_per_s_gpu / p).clamp(0.05, 20.0);
    }
    out.efficiency.kernel_scale = scale;
    Cow::Owned(out)
}
