//! The optional parts of a config: an encoder–decoder pair, experts, latent attention,
//! per-layer attention kinds, pre-quantised weights and a vision tower.

use super::{short, unsupported, whole, ConfigError, Fields, Quantization, BIG};
use crate::domain::model::{EncoderSpec, MlaSpec, ModelSpec, MoeSpec};
use serde_json::{Map, Value};

/// An encoder–decoder config in either naming: T5's (`num_layers` encoder, `num_decoder_layers`,
/// `d_model`, `d_ff`, `d_kv`, `num_heads`, `feed_forward_proj`) or BART's, which Whisper shares
/// (`encoder_layers`, `decoder_layers`, `*_attention_heads`, `*_ffn_dim`,
/// `max_source_positions`). Both stacks must have the same width, heads and MLP.
pub(super) fn read_encoder_decoder(
    f: &Fields,
    model_type: &str,
    notes: &mut Vec<String>,
) -> Result<ModelSpec, ConfigError> {
    let hidden = f.need("d_model", 64, 100_000)?;
    let vocab = f.need("vocab_size", 2, 2_000_000)?;
    let Stacks { enc_layers, layers, heads, head_dim, intermediate, gated, enc_seq, max_context } =
        if f.get("d_ff").is_some() { t5_stacks(f, notes)? } else { bart_stacks(f, notes)? };
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
        encoder: Some(EncoderSpec { layers: enc_layers, seq: enc_seq }),
        source: "config.json".into(),
        ..ModelSpec::default()
    })
}

pub(super) fn read_moe(
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
        // DeepSeek-V2/V3: experts in n_group groups, a token's top-k within topk_group of them.
        // (Kimi K2 and GLM-4.5 write n_group = topk_group = 1: no limit.)
        route_groups: match (f.uint("n_group", 1, 65_536)?, f.uint("topk_group", 1, 65_536)?) {
            (Some(n), Some(k)) if k < n && k < top_k => Some(k),
            _ => None,
        },
    }))
}

pub(super) fn read_mla(f: &Fields) -> Result<Option<MlaSpec>, ConfigError> {
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
pub(super) fn read_attention_layers(
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

pub(super) fn read_quantization(f: &Fields) -> Result<Option<Quantization>, ConfigError> {
    let Some(q) = f.get("quantization_config") else { return Ok(None) };
    let Some(q) = q.as_object() else { return Err(unsupported("quantization_config", q, "expected an object")) };
    let mut method = q.get("quant_method").and_then(Value::as_str).unwrap_or("unknown").to_string();
    // NVIDIA ModelOpt (`quant_method: "modelopt"`) names its format in `quant_algo`.
    if q.get("quant_algo").and_then(Value::as_str).is_some_and(|a| a.eq_ignore_ascii_case("nvfp4")) {
        method = "nvfp4".into();
    }
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
        // NVFP4: 4-bit values, one FP8 scale per 16.
        "nvfp4" => {
            bits = bits.or(Some(4));
            group = group.or(Some(16));
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
pub(super) fn read_vision(root: &Map<String, Value>) -> Result<Option<f64>, ConfigError> {
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

/// The two stacks' shapes of an encoder–decoder config.
struct Stacks {
    enc_layers: u32,
    layers: u32,
    heads: u32,
    head_dim: Option<u32>,
    intermediate: u32,
    gated: bool,
    enc_seq: u32,
    max_context: u32,
}

/// T5's naming: `num_layers` (encoder), `num_decoder_layers`, `num_heads`, `d_kv`, `d_ff`,
/// `feed_forward_proj`; the encoder reads 512 tokens (T5's training length).
fn t5_stacks(f: &Fields, notes: &mut Vec<String>) -> Result<Stacks, ConfigError> {
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
    Ok(Stacks {
        enc_layers: enc,
        layers: dec,
        heads: f.need("num_heads", 1, 1_024)?,
        head_dim: f.uint("d_kv", 1, 4_096)?,
        intermediate: f.need("d_ff", 1, BIG)?,
        gated,
        enc_seq: 512,
        max_context: context,
    })
}

/// BART's naming, which Whisper shares: `encoder_layers`, `decoder_layers`,
/// `*_attention_heads`, `*_ffn_dim`, `max_source_positions`; both stacks of one width.
fn bart_stacks(f: &Fields, notes: &mut Vec<String>) -> Result<Stacks, ConfigError> {
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
    Ok(Stacks {
        enc_layers: enc,
        layers: dec,
        heads,
        head_dim: None,
        intermediate: ffn,
        gated: false,
        enc_seq: source,
        max_context: context,
    })
}
