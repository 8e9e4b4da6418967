//! The published measurements of vision, OCR, speech and diffusion models (`vision.json`):
//! models, rows and lookups, no planning (domain/vision.rs plans with them). A leaf module: the
//! scenario's checks look models up here without reaching the planning stages.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::LazyLock;

/// A model of `vision.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct VisionModel {
    pub id: String,
    pub name: String,
    /// detection, classification, segmentation, ocr, diffusion, speech.
    pub family: String,
    /// cnn, vit, hybrid, unet, dit, transformer.
    pub arch: String,
    pub params_m: f64,
    /// Parameters frozen in fine-tuning (diffusion: text encoders and VAE), millions.
    pub frozen_m: f64,
    /// Forward GFLOPs (2 × GMACs) per sample at `resolution`; diffusion: one denoiser pass.
    pub gflops: Option<f64>,
    /// Input side in pixels the figures are for (none for speech: a sample is a 30 s clip).
    pub resolution: Option<u32>,
    /// Diffusion: default sampling steps.
    pub steps: Option<u32>,
    /// Diffusion: denoiser passes per sampling step (classifier-free guidance runs the
    /// conditional and the unconditional half: 2; a guidance-distilled model: 1).
    pub guidance: Option<u32>,
    /// A pipeline: the ids of the models it runs (each trained on its own).
    pub parts: Vec<String>,
    /// Speed in NCHW over speed in NHWC (`channels_last`), training and inference, measured on
    /// one card with everything else equal (timm's paired benchmark files); `None` where no such
    /// pair is published.
    pub nchw_over_nhwc_train: Option<f64>,
    pub nchw_over_nhwc_infer: Option<f64>,
    /// Heads of the layers that attend over every token of the image (SAM's ViT: 4 such
    /// layers, the rest in 14×14 windows) and the pixels per token side (`patch`): the shape
    /// of the largest attention-score tensor, which eager attention materialises
    /// (`eager_scores` in vision/memory.rs). `None` where no figure uses it.
    pub global_heads: Option<u32>,
    pub patch: Option<u32>,
    pub source: String,
}

impl VisionModel {
    /// Seconds of audio in one speech sample (a 30-second clip, Whisper's window).
    pub const CLIP_S: f64 = 30.0;
    /// Samples a serving cost is quoted per: a million images, or an hour of audio (120 clips).
    #[must_use]
    pub fn cost_unit(&self) -> f64 {
        if self.is_speech() {
            3600.0 / Self::CLIP_S
        } else {
            1e6
        }
    }
    /// Speech models count 30-second clips; the dataset is given in hours.
    #[must_use]
    pub fn is_speech(&self) -> bool {
        self.family == "speech"
    }
    /// A pipeline of separately trained models (PP-OCR's detection + recognition): it is
    /// served, and trained as its parts.
    #[must_use]
    pub fn is_pipeline(&self) -> bool {
        !self.parts.is_empty()
    }
    /// Whether a job's memory format changes its speed: a measured NCHW/NHWC pair exists.
    #[must_use]
    pub fn has_format_ratio(&self) -> bool {
        self.nchw_over_nhwc_train.is_some() || self.nchw_over_nhwc_infer.is_some()
    }
    /// Samples in `dataset` (images, or clips in hours of audio).
    #[must_use]
    pub fn samples(&self, dataset: f64) -> f64 {
        if self.is_speech() {
            dataset * 3600.0 / Self::CLIP_S
        } else {
            dataset
        }
    }
}

/// How a convolutional network's activations lie in memory. PyTorch's default is NCHW; NHWC
/// (`channels_last`) lets tensor cores run convolutions without transposes, and NVIDIA's
/// published ResNet-50 figures use it. For transformers the two run alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryFormat {
    Nchw,
    Nhwc,
}
crate::named_enum!(MemoryFormat { Nchw => "nchw", Nhwc => "nhwc" });

/// The software a measurement ran on, as a team deploys or trains with it: PyTorch eager (timm,
/// Detectron2, MMDetection, Ultralytics, diffusers), TensorRT, Paddle (PaddleOCR's Paddle
/// Inference), CTranslate2 (faster-whisper), TensorFlow. The same model on the same card runs
/// at different speeds on each (NVIDIA's ResNet-50 figures under TensorFlow + XLA are not its
/// PyTorch ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Pytorch,
    Tensorrt,
    Paddle,
    Ctranslate2,
    Tensorflow,
}
crate::named_enum!(Engine {
    Pytorch => "pytorch",
    Tensorrt => "tensorrt",
    Paddle => "paddle",
    Ctranslate2 => "ctranslate2",
    Tensorflow => "tensorflow",
});

impl Engine {
    /// The product's own name, alike in both languages.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Engine::Pytorch => "PyTorch",
            Engine::Tensorrt => "TensorRT",
            Engine::Paddle => "PaddlePaddle",
            Engine::Ctranslate2 => "CTranslate2",
            Engine::Tensorflow => "TensorFlow",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Train,
    Lora,
    Infer,
}

/// One published measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    pub model: String,
    /// A catalog id, or a card's name with its specs in `peak_tflops` and `bandwidth_gb_s`.
    pub card: String,
    /// Dense peak at `precision`, TFLOPS (cards not in the catalog).
    pub peak_tflops: Option<f64>,
    pub bandwidth_gb_s: Option<f64>,
    pub mode: Mode,
    /// Numeric format, a `Precision` name (`fp16`, `bf16`, `fp32`, `tf32`, `fp8`).
    pub precision: String,
    pub batch: u32,
    pub resolution: Option<u32>,
    pub steps: Option<u32>,
    /// Samples per second on all `gpus`.
    pub samples_s: Option<f64>,
    /// One batch's time, ms.
    pub latency_ms: Option<f64>,
    /// Peak memory per card as the framework reports it (allocator, no CUDA context), GiB.
    pub memory_gib: Option<f64>,
    /// Optimizer of a training row's memory figure, an `Optimizer` name (`adam_w` when absent).
    pub optimizer: String,
    pub gpus: u32,
    /// The memory format the source states it ran in (`None`: not stated).
    pub memory_format: Option<MemoryFormat>,
    /// The software it ran on (`None`: not stated), read from the source's framework.
    pub engine: Option<Engine>,
    pub source: String,
    pub date: String,
}

impl Measurement {
    /// Samples per second per card: the throughput, else a batch over its latency.
    #[must_use]
    pub fn per_card(&self) -> Option<f64> {
        let t = self.samples_s.or(self.latency_ms.map(|ms| f64::from(self.batch) / (ms / 1e3)))?;
        Some(t / f64::from(self.gpus.max(1)))
    }
}

#[derive(Debug, Default)]
struct Data {
    models: Vec<VisionModel>,
    measurements: Vec<Measurement>,
}

/// The full file (sources, quotes, notes) for the CLI and the tests.
pub const VISION_JSON: &str = include_str!("vision.json");

// The page's copy (build.rs `compact_vision`) holds each row as an array of values in a fixed
// order and the sources in one list; reading by position compiles to less code than derived
// `Deserialize` (~12 KB of wasm less). tests/vision.rs checks every row of the file is read.
fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}
fn int(v: &Value) -> Option<u32> {
    v.as_u64().and_then(|x| u32::try_from(x).ok())
}

/// A model row: id, name, family, arch, params_m, frozen_m, gflops, resolution, steps, parts,
/// nchw_over_nhwc_train, nchw_over_nhwc_infer, guidance, global_heads, patch, source.
fn read_model(v: &Value, sources: &Value) -> Option<VisionModel> {
    Some(VisionModel {
        id: v[0].as_str()?.to_string(),
        name: text(&v[1]),
        family: text(&v[2]),
        arch: text(&v[3]),
        params_m: v[4].as_f64()?,
        frozen_m: v[5].as_f64().unwrap_or(0.0),
        gflops: v[6].as_f64(),
        resolution: int(&v[7]),
        steps: int(&v[8]),
        parts: v[9].as_array().map(|p| p.iter().map(text).collect()).unwrap_or_default(),
        nchw_over_nhwc_train: v[10].as_f64(),
        nchw_over_nhwc_infer: v[11].as_f64(),
        guidance: int(&v[12]),
        global_heads: int(&v[13]),
        patch: int(&v[14]),
        source: text(&sources[v[15].as_u64()? as usize]),
    })
}

/// A measurement row: model, card, mode, precision, batch, resolution, steps, samples_s,
/// latency_ms, memory_gib, optimizer, gpus, peak_tflops, bandwidth_gb_s, date, memory_format,
/// engine, source.
fn read_measurement(v: &Value, sources: &Value) -> Option<Measurement> {
    let mode = match v[2].as_str()? {
        "train" => Mode::Train,
        "lora" => Mode::Lora,
        "infer" => Mode::Infer,
        _ => return None,
    };
    Some(Measurement {
        model: v[0].as_str()?.to_string(),
        card: v[1].as_str()?.to_string(),
        mode,
        precision: v[3].as_str()?.to_string(),
        batch: int(&v[4])?,
        resolution: int(&v[5]),
        steps: int(&v[6]),
        samples_s: v[7].as_f64(),
        latency_ms: v[8].as_f64(),
        memory_gib: v[9].as_f64(),
        optimizer: v[10].as_str().unwrap_or("adam_w").to_string(),
        gpus: int(&v[11]).unwrap_or(1),
        peak_tflops: v[12].as_f64(),
        bandwidth_gb_s: v[13].as_f64(),
        date: text(&v[14]),
        memory_format: v[15].as_str().and_then(|f| super::names::parse(f, MemoryFormat::NAMES)),
        engine: v[16].as_str().and_then(|f| super::names::parse(f, Engine::NAMES)),
        source: text(&sources[v[17].as_u64()? as usize]),
    })
}

static DATA: LazyLock<Data> = LazyLock::new(|| {
    let v: Value = serde_json::from_str(super::page_data::part(super::page_data::Part::Vision)).unwrap_or_default();
    let rows = |k: &str| v[k].as_array().cloned().unwrap_or_default();
    let sources = &v["sources"];
    Data {
        models: rows("models").iter().filter_map(|r| read_model(r, sources)).collect(),
        measurements: rows("measurements").iter().filter_map(|r| read_measurement(r, sources)).collect(),
    }
});

/// Every vision model, in the file's order (grouped by family).
#[must_use]
pub fn models() -> &'static [VisionModel] {
    &DATA.models
}

/// The vision model a scenario's model id names, if it is one.
#[must_use]
pub fn model(id: &str) -> Option<&'static VisionModel> {
    DATA.models.iter().find(|m| m.id == id)
}

/// Every measurement of `vision.json`.
#[must_use]
pub fn measurements() -> &'static [Measurement] {
    &DATA.measurements
}

/// Where a speed comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Basis {
    /// The card the measurement was taken on (a catalog id or a name).
    pub card: String,
    pub source: String,
    pub date: String,
    /// Speed ratio applied to carry it here (1 on the measured card itself).
    pub ratio: f64,
    /// Training carried from an inference measurement (× 1/3).
    pub from_inference: bool,
    /// Speed factor for running in another memory format than the measurement (NCHW/NHWC),
    /// when one was applied.
    #[serde(default)]
    pub layout: Option<f64>,
    /// The software the measurement ran on, when the source states it.
    #[serde(default)]
    pub engine: Option<Engine>,
    /// The job's FP32 work runs at the card's TF32 tensor rate (the framework's default).
    #[serde(default)]
    pub tf32: bool,
}

/// Serving figures of one card, or a training run's speed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VisionFigures {
    /// Batch per card (serving: the cap, the largest that fits).
    pub batch: u32,
    /// Samples per second per card at that batch.
    pub samples_s: f64,
    /// Serving: a request's latency at the 99th percentile, ms: waiting for the batch in
    /// service + its own batch (vision.rs `batcher_at`).
    pub latency_ms: Option<f64>,
    /// Serving: the batch a request runs in at the 99th percentile.
    pub p99_batch: Option<u32>,
    /// Serving: the share of the cards' full-batch capacity the rate uses.
    pub load: Option<f64>,
    /// Serving: the latency target is met.
    pub meets: bool,
    pub basis: Basis,
}
