//! Error values of the domain: lowercase messages with the offending values in them.

/// Why a scenario cannot be planned. Shown to the user; never a panic.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    #[error("{field} must be a finite number between {min} and {max}, got {value}")]
    OutOfRange { field: &'static str, value: f64, min: f64, max: f64 },
    #[error("unknown model preset `{0}`")]
    UnknownModel(String),
    #[error("unknown gpu id `{0}`")]
    UnknownGpu(String),
    #[error("invalid model: {0}")]
    InvalidModel(String),
    #[error("no card in the catalog matches the card filter")]
    NoCards,
    #[error("{field} `{value}` is not one of the choices")]
    UnknownChoice { field: &'static str, value: String },
    /// A measured-speed model (vision, OCR, speech, diffusion) with no published measurement for
    /// the job: the page plans these only from measurements.
    #[error("{}", no_data_en(model, *training, *speech))]
    NoData { model: String, training: bool, speech: bool },
    /// A pipeline of separately trained models (PP-OCR's detection + recognition): trained as
    /// its parts.
    #[error("{model} is a pipeline of separately trained models: plan the training of {parts} one at a time (pick each as the model)")]
    PipelineTraining { model: String, parts: String },
    #[error("QLoRA is for language models: choose LoRA or full fine-tuning for {0}")]
    QloraNeedsLanguageModel(String),
    /// The page downloads this engine when a scenario first needs it ([`Engine`]).
    #[error("{} is not loaded yet", engine_en(*.0))]
    NotLoaded(Engine),
}

/// The two engines the page's own build downloads on first use (feature `split`; src/web/lazy.rs
/// and scripts/split.py cut them out of the main wasm): the serving simulation, and the
/// measured-speed models (vision, OCR, speech, diffusion). A fine-tuning visit needs neither.
/// Each module that calls into one holds its entry points as function pointers, installed when
/// it arrives (`serving::install`, `report::install_vision`, `search::install_vision`), so nothing
/// in the main wasm calls into it directly. Every other build (the CLI, the tests, the browser
/// tests) has both built in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Serving,
    Vision,
}

fn engine_en(e: Engine) -> &'static str {
    match e {
        Engine::Serving => "the serving engine",
        Engine::Vision => "the vision, OCR and speech engine",
    }
}

fn no_data_en(model: &str, training: bool, speech: bool) -> String {
    format!(
        "no published speed of {model} for {}: this page plans such models from measurements only{}",
        if training { "training" } else { "inference" },
        if speech { "; the Whisper presets among the language models estimate it from the architecture" } else { "" }
    )
}

/// Why a share link or saved scenario could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    #[error("the link has no scenario in it")]
    Empty,
    /// Its length and the most a link may have.
    #[error("the link is too long ({0} characters; at most {1})")]
    TooLong(usize, usize),
    #[error("unsupported link version `{0}` (this page reads v1)")]
    Version(String),
    #[error("the link is damaged (not valid base64): {0}")]
    Encoding(String),
    #[error("the link is damaged (not a valid scenario): {0}")]
    Json(String),
    #[error("the scenario cannot be planned: {0}")]
    Invalid(String),
    /// Its schema and the newest this page reads.
    #[error("saved by a newer version of the page (schema {0}); this page reads up to {1}")]
    NewerSchema(u32, u32),
}
