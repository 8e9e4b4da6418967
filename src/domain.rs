//! Pure estimation: scenario + catalog in, report out. No browser, framework or I/O here.

pub mod accuracy;
pub mod catalog;
pub mod checklist;
pub mod comms;
pub mod compute;
pub mod config;
pub mod cost;
pub mod edit;
pub mod error;
pub mod explain;
pub mod fix;
pub mod format;
pub mod framework;
pub mod infra;
pub mod json;
pub mod memory;
pub mod model;
pub mod plan;
pub mod pricing;
pub mod report;
pub mod saved;
pub mod scenario;
pub mod search;
pub mod serving;
pub mod share;
pub mod sites;
pub mod units;
pub mod verdict;
pub mod warnings;

pub use catalog::{Catalog, Gpu, Price};
pub use error::PlanError;
pub use model::ModelSpec;
pub use report::{report, report as plan, Report};
pub use scenario::Scenario;
pub use verdict::CardVerdict;
