//! The range table (domain/scenario/ranges.rs) is what `Scenario::validate` checks: each field
//! at its limits is accepted, just outside them refused with the field named, so a value the
//! page's form accepts (the form takes its limits from the same table) always plans.
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::error::PlanError;
use gpu_planner::domain::scenario::ranges::{Range, ALL};
use gpu_planner::domain::Scenario;
use serde_json::json;

/// The scenario with `r`'s field set to `v` (through its JSON form, the way a share link or a
/// saved file sets it); `None` when the field cannot be reached that way.
fn with(r: Range, v: f64) -> Option<Scenario> {
    let mut base = Scenario::default();
    if r.field.starts_with("vision.") {
        base.model = "yolov8s".into();
    }
    let mut j = serde_json::to_value(&base).ok()?;
    let n = if r.integer { json!(v as u64) } else { json!(v) };
    let path: Vec<&str> = r.field.split('.').collect();
    match r.field {
        "money.overrides.rent_hourly" => {
            j["money"]["overrides"] = json!([{ "gpu": "a100-80g", "rent_hourly": n }]);
        }
        "ownership.demand" => j["ownership"]["demand"] = json!([n]),
        "efficiency.benchmark.tokens_per_s_gpu" => {
            j["efficiency"]["benchmark"] = json!({ "gpu": "a100-80g", "tokens_per_s_gpu": n });
        }
        _ => {
            let mut at = &mut j;
            for p in &path {
                at = at.get_mut(*p)?;
            }
            *at = n;
        }
    }
    serde_json::from_value::<Scenario>(j).ok()
}

#[test]
fn every_field_is_accepted_at_its_limits_and_refused_outside_them() {
    let mut reached = 0;
    for &r in ALL {
        // The p90 fields start at their median (checked with `Range::from`).
        let lo = match r.field {
            "inference.output_p90" => f64::from(Scenario::default().inference.output_tokens),
            "inference.context_p90" => f64::from(Scenario::default().inference.context),
            _ => r.min,
        };
        let Some(at_min) = with(r, lo) else { panic!("{} cannot be set through the scenario's JSON", r.field) };
        reached += 1;
        assert_eq!(at_min.validate(), Ok(()), "{} at its minimum {lo}", r.field);
        assert_eq!(with(r, r.max).map(|s| s.validate()), Some(Ok(())), "{} at its maximum {}", r.field, r.max);
        let step = if r.integer { 1.0 } else { r.max.abs().max(1.0) * 1e-3 };
        let above = with(r, r.max + step).map(|s| s.validate());
        assert!(
            matches!(above, Some(Err(PlanError::OutOfRange { field, .. })) if field == r.field),
            "{} above its maximum: {above:?}",
            r.field
        );
        if lo - step >= 0.0 || !r.integer {
            let below = with(r, lo - step).map(|s| s.validate());
            assert!(
                matches!(below, Some(Err(PlanError::OutOfRange { field, .. })) if field == r.field),
                "{} below its minimum: {below:?}",
                r.field
            );
        }
    }
    assert_eq!(reached, ALL.len());
}

/// A form shows a share as a percentage and token counts in billions: `shown` scales the
/// limits and drops "whole numbers" for a unit larger than the stored one.
#[test]
fn shown_limits_scale_with_the_unit() {
    let r = Range::new("x", 0.05, 1.0, false);
    assert_eq!(r.shown(100.0), (5.0, 100.0, false));
    let t = Range::new("t", 1.0, 1e15, true);
    let (lo, hi, whole) = t.shown(1e-9);
    assert!((lo - 1e-9).abs() < 1e-24 && (hi - 1e6).abs() < 1e-6 && !whole, "{:?}", t.shown(1e-9));
    assert_eq!(t.shown(1.0), (1.0, 1e15, true));
    assert_eq!(t.from(7.0), Range::new("t", 7.0, 1e15, true));
    assert!(t.contains(1.0) && t.contains(1e15) && !t.contains(0.5) && !t.contains(f64::NAN));
}
