//! GPU Planner: which GPU cards fit an AI workload, how many, how long and at what cost.
//!
//! - [`domain`]: pure estimation (memory, compute, cost, plan); no browser types.
//! - [`chart`]: plotters drawings, generic over the drawing backend.
//! - [`web`]: the only code that touches the browser (storage, URL, canvas).
//! - [`ui`]: Leptos components, a thin reactive layer over [`domain::plan`].

pub mod chart;
pub mod domain;
pub mod ui;
pub mod web;
