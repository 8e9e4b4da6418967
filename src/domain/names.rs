//! Unit enums (task, precision, optimizer, …) read and written as their snake_case names through
//! one shared path: `named_enum!` replaces serde's derive, whose identifier visitors cost ~1 KB
//! of wasm per enum. The names are those the derive wrote, so saved scenarios and links still load.

/// The name of `v` in `names`.
pub fn name<T: PartialEq + Copy>(v: T, names: &'static [(T, &'static str)]) -> &'static str {
    names.iter().find(|(x, _)| *x == v).map_or("", |(_, n)| n)
}

/// The variant named `s` in `names`.
pub fn parse<T: Copy>(s: &str, names: &'static [(T, &'static str)]) -> Option<T> {
    names.iter().find(|(_, n)| *n == s).map(|(x, _)| *x)
}

/// Implements `Serialize` and `Deserialize` of a unit enum by name, and `NAMES`.
#[macro_export]
macro_rules! named_enum {
    ($t:ident { $($v:ident => $n:literal),* $(,)? }) => {
        impl $t {
            /// Every variant with the name it is stored under.
            pub const NAMES: &'static [($t, &'static str)] = &[$(($t::$v, $n)),*];
        }
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($crate::domain::names::name(*self, Self::NAMES))
            }
        }
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <String as serde::Deserialize>::deserialize(d)?;
                $crate::domain::names::parse(&s, Self::NAMES)
                    .ok_or_else(|| serde::de::Error::unknown_variant(&s, &[$($n),*]))
            }
        }
    };
}
