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
        buffers: 1.0 * GIB,
        overhead: 2.0 * GIB,
        total: 95.0 * GIB,
        ..Default::default()
    };
    let labels = [
        "weights",
        "gradients",
        "optimizer",
        "master",
        "activations",
        "logits",
        "kv",
        "buffers",
        "overhead",
        "capacity 80",
    ];
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (640, 200)).into_drawing_area();
        if let Err(e) = draw_memory(&area, &b, 80.0 * GIB, &labels) {
            panic!("draw failed: {e}");
        }
    }
    for l in ["weights", "gradients", "optimizer", "activations", "buffers 1.0", "overhead", "capacity 80"] {
        assert!(svg.contains(l), "legend lacks {l}");
    }
    assert!(!svg.contains("master"), "zero segments are not drawn");
    assert!(svg.contains("optimizer 56.0"), "legend shows GiB per segment");
    assert!(svg.matches("<rect").count() >= 6, "bars drawn");
}

#[test]
fn rent_vs_buy_charts_draw_every_option_and_mark_the_breakeven() {
    use gpu_planner::chart::{draw_annual, draw_cumulative, RentLabels};
    use gpu_planner::domain::{plan, Catalog, Scenario};
    let mut s = Scenario::default();
    s.ownership.rent_monthly = Some(4_000.0);
    s.ownership.rent_hourly = Some(20.0);
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let rvb = r.rent_vs_buy.unwrap_or_else(|| panic!("no rent-vs-buy in the default report"));
    let l = RentLabels {
        title: "累计成本 cumulative",
        x: "月 month",
        y: "¥",
        own: "own",
        own_net: "own-net",
        on_demand: "on-demand",
        monthly: "monthly",
        yearly: "yearly",
        breakeven: "breakeven",
    };
    let render = |annual: bool| {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (800, 400)).into_drawing_area();
            let drawn = if annual { draw_annual(&area, &rvb, &l) } else { draw_cumulative(&area, &rvb, &l) };
            if let Err(e) = drawn {
                panic!("draw failed: {e}");
            }
        }
        svg
    };
    for svg in [render(false), render(true)] {
        assert!(svg.contains("累计成本") && svg.contains("own") && svg.contains("on-demand"), "labels");
        assert!(svg.contains("<polyline"), "lines drawn");
        assert!(svg.contains("breakeven"), "breakeven marked");
    }
}
