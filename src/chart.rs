//! Charts drawn with plotters, generic over the drawing backend (SVG in tests, canvas in the page).
//! No browser types here.

use crate::domain::memory::MemoryBreakdown;
use crate::domain::units::GIB;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Segment colours of the memory bar, in breakdown order.
pub const MEMORY_COLORS: [RGBColor; 8] = [
    RGBColor(66, 133, 244),
    RGBColor(234, 67, 53),
    RGBColor(251, 188, 5),
    RGBColor(52, 168, 83),
    RGBColor(171, 71, 188),
    RGBColor(0, 172, 193),
    RGBColor(255, 112, 67),
    RGBColor(120, 144, 156),
];

/// The breakdown as (label index, GiB) in a fixed order.
#[must_use]
pub fn memory_segments(b: &MemoryBreakdown) -> [f64; 8] {
    [b.weights, b.gradients, b.optimizer, b.master_weights, b.activations, b.logits, b.kv_cache, b.overhead]
        .map(|v| v / GIB)
}

/// A stacked horizontal bar of per-card memory with the card's capacity as a vertical line, and
/// a legend in its own pane on the right (so it never hides the bar or the capacity line).
/// `labels` are the eight segment names in the user's language, then the capacity label.
///
/// # Errors
/// The backend's drawing error.
pub fn draw_memory<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    b: &MemoryBreakdown,
    capacity: f64,
    labels: &[&str; 9],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&WHITE)?;
    let (w, _) = area.dim_in_pixel();
    let (plot, legend) = area.split_horizontally(w * 3 / 4);
    let segs = memory_segments(b);
    let cap = capacity / GIB;
    let xmax = (segs.iter().sum::<f64>().max(cap) * 1.05).max(1.0);
    let mut chart = ChartBuilder::on(&plot)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(10)
        .build_cartesian_2d(0f64..xmax, 0f64..1f64)?;
    chart.configure_mesh().disable_y_mesh().disable_y_axis().x_desc("GiB").draw()?;
    let mut x0 = 0.0;
    let mut shown = Vec::new();
    for (i, v) in segs.iter().enumerate() {
        if *v <= 0.0 {
            continue;
        }
        chart.draw_series(std::iter::once(Rectangle::new([(x0, 0.25), (x0 + v, 0.75)], MEMORY_COLORS[i].filled())))?;
        shown.push((labels[i], format!("{v:.1}"), MEMORY_COLORS[i].filled()));
        x0 += v;
    }
    chart.draw_series(std::iter::once(PathElement::new(vec![(cap, 0.05), (cap, 0.95)], BLACK.stroke_width(3))))?;
    let font = ("sans-serif", 13).into_font();
    let mut y = 12;
    for (label, gib, style) in &shown {
        legend.draw(&Rectangle::new([(6, y), (18, y + 12)], *style))?;
        legend.draw(&Text::new(format!("{label} {gib}"), (24, y), font.clone()))?;
        y += 18;
    }
    legend.draw(&PathElement::new(vec![(6, y + 6), (18, y + 6)], BLACK.stroke_width(3)))?;
    legend.draw(&Text::new(labels[8].to_string(), (24, y), font))?;
    area.present()
}
