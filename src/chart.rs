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

/// A stacked horizontal bar of per-card memory with the card's capacity as a vertical line.
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
    let segs = memory_segments(b);
    let cap = capacity / GIB;
    let xmax = (segs.iter().sum::<f64>().max(cap) * 1.1).max(1.0);
    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(10)
        .build_cartesian_2d(0f64..xmax, 0f64..1f64)?;
    chart.configure_mesh().disable_y_mesh().disable_y_axis().x_desc("GiB").draw()?;
    let mut x0 = 0.0;
    for (i, v) in segs.iter().enumerate() {
        if *v <= 0.0 {
            continue;
        }
        let color = MEMORY_COLORS[i];
        chart
            .draw_series(std::iter::once(Rectangle::new([(x0, 0.3), (x0 + v, 0.7)], color.filled())))?
            .label(labels[i])
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
        x0 += v;
    }
    chart
        .draw_series(std::iter::once(PathElement::new(vec![(cap, 0.1), (cap, 0.9)], BLACK.stroke_width(2))))?
        .label(labels[8])
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 10, y)], BLACK.stroke_width(2)));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    area.present()
}
