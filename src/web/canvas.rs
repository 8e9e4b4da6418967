//! Draws the plotters charts on a `<canvas>` element.

use crate::chart;
use crate::domain::memory::MemoryBreakdown;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;

/// Draws the memory bar of one card on `canvas`.
///
/// # Errors
/// A message when the canvas has no 2D context or drawing fails.
pub fn draw_memory(
    canvas: web_sys::HtmlCanvasElement,
    b: &MemoryBreakdown,
    capacity: f64,
    labels: &[&str; 9],
) -> Result<(), String> {
    let backend = CanvasBackend::with_canvas_object(canvas).ok_or("no 2d context")?;
    let area = backend.into_drawing_area();
    chart::draw_memory(&area, b, capacity, labels).map_err(|e| e.to_string())
}
