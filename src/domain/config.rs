//! A Hugging Face `config.json` read into a [`ModelSpec`], field by field, with an error naming
//! the field for anything not understood (nothing required is silently defaulted).
//!
//! Field names follow the `transformers` configuration classes: Llama/Qwen/Mistral/Gemma
//! (`num_hidden_layers`, `hidden_size`, …), MoE under each family's name (`num_local_experts`,
//! `num_experts`, `n_routed_experts`, …), DeepSeek's MLA (`kv_lora_rank`, …), per-layer
//! `layer_types`, the `text_config` of vision-language models and `quantization_config`.

use super::model::{MlaSpec, ModelSpec, MoeSpec};
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
    let kv_heads = match f.uint("num_key_value_heads", 1, 1_024)? {
        Some(k) => k,
        None => {
            notes.push("no num_key_value_heads: one KV head per attention head (multi-head attention)".into());
            heads
        }
    };
    let head_dim = f.uint("head_dim", 1, 4_096)?;
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

/// An encoder–decoder config in either naming: T5's (`num_layers` encoder, `num_decoder_layers`,
/// `d_model`, `d_ff`, `d_kv`, `num_heads`, `feed_forward_proj`) or BART's, which Whisper shares
/// (`encoder_layers`, `decoder_layers`, `*_attention_heads`, `*_ffn_dim`,
/// `max_source_positions`). Both stacks must have the same width, heads and MLP.
fn read_encoder_decoder(f: &Fields, model_type: &str, notes: &mut Vec<String>) -> Result<ModelSpec, ConfigError> {
    let hidden = f.need("d_model", 64, 100_000)?;
    let vocab = f.need("vocab_size", 2, 2_000_000)?;
    // The decoder's figure, when given, must be the encoder's.
    let same = |k: &'static str, x: u32| -> Result<(), ConfigError> {
        match f.uint(k, 1, BIG)? {
            Some(y) if y != x => Err(ConfigError::Unsupported {
                field: k.into(),
                value: y.to_string(),
                why: "encoder and decoder of different shapes are not supported",
            }),
            _ => Ok(()),
        }
    };
    let (enc_layers, layers, heads, head_dim, intermediate, gated, enc_seq, max_context) = if f.get("d_ff").is_some() {
        let enc = f.need("num_layers", 1, 1_000)?;
        let dec = f.uint("num_decoder_layers", 1, 1_000)?.unwrap_or(enc);
        let proj = f.text_of("feed_forward_proj").unwrap_or("relu");
        if f.get("feed_forward_proj").is_none() {
            notes.push("no feed_forward_proj: relu, T5's default (two-matrix MLP)".into());
        }
        let gated = proj.starts_with("gated");
        if !gated && !["relu", "gelu", "gelu_new", "silu"].contains(&proj) {
            return Err(unsupported(
                "feed_forward_proj",
                f.get("feed_forward_proj").unwrap_or(&Value::Null),
                "expected relu or gated-gelu",
            ));
        }
        notes.push("encoder input: 512 tokens (T5's training length), editable as the encoder's positions".into());
        let context = f.uint("n_positions", 1, 100_000_000)?.unwrap_or(512);
        (
            enc,
            dec,
            f.need("num_heads", 1, 1_024)?,
            f.uint("d_kv", 1, 4_096)?,
            f.need("d_ff", 1, BIG)?,
            gated,
            512,
            context,
        )
    } else {
        let enc = f.need("encoder_layers", 1, 1_000)?;
        let dec = f.need("decoder_layers", 1, 1_000)?;
        let heads = f.need("encoder_attention_heads", 1, 1_024)?;
        same("decoder_attention_heads", heads)?;
        let ffn = f.need("encoder_ffn_dim", 1, BIG)?;
        same("decoder_ffn_dim", ffn)?;
        let source = match f.uint("max_source_positions", 1, 100_000_000)? {
            Some(n) => n,
            None => {
                notes.push("no max_source_positions: the encoder reads max_position_embeddings".into());
                f.need("max_position_embeddings", 1, 100_000_000)?
            }
        };
        let context = f.any(&["max_target_positions", "max_position_embeddings"], 1, 100_000_000)?.unwrap_or(source);
        (enc, dec, heads, None, ffn, false, source, context)
    };
    // transformers' PretrainedConfig ties the output head unless told otherwise.
    let tied = match f.flag("tie_word_embeddings")? {
        Some(t) => t,
        None => {
            notes.push("no tie_word_embeddings: tied, transformers' default for this family".into());
            true
        }
    };
    notes.push(format!("encoder–decoder ({model_type}): {enc_layers} encoder and {layers} decoder layers"));
    Ok(ModelSpec {
        id: "custom".into(),
        name: f.model_name(),
        layers,
        hidden,
        intermediate,
        heads,
        kv_heads: heads,
        head_dim,
        vocab,
        max_context,
        tied_embeddings: tied,
        gated_mlp: gated,
        encoder: Some(super::model::EncoderSpec { layers: enc_layers, seq: enc_seq }),
        source: "config.json".into(),
        ..ModelSpec::default()
    })
}

fn read_moe(
    f: &Fields,
    model_type: &str,
    layers: u32,
    notes: &mut Vec<String>,
) -> Result<Option<MoeSpec>, ConfigError> {
    let Some(experts) =
        f.any(&["num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"], 0, 65_536)?
    else {
        return Ok(None);
    };
    if experts == 0 {
        return Ok(None);
    }
    let top_k = f
        .any(&["num_experts_per_tok", "experts_per_token", "moe_topk", "moe_k"], 1, 65_536)?
        .ok_or(ConfigError::Missing("num_experts_per_tok"))?;
    let moe_inter = f.uint("moe_intermediate_size", 1, BIG)?;
    let dense_inter = f.uint("intermediate_size", 1, BIG)?;
    // Mixtral, gpt-oss, MiniMax and Llama 4 name the expert width `intermediate_size`.
    let expert_intermediate = moe_inter.or(dense_inter).unwrap_or(0);
    let mut shared = f.any(&["n_shared_experts", "num_shared_experts"], 0, 65_536)?.unwrap_or(0);
    if let Some(w) = f.any(&["shared_expert_intermediate_size", "shared_intermediate_size"], 0, BIG)? {
        if w > 0 && shared == 0 {
            // One shared expert of width w: counted as w ÷ expert width experts of the routed width.
            if expert_intermediate == 0 || w % expert_intermediate != 0 {
                return Err(ConfigError::Unsupported {
                    field: "shared_expert_intermediate_size".into(),
                    value: w.to_string(),
                    why: "not a multiple of the expert width",
                });
            }
            shared = w / expert_intermediate;
        }
    }
    let mut dense_intermediate = None;
    if model_type.starts_with("llama4") {
        // Llama 4: a shared expert beside the routed ones; dense layers use intermediate_size_mlp.
        shared = shared.max(1);
        dense_intermediate = f.uint("intermediate_size_mlp", 1, BIG)?;
        notes.push("llama 4: one shared expert per MoE layer".into());
    } else if moe_inter.is_some() && dense_inter != moe_inter {
        dense_intermediate = dense_inter;
    }
    let mut dense_layers = f.uint("first_k_dense_replace", 0, 1_000)?.unwrap_or(0);
    if let Some(v) = f.get("mlp_only_layers") {
        let Some(a) = v.as_array() else {
            return Err(unsupported("mlp_only_layers", v, "expected a list of layer numbers"));
        };
        dense_layers += u32::try_from(a.len()).unwrap_or(u32::MAX);
    }
    for k in ["decoder_sparse_step", "interleave_moe_layer_step", "moe_layer_freq"] {
        if let Some(step) = f.uint(k, 1, 1_000)? {
            if step > 1 {
                dense_layers += layers - layers / step;
                notes.push(format!("`{k}` = {step}: {} of {layers} layers are MoE", layers / step));
            }
        }
    }
    if dense_layers > 0 && dense_intermediate.is_none() && dense_inter.is_none() {
        return Err(ConfigError::Missing("intermediate_size"));
    }
    if dense_layers == 0 {
        // No dense layer to size: the dense width is irrelevant (as in the presets).
        dense_intermediate = None;
    }
    Ok(Some(MoeSpec {
        experts,
        experts_per_token: top_k,
        shared_experts: shared,
        expert_intermediate,
        dense_layers: dense_layers.min(layers),
        dense_intermediate,
    }))
}

fn read_mla(f: &Fields) -> Result<Option<MlaSpec>, ConfigError> {
    let Some(kv_lora_rank) = f.uint("kv_lora_rank", 1, 65_536)? else { return Ok(None) };
    let need = |k: &'static str| f.uint(k, 0, 4_096)?.ok_or(ConfigError::Missing(k));
    Ok(Some(MlaSpec {
        kv_lora_rank,
        qk_rope_head_dim: need("qk_rope_head_dim")?,
        qk_nope_head_dim: need("qk_nope_head_dim")?,
        v_head_dim: need("v_head_dim")?,
        q_lora_rank: f.uint("q_lora_rank", 1, 65_536)?,
    }))
}

/// Sliding-window and linear-attention layers as (window, share of layers). A linear-attention
/// layer (Gated DeltaNet, Lightning) keeps a fixed state instead of a growing KV cache: it is
/// counted as a windowed layer whose window holds as many values as that state.
fn read_attention_layers(
    f: &Fields,
    model_type: &str,
    layers: u32,
    kv_heads: u32,
    head_dim: u32,
    notes: &mut Vec<String>,
) -> Result<(Option<u32>, Option<f64>), ConfigError> {
    let mut counts = [0u32; 3]; // full, sliding, linear
    let mut typed = false;
    if let Some(v) = f.get("layer_types") {
        let Some(a) = v.as_array() else { return Err(unsupported("layer_types", v, "expected a list")) };
        if a.len() != layers as usize {
            return Err(ConfigError::Unsupported {
                field: "layer_types".into(),
                value: format!("{} entries", a.len()),
                why: "expected one per hidden layer",
            });
        }
        for (i, t) in a.iter().enumerate() {
            let slot = match t.as_str() {
                Some("full_attention" | "attention" | "global") => 0,
                Some("sliding_attention" | "sliding_window" | "local") => 1,
                Some("linear_attention") => 2,
                _ => {
                    return Err(ConfigError::Unsupported {
                        field: format!("layer_types[{i}]"),
                        value: short(t),
                        why: "expected full_attention, sliding_attention or linear_attention",
                    })
                }
            };
            counts[slot] += 1;
        }
        typed = true;
    } else if let Some(n) = f.uint("full_attention_interval", 1, 1_000)? {
        // Qwen3-Next: every n-th layer is full attention, the rest linear.
        counts = [layers / n, 0, layers - layers / n];
        typed = true;
    }
    let window =
        if f.flag("use_sliding_window")? == Some(false) { None } else { f.uint("sliding_window", 1, 100_000_000)? };
    if counts[1] > 0 && counts[2] > 0 {
        return Err(ConfigError::Unsupported {
            field: "layer_types".into(),
            value: "sliding and linear layers".into(),
            why: "a model with both kinds is not supported",
        });
    }
    if counts[2] > 0 {
        let share = f64::from(counts[2]) / f64::from(layers);
        let v_heads = f.need("linear_num_value_heads", 1, 1_024)?;
        let k_dim = f.need("linear_key_head_dim", 1, 4_096)?;
        let v_dim = f.need("linear_value_head_dim", 1, 4_096)?;
        let state = u64::from(v_heads) * u64::from(k_dim) * u64::from(v_dim);
        let per_token = 2 * u64::from(kv_heads) * u64::from(head_dim);
        let w = u32::try_from(state.div_ceil(per_token.max(1))).unwrap_or(u32::MAX).max(1);
        notes.push(format!(
            "{} of {layers} layers use linear attention: their fixed state is counted as a {w}-token window",
            counts[2]
        ));
        return Ok((Some(w), Some(share)));
    }
    let Some(w) = window else {
        return if counts[1] > 0 { Err(ConfigError::Missing("sliding_window")) } else { Ok((None, None)) };
    };
    let share = if typed {
        f64::from(counts[1]) / f64::from(layers)
    } else if let Some(p) = f.uint("sliding_window_pattern", 1, 1_000)? {
        // Gemma 3: one global layer in every `p`.
        f64::from(p - 1) / f64::from(p)
    } else if model_type == "gemma2" {
        0.5
    } else {
        1.0
    };
    if share == 0.0 {
        return Ok((None, None));
    }
    if share >= 1.0 && w >= f.uint("max_position_embeddings", 0, 100_000_000)?.unwrap_or(u32::MAX) {
        // A window as long as the context (Qwen2.5's `sliding_window: 131072`) changes nothing.
        return Ok((None, None));
    }
    notes.push(format!("sliding window of {w} tokens on {:.0}% of layers", share * 100.0));
    Ok((Some(w), Some(share)))
}

fn read_quantization(f: &Fields) -> Result<Option<Quantization>, ConfigError> {
    let Some(q) = f.get("quantization_config") else { return Ok(None) };
    let Some(q) = q.as_object() else { return Err(unsupported("quantization_config", q, "expected an object")) };
    let method = q.get("quant_method").and_then(Value::as_str).unwrap_or("unknown").to_string();
    let num = |k: &str| q.get(k).map(|v| whole(&format!("quantization_config.{k}"), v, 1, 1_000_000)).transpose();
    let mut bits = num("bits")?.or(num("w_bit")?).or(num("weight_bits")?);
    let mut group = num("group_size")?.or(num("q_group_size")?);
    if let Some(g) = q.get("config_groups").and_then(Value::as_object) {
        // compressed-tensors: the first group's weight scheme.
        if let Some(w) = g.values().next().and_then(|x| x.get("weights")) {
            bits = bits.or(w.get("num_bits").and_then(Value::as_u64).and_then(|b| u32::try_from(b).ok()));
            group = group.or(w.get("group_size").and_then(Value::as_u64).and_then(|b| u32::try_from(b).ok()));
        }
    }
    if q.get("load_in_4bit") == Some(&Value::Bool(true)) {
        bits = bits.or(Some(4));
    } else if q.get("load_in_8bit") == Some(&Value::Bool(true)) {
        bits = bits.or(Some(8));
    }
    match method.as_str() {
        "fp8" | "fbgemm_fp8" => bits = bits.or(Some(8)),
        // OCP MX: 4-bit values, one scale per 32.
        "mxfp4" => {
            bits = bits.or(Some(4));
            group = group.or(Some(32));
        }
        _ => {}
    }
    if let Some(b) = q.get("weight_block_size").and_then(Value::as_array) {
        let side = |i: usize| b.get(i).and_then(Value::as_u64).unwrap_or(1);
        group = group.or(u32::try_from(side(0) * side(1)).ok());
    }
    Ok(Some(Quantization { method, bits, group_size: group }))
}

/// Vision transformer parameters: per block 4·h² (attention) + 2·h·i (MLP), no gate.
fn read_vision(root: &Map<String, Value>) -> Result<Option<f64>, ConfigError> {
    let Some(v) = root.get("vision_config").and_then(Value::as_object) else { return Ok(None) };
    let f = Fields { text: v, root: v };
    let depth = f.any(&["depth", "num_hidden_layers"], 1, 1_000)?;
    let h = f.uint("hidden_size", 1, 100_000)?;
    let i = f.uint("intermediate_size", 1, BIG)?;
    Ok(match (depth, h, i) {
        (Some(d), Some(h), Some(i)) => {
            let (d, h, i) = (f64::from(d), f64::from(h), f64::from(i));
            Some(d * (4.0 * h * h + 2.0 * h * i))
        }
        _ => None,
    })
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
