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

/// Stable sort through one non-generic index sort: the five sorts of the page share a single
/// copy of the standard library's sort code instead of one per element type (~16 KB of wasm).
pub fn sort_stable_by<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> std::cmp::Ordering) {
    let order = sorted_indices(v.len(), &|a, b| cmp(&v[a], &v[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    v.extend(order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)));
}

/// A stable bottom-up merge sort of the indices 0..n: a few hundred bytes of wasm where the
/// standard library's stable sort is ~4 KB, and O(n log n) for the search's thousands of plans.
fn sorted_indices(n: usize, cmp: &dyn Fn(usize, usize) -> std::cmp::Ordering) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    let mut buf = vec![0; n];
    let mut width = 1;
    while width < n {
        for lo in (0..n).step_by(2 * width) {
            let (mid, hi) = ((lo + width).min(n), (lo + 2 * width).min(n));
            let (mut i, mut j) = (lo, mid);
            for slot in &mut buf[lo..hi] {
                // Take from the right run only when it is strictly smaller: equal keys keep
                // their order.
                let right = j < hi && (i >= mid || cmp(idx[j], idx[i]) == std::cmp::Ordering::Less);
                *slot = if right { idx[j] } else { idx[i] };
                if right {
                    j += 1;
                } else {
                    i += 1;
                }
            }
        }
        std::mem::swap(&mut idx, &mut buf);
        width *= 2;
    }
    idx
}

/// Parses a plain decimal number (`-12.5`, `.5`, `5.`, `+1e3`, `007`) exactly as `str::parse::<f64>`
/// does, but through serde_json's correctly rounded parser, which the page needs anyway: the
/// standard library's parser would add its own ~10 KB of power-of-five tables to the wasm.
/// `inf` and `NaN` are not numbers here (`None`).
#[must_use]
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (neg, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() && frac.is_empty() || !digits(int) || !digits(frac) {
        return None;
    }
    let int = int.trim_start_matches('0');
    let mut json = format!(
        "{}{}.{}",
        if neg { "-" } else { "" },
        if int.is_empty() { "0" } else { int },
        if frac.is_empty() { "0" } else { frac }
    );
    if let Some(e) = exp {
        let (esign, edigits) = match e.as_bytes().first()? {
            b'-' => ("-", &e[1..]),
            b'+' => ("", &e[1..]),
            _ => ("", e),
        };
        if edigits.is_empty() || !digits(edigits) {
            return None;
        }
        json.push_str(&format!("e{esign}{edigits}"));
    }
    serde_json::from_str::<f64>(&json).ok()
}
