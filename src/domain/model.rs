//! Transformer model shapes (dense, MoE, GQA/MQA, MLA) and presets from published configs.

mod fields;

pub use fields::{Dim, DimInfo, Flag, Part};
use std::sync::LazyLock;

/// Mixture-of-experts feed-forward layout (Mixtral, Qwen3-MoE, DeepSeek-V3).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MoeSpec {
    pub experts: u32,
    pub experts_per_token: u32,
    pub shared_experts: u32,
    pub expert_intermediate: u32,
    /// Leading layers with a dense MLP (DeepSeek `first_k_dense_replace`).
    pub dense_layers: u32,
    /// Intermediate size of those dense layers (defaults to `intermediate`).
    pub dense_intermediate: Option<u32>,
    /// Group-limited routing: a token's experts lie in at most this many expert groups
    /// (config.json `topk_group`; DeepSeek-V3: 4 of 8, one group per node when the experts
    /// spread over 8 nodes — "node-limited routing", DeepSeek-AI 2024 §2.1.2).
    pub route_groups: Option<u32>,
}

/// Multi-head latent attention (DeepSeek-V2/V3): the KV cache holds a compressed latent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MlaSpec {
    pub kv_lora_rank: u32,
    pub qk_rope_head_dim: u32,
    pub qk_nope_head_dim: u32,
    pub v_head_dim: u32,
    pub q_lora_rank: Option<u32>,
}

/// The encoder of an encoder–decoder model (T5, Flan-T5, mT5/mT0, Whisper): as wide as the
/// decoder (same hidden size, heads, MLP); every decoder layer adds cross-attention over the
/// encoder's output (Vaswani et al. 2017 §3.1; Raffel et al. 2020 §3.1; Radford et al. 2022 §2.2).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EncoderSpec {
    pub layers: u32,
    /// Positions the encoder reads per sample: the input tokens (T5: 512 in its paper) or the
    /// audio frames (Whisper: 1,500 for a 30-second window). The scenario's sequence length and
    /// prompt are the decoder's.
    pub seq: u32,
}

/// A transformer's shape. `params_b`/`active_params_b` are the published counts; when absent
/// (custom models) they are computed from the dimensions by [`ModelSpec::computed_params`].
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSpec {
    pub id: String,
    pub name: String,
    /// The picker's group ("Llama", "Qwen", "DeepSeek"…); empty for custom models.
    pub family: String,
    pub params_b: Option<f64>,
    pub active_params_b: Option<f64>,
    pub layers: u32,
    pub hidden: u32,
    pub intermediate: u32,
    pub heads: u32,
    pub kv_heads: u32,
    pub head_dim: Option<u32>,
    pub vocab: u32,
    pub max_context: u32,
    pub tied_embeddings: bool,
    /// SwiGLU/GeGLU (three matrices) rather than a plain two-matrix MLP.
    pub gated_mlp: bool,
    pub moe: Option<MoeSpec>,
    pub mla: Option<MlaSpec>,
    /// Sliding attention window, if any (caps that layer's KV cache).
    pub sliding_window: Option<u32>,
    /// Share of layers that use the sliding window (Gemma 2 alternates: 0.5; Mistral v0.1: 1.0).
    pub sliding_window_layers: Option<f64>,
    /// Encoder–decoder models: the encoder (`layers` are then the decoder's).
    pub encoder: Option<EncoderSpec>,
    pub source: String,
    pub notes: String,
}

impl Default for ModelSpec {
    /// A Llama-2-7B-shaped custom model.
    fn default() -> Self {
        Self {
            id: "custom".into(),
            name: "Custom".into(),
            family: String::new(),
            params_b: None,
            active_params_b: None,
            layers: 32,
            hidden: 4096,
            intermediate: 11008,
            heads: 32,
            kv_heads: 32,
            head_dim: None,
            vocab: 32000,
            max_context: 4096,
            tied_embeddings: false,
            gated_mlp: true,
            moe: None,
            mla: None,
            sliding_window: None,
            sliding_window_layers: None,
            encoder: None,
            source: String::new(),
            notes: String::new(),
        }
    }
}

/// Parameter counts split the way memory and FLOPs need them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamCounts {
    /// Everything stored.
    pub total: f64,
    /// Used per token (MoE: shared parts + routed experts).
    pub active: f64,
    /// Input embedding + (untied) output head: kept at 16 bits when weights are quantized.
    pub embedding: f64,
}

impl ModelSpec {
    #[must_use]
    pub fn head_dim(&self) -> u32 {
        self.head_dim.unwrap_or(self.hidden / self.heads.max(1))
    }

    fn mlp_params(&self, intermediate: u32) -> f64 {
        let m = if self.gated_mlp { 3.0 } else { 2.0 };
        m * f64::from(self.hidden) * f64::from(intermediate)
    }

    fn attention_params(&self) -> f64 {
        let h = f64::from(self.hidden);
        let heads = f64::from(self.heads);
        if let Some(m) = &self.mla {
            // DeepSeek-V3 modeling code: q via a low-rank path, kv via the compressed latent.
            let qk = f64::from(m.qk_nope_head_dim + m.qk_rope_head_dim);
            let q = match m.q_lora_rank {
                Some(r) => h * f64::from(r) + f64::from(r) * heads * qk,
                None => h * heads * qk,
            };
            let kv_a = h * f64::from(m.kv_lora_rank + m.qk_rope_head_dim);
            let kv_b = f64::from(m.kv_lora_rank) * heads * f64::from(m.qk_nope_head_dim + m.v_head_dim);
            let o = heads * f64::from(m.v_head_dim) * h;
            return q + kv_a + kv_b + o;
        }
        let d = f64::from(self.head_dim());
        let q_and_o = 2.0 * h * heads * d;
        let kv = 2.0 * h * f64::from(self.kv_heads) * d;
        q_and_o + kv
    }

    /// Parameter counts from the dimensions (norms and biases, <0.1%, are left out).
    #[must_use]
    pub fn computed_params(&self) -> ParamCounts {
        let h = f64::from(self.hidden);
        let layers = f64::from(self.layers);
        let embed = f64::from(self.vocab) * h * if self.tied_embeddings { 1.0 } else { 2.0 };
        let attn = self.attention_params() * (layers + self.cross_attention_layers());
        let (mlp_total, mlp_active) = match &self.moe {
            None => {
                let p = self.mlp_params(self.intermediate) * layers;
                (p, p)
            }
            Some(moe) => {
                let dense_l = f64::from(moe.dense_layers.min(self.layers));
                let moe_l = layers - dense_l;
                let dense = self.mlp_params(moe.dense_intermediate.unwrap_or(self.intermediate)) * dense_l;
                let expert = self.mlp_params(moe.expert_intermediate);
                let router = h * f64::from(moe.experts);
                let total = dense + moe_l * (expert * f64::from(moe.experts + moe.shared_experts) + router);
                let active = dense + moe_l * (expert * f64::from(moe.experts_per_token + moe.shared_experts) + router);
                (total, active)
            }
        };
        let enc = self.encoder_layer_params();
        ParamCounts { total: embed + attn + mlp_total + enc, active: embed + attn + mlp_active + enc, embedding: embed }
    }

    /// Transformer blocks: the decoder's layers and the encoder's, if any.
    #[must_use]
    pub fn blocks(&self) -> u32 {
        self.layers + self.encoder.as_ref().map_or(0, |e| e.layers)
    }

    /// Attention modules: one per block, plus each decoder layer's cross-attention.
    #[must_use]
    pub fn attention_modules(&self) -> f64 {
        f64::from(self.blocks()) + self.cross_attention_layers()
    }

    /// Decoder layers with cross-attention over an encoder (0 for decoder-only models).
    fn cross_attention_layers(&self) -> f64 {
        if self.encoder.is_some() {
            f64::from(self.layers)
        } else {
            0.0
        }
    }

    /// Parameters of the encoder's layers (self-attention and a dense MLP each).
    fn encoder_layer_params(&self) -> f64 {
        self.encoder
            .as_ref()
            .map_or(0.0, |e| f64::from(e.layers) * (self.attention_params() + self.mlp_params(self.intermediate)))
    }

    /// Share of the parameters in the encoder's layers: they process the encoder's positions,
    /// not the decoder's tokens (0 for decoder-only models).
    #[must_use]
    pub fn encoder_fraction(&self) -> f64 {
        let c = self.computed_params();
        (self.encoder_layer_params() / c.total.max(1.0)).clamp(0.0, 1.0)
    }

    /// Positions each request's cache holds besides its own tokens: the encoder output's keys and
    /// values in every decoder layer's cross-attention, one position per encoder position, the
    /// same size per position as a token of self-attention cache (MHA in T5 and Whisper).
    #[must_use]
    pub fn cross_kv_positions(&self) -> f64 {
        self.encoder.as_ref().map_or(0.0, |e| f64::from(e.seq))
    }

    /// Counts used for planning: the published totals when known, else the computed ones.
    #[must_use]
    pub fn params(&self) -> ParamCounts {
        let c = self.computed_params();
        let total = self.params_b.map_or(c.total, |b| b * 1e9);
        let active = self.active_params_b.map_or(c.active * total / c.total.max(1.0), |b| b * 1e9);
        ParamCounts { total, active: active.min(total), embedding: c.embedding.min(total) }
    }

    /// Layers with a dense MLP and that MLP's intermediate width: every layer of a dense model;
    /// an MoE model's leading dense layers (DeepSeek-V3's first 3), at their own width where the
    /// config gives one.
    #[must_use]
    pub fn dense_mlp(&self) -> (u32, u32) {
        match &self.moe {
            None => (self.layers, self.intermediate),
            Some(x) => (x.dense_layers.min(self.layers), x.dense_intermediate.unwrap_or(self.intermediate)),
        }
    }

    /// Share of all parameters that sit in routed experts (0 for dense models).
    #[must_use]
    pub fn routed_expert_fraction(&self) -> f64 {
        self.routed_share(|e| e.experts, |c| c.total)
    }

    /// Share of the active parameters (those a token works through) that sit in the routed
    /// experts it picks: top-k of them per MoE layer; shared experts and the router are dense
    /// GEMMs (0 for dense models).
    #[must_use]
    pub fn routed_active_fraction(&self) -> f64 {
        self.routed_share(|e| e.experts_per_token, |c| c.active)
    }

    /// `experts(moe)` routed experts per MoE layer over the `of(computed)` parameters.
    fn routed_share(&self, experts: fn(&MoeSpec) -> u32, of: fn(&ParamCounts) -> f64) -> f64 {
        let Some(moe) = &self.moe else { return 0.0 };
        let moe_layers = f64::from(self.layers.saturating_sub(moe.dense_layers));
        let routed = moe_layers * self.mlp_params(moe.expert_intermediate) * f64::from(experts(moe));
        (routed / of(&self.computed_params()).max(1.0)).clamp(0.0, 1.0)
    }

    /// KV-cache values per token (all layers, K and V), before multiplying by bytes per value.
    /// MLA caches the latent + the RoPE key once per layer (DeepSeek-V2 paper, §2.1.2).
    #[must_use]
    pub fn kv_values_per_token(&self) -> f64 {
        let layers = f64::from(self.layers);
        match &self.mla {
            Some(m) => layers * f64::from(m.kv_lora_rank + m.qk_rope_head_dim),
            None => 2.0 * layers * f64::from(self.kv_heads) * f64::from(self.head_dim()),
        }
    }

    /// This model as the start of a custom one: every structural field is kept (the custom form
    /// shows each of them, see [`Dim`], [`Part`] and [`Flag`]); the published parameter counts, which no longer
    /// hold once a dimension changes, and the preset's id, source and notes are dropped.
    #[must_use]
    pub fn as_custom(&self) -> ModelSpec {
        ModelSpec {
            id: "custom".into(),
            name: "Custom".into(),
            family: String::new(),
            params_b: None,
            active_params_b: None,
            source: String::new(),
            notes: String::new(),
            // A share of windowed layers means nothing without a window.
            sliding_window_layers: self.sliding_window.and(self.sliding_window_layers),
            ..self.clone()
        }
    }

    /// Checks the dimensions are usable: every [`Dim`] in use is within its limits (the
    /// custom form takes its limits from the same place).
    ///
    /// # Errors
    /// A message naming the first bad dimension.
    pub fn validate(&self) -> Result<(), String> {
        for d in Dim::ALL {
            let f = d.info();
            if let (true, Some(v)) = (f.part.is_on(self), d.get(self)) {
                if !(v.is_finite() && (f.min..=f.max).contains(&v)) {
                    return Err(format!("{} must be between {} and {}, got {v}", f.name, f.min, f.max));
                }
            }
        }
        if self.kv_heads > self.heads {
            return Err(format!("kv_heads {} exceeds heads {}", self.kv_heads, self.heads));
        }
        for (name, v) in [("params_b", self.params_b), ("active_params_b", self.active_params_b)] {
            if let Some(v) = v {
                if !(v.is_finite() && v > 0.0 && v <= 100_000.0) {
                    return Err(format!("{name} must be in (0, 100000], got {v}"));
                }
            }
        }
        if let Some(m) = &self.moe {
            if m.experts == 0
                || m.experts_per_token == 0
                || m.experts_per_token > m.experts
                || m.expert_intermediate == 0
            {
                return Err("moe needs experts ≥ experts_per_token ≥ 1 and an expert_intermediate".into());
            }
        }
        Ok(())
    }
}

/// `models.json` as written, with every preset's source and notes (tests, CLI).
pub const MODELS_JSON: &str = include_str!("models.json");

static PRESETS: LazyLock<Vec<ModelSpec>> = LazyLock::new(|| {
    // The page's copy (build.rs) without notes and source links; tests/models.rs parses both
    // texts and checks every preset, so the fallback is never used.
    super::json::parse(super::page_data::part(super::page_data::Part::Models)).unwrap_or_default()
});

/// Model presets from published configs (`src/domain/models.json`).
#[must_use]
pub fn presets() -> &'static [ModelSpec] {
    &PRESETS
}

/// A preset by id.
#[must_use]
pub fn preset(id: &str) -> Option<&'static ModelSpec> {
    PRESETS.iter().find(|m| m.id == id)
}

// Deserialize by table (domain/read.rs): the same meaning as a derive with #[serde(default)].
crate::read_fields!(MoeSpec {
    experts: whole,
    experts_per_token: whole,
    shared_experts: whole,
    expert_intermediate: whole,
    dense_layers: whole,
    dense_intermediate: opt_whole,
    route_groups: opt_whole
});
crate::read_fields!(MlaSpec {
    kv_lora_rank: whole,
    qk_rope_head_dim: whole,
    qk_nope_head_dim: whole,
    v_head_dim: whole,
    q_lora_rank: opt_whole
});
crate::read_fields!(EncoderSpec { layers: whole, seq: whole });
crate::read_fields!(ModelSpec {
    id: text,
    name: text,
    family: text,
    params_b: opt_real,
    active_params_b: opt_real,
    layers: whole,
    hidden: whole,
    intermediate: whole,
    heads: whole,
    kv_heads: whole,
    head_dim: opt_whole,
    vocab: whole,
    max_context: whole,
    tied_embeddings: flag,
    gated_mlp: flag,
    moe: any,
    mla: any,
    sliding_window: opt_whole,
    sliding_window_layers: opt_real,
    encoder: any,
    source: text,
    notes: text
});
