//! The memory chart draws on any plotters backend (SVG here, canvas in the page).

use gpu_planner::chart::draw_memory;
use gpu_planner::domain::memory::MemoryBreakdown;
use gpu_planner::domain::units::GIB;
use plotters::prelude::*;

#[test]
fn memory_chart_draws_every_nonzero_segment_and_the_capacity_line() {
    let b = MemoryBreakdown {
        weights: 14.0 * GIB,
        gradients: 14.0 * GIB,
        optimizer: 56.0 * GIB,
        activations: 8.0 * GIB,
        overhead: 2.0 * GIB,
        total: 94.0 * GIB,
        ..Default::default()
    };
    let labels =
        ["weights", "gradients", "optimizer", "master", "activations", "logits", "kv", "overhead", "capacity 80"];
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (640, 200)).into_drawing_area();
        if let Err(e) = draw_memory(&area, &b, 80.0 * GIB, &labels) {
            panic!("draw failed: {e}");
        }
    }
    for l in ["weights", "gradients", "optimizer", "activations", "overhead", "capacity 80"] {
        assert!(svg.contains(l), "legend lacks {l}");
    }
    assert!(!svg.contains("master"), "zero segments are not drawn");
    assert!(svg.contains("optimizer 56.0"), "legend shows GiB per segment");
    assert!(svg.matches("<rect").count() >= 6, "bars drawn");
}
