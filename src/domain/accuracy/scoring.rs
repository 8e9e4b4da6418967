//! Scoring the reference cases: one figure per case, or a band over an input the source leaves
//! open; the headline counts every row (a row the engine cannot express is a missing feature,
//! not a pass); and per group of estimates the median and p90 of the absolute error, the
//! figures the bands on the page's times come from.

use super::{measure, Case, Metric, Role, Row};
use crate::domain::catalog::Catalog;
use serde::{Deserialize, Serialize};

fn within(c: &Case, e: f64) -> bool {
    match c.bound.as_deref() {
        Some("lower") => e >= -c.tolerance,
        Some("upper") => e <= c.tolerance,
        _ => e.abs() <= c.tolerance,
    }
}

/// The engine's figure for one case and whether it is within tolerance.
#[must_use]
pub fn row(c: &Case, catalog: &Catalog) -> Row {
    if c.open.iter().all(|o| o.values.is_empty()) {
        let got = measure(c, catalog);
        let ours = got.as_ref().ok().copied();
        let error = ours.map(|o| o / c.published - 1.0);
        let within = error.is_some_and(|e| within(c, e));
        return Row { case: c.clone(), ours, error, within, problem: got.err(), band: None };
    }
    let mut figures = Vec::new();
    let mut problem = None;
    for one in readings(c) {
        match measure(&one, catalog) {
            Ok(x) => figures.push(x),
            Err(e) => problem = Some(e),
        }
    }
    let lo = figures.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = figures.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if figures.is_empty() {
        return Row { case: c.clone(), ours: None, error: None, within: false, problem, band: None };
    }
    // The figure nearest the published one stands for the row.
    let ours = figures.iter().copied().min_by(|a, b| (a - c.published).abs().total_cmp(&(b - c.published).abs()));
    let error = ours.map(|o| o / c.published - 1.0);
    let inside = (lo..=hi).contains(&c.published);
    let within = inside || error.is_some_and(|e| within(c, e));
    Row { case: c.clone(), ours, error, within, problem: None, band: Some((lo, hi)) }
}

/// The case once per combination of its open inputs' values (an input with none keeps the
/// case's own), each with no open input left: the readings its band is taken over.
#[must_use]
pub fn readings(c: &Case) -> Vec<Case> {
    let mut combos: Vec<Vec<(&str, &serde_json::Value)>> = vec![Vec::new()];
    for o in c.open.iter().filter(|o| !o.values.is_empty()) {
        combos = combos
            .into_iter()
            .flat_map(|done| {
                o.values.iter().map(move |v| {
                    let mut next = done.clone();
                    next.push((o.path.as_str(), v));
                    next
                })
            })
            .collect();
    }
    combos
        .into_iter()
        .map(|combo| {
            let mut one = c.clone();
            one.open = Vec::new();
            for (path, v) in combo {
                set(&mut one.scenario, path, v);
            }
            one
        })
        .collect()
}

/// `scenario` with the value at JSON pointer `path` set to `v`, nesting it under the path's keys
/// when the patch does not state it yet.
fn set(scenario: &mut serde_json::Value, path: &str, v: &serde_json::Value) {
    match scenario.pointer_mut(path) {
        Some(slot) => *slot = v.clone(),
        None => {
            let patch = path
                .trim_start_matches('/')
                .split('/')
                .rev()
                .fold(v.clone(), |inner, key| serde_json::json!({ key: inner }));
            super::merge(scenario, &patch);
        }
    }
}

/// What kind of estimate a case checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Memory,
    TrainingTime,
    Serving,
    Vision,
}

impl Kind {
    /// In words, for the accuracy page.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Kind::Memory => "memory · 显存",
            Kind::TrainingTime => "training time · 训练时间",
            Kind::Serving => "serving · 推理服务",
            Kind::Vision => "vision · 视觉",
        }
    }
}

/// The kind of estimate a case checks: a vision, OCR, speech or diffusion model's are all vision
/// (speed and memory), the rest by metric.
#[must_use]
pub fn case_kind(c: &super::Case) -> Kind {
    if crate::domain::vision_data::model(c.scenario.get("model").and_then(|v| v.as_str()).unwrap_or("")).is_some() {
        Kind::Vision
    } else {
        kind(c.metric)
    }
}

/// The kind of estimate a metric checks.
#[must_use]
pub fn kind(m: Metric) -> Kind {
    match m {
        Metric::GpuHours | Metric::MfuPct | Metric::HwTflops | Metric::TokensPerSGpu => Kind::TrainingTime,
        Metric::StaticBatchTokensSGpu
        | Metric::RequestLatencyMs
        | Metric::ServingTtftMeanMs
        | Metric::ServingTtftMedianMs
        | Metric::ServingTtftP99Ms
        | Metric::ServingTpotMeanMs
        | Metric::ServingTpotP99Ms
        | Metric::ServingOutputTokS
        | Metric::ServingRateRps => Kind::Serving,
        Metric::VisionSamplesS | Metric::VisionShownSamplesS => Kind::Vision,
        _ => Kind::Memory,
    }
}

/// One group's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub role: Role,
    pub kind: Kind,
    /// Rows in the group, and of them within tolerance and with no engine figure or marked
    /// "not expressible" (a feature the engine lacks).
    pub rows: usize,
    pub within: usize,
    pub lacking: usize,
    /// Median and 90th percentile of |error| over the rows with a figure.
    pub median_abs_error: f64,
    pub p90_abs_error: f64,
}

/// The nearest-rank percentile of sorted values.
#[must_use]
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (q * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

/// Rows grouped by role and kind of estimate.
#[must_use]
pub fn groups(rows: &[Row]) -> Vec<Group> {
    let mut keys: Vec<(Role, Kind)> = rows.iter().map(|r| (r.case.role, case_kind(&r.case))).collect();
    super::super::units::sort_stable_by(&mut keys, |a, b| (a.0 as u8, a.1).cmp(&(b.0 as u8, b.1)));
    keys.dedup();
    keys.into_iter()
        .map(|(role, k)| {
            let of: Vec<&Row> = rows.iter().filter(|r| r.case.role == role && case_kind(&r.case) == k).collect();
            let mut errors: Vec<f64> =
                of.iter().filter(|r| r.case.not_expressible.is_none()).filter_map(|r| r.error.map(f64::abs)).collect();
            super::super::units::sort_stable_by(&mut errors, f64::total_cmp);
            Group {
                role,
                kind: k,
                rows: of.len(),
                within: of.iter().filter(|r| r.within && r.case.not_expressible.is_none()).count(),
                lacking: of.iter().filter(|r| r.case.not_expressible.is_some() || r.ours.is_none()).count(),
                median_abs_error: percentile(&errors, 0.5),
                p90_abs_error: percentile(&errors, 0.9),
            }
        })
        .collect()
}

/// Within tolerance, and every row: passes / (passes + fails + rows that need a feature the
/// engine lacks).
#[must_use]
pub fn headline(rows: &[Row]) -> (usize, usize) {
    (rows.iter().filter(|r| r.within && r.case.not_expressible.is_none()).count(), rows.len())
}

/// Rows within tolerance and rows the engine can express (the older, kinder count; the page
/// states [`headline`]).
#[must_use]
pub fn score(rows: &[Row]) -> (usize, usize) {
    let counted: Vec<&Row> = rows.iter().filter(|r| r.case.not_expressible.is_none()).collect();
    (counted.iter().filter(|r| r.within).count(), counted.len())
}

/// |error| of the held-out rows of `kind` that `pick` keeps (expressible, with a figure), sorted:
/// what the page's bands are percentiles of.
fn held_out_errors(rows: &[Row], kind: Kind, pick: impl Fn(&Case) -> bool) -> Vec<f64> {
    let mut e: Vec<f64> = rows
        .iter()
        .filter(|r| r.case.role == Role::Validation && case_kind(&r.case) == kind)
        .filter(|r| r.case.not_expressible.is_none() && pick(&r.case))
        .filter_map(|r| r.error.map(f64::abs))
        .collect();
    super::super::units::sort_stable_by(&mut e, f64::total_cmp);
    e
}

/// The held-out serving rows' accuracy by the figure they check: first-token times, times per
/// output token, throughput (output tokens/s, a static batch's tokens/s). Each: the median and 90th
/// percentile of |error| and the rows counted (expressible, with a figure). The page states them
/// under the serving table (serving::SERVING_P90, which a test holds equal to these).
#[must_use]
pub fn serving_bands(rows: &[Row]) -> Vec<(&'static str, f64, f64, usize)> {
    let family = |m: Metric| match m {
        Metric::ServingTtftMeanMs | Metric::ServingTtftMedianMs | Metric::ServingTtftP99Ms => Some("first token"),
        Metric::ServingTpotMeanMs | Metric::ServingTpotP99Ms => Some("per token"),
        Metric::ServingOutputTokS | Metric::ServingRateRps | Metric::StaticBatchTokensSGpu => Some("throughput"),
        _ => None,
    };
    ["first token", "per token", "throughput"]
        .into_iter()
        .map(|f| {
            let e = held_out_errors(rows, Kind::Serving, |c| family(c.metric) == Some(f));
            (f, percentile(&e, 0.5), percentile(&e, 0.9), e.len())
        })
        .collect()
}

/// The tier name a case's card has under its own scenario (`measured`, `borrowed`, `roofline`).
#[must_use]
pub fn tier_name(c: &Case, catalog: &Catalog) -> Option<&'static str> {
    let s = super::scenario(c).ok()?;
    let g = s.cards.only.first().and_then(|id| catalog.gpu(id))?;
    Some(match crate::domain::tier::of(&s, g, catalog) {
        crate::domain::tier::Tier::Borrowed { .. } => "borrowed",
        crate::domain::tier::Tier::Roofline => "roofline",
        _ => "measured",
    })
}

/// p90 |error| and row count of the held-out training-time rows with a figure, per tier: the
/// bands on the page's times (domain/tier.rs `BAND_P90`).
#[must_use]
pub fn tier_bands(rows: &[Row], catalog: &Catalog) -> Vec<(&'static str, f64, usize)> {
    ["measured", "borrowed", "roofline"]
        .into_iter()
        .map(|t| {
            let e = held_out_errors(rows, Kind::TrainingTime, |c| tier_name(c, catalog) == Some(t));
            (t, percentile(&e, 0.9), e.len())
        })
        .collect()
}
