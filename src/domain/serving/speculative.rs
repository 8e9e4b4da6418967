//! Speculative decoding: a cheap draft (DeepSeek-V3's MTP module, an EAGLE head) proposes `k`
//! tokens, the model checks them in one forward pass of k + 1 tokens per request and keeps the
//! accepted prefix plus one token of its own. With each drafted token accepted independently
//! with probability α, a step yields (1 − α^(k+1)) / (1 − α) tokens per request on average, and
//! costs the verifying step plus k draft passes of c times a plain step each (Leviathan, Kalman &
//! Matias 2023, "Fast Inference from Transformers via Speculative Decoding", ICML, Eq. 1 and
//! Theorem 3.8: speed-up (1 − α^(k+1)) / ((1 − α)(kc + 1))). The verifying step's extra tokens
//! are charged by the step model itself (k + 1 query tokens per request: more FLOPs and traffic,
//! the same weights read).

use crate::domain::model::ModelSpec;

/// Mean tokens a decoding request gains per step with `k` drafted tokens each accepted with
/// probability `alpha` (Leviathan et al. 2023, Eq. 1); 1 with no draft.
#[must_use]
pub fn tokens_per_step(k: u32, alpha: f64) -> f64 {
    let a = alpha.clamp(0.0, 0.999_999);
    if k == 0 || a == 0.0 {
        return 1.0;
    }
    (1.0 - a.powi(k as i32 + 1)) / (1.0 - a)
}

/// c of Leviathan et al.: one draft pass's time over a plain decode step's. A draft is one
/// decoder layer and the output head (DeepSeek-V3 report §2.2: each MTP module is one
/// Transformer block with the main model's embedding and output head; EAGLE, Li et al. 2024
/// §4.1: one decoder layer under the target's LM head), and a small-batch decode step is its
/// weight reads, so c is that layer's and the head's share of the weights a step reads: the
/// active parameters less the input embedding (a gather, not a read of the table).
#[must_use]
pub fn draft_cost(m: &ModelSpec) -> f64 {
    let p = m.params();
    let head = f64::from(m.vocab) * f64::from(m.hidden);
    let input = if m.tied_embeddings { 0.0 } else { head };
    let read = (p.active - input).max(head);
    let body = read - head;
    ((body / f64::from(m.layers.max(1)) + head) / read).min(1.0)
}
