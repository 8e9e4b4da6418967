//! A Hugging Face `config.json` read into a [`ModelSpec`], field by field, with an error naming
//! the field for anything not understood (nothing required is silently defaulted).
//!
//! Field names follow the `transformers` configuration classes: Llama/Qwen/Mistral/Gemma
//! (`num_hidden_layers`, `hidden_size`, …), MoE under each family's name (`num_local_experts`,
//! `num_experts`, `n_routed_experts`, …), DeepSeek's MLA (`kv_lora_rank`, …), per-layer
//! `layer_types`, the `text_config` of vision-language models and `quantization_config`.

mod parts;

use super::model::ModelSpec;
use parts::{read_attention_layers, read_encoder_decoder, read_mla, read_moe, read_quantization, read_vision};
use serde_json::{Map, Value};

/// Why a config could not be read. Messages name the field and the value found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConfigError {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("the config is not a JSON object")]
    NotObject,
    #[error("missing field `{0}`")]
    Missing(&'static str),
    #[error("field `{field}` must be a whole number from {min} to {max}, got {value}")]
    BadNumber { field: String, value: String, min: u64, max: u64 },
    #[error("field `{field}` = {value} is not understood: {why}")]
    Unsupported { field: String, value: String, why: &'static str },
    #[error("the model read from the config is not usable: {0}")]
    Invalid(String),
}

/// Pre-quantised weights (`quantization_config`), reported back to the caller.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantization {
    pub method: String,
    pub bits: Option<u32>,
    pub group_size: Option<u32>,
}

/// What was read: the model, its pre-quantisation and remarks on what was derived.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigRead {
    pub model: ModelSpec,
    pub quantization: Option<Quantization>,
    /// Parameters of the vision tower (`vision_config`), when given; not part of `model`.
    pub vision_params: Option<f64>,
    /// What was derived rather than read, one remark each (English, lowercase).
    pub notes: Vec<String>,
}

/// Families whose MLP has two matrices (no gate); every other family read here is gated.
const PLAIN_MLP: [&str; 8] = ["gpt2", "gpt_neox", "opt", "falcon", "bloom", "phi", "starcoder2", "gpt_bigcode"];

/// Keys that say the model is not a transformer this planner can size.
const FOREIGN: [(&str, &str); 4] = [
    ("mamba_d_state", "state-space (Mamba) layers are not supported"),
    ("ssm_cfg", "state-space (Mamba) layers are not supported"),
    ("hybrid_override_pattern", "Mamba hybrid layers are not supported"),
    ("num_layers", "this naming (ChatGLM style) is not supported; expected num_hidden_layers"),
];

struct Fields<'a> {
    text: &'a Map<String, Value>,
    root: &'a Map<String, Value>,
}

impl<'a> Fields<'a> {
    /// The text model's field, else the top level's (VLMs keep some keys at the top).
    fn get(&self, k: &str) -> Option<&'a Value> {
        self.text.get(k).or_else(|| self.root.get(k)).filter(|v| !v.is_null())
    }

    fn uint(&self, k: &str, min: u64, max: u64) -> Result<Option<u32>, ConfigError> {
        self.get(k).map(|v| whole(k, v, min, max)).transpose()
    }

    fn need(&self, k: &'static str, min: u64, max: u64) -> Result<u32, ConfigError> {
        self.uint(k, min, max)?.ok_or(ConfigError::Missing(k))
    }

    /// The first of several names that is present.
    fn any(&self, keys: &[&str], min: u64, max: u64) -> Result<Option<u32>, ConfigError> {
        for k in keys {
            if let Some(v) = self.uint(k, min, max)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    fn flag(&self, k: &str) -> Result<Option<bool>, ConfigError> {
        match self.get(k) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(unsupported(k, v, "expected true or false")),
        }
    }

    /// The model's name: its saved path, else its first architecture, at most 80 characters.
    fn model_name(&self) -> String {
        self.text_of("_name_or_path")
            .or_else(|| self.root.get("architectures").and_then(|a| a.get(0)).and_then(Value::as_str))
            .unwrap_or("config.json")
            .chars()
            .take(80)
            .collect()
    }

    fn text_of(&self, k: &str) -> Option<&'a str> {
        self.get(k).and_then(Value::as_str)
    }
}

fn unsupported(field: &str, v: &Value, why: &'static str) -> ConfigError {
    ConfigError::Unsupported { field: field.into(), value: short(v), why }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

fn whole(field: &str, v: &Value, min: u64, max: u64) -> Result<u32, ConfigError> {
    let bad = || ConfigError::BadNumber { field: field.into(), value: short(v), min, max };
    let n = match v {
        Value::Number(n) => {
            n.as_u64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64))
        }
        _ => None,
    };
    match n {
        Some(n) if (min..=max).contains(&n) => u32::try_from(n).map_err(|_| bad()),
        _ => Err(bad()),
    }
}

const BIG: u64 = 10_000_000;

/// The fields a config may leave out, with transformers' defaults and a note for each one
/// missing: the KV heads (one per attention head), the context (4,096) and whether the output
/// head is tied to the embeddings (Gemma ties, the others read here do not).
fn read_defaulted(
    f: &Fields,
    model_type: &str,
    heads: u32,
    notes: &mut Vec<String>,
) -> Result<(u32, u32, bool), ConfigError> {
    let kv_heads = match f.uint("num_key_value_heads", 1, 1_024)? {
        Some(k) => k,
        None => {
            notes.push("no num_key_value_heads: one KV head per attention head (multi-head attention)".into());
            heads
        }
    };
    let max_context = match f.any(&["max_position_embeddings", "max_sequence_length", "seq_length"], 0, 100_000_000)? {
        Some(c) => c,
        None => {
            notes.push("no max_position_embeddings: context left at 4,096 tokens".into());
            4096
        }
    };
    let tied = match f.flag("tie_word_embeddings")? {
        Some(t) => t,
        None => {
            // transformers' own defaults: Gemma ties its head, the others read here do not.
            let t = model_type.starts_with("gemma");
            notes.push(format!(
                "no tie_word_embeddings: {} for model_type `{model_type}`",
                if t { "tied" } else { "untied" }
            ));
            t
        }
    };
    Ok((kv_heads, max_context, tied))
}

/// Reads a `config.json` text.
///
/// # Errors
/// [`ConfigError`] naming the first field that is missing, malformed or not understood.
pub fn read_config(text: &str) -> Result<ConfigRead, ConfigError> {
    let v: Value = super::json::parse(text).map_err(|e| ConfigError::NotJson(e.to_string()))?;
    let Value::Object(root) = &v else { return Err(ConfigError::NotObject) };
    let text_cfg = ["text_config", "llm_config", "language_config"]
        .iter()
        .find_map(|k| root.get(*k).and_then(Value::as_object).map(|m| (*k, m)));
    let f = Fields { text: text_cfg.map_or(root, |(_, m)| m), root };
    let mut notes = Vec::new();
    if let Some((k, _)) = text_cfg {
        notes.push(format!("language model read from `{k}`"));
    }
    let model_type = f.text_of("model_type").unwrap_or("").to_string();
    if f.flag("is_encoder_decoder")? == Some(true) || ["t5", "mt5", "umt5", "whisper"].contains(&model_type.as_str()) {
        let model = read_encoder_decoder(&f, &model_type, &mut notes)?;
        model.validate().map_err(ConfigError::Invalid)?;
        return Ok(ConfigRead { model, quantization: read_quantization(&f)?, vision_params: None, notes });
    }
    for (k, why) in FOREIGN {
        if let Some(v) = f.get(k).filter(|v| **v != Value::Bool(false)) {
            return Err(unsupported(k, v, why));
        }
    }

    let layers = f.need("num_hidden_layers", 1, 1_000)?;
    let hidden = f.need("hidden_size", 64, 100_000)?;
    let heads = f.need("num_attention_heads", 1, 1_024)?;
    let vocab = f.need("vocab_size", 2, 2_000_000)?;
    let (kv_heads, max_context, tied) = read_defaulted(&f, &model_type, heads, &mut notes)?;
    let head_dim = f.uint("head_dim", 1, 4_096)?;

    let moe = read_moe(&f, &model_type, layers, &mut notes)?;
    let intermediate = match (f.uint("intermediate_size", 1, BIG)?, &moe) {
        (Some(i), _) => i,
        (None, Some(m)) => m.expert_intermediate,
        (None, None) => return Err(ConfigError::Missing("intermediate_size")),
    };
    if let Some(m) = &moe {
        if m.expert_intermediate == 0 {
            return Err(ConfigError::Missing("moe_intermediate_size"));
        }
    }
    let mla = read_mla(&f)?;
    let (sliding_window, sliding_window_layers) =
        read_attention_layers(&f, &model_type, layers, kv_heads, head_dim.unwrap_or(hidden / heads), &mut notes)?;

    let gated = !PLAIN_MLP.contains(&model_type.as_str());
    let model = ModelSpec {
        id: "custom".into(),
        name: f.model_name(),
        family: String::new(),
        params_b: None,
        active_params_b: None,
        layers,
        hidden,
        intermediate,
        heads,
        kv_heads,
        head_dim: match (&mla, head_dim) {
            (Some(m), _) => Some(m.qk_nope_head_dim + m.qk_rope_head_dim),
            (None, d) => d,
        },
        vocab,
        max_context,
        tied_embeddings: tied,
        gated_mlp: gated,
        moe,
        mla,
        sliding_window,
        sliding_window_layers,
        encoder: None,
        source: "config.json".into(),
        notes: String::new(),
    };
    model.validate().map_err(ConfigError::Invalid)?;
    Ok(ConfigRead { model, quantization: read_quantization(&f)?, vision_params: read_vision(root)?, notes })
}

/// Checks a count against `model.safetensors.index.json`'s `metadata.total_size` (bytes) at the
/// given bytes per parameter. Returns the relative difference when it is over 2%.
///
/// # Errors
/// When the index is not JSON or has no `metadata.total_size`.
pub fn check_index(index: &str, params: f64, bytes_per_param: f64) -> Result<Option<f64>, ConfigError> {
    let v: Value = super::json::parse(index).map_err(|e| ConfigError::NotJson(e.to_string()))?;
    let size =
        v.get("metadata").and_then(|m| m.get("total_size")).ok_or(ConfigError::Missing("metadata.total_size"))?;
    let Some(bytes) = size.as_f64().filter(|b| b.is_finite() && *b > 0.0) else {
        return Err(unsupported("metadata.total_size", size, "expected a positive number of bytes"));
    };
    let from_index = bytes / bytes_per_param;
    let diff = params / from_index - 1.0;
    Ok((diff.abs() > 0.02).then_some(diff))
}

impl ConfigError {
    /// The message in the page's language (field names and values stay as written in the file).
    #[must_use]
    pub fn message(&self, l: super::format::Lang) -> String {
        use super::format::Lang;
        if l == Lang::En {
            return self.to_string();
        }
        match self {
            ConfigError::NotJson(e) => format!("不是有效的 JSON：{e}"),
            ConfigError::NotObject => "config 不是 JSON 对象".into(),
            ConfigError::Missing(f) => format!("缺少字段 `{f}`"),
            ConfigError::BadNumber { field, value, min, max } => {
                format!("字段 `{field}` 应为 {min} 到 {max} 的整数，实际为 {value}")
            }
            ConfigError::Unsupported { field, value, why } => format!("无法识别字段 `{field}` = {value}（{why}）"),
            ConfigError::Invalid(e) => format!("读出的模型不可用：{e}"),
        }
    }
}

impl Quantization {
    /// The planner's weight format for these pre-quantised weights, when it has one.
    #[must_use]
    pub fn weight_quant(&self) -> Option<super::scenario::WeightQuant> {
        use super::scenario::WeightQuant;
        match (self.method.as_str(), self.bits) {
            ("fp8" | "fbgemm_fp8", _) => Some(WeightQuant::Fp8),
            ("mxfp4", _) => Some(WeightQuant::Mxfp4),
            // NVIDIA ModelOpt checkpoints: `quant_algo: "NVFP4"`, read into the method.
            ("nvfp4", _) => Some(WeightQuant::Nvfp4),
            ("bitsandbytes", Some(4)) => Some(WeightQuant::Nf4),
            (_, Some(8)) => Some(WeightQuant::Int8),
            (_, Some(4)) => Some(WeightQuant::Int4),
            _ => None,
        }
    }
}

/// What a pasted text turned out to be: a model's `config.json`, or a
/// `model.safetensors.index.json` checked against the model in use.
#[derive(Debug, Clone, PartialEq)]
pub enum Pasted {
    Config(Box<ConfigRead>),
    /// The relative difference between the model's count and the index's size, when over 2%.
    Index(Option<f64>),
}

/// Reads a pasted `config.json` or `model.safetensors.index.json` (told apart by the index's
/// `weight_map`); an index is checked against `params` stored at `bytes_per_param`.
///
/// # Errors
/// What [`read_config`] or [`check_index`] reports.
pub fn read_pasted(text: &str, params: f64, bytes_per_param: f64) -> Result<Pasted, ConfigError> {
    let v: Value = super::json::parse(text).map_err(|e| ConfigError::NotJson(e.to_string()))?;
    if v.get("weight_map").is_some() {
        return check_index(text, params, bytes_per_param).map(Pasted::Index);
    }
    read_config(text).map(|r| Pasted::Config(Box::new(r)))
}
