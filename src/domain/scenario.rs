//! Scenario: every input the user gives. Plain serde data; `#[serde(default)]` everywhere so
//! old saved scenarios and share links keep loading. The UI language is not part of it.

mod inputs;
mod ownership;
pub mod ranges;
mod sections;
mod validate;
mod vision;

pub use inputs::*;
pub use ownership::*;
pub use sections::*;
pub use vision::VisionJob;

use super::catalog::Gpu;
use super::error::PlanError;
use super::model::{self, ModelSpec};

/// Current schema version (share links and saved scenarios carry it).
pub const VERSION: u32 = 1;

/// Every input of one plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub version: u32,
    pub name: String,
    pub task: Task,
    /// Preset id from `models.json`, or `custom` to use `custom_model`.
    pub model: String,
    pub custom_model: ModelSpec,
    pub precision: Precision,
    pub weight_quant: WeightQuant,
    pub training: Training,
    pub lora: Lora,
    pub inference: Inference,
    pub parallel: Parallel,
    pub cards: CardFilter,
    pub money: Money,
    pub efficiency: Efficiency,
    pub ownership: Ownership,
    pub infra: Infra,
    pub search: Search,
    /// Vision, OCR, speech and diffusion jobs (a model from `vision.json`).
    pub vision: VisionJob,
    /// Cards the user added in the page (same shape as catalog cards).
    pub custom_gpus: Vec<Gpu>,
}

// Read and written by table (domain/read.rs): the same meaning as the derives with
// #[serde(default)].
crate::read_fields!(Scenario {
    version: whole,
    name: text,
    task: any,
    model: text,
    custom_model: any,
    precision: any,
    weight_quant: any,
    training: any,
    lora: any,
    inference: any,
    parallel: any,
    cards: any,
    money: any,
    efficiency: any,
    ownership: any,
    infra: any,
    search: any,
    vision: any,
    custom_gpus: any
});

impl Default for Scenario {
    /// The demo: a full bf16 fine-tune of Qwen2.5-7B on 1B tokens, layout chosen automatically.
    fn default() -> Self {
        Self {
            version: VERSION,
            // Unnamed: the page shows and saves it as its model and task in the reader's
            // language (ui/scenarios.rs `shown_name`).
            name: String::new(),
            task: Task::FullFinetune,
            model: "qwen2.5-7b".into(),
            custom_model: ModelSpec::default(),
            precision: Precision::Bf16,
            weight_quant: WeightQuant::None,
            training: Training::default(),
            lora: Lora::default(),
            inference: Inference::default(),
            parallel: Parallel::default(),
            cards: CardFilter::default(),
            money: Money::default(),
            efficiency: Efficiency::default(),
            ownership: Ownership::default(),
            infra: Infra::default(),
            search: Search::default(),
            vision: VisionJob::default(),
            custom_gpus: Vec::new(),
        }
    }
}

impl Scenario {
    /// The demo priced in China's rental market: its clouds' prices, and the cards that cannot be
    /// had in mainland China ranked after those that can. A first visitor reading Chinese starts
    /// here (ui/prerender.rs `first_visit`); a share link is read against [`Scenario::default`],
    /// so it carries the market either way.
    #[must_use]
    pub fn china_default() -> Scenario {
        let mut s = Scenario::default();
        s.money.rent_market = "china_cloud".into();
        s
    }
}

/// Reads a stored scenario (local storage, an imported file, a share link), migrating older
/// schemas. Schema 1 is the first; fields added since carry `#[serde(default)]`, so an older or
/// partial object loads with defaults. A newer schema is refused rather than half-read. Custom
/// cards whose ids collide (saved by older versions) get ids of their own.
///
/// # Errors
/// [`DecodeError`](super::error::DecodeError) for invalid JSON, a newer schema, or wrong types.
pub fn from_stored(value: serde_json::Value) -> Result<Scenario, super::error::DecodeError> {
    use super::error::DecodeError;
    let version = value.get("version").and_then(serde_json::Value::as_u64).unwrap_or(u64::from(VERSION));
    if version > u64::from(VERSION) {
        return Err(DecodeError::NewerSchema(u32::try_from(version).unwrap_or(u32::MAX), VERSION));
    }
    let mut s: Scenario = serde_json::from_value(value).map_err(|e| DecodeError::Json(e.to_string()))?;
    s.version = VERSION;
    s.make_custom_ids_unique(super::catalog::Catalog::embedded());
    Ok(s)
}

impl Scenario {
    /// The model this scenario plans for.
    ///
    /// # Errors
    /// Unknown preset id, or custom dimensions out of range.
    pub fn model_spec(&self) -> Result<&ModelSpec, PlanError> {
        let m = if self.model == "custom" {
            &self.custom_model
        } else {
            model::preset(&self.model).ok_or_else(|| PlanError::UnknownModel(self.model.clone()))?
        };
        m.validate().map_err(PlanError::InvalidModel)?;
        Ok(m)
    }
}
