//! Leptos components: a thin reactive layer over `domain::plan`. No arithmetic here.

pub mod app;
pub mod i18n;

pub use app::App;
