//! Unit newtypes and constants. GPU vendors quote decimal GB (10⁹ B); frameworks report GiB (2³⁰ B).

use serde::{Deserialize, Serialize};

/// Bytes in one decimal gigabyte (vendor datasheets, catalog `memory_gb`).
pub const GB: f64 = 1e9;
/// Bytes in one binary gibibyte (what PyTorch / nvidia-smi report).
pub const GIB: f64 = 1_073_741_824.0;

/// A byte count. Display with [`Bytes::gb`] or [`Bytes::gib`]; never mix them implicitly.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bytes(pub f64);

impl Bytes {
    /// From decimal gigabytes.
    #[must_use]
    pub fn from_gb(gb: f64) -> Self {
        Self(gb * GB)
    }
    /// In decimal gigabytes (10⁹).
    #[must_use]
    pub fn gb(self) -> f64 {
        self.0 / GB
    }
    /// In binary gibibytes (2³⁰).
    #[must_use]
    pub fn gib(self) -> f64 {
        self.0 / GIB
    }
}

impl std::ops::Add for Bytes {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Self(self.0 + o.0)
    }
}

/// Seconds in an hour.
pub const HOUR_S: f64 = 3600.0;
