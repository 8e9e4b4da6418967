//! How sure a training time is: where its kernel efficiency comes from, and the band the
//! held-out validation rows of that kind put around it.

use super::catalog::{Catalog, Gpu};
use super::kernels;
use super::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// Cards with a calibration training-time row that has a figure (tests/accuracy.rs keeps the
/// list equal to src/domain/accuracy.json).
pub const MEASURED_CARDS: [&str; 4] = ["a100-80gb-sxm4", "h100-sxm", "huawei-ascend-910b3", "rtx-4090"];

/// Where a card's kernel efficiency comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// The user's measured MFU, used for every card.
    YourMfu,
    /// Scaled to reproduce the user's benchmark on `on`.
    Calibrated { on: String },
    /// Measured GEMMs on this card (domain/kernels.rs), or published training runs on it that set
    /// the constants.
    Measured,
    /// No measurement on this card: those of `from`, the measured card of its architecture (or,
    /// off CUDA, of its software stack).
    Borrowed { from: String },
    /// No measured training run on this software stack: the stated 0.7 × CUDA assumption
    /// (serving: no measured decode operators, the roofline alone).
    #[default]
    Roofline,
}

/// The tier of card `g`'s time in scenario `s`.
#[must_use]
pub fn of(s: &Scenario, g: &Gpu, catalog: &Catalog) -> Tier {
    if s.efficiency.mfu.is_some() {
        return Tier::YourMfu;
    }
    if let Some(b) = s.efficiency.benchmark.as_ref().filter(|_| (s.efficiency.kernel_scale - 1.0).abs() > 1e-12) {
        return Tier::Calibrated { on: b.gpu.clone() };
    }
    if MEASURED_CARDS.contains(&g.id.as_str()) {
        return Tier::Measured;
    }
    // Measured GEMMs on this card, or on the card of its architecture it borrows them from.
    match kernels::source(g) {
        kernels::Source::Own(_) => return Tier::Measured,
        kernels::Source::Borrowed(m) => return Tier::Borrowed { from: m.gpu.to_owned() },
        kernels::Source::Reference => {}
    }
    // Else the measured-run card of the same stack nearest in peak (log distance).
    let runs = MEASURED_CARDS.iter().filter_map(|id| catalog.gpu(id)).filter(|m| m.software == g.software);
    kernels::nearest_in_peak(kernels::half_peak(g), runs, |m| kernels::half_peak(m))
        .map_or(Tier::Roofline, |m| Tier::Borrowed { from: m.id.clone() })
}

/// p90 of |error| of the held-out training-time rows per tier (tests/accuracy.rs recomputes them
/// from the validation rows and keeps these equal): measured cards, borrowed, roofline.
pub const BAND_P90: [(&str, f64); 3] = [("measured", 0.221), ("borrowed", 0.194), ("roofline", 0.240)];

/// The p90 |error| that bounds a time of this tier. A calibrated time takes the band of the
/// benchmark's own card if it is that card, else the borrowed band; a measured MFU the measured
/// band (stated assumptions: no validation row has a user's benchmark).
#[must_use]
pub fn p90(t: &Tier, gpu: &str) -> f64 {
    let by = |k: &str| BAND_P90.iter().find(|(n, _)| *n == k).map_or(0.65, |(_, v)| *v);
    match t {
        Tier::Measured | Tier::YourMfu => by("measured"),
        Tier::Calibrated { on } if on == gpu => by("measured"),
        Tier::Calibrated { .. } | Tier::Borrowed { .. } => by("borrowed"),
        Tier::Roofline => by("roofline"),
    }
}

/// The range a published time would fall in for an error within ±p90: the engine's figure is
/// published × (1 + e), so published = figure / (1 + e).
#[must_use]
pub fn band(hours: f64, p90: f64) -> (f64, f64) {
    (hours / (1.0 + p90), hours / (1.0 - p90.min(0.9)))
}
