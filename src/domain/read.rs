//! Reading and writing scenario sections as JSON by a table of fields (`read_fields!`) instead of
//! serde's derives, with the derive's meaning for `#[serde(default)]` structs: start from
//! `Default`, set each field that is present, ignore unknown ones; a value of the wrong type is an
//! error that names the field. Writing builds a JSON object field by field. The derived visitors
//! and serializers cost ~4× the wasm (a field-name matcher, a `next_value` and a
//! `serialize_field` per field and type); a table shares one loop and one converter per type.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// Writes one field of `T` from a JSON value.
pub type Setter<T> = fn(&mut T, &Value) -> Result<(), String>;

/// `T::default()` with every field of `fields` that `v` has.
///
/// # Errors
/// When `v` is not an object, or a present field has the wrong type or range.
pub fn read<T: Default>(v: &Value, fields: &[(&str, Setter<T>)]) -> Result<T, String> {
    let obj = v.as_object().ok_or_else(|| expected(v, "a map"))?;
    let mut t = T::default();
    for (name, set) in fields {
        if let Some(x) = obj.get(*name) {
            set(&mut t, x).map_err(|e| format!("{name}: {e}"))?;
        }
    }
    Ok(t)
}

fn expected(v: &Value, what: &str) -> String {
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a sequence",
        Value::Object(_) => "a map",
    };
    format!("invalid type: {kind}, expected {what}")
}

/// The struct as read: no step after the fields.
///
/// # Errors
/// Never.
#[allow(clippy::unnecessary_wraps)]
pub fn as_read<T>(_: &mut T, _: &Value) -> Result<(), String> {
    Ok(())
}

/// A number.
pub fn real(v: &Value) -> Result<f64, String> {
    v.as_f64().ok_or_else(|| expected(v, "f64"))
}

/// A number or null.
pub fn opt_real(v: &Value) -> Result<Option<f64>, String> {
    if v.is_null() {
        Ok(None)
    } else {
        real(v).map(Some)
    }
}

/// A whole number in `u32`.
pub fn whole(v: &Value) -> Result<u32, String> {
    v.as_u64().and_then(|x| u32::try_from(x).ok()).ok_or_else(|| expected(v, "u32"))
}

/// A whole number in `u32`, or null.
pub fn opt_whole(v: &Value) -> Result<Option<u32>, String> {
    if v.is_null() {
        Ok(None)
    } else {
        whole(v).map(Some)
    }
}

/// A whole number in `u8`.
pub fn byte(v: &Value) -> Result<u8, String> {
    v.as_u64().and_then(|x| u8::try_from(x).ok()).ok_or_else(|| expected(v, "u8"))
}

/// A boolean.
pub fn flag(v: &Value) -> Result<bool, String> {
    v.as_bool().ok_or_else(|| expected(v, "a boolean"))
}

/// A string.
pub fn text(v: &Value) -> Result<String, String> {
    v.as_str().map(str::to_string).ok_or_else(|| expected(v, "a string"))
}

/// A string, or null.
pub fn opt_text(v: &Value) -> Result<Option<String>, String> {
    if v.is_null() {
        Ok(None)
    } else {
        text(v).map(Some)
    }
}

/// A boolean, or null.
pub fn opt_flag(v: &Value) -> Result<Option<bool>, String> {
    if v.is_null() {
        Ok(None)
    } else {
        flag(v).map(Some)
    }
}

/// Numbers.
pub fn reals(v: &Value) -> Result<Vec<f64>, String> {
    v.as_array().ok_or_else(|| expected(v, "a sequence"))?.iter().map(real).collect()
}

/// One field as JSON (non-finite numbers become null, as serde_json writes them).
pub fn json<T: serde::Serialize>(x: &T) -> Value {
    serde_json::to_value(x).unwrap_or(Value::Null)
}

/// Anything with its own `Deserialize` (enums by name, nested structs, lists of them).
pub fn any<T: DeserializeOwned>(v: &Value) -> Result<T, String> {
    serde_json::from_value(v.clone()).map_err(|e| e.to_string())
}

/// Implements `Deserialize` of a `#[serde(default)]`-style struct from a table of its fields,
/// each with the converter of its type, and `Serialize` as the JSON object of those fields
/// (tests/read.rs checks that the table names every field).
#[macro_export]
macro_rules! read_fields {
    ($t:ident { $($f:ident: $conv:ident),* $(,)? }) => {
        $crate::read_fields!($t then $crate::domain::read::as_read { $($f: $conv),* });
    };
    // `then`: a step after the fields are read, given the struct and the JSON it came from
    // (defaults that depend on a field read, such as a training section's framework).
    ($t:ident then $after:path { $($f:ident: $conv:ident),* $(,)? }) => {
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
                let fields: &[(&str, $crate::domain::read::Setter<$t>)] = &[$((stringify!($f), |t, x| {
                    t.$f = $crate::domain::read::$conv(x)?;
                    Ok(())
                })),*];
                let mut t = $crate::domain::read::read(&v, fields).map_err(<D::Error as serde::de::Error>::custom)?;
                $after(&mut t, &v).map_err(<D::Error as serde::de::Error>::custom)?;
                Ok(t)
            }
        }
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = serde_json::Map::new();
                $(m.insert(stringify!($f).to_string(), $crate::domain::read::json(&self.$f));)*
                serde::Serialize::serialize(&serde_json::Value::Object(m), s)
            }
        }
    };
}
