//! Float operations of the simulation's hot loop that cost a call in wasm.
//!
//! - `f64::max`, `min` and `clamp`: WebAssembly's `f64.max` propagates NaN where Rust's ignores
//!   it, so LLVM calls compiler-rt's `fmax`. [`Bound`] is one compare and one select each; it
//!   differs from the std methods only for NaN, which no quantity bounded here holds.
//! - `ln`, `round` and `powf` are libm calls in wasm. The page's serving engine is a chunk
//!   loaded on first use (scripts/split.py) and std's libm stays in the main module, which the
//!   training code shares: every call crossed modules through the function table, where V8
//!   cannot inline. [`ln`], [`round`] and [`powf`] call the `libm` crate at the same version as
//!   the toolchain's compiler-builtins (0.2.16, the same source), so the answers are the same and
//!   the code lands in the chunk. Natively they are std's (glibc), as before.
//!
//! Measured in the page as shipped (bench/plan-in-page.mjs, Qwen2.5-72B for 100 users, session
//! 37): V8's profile of the split build had `log` 3.5%, `fmax` 1.8%, the shared chunk's `clamp`
//! 1.1%, `round` 0.5% of all samples, all cross-module; the same plan ran in 46 ms unsplit
//! against 60 ms split.

/// `at_least` / `at_most` / `within` for `f64`: `max` / `min` / `clamp` without the NaN rule.
pub trait Bound: Copy {
    /// The larger of `self` and `floor` (`f64::max`).
    #[must_use]
    fn at_least(self, floor: Self) -> Self;
    /// The smaller of `self` and `ceiling` (`f64::min`).
    #[must_use]
    fn at_most(self, ceiling: Self) -> Self;
    /// `self` held in `[lo, hi]` (`f64::clamp`, which panics where `lo > hi`; this gives `hi`).
    #[must_use]
    fn within(self, lo: Self, hi: Self) -> Self {
        self.at_least(lo).at_most(hi)
    }
}

impl Bound for f64 {
    #[inline(always)]
    fn at_least(self, floor: f64) -> f64 {
        if self < floor {
            floor
        } else {
            self
        }
    }

    #[inline(always)]
    fn at_most(self, ceiling: f64) -> f64 {
        if ceiling < self {
            ceiling
        } else {
            self
        }
    }
}

/// ln x: std's natively, the `libm` crate's in wasm (the same function std calls there).
#[inline]
#[must_use]
pub fn ln(x: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    return libm::log(x);
    #[cfg(not(target_arch = "wasm32"))]
    return x.ln();
}

/// x rounded half away from zero ([`f64::round`]), as [`ln`] does it.
#[inline]
#[must_use]
pub fn round(x: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    return libm::round(x);
    #[cfg(not(target_arch = "wasm32"))]
    return x.round();
}

/// x to the power y ([`f64::powf`]), as [`ln`] does it.
#[inline]
#[must_use]
pub fn powf(x: f64, y: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    return libm::pow(x, y);
    #[cfg(not(target_arch = "wasm32"))]
    return x.powf(y);
}

#[cfg(test)]
mod tests {
    use super::Bound;

    /// The std methods' answers, bit for bit, wherever no NaN is involved, infinities included
    /// (not signed zeros: which of ±0 `f64::max` returns is unspecified); `within` gives `hi`
    /// where the bounds cross instead of panicking.
    #[test]
    fn bounds_agree_with_std_on_numbers() {
        let xs = [f64::NEG_INFINITY, -3.5, 0.0, 1e-300, 2.0, 7.25, f64::INFINITY];
        let same = |x: f64, y: f64| x.to_bits() == y.to_bits();
        for &a in &xs {
            for &b in &xs {
                assert!(same(a.at_least(b), a.max(b)), "{a} at_least {b}");
                assert!(same(a.at_most(b), a.min(b)), "{a} at_most {b}");
                if a <= b {
                    for &x in &xs {
                        assert!(same(x.within(a, b), x.clamp(a, b)), "{x} within {a}..{b}");
                    }
                }
            }
        }
        assert!(same(5.0.within(3.0, 1.0), 1.0));
    }
}
