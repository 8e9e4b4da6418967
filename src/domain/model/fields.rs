//! The custom form's view of a [`ModelSpec`]: the parts it switches on and off, the yes/no
//! flags and the numbers with their limits.

use super::{EncoderSpec, MlaSpec, ModelSpec, MoeSpec};

/// A part of the structure the custom form switches on or off as a whole; its fields are shown
/// only while it is on, and switching it off removes it (nothing stays behind hidden).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Always there: layers, widths, heads, vocabulary, context.
    Base,
    /// Mixture of experts ([`MoeSpec`]).
    Moe,
    /// Multi-head latent attention ([`MlaSpec`]).
    Mla,
    /// Sliding-window attention.
    Window,
    /// An encoder before the decoder ([`EncoderSpec`]).
    Encoder,
}

impl Part {
    pub const ALL: [Part; 5] = [Part::Base, Part::Moe, Part::Mla, Part::Window, Part::Encoder];

    /// Id of the part's switch in the custom form (`data-testid`); empty for the base.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Part::Base => "",
            Part::Moe => "m-moe",
            Part::Mla => "m-mla",
            Part::Window => "m-sliding",
            Part::Encoder => "m-encoder",
        }
    }

    /// Whether the model has this part.
    #[must_use]
    pub fn is_on(self, m: &ModelSpec) -> bool {
        match self {
            Part::Base => true,
            Part::Moe => m.moe.is_some(),
            Part::Mla => m.mla.is_some(),
            Part::Window => m.sliding_window.is_some(),
            Part::Encoder => m.encoder.is_some(),
        }
    }

    /// Adds the part (with the shape of a well-known model, to edit) or removes it entirely.
    /// Adding keeps a part that is already there.
    pub fn switch(self, m: &mut ModelSpec, on: bool) {
        if on == self.is_on(m) {
            return;
        }
        match self {
            Part::Base => {}
            // Mixtral-8x7B's routing: 8 experts, 2 per token, experts as wide as the dense MLP.
            Part::Moe => {
                m.moe = on.then(|| MoeSpec {
                    experts: 8,
                    experts_per_token: 2,
                    expert_intermediate: m.intermediate,
                    ..MoeSpec::default()
                });
            }
            // DeepSeek-V3's latent attention (kv rank 512, RoPE 64, no-RoPE 128, value 128).
            Part::Mla => {
                m.mla = on.then_some(MlaSpec {
                    kv_lora_rank: 512,
                    qk_rope_head_dim: 64,
                    qk_nope_head_dim: 128,
                    v_head_dim: 128,
                    q_lora_rank: None,
                });
            }
            // Mistral-7B-v0.1: a 4,096-token window on every layer.
            Part::Window => {
                m.sliding_window = on.then_some(4096);
                m.sliding_window_layers = on.then_some(1.0);
            }
            // T5's: as many encoder layers as decoder layers, 512 input tokens.
            Part::Encoder => m.encoder = on.then_some(EncoderSpec { layers: m.layers, seq: 512 }),
        }
    }
}

/// A yes/no property of the structure shown in the custom form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// SwiGLU/GeGLU MLP (three matrices).
    GatedMlp,
    /// The output head shares the input embedding.
    TiedEmbeddings,
}

impl Flag {
    pub const ALL: [Flag; 2] = [Flag::GatedMlp, Flag::TiedEmbeddings];

    /// Id of the checkbox in the custom form (`data-testid`).
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Flag::GatedMlp => "m-gated",
            Flag::TiedEmbeddings => "m-tied",
        }
    }

    #[must_use]
    pub fn get(self, m: &ModelSpec) -> bool {
        match self {
            Flag::GatedMlp => m.gated_mlp,
            Flag::TiedEmbeddings => m.tied_embeddings,
        }
    }

    pub fn set(self, m: &mut ModelSpec, on: bool) {
        match self {
            Flag::GatedMlp => m.gated_mlp = on,
            Flag::TiedEmbeddings => m.tied_embeddings = on,
        }
    }
}

/// One number of the model's structure: its limits (used by [`ModelSpec::validate`] and by the
/// custom form alike), and how to read and write it. A test rebuilds every preset from these
/// fields, the [`Part`] switches and the [`Flag`]s alone: nothing a preset carries is missing
/// from the custom form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dim {
    Layers,
    Hidden,
    Intermediate,
    Heads,
    KvHeads,
    HeadDim,
    Vocab,
    MaxContext,
    Experts,
    ExpertsPerToken,
    ExpertIntermediate,
    SharedExperts,
    DenseLayers,
    DenseIntermediate,
    /// Group-limited routing: expert groups a token may reach (empty: no limit).
    RouteGroups,
    KvLoraRank,
    QLoraRank,
    QkRopeHeadDim,
    QkNopeHeadDim,
    VHeadDim,
    Window,
    /// Share of layers with the window, in percent (Gemma 2 alternates: 50).
    WindowLayers,
    EncoderLayers,
    EncoderSeq,
}

/// What the form needs to know about a [`Dim`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DimInfo {
    /// Id of the field in the custom form (`data-testid`).
    pub id: &'static str,
    /// Name in error messages (the serde path).
    pub name: &'static str,
    /// Shown and checked only while this part is on.
    pub part: Part,
    pub min: f64,
    pub max: f64,
    /// Whole numbers only.
    pub integer: bool,
    /// May be left empty: derived (head dim = hidden ÷ heads, dense MLP = MLP size, window on
    /// every layer) or absent (no low-rank query).
    pub optional: bool,
}

impl Dim {
    /// In the order the custom form shows them.
    pub const ALL: [Dim; 24] = [
        Dim::Layers,
        Dim::Hidden,
        Dim::Intermediate,
        Dim::Heads,
        Dim::KvHeads,
        Dim::HeadDim,
        Dim::Vocab,
        Dim::MaxContext,
        Dim::Experts,
        Dim::ExpertsPerToken,
        Dim::ExpertIntermediate,
        Dim::SharedExperts,
        Dim::DenseLayers,
        Dim::DenseIntermediate,
        Dim::RouteGroups,
        Dim::KvLoraRank,
        Dim::QLoraRank,
        Dim::QkRopeHeadDim,
        Dim::QkNopeHeadDim,
        Dim::VHeadDim,
        Dim::Window,
        Dim::WindowLayers,
        Dim::EncoderLayers,
        Dim::EncoderSeq,
    ];

    #[must_use]
    pub fn info(self) -> DimInfo {
        let (id, name, part, min, max, optional) = match self {
            Dim::Layers => ("m-layers", "layers", Part::Base, 1.0, 1_000.0, false),
            Dim::Hidden => ("m-hidden", "hidden", Part::Base, 64.0, 100_000.0, false),
            Dim::Intermediate => ("m-ffn", "intermediate", Part::Base, 64.0, 1_000_000.0, false),
            Dim::Heads => ("m-heads", "heads", Part::Base, 1.0, 1_024.0, false),
            Dim::KvHeads => ("m-kv", "kv_heads", Part::Base, 1.0, 1_024.0, false),
            Dim::HeadDim => ("m-head-dim", "head_dim", Part::Base, 1.0, 4_096.0, true),
            Dim::Vocab => ("m-vocab", "vocab", Part::Base, 2.0, 2_000_000.0, false),
            Dim::MaxContext => ("m-context", "max_context", Part::Base, 0.0, 100_000_000.0, false),
            Dim::Experts => ("m-experts", "moe.experts", Part::Moe, 1.0, 4_096.0, false),
            Dim::ExpertsPerToken => ("m-top-k", "moe.experts_per_token", Part::Moe, 1.0, 4_096.0, false),
            Dim::ExpertIntermediate => ("m-expert-ffn", "moe.expert_intermediate", Part::Moe, 1.0, 1_000_000.0, false),
            Dim::SharedExperts => ("m-shared", "moe.shared_experts", Part::Moe, 0.0, 1_024.0, false),
            Dim::DenseLayers => ("m-dense-layers", "moe.dense_layers", Part::Moe, 0.0, 1_000.0, false),
            Dim::DenseIntermediate => ("m-dense-ffn", "moe.dense_intermediate", Part::Moe, 1.0, 1_000_000.0, true),
            Dim::RouteGroups => ("m-route-groups", "moe.route_groups", Part::Moe, 1.0, 4_096.0, true),
            Dim::KvLoraRank => ("m-kv-rank", "mla.kv_lora_rank", Part::Mla, 1.0, 65_536.0, false),
            Dim::QLoraRank => ("m-q-rank", "mla.q_lora_rank", Part::Mla, 1.0, 65_536.0, true),
            Dim::QkRopeHeadDim => ("m-rope-dim", "mla.qk_rope_head_dim", Part::Mla, 0.0, 4_096.0, false),
            Dim::QkNopeHeadDim => ("m-nope-dim", "mla.qk_nope_head_dim", Part::Mla, 0.0, 4_096.0, false),
            Dim::VHeadDim => ("m-v-dim", "mla.v_head_dim", Part::Mla, 1.0, 4_096.0, false),
            Dim::Window => ("m-window", "sliding_window", Part::Window, 1.0, 100_000_000.0, false),
            Dim::WindowLayers => ("m-window-layers", "sliding_window_layers", Part::Window, 0.0, 100.0, true),
            Dim::EncoderLayers => ("m-enc-layers", "encoder.layers", Part::Encoder, 1.0, 1_000.0, false),
            Dim::EncoderSeq => ("m-enc-seq", "encoder.seq", Part::Encoder, 1.0, 1_000_000.0, false),
        };
        DimInfo { id, name, part, min, max, integer: self != Dim::WindowLayers, optional }
    }

    /// The value (`None`: an empty optional field, or a part that is off).
    #[must_use]
    pub fn get(self, m: &ModelSpec) -> Option<f64> {
        let e = m.moe.as_ref();
        let a = m.mla.as_ref();
        let n = |v: u32| Some(f64::from(v));
        match self {
            Dim::Layers => n(m.layers),
            Dim::Hidden => n(m.hidden),
            Dim::Intermediate => n(m.intermediate),
            Dim::Heads => n(m.heads),
            Dim::KvHeads => n(m.kv_heads),
            Dim::HeadDim => m.head_dim.map(f64::from),
            Dim::Vocab => n(m.vocab),
            Dim::MaxContext => n(m.max_context),
            Dim::Experts => e.and_then(|e| n(e.experts)),
            Dim::ExpertsPerToken => e.and_then(|e| n(e.experts_per_token)),
            Dim::ExpertIntermediate => e.and_then(|e| n(e.expert_intermediate)),
            Dim::SharedExperts => e.and_then(|e| n(e.shared_experts)),
            Dim::DenseLayers => e.and_then(|e| n(e.dense_layers)),
            Dim::DenseIntermediate => e.and_then(|e| e.dense_intermediate.map(f64::from)),
            Dim::RouteGroups => e.and_then(|e| e.route_groups.map(f64::from)),
            Dim::KvLoraRank => a.and_then(|a| n(a.kv_lora_rank)),
            Dim::QLoraRank => a.and_then(|a| a.q_lora_rank.map(f64::from)),
            Dim::QkRopeHeadDim => a.and_then(|a| n(a.qk_rope_head_dim)),
            Dim::QkNopeHeadDim => a.and_then(|a| n(a.qk_nope_head_dim)),
            Dim::VHeadDim => a.and_then(|a| n(a.v_head_dim)),
            Dim::Window => m.sliding_window.map(f64::from),
            Dim::WindowLayers => m.sliding_window.and(m.sliding_window_layers).map(|f| f * 100.0),
            Dim::EncoderLayers => m.encoder.as_ref().and_then(|e| n(e.layers)),
            Dim::EncoderSeq => m.encoder.as_ref().and_then(|e| n(e.seq)),
        }
    }

    /// Writes a value; `None` empties an optional field (required ones read it as 0). A field
    /// of a part that is off is ignored: switching the part on comes first.
    pub fn set(self, m: &mut ModelSpec, v: Option<f64>) {
        // Values arrive within the field's limits; `as` saturates anything else.
        let w = v.map(|x| x as u32);
        let n = w.unwrap_or(0);
        let windowed = m.sliding_window.is_some();
        if let (Some(e), true) = (m.moe.as_mut(), self.info().part == Part::Moe) {
            match self {
                Dim::Experts => e.experts = n,
                Dim::ExpertsPerToken => e.experts_per_token = n,
                Dim::ExpertIntermediate => e.expert_intermediate = n,
                Dim::SharedExperts => e.shared_experts = n,
                Dim::DenseLayers => e.dense_layers = n,
                Dim::RouteGroups => e.route_groups = w,
                _ => e.dense_intermediate = w,
            }
            return;
        }
        if let (Some(a), true) = (m.mla.as_mut(), self.info().part == Part::Mla) {
            match self {
                Dim::KvLoraRank => a.kv_lora_rank = n,
                Dim::QLoraRank => a.q_lora_rank = w,
                Dim::QkRopeHeadDim => a.qk_rope_head_dim = n,
                Dim::QkNopeHeadDim => a.qk_nope_head_dim = n,
                _ => a.v_head_dim = n,
            }
            return;
        }
        if let (Some(e), true) = (m.encoder.as_mut(), self.info().part == Part::Encoder) {
            match self {
                Dim::EncoderLayers => e.layers = n,
                _ => e.seq = n,
            }
            return;
        }
        match self {
            Dim::Layers => m.layers = n,
            Dim::Hidden => m.hidden = n,
            Dim::Intermediate => m.intermediate = n,
            Dim::Heads => m.heads = n,
            Dim::KvHeads => m.kv_heads = n,
            Dim::HeadDim => m.head_dim = w,
            Dim::Vocab => m.vocab = n,
            Dim::MaxContext => m.max_context = n,
            Dim::Window if windowed => m.sliding_window = Some(n),
            Dim::WindowLayers if windowed => m.sliding_window_layers = v.map(|p| p / 100.0),
            _ => {}
        }
    }
}
