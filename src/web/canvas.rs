//! Draws the plotters charts on a `<canvas>` element.

use crate::chart;
use crate::domain::memory::MemoryBreakdown;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;

/// The canvas drawn at the width it is shown (between 240 and its designed width), its height
/// scaled alike but never under 300 px: a 900-px chart squeezed onto a 375-px phone had 5-px
/// text. The designed size (the element's first width and height) is kept in `data-w`/`data-h`;
/// a canvas not laid out (hidden) keeps it.
fn fit(canvas: web_sys::HtmlCanvasElement) -> web_sys::HtmlCanvasElement {
    let attr = |k: &str, now: u32| {
        canvas.get_attribute(k).and_then(|v| v.parse::<u32>().ok()).unwrap_or_else(|| {
            let _ = canvas.set_attribute(k, &now.to_string());
            now
        })
    };
    let (w0, h0) = (attr("data-w", canvas.width()), attr("data-h", canvas.height()));
    let shown = u32::try_from(canvas.client_width()).unwrap_or(0);
    if shown > 0 && w0 > 0 {
        let w = shown.clamp(240.min(w0), w0);
        let h = (u64::from(h0) * u64::from(w) / u64::from(w0)) as u32;
        let h = h.max(300.min(h0));
        if (w, h) != (canvas.width(), canvas.height()) {
            canvas.set_width(w);
            canvas.set_height(h);
        }
    }
    canvas
}

/// Draws the memory bar of one card on `canvas`.
///
/// # Errors
/// A message when the canvas has no 2D context or drawing fails.
pub fn draw_memory(
    canvas: web_sys::HtmlCanvasElement,
    b: &MemoryBreakdown,
    capacity: f64,
    labels: &[&str; 10],
) -> Result<(), String> {
    let backend = CanvasBackend::with_canvas_object(fit(canvas)).ok_or("no 2d context")?;
    let area = backend.into_drawing_area();
    chart::draw_memory(&area, b, capacity, labels).map_err(|e| e.to_string())
}

/// Draws one of the rent-vs-buy charts (`annual` = cost against busy hours, else cumulative).
///
/// # Errors
/// A message when the canvas has no 2D context or drawing fails.
pub fn draw_rent(
    canvas: web_sys::HtmlCanvasElement,
    r: &crate::domain::cost::RentVsBuy,
    labels: &chart::RentLabels,
    annual: bool,
) -> Result<(), String> {
    let backend = CanvasBackend::with_canvas_object(fit(canvas)).ok_or("no 2d context")?;
    let area = backend.into_drawing_area();
    let drawn = if annual { chart::draw_annual(&area, r, labels) } else { chart::draw_cumulative(&area, r, labels) };
    drawn.map_err(|e| e.to_string())
}

/// Draws the auto-plan Pareto chart.
///
/// # Errors
/// A message when the canvas has no 2D context or drawing fails.
pub fn draw_pareto(
    canvas: web_sys::HtmlCanvasElement,
    r: &crate::domain::search::SearchReport,
    labels: &chart::ParetoLabels,
) -> Result<(), String> {
    let backend = CanvasBackend::with_canvas_object(fit(canvas)).ok_or("no 2d context")?;
    chart::draw_pareto(&backend.into_drawing_area(), r, labels).map_err(|e| e.to_string())
}

/// Draws the serving throughput/latency trade-off.
///
/// # Errors
/// A message when the canvas has no 2D context or drawing fails.
pub fn draw_tradeoff(
    canvas: web_sys::HtmlCanvasElement,
    curves: &[(u32, Vec<(f64, f64)>)],
    target_tokens_s: f64,
    operating: Option<(f64, f64)>,
    labels: &chart::TradeoffLabels,
) -> Result<(), String> {
    let backend = CanvasBackend::with_canvas_object(fit(canvas)).ok_or("no 2d context")?;
    chart::draw_tradeoff(&backend.into_drawing_area(), curves, target_tokens_s, operating, labels)
        .map_err(|e| e.to_string())
}
