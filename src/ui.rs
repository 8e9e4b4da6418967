//! Leptos components: a thin reactive layer over `domain::plan`. No estimation arithmetic here.

pub mod accuracy;
pub mod app;
pub mod autoplan;
pub mod bind;
pub mod cards;
pub mod custom_model;
pub mod fields;
pub mod forms;
pub mod framework;
pub mod i18n;
pub mod infra;
pub mod ownership;
pub mod paste_config;
pub mod prerender;
pub mod results;
pub mod scenarios;
pub mod serving;
pub mod vision;

pub use app::App;
