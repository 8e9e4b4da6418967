//! JSON text in and out through `serde_json::Value` only.
//!
//! Scenarios must go through a `Value` anyway (schema migration, share-link diffs), so their
//! derived `Deserialize`/`Serialize` code already exists for the `Value` (de)serializer. Parsing
//! the catalog, the presets and enum names the same way, instead of with `from_str`, means each
//! type's serde code is compiled once rather than once per (de)serializer, which keeps the wasm
//! smaller (`scripts/bench.sh` reports the size). Startup parses the catalog once, ~1 ms.

use serde::{de::DeserializeOwned, Serialize};
use serde_json::Value;

/// Parses JSON text into `T` (syntax errors keep their line and column).
///
/// # Errors
/// The serde message when the text is not JSON or not a `T`.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str::<Value>(text).and_then(serde_json::from_value)
}

/// Writes `t` as compact (or indented) JSON text.
///
/// # Errors
/// The serde message when `t` cannot be represented (e.g. a map with non-string keys).
pub fn write<T: Serialize>(t: &T, pretty: bool) -> Result<String, serde_json::Error> {
    let v = serde_json::to_value(t)?;
    if pretty {
        serde_json::to_string_pretty(&v)
    } else {
        Ok(v.to_string())
    }
}
