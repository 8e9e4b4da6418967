//! Bounds for the simulation's hot loop. In wasm, `f64::max`, `min` and `clamp` are calls:
//! WebAssembly's `f64.max` propagates NaN where Rust's ignores it, so LLVM calls compiler-rt's
//! `fmax`, and V8 does not inline it. In a serving plan that was ~9% of the time (V8's profiler,
//! session 35). These are one compare and one select each. They differ from the std methods only
//! for NaN, which no quantity bounded here holds.

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
