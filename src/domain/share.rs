//! Scenario ⇄ share-link text. Only the fields that differ from the default scenario are
//! encoded (short links), as JSON in URL-safe base64, behind a version prefix: `v1.<payload>`.
//! Decoding returns `Result` and never panics.

use super::error::DecodeError;
use super::scenario::Scenario;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{Map, Value};

/// Longest link payload accepted (a scenario with a few custom cards is ~3 kB).
pub const MAX_LEN: usize = 16_384;
const PREFIX: &str = "v1.";

/// The changed fields of `new` relative to `base` (objects compared key by key).
fn diff(base: &Value, new: &Value) -> Option<Value> {
    match (base, new) {
        (Value::Object(b), Value::Object(n)) => {
            // Inserted one by one: collecting into the map would sort the pairs with a stable
            // sort instance of its own (~3 KB of wasm) although they arrive in key order.
            let mut out = Map::new();
            for (k, v) in n {
                let changed = match b.get(k) {
                    Some(bv) => diff(bv, v),
                    None => Some(v.clone()),
                };
                if let Some(d) = changed {
                    out.insert(k.clone(), d);
                }
            }
            (!out.is_empty()).then_some(Value::Object(out))
        }
        _ => (base != new).then(|| new.clone()),
    }
}

/// Lays `patch` over `base` (objects merged key by key, everything else replaced).
fn merge(base: &mut Value, patch: Value) {
    match (base, patch) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                merge(b.entry(k).or_insert(Value::Null), v);
            }
        }
        (b, p) => *b = p,
    }
}

/// The link payload of a scenario (`v1.` + base64url of the JSON diff from the default).
#[must_use]
pub fn encode(s: &Scenario) -> String {
    let base = serde_json::to_value(Scenario::default()).unwrap_or(Value::Null);
    let new = serde_json::to_value(s).unwrap_or(Value::Null);
    let d = diff(&base, &new).unwrap_or_else(|| Value::Object(Map::new()));
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(d.to_string()))
}

/// Pulls the payload out of a whole URL (`…?s=v1.…` or `…#s=v1.…`) or takes the text as is.
#[must_use]
pub fn payload(text: &str) -> &str {
    let t = text.trim();
    for sep in ['?', '#', '&'] {
        for part in t.split(sep) {
            for kv in part.split('&') {
                if let Some(v) = kv.strip_prefix("s=") {
                    return v;
                }
            }
        }
    }
    t
}

/// Reads a scenario from a share link or payload.
///
/// # Errors
/// [`DecodeError`] for empty, over-long, wrong-version, badly encoded or invalid payloads.
pub fn decode(text: &str) -> Result<Scenario, DecodeError> {
    let p = payload(text);
    if p.is_empty() {
        return Err(DecodeError::Empty);
    }
    if p.len() > MAX_LEN {
        return Err(DecodeError::TooLong(p.len(), MAX_LEN));
    }
    let Some(body) = p.strip_prefix(PREFIX) else {
        let version: String = p.split('.').next().unwrap_or("").chars().take(12).collect();
        return Err(DecodeError::Version(version));
    };
    let bytes = URL_SAFE_NO_PAD.decode(body.trim_end_matches('=')).map_err(|e| DecodeError::Encoding(e.to_string()))?;
    // from_str, not from_slice: one Value parser in the wasm instead of two.
    let text = std::str::from_utf8(&bytes).map_err(|e| DecodeError::Json(e.to_string()))?;
    let patch: Value = serde_json::from_str(text).map_err(|e| DecodeError::Json(e.to_string()))?;
    if !patch.is_object() {
        return Err(DecodeError::Json("expected an object".into()));
    }
    let mut full = serde_json::to_value(Scenario::default()).unwrap_or(Value::Null);
    merge(&mut full, patch);
    super::scenario::from_stored(full)
}

/// Decodes a link and checks the scenario can be planned (absurd numbers are refused here,
/// so a hostile link never replaces a working scenario).
///
/// # Errors
/// As [`decode`], plus [`DecodeError::Invalid`] with the first out-of-range field.
pub fn decode_valid(text: &str) -> Result<Scenario, DecodeError> {
    let s = decode(text)?;
    s.validate().map_err(|e| DecodeError::Invalid(e.to_string()))?;
    Ok(s)
}
