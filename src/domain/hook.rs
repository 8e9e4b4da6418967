//! An engine's entry point, held by the module that calls into the engine
//! ([`super::error::Engine`]): built in everywhere but the page's own build (feature `split`),
//! where the downloaded chunk installs it (src/web/lazy.rs). Under `split` the built-in value is
//! not stored, so nothing in the main wasm refers to the engine's code and scripts/split.py can
//! move it into the chunk.

/// One entry point (a function pointer, or a struct of them).
pub struct Hook<T: 'static> {
    #[cfg(feature = "split")]
    loaded: std::sync::OnceLock<T>,
    #[cfg(not(feature = "split"))]
    built_in: T,
}

impl<T: Copy> Hook<T> {
    /// `built_in` is what every build but the page's uses.
    #[must_use]
    pub const fn new(built_in: T) -> Self {
        #[cfg(feature = "split")]
        {
            let _ = built_in;
            Self { loaded: std::sync::OnceLock::new() }
        }
        #[cfg(not(feature = "split"))]
        Self { built_in }
    }

    /// The entry point, `None` while the page has not loaded its engine.
    pub fn get(&self) -> Option<T> {
        #[cfg(feature = "split")]
        return self.loaded.get().copied();
        #[cfg(not(feature = "split"))]
        Some(self.built_in)
    }

    /// Hands the downloaded engine's entry point over; a second copy is ignored.
    #[cfg(feature = "split")]
    pub fn install(&self, v: T) {
        let _ = self.loaded.set(v);
    }
}
