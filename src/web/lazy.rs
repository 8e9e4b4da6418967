//! Code the page downloads on first use. With the `split` feature (the page's own build,
//! index.html) every `wasm_split` function here and in the views is a split point:
//! scripts/split.py cuts what only it reaches out of the main wasm into a chunk, fetched the first
//! time it is called. A first visit (a fine-tuning scenario, no card opened, nothing pasted)
//! downloads none of them. Elsewhere (the CLI, the tests, the browser tests) they are plain calls.

use crate::domain::error::Engine;
use crate::domain::report::{loaded, needed};
use crate::domain::Scenario;
use leptos::prelude::*;

/// A chunk could not be downloaded (offline, or the server no longer has it). The loader does not
/// remember a failure: the next call tries again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unloaded;

impl From<leptos::wasm_split::SplitLoaderError> for Unloaded {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        Unloaded
    }
}

/// The serving simulation and its tables (domain/serving), with the serving section's view
/// (ui/serving.rs, the same chunk): needed only by inference scenarios.
#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(serving, wasm_split_path = ::leptos::wasm_split, fallible)]
fn serving_engine() -> Result<crate::domain::serving::Entry, Unloaded> {
    Ok(crate::domain::serving::Entry::BUILT_IN)
}

/// The measured-speed models (domain/vision): needed only when a vision, OCR, speech or
/// diffusion model is picked.
#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(vision, wasm_split_path = ::leptos::wasm_split, fallible)]
fn vision_engine() -> Result<(crate::domain::report::VisionReport, crate::domain::search::VisionSearch), Unloaded> {
    Ok((crate::domain::report::vision_report, crate::domain::search::search_vision))
}

/// Where an engine stands in this page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Not needed yet.
    Idle,
    /// Being fetched.
    Loading,
    /// Loaded (or built in): plans are computed.
    Ready,
    /// The last fetch failed; [`Engines::retry`] fetches again.
    Failed,
}

/// Fetches each engine the first time a plan needs it, and says where it stands. Reading
/// [`Engines::state`] in a computation re-runs it when the engine arrives.
#[derive(Clone, Copy)]
pub struct Engines {
    serving: RwSignal<State>,
    vision: RwSignal<State>,
}

impl Engines {
    /// Follows the page's scenario: the engine it needs is fetched when it first needs it.
    pub fn new(scenario: RwSignal<Scenario>) -> Self {
        let at_start = |e| if loaded(e) { State::Ready } else { State::Idle };
        let me =
            Self { serving: RwSignal::new(at_start(Engine::Serving)), vision: RwSignal::new(at_start(Engine::Vision)) };
        // The first scenario's engine is asked for now, before the first render, not after it.
        if let Some(e) = scenario.with_untracked(needed) {
            me.need(e);
        }
        Effect::new(move |_| {
            if let Some(e) = scenario.with(needed) {
                me.need(e);
            }
        });
        me
    }

    /// Whether the page's first answer is still waiting for an engine (tracked).
    pub fn waiting(self, scenario: RwSignal<Scenario>) -> bool {
        scenario.with_untracked(needed).is_some_and(|e| matches!(self.state(e), State::Idle | State::Loading))
    }

    fn signal(self, e: Engine) -> RwSignal<State> {
        match e {
            Engine::Serving => self.serving,
            Engine::Vision => self.vision,
        }
    }

    /// Where `e` stands (tracked).
    pub fn state(self, e: Engine) -> State {
        self.signal(e).get()
    }

    /// Tracks both engines: a computation that reads this re-runs when either arrives.
    pub fn track(self) {
        self.serving.track();
        self.vision.track();
    }

    /// Starts the download of `e` unless it has started: the page's own plan, or another
    /// (a saved scenario in the comparison).
    pub fn need(self, e: Engine) {
        if self.signal(e).get_untracked() == State::Idle {
            self.retry(e);
        }
    }

    /// Fetches `e` (again, after a failure).
    pub fn retry(self, e: Engine) {
        self.signal(e).set(State::Loading);
        self.fetch(e);
    }

    #[cfg(feature = "split")]
    fn fetch(self, e: Engine) {
        let state = self.signal(e);
        leptos::task::spawn_local(async move {
            let got = match e {
                Engine::Serving => serving_engine().await.map(crate::domain::serving::install),
                Engine::Vision => vision_engine().await.map(|(report, search)| {
                    crate::domain::report::install_vision(report);
                    crate::domain::search::install_vision(search);
                }),
            };
            state.set(if got.is_ok() { State::Ready } else { State::Failed });
        });
    }

    #[cfg(not(feature = "split"))]
    fn fetch(self, e: Engine) {
        self.signal(e).set(State::Ready);
    }
}
