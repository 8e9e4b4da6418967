//! Charts drawn with plotters, generic over the drawing backend (SVG in tests, canvas in the page).
//! No browser types here.

use crate::domain::memory::MemoryBreakdown;
use crate::domain::units::GIB;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Segment colours of the memory bar, in breakdown order.
pub const MEMORY_COLORS: [RGBColor; 9] = [
    RGBColor(66, 133, 244),
    RGBColor(234, 67, 53),
    RGBColor(251, 188, 5),
    RGBColor(52, 168, 83),
    RGBColor(171, 71, 188),
    RGBColor(0, 172, 193),
    RGBColor(255, 112, 67),
    RGBColor(141, 110, 99),
    RGBColor(120, 144, 156),
];

/// The breakdown as (label index, GiB) in a fixed order.
#[must_use]
pub fn memory_segments(b: &MemoryBreakdown) -> [f64; 9] {
    [b.weights, b.gradients, b.optimizer, b.master_weights, b.activations, b.logits, b.kv_cache, b.buffers, b.overhead]
        .map(|v| v / GIB)
}

/// A stacked horizontal bar of per-card memory with the card's capacity as a vertical line, and
/// a legend in its own pane on the right (so it never hides the bar or the capacity line).
/// `labels` are the nine segment names in the user's language, then the capacity label.
///
/// # Errors
/// The backend's drawing error.
pub fn draw_memory<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    b: &MemoryBreakdown,
    capacity: f64,
    labels: &[&str; 10],
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
    let font = (FontFamily::SansSerif, 13).into_font();
    let mut y = 12;
    for (label, gib, style) in &shown {
        legend.draw(&Rectangle::new([(6, y), (18, y + 12)], *style))?;
        legend.draw(&Text::new(format!("{label} {gib}"), (24, y), font.clone()))?;
        y += 18;
    }
    legend.draw(&PathElement::new(vec![(6, y + 6), (18, y + 6)], BLACK.stroke_width(3)))?;
    legend.draw(&Text::new(labels[9].to_string(), (24, y), font))?;
    area.present()
}

/// Texts of the rent-vs-buy charts in the user's language.
pub struct RentLabels<'a> {
    pub title: &'a str,
    pub x: &'a str,
    pub y: &'a str,
    pub own: &'a str,
    pub own_net: &'a str,
    pub on_demand: &'a str,
    pub monthly: &'a str,
    pub yearly: &'a str,
    pub breakeven: &'a str,
    /// The breakeven's unit: "months" on the cumulative chart, "h / year" on the annual one.
    pub unit: &'a str,
}

fn y_max(values: impl Iterator<Item = f64>) -> f64 {
    values.filter(|v| v.is_finite()).fold(0.0, f64::max).max(1.0) * 1.05
}

/// Money axis labels: "1.2M", "350k", "1.5k".
#[must_use]
pub fn short_money(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if a >= 1e3 {
        // 1.2k, 1.5k: whole thousands would repeat one label between 1,000 and 2,000.
        format!("{:.1}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// An x-axis label: as [`short_money`] over a range of 10 or more ("0", "20", "1.5k": never
/// "0.0, 10.0"), with one decimal below it, where steps are fractions.
#[must_use]
pub fn axis_number(v: f64, max: f64) -> String {
    if max >= 10.0 {
        short_money(v)
    } else {
        format!("{v:.1}")
    }
}

/// A 2-D chart over f64 × f64 (days or months or hours against money).
type MoneyChart<'a, DB> =
    ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>;

/// A chart with a money y axis: caption, axis descriptions, "1.2M"-style y labels, mesh drawn.
/// With `whole`, the x axis is labelled in whole units only (months, hours): at most one label
/// per unit, printed without decimals.
fn money_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    (xmax, whole): (f64, bool),
    ymax: f64,
) -> Result<MoneyChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(area)
        // A phone-width canvas (web/canvas.rs draws at the shown width) gets a smaller title.
        .caption(title, (FontFamily::SansSerif, if area.dim_in_pixel().0 < 500 { 13 } else { 18 }))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..xmax, 0f64..ymax)?;
    let whole_x = |v: &f64| format!("{v:.0}");
    let plain_x = |v: &f64| axis_number(*v, xmax);
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_desc).y_desc(y_desc).y_label_formatter(&|v| short_money(*v)).x_label_formatter(&plain_x);
    if whole {
        // Plotters picks round steps with at most this many labels: ≤ one per unit.
        mesh.x_labels((xmax as usize + 1).min(13)).x_label_formatter(&whole_x);
    }
    mesh.draw()?;
    Ok(chart)
}

/// A 2 px line (its legend entry is an [`Entry`] with [`Mark::Line`]).
fn line<'a, DB: DrawingBackend + 'a>(
    chart: &mut MoneyChart<'a, DB>,
    pts: Vec<(f64, f64)>,
    color: RGBColor,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart.draw_series(LineSeries::new(pts, color.stroke_width(2)))?;
    Ok(())
}

/// How a legend entry is marked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// The series' 2 px line.
    Line,
    /// A dot, as the series' points.
    Dot,
    /// The plan's black diamond.
    Diamond,
}

/// One legend entry: the series' name, colour and mark.
struct Entry {
    name: String,
    color: RGBColor,
    mark: Mark,
}

impl Entry {
    fn new(name: &str, color: RGBColor, mark: Mark) -> Entry {
        Entry { name: name.to_string(), color, mark }
    }
}

/// Height of a legend row in pixels.
const LEGEND_ROW: i32 = 18;

/// Draws an entry's mark with its left edge at x, centred on y, and its text after it.
fn draw_entry<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    e: &Entry,
    (x, y): (i32, i32),
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    match e.mark {
        Mark::Line => area.draw(&PathElement::new(vec![(x, y), (x + 16, y)], e.color.stroke_width(2)))?,
        Mark::Dot => area.draw(&Circle::new((x + 8, y), 3, e.color.filled()))?,
        Mark::Diamond => area.draw(&legend_diamond(x, y))?,
    }
    area.draw(&Text::new(e.name.clone(), (x + 22, y - 7), (FontFamily::SansSerif, 12)))
}

/// The legend as a box in the plot's top-left or top-right corner, one entry a row, on a
/// translucent white ground with a black border. Drawn here rather than by plotters' series
/// labels: those build their default font from a string, which pulls Unicode's whole
/// lower-case table and ~10 kB of gzip into the page (measured, session 35).
fn boxed_legend<'a, DB: DrawingBackend + 'a>(
    chart: &MoneyChart<'a, DB>,
    entries: &[Entry],
    right: bool,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if entries.is_empty() {
        return Ok(());
    }
    let plot = chart.plotting_area().strip_coord_spec();
    let font: TextStyle = (FontFamily::SansSerif, 12).into_font().into();
    let mut text_w = 0;
    for e in entries {
        text_w = text_w.max(plot.estimate_text_size(&e.name, &font)?.0);
    }
    let w = i32::try_from(text_w).unwrap_or(0) + 22 + 2 * 6;
    let h = LEGEND_ROW * i32::try_from(entries.len()).unwrap_or(0) + 2 * 4;
    let x0 = if right { i32::try_from(plot.dim_in_pixel().0).unwrap_or(0) - w - 10 } else { 10 };
    let y0 = 10;
    plot.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], WHITE.mix(0.85).filled()))?;
    plot.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], BLACK))?;
    for (row, e) in (0..).zip(entries) {
        draw_entry(&plot, e, (x0 + 6, y0 + 4 + LEGEND_ROW / 2 + row * LEGEND_ROW))?;
    }
    Ok(())
}

/// Marks the breakeven point (if any) with a dot and its label, draws the legend box (in the
/// top-right corner with `right`, else top-left; none without entries), presents.
fn finish<'a, DB: DrawingBackend + 'a>(
    area: &DrawingArea<DB, Shift>,
    mut chart: MoneyChart<'a, DB>,
    breakeven: Option<((f64, f64), String)>,
    (legend, right): (&[Entry], bool),
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if let Some((at, text)) = breakeven {
        chart.draw_series(std::iter::once(Circle::new(at, 6, BLACK.filled())))?;
        chart.draw_series(std::iter::once(Text::new(text, at, (FontFamily::SansSerif, 14))))?;
    }
    boxed_legend(&chart, legend, right)?;
    area.present()
}

/// Picks one option's value from a point of the cumulative series.
type MonthValue = fn(&crate::domain::cost::MonthPoint) -> Option<f64>;

/// Cumulative cost over months of owning (cash, and net of resale) and of each rental option,
/// with the breakeven month marked.
///
/// # Errors
/// The backend's drawing error.
pub fn draw_cumulative<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    r: &crate::domain::cost::RentVsBuy,
    l: &RentLabels,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let pts = &r.cumulative;
    let xmax = pts.last().map_or(1.0, |p| p.month).max(1.0);
    let ymax = y_max(pts.iter().flat_map(|p| [Some(p.own), p.on_demand, p.monthly, p.yearly]).flatten());
    let mut chart = money_chart(area, l.title, l.x, l.y, (xmax, true), ymax)?;
    let series: [(&str, RGBColor, MonthValue); 5] = [
        (l.own, RGBColor(34, 102, 204), |p| Some(p.own)),
        (l.own_net, RGBColor(120, 160, 230), |p| Some(p.own_net)),
        (l.on_demand, RGBColor(214, 39, 40), |p| p.on_demand),
        (l.monthly, RGBColor(255, 127, 14), |p| p.monthly),
        (l.yearly, RGBColor(44, 160, 44), |p| p.yearly),
    ];
    let mut legend = Vec::new();
    for (name, color, f) in series {
        let values: Vec<(f64, f64)> = pts.iter().filter_map(|p| f(p).map(|y| (p.month, y))).collect();
        if !values.is_empty() {
            line(&mut chart, values, color)?;
            legend.push(Entry::new(name, color, Mark::Line));
        }
    }
    let breakeven = r.breakeven_month.map(|m| {
        let y = pts.iter().find(|p| p.month >= m).map_or(0.0, |p| p.own);
        ((m, y), format!("{} {m:.1} {}", l.breakeven, l.unit))
    });
    finish(area, chart, breakeven, (&legend, false))
}

/// Annual cost against busy hours per year, owning vs on-demand, with the breakeven marked.
///
/// # Errors
/// The backend's drawing error.
pub fn draw_annual<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    r: &crate::domain::cost::RentVsBuy,
    l: &RentLabels,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let pts = &r.by_hours;
    let ymax = y_max(pts.iter().flat_map(|p| [Some(p.own), p.rent]).flatten());
    let mut chart = money_chart(area, l.title, l.x, l.y, (crate::domain::cost::YEAR_H, true), ymax)?;
    let (own, red) = (RGBColor(34, 102, 204), RGBColor(214, 39, 40));
    line(&mut chart, pts.iter().map(|p| (p.hours, p.own)).collect(), own)?;
    let mut legend = vec![Entry::new(l.own, own, Mark::Line)];
    let rent: Vec<(f64, f64)> = pts.iter().filter_map(|p| p.rent.map(|v| (p.hours, v))).collect();
    if !rent.is_empty() {
        line(&mut chart, rent, red)?;
        legend.push(Entry::new(l.on_demand, red, Mark::Line));
    }
    let breakeven = r.breakeven_hours.map(|h| {
        ((h, r.own.annual(h)), format!("{} {} {}", l.breakeven, crate::domain::format::grouped(h, 0), l.unit))
    });
    finish(area, chart, breakeven, (&legend, false))
}

/// Texts of the Pareto chart.
pub struct ParetoLabels<'a> {
    pub title: &'a str,
    pub x: &'a str,
    pub y: &'a str,
    pub plans: &'a str,
    pub front: &'a str,
}

/// Time (days) against cost of the best plans, with the Pareto front as a line.
///
/// # Errors
/// The backend's drawing error.
pub fn draw_pareto<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    r: &crate::domain::search::SearchReport,
    l: &ParetoLabels,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let pts: Vec<(f64, f64)> = r
        .by_cost
        .iter()
        .chain(&r.by_time)
        .chain(&r.per_card)
        .filter_map(|c| c.cost().map(|k| (c.hours / 24.0, k)))
        .collect();
    let front: Vec<(f64, f64)> = r.pareto.iter().filter_map(|c| c.cost().map(|k| (c.hours / 24.0, k))).collect();
    let xmax = y_max(pts.iter().chain(&front).map(|p| p.0));
    let ymax = y_max(pts.iter().chain(&front).map(|p| p.1));
    let mut chart = money_chart(area, l.title, l.x, l.y, (xmax, false), ymax)?;
    let dot = RGBColor(120, 144, 156);
    chart.draw_series(pts.iter().map(|p| Circle::new(*p, 3, dot.filled())))?;
    let red = RGBColor(214, 39, 40);
    line(&mut chart, front.clone(), red)?;
    chart.draw_series(front.iter().map(|p| Circle::new(*p, 4, red.filled())))?;
    let legend = [Entry::new(l.plans, dot, Mark::Dot), Entry::new(l.front, red, Mark::Line)];
    finish(area, chart, None, (&legend, true))
}

/// Labels of the serving trade-off chart, in the page language.
pub struct TradeoffLabels<'a> {
    pub title: &'a str,
    pub x: &'a str,
    pub y: &'a str,
    /// "TP{n}" legend entries are built from this prefix.
    pub tp: &'a str,
    pub target: &'a str,
    /// Prefix of the batch-size labels beside the points ("b=8").
    pub batch: &'a str,
    /// Legend entry of the plan's operating point, e.g. "this plan: TP4 × 3".
    pub plan: &'a str,
}

/// Batch sizes whose points carry a label (every third doubling: the labels never collide).
fn labelled_batch(i: usize) -> Option<u64> {
    i.is_multiple_of(3).then(|| 1u64 << i)
}

/// The plan's legend mark: a small black diamond beside the entry's text at (x, y).
fn legend_diamond(x: i32, y: i32) -> Polygon<(i32, i32)> {
    Polygon::new(vec![(x + 8, y - 5), (x + 13, y), (x + 8, y + 5), (x + 3, y)], BLACK.filled())
}

/// Output tokens/s per card against tokens/s one user sees, one line per tensor-parallel width
/// (points at batch 1, 2, 4, …; batch 1, 8, 64, … labelled), with the time-per-token target as a
/// vertical line and the plan's operating point (tokens/s per user, per card) as a black diamond.
///
/// # Errors
/// The backend's drawing error.
pub fn draw_tradeoff<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[(u32, Vec<(f64, f64)>)],
    target_tokens_s: f64,
    operating: Option<(f64, f64)>,
    l: &TradeoffLabels,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let on = operating.filter(|p| p.0.is_finite() && p.1.is_finite() && p.0 > 0.0 && p.1 > 0.0);
    let xmax =
        y_max(curves.iter().flat_map(|(_, c)| c.iter().map(|p| p.0)).chain([target_tokens_s]).chain(on.map(|p| p.0)));
    let ymax = y_max(curves.iter().flat_map(|(_, c)| c.iter().map(|p| p.1)).chain(on.map(|p| p.1)));
    let colors = [RGBColor(31, 119, 180), RGBColor(255, 127, 14), RGBColor(44, 160, 44), RGBColor(148, 103, 189)];
    let target_on = target_tokens_s.is_finite() && target_tokens_s > 0.0;
    // The legend's entries: each width's line, the target line, the plan's diamond.
    let mut entries: Vec<Entry> = curves
        .iter()
        .zip(colors.iter().cycle())
        .map(|((tp, _), c)| Entry { name: format!("{}{tp}", l.tp), color: *c, mark: Mark::Line })
        .collect();
    if target_on {
        entries.push(Entry::new(l.target, RGBColor(214, 39, 40), Mark::Line));
    }
    if on.is_some() {
        entries.push(Entry::new(l.plan, BLACK, Mark::Diamond));
    }
    // A phone-width chart keeps its plot clear: the legend goes below it, two entries a row (inside,
    // it covered the curves), and a title with a " · " breaks there onto two lines.
    let (w, h) = area.dim_in_pixel();
    let narrow = w < 500;
    // Two entries a row; the plan's entry (the longest text) takes a row of its own.
    let mut at = Vec::with_capacity(entries.len());
    let (mut row, mut col) = (0i32, 0i32);
    for e in &entries {
        let diamond = e.mark == Mark::Diamond;
        if diamond && col == 1 {
            (row, col) = (row + 1, 0);
        }
        at.push((row, col));
        (row, col) = if diamond || col == 1 { (row + 1, 0) } else { (row, 1) };
    }
    let rows = row + i32::from(col == 1);
    area.fill(&WHITE)?;
    let (plot, below) = if narrow {
        let (a, b) = area.split_vertically(i32::try_from(h).unwrap_or(0) - rows * LEGEND_ROW - 8);
        (a, Some(b))
    } else {
        (area.clone(), None)
    };
    let (plot, title) = match l.title.split_once(" · ") {
        Some((first, rest)) if narrow => (plot.titled(first, (FontFamily::SansSerif, 13))?, rest),
        _ => (plot, l.title),
    };
    let mut chart = money_chart(&plot, title, l.x, l.y, (xmax, false), ymax)?;
    for ((_, pts), color) in curves.iter().zip(colors.iter().cycle()) {
        line(&mut chart, pts.clone(), *color)?;
        chart.draw_series(pts.iter().map(|p| Circle::new(*p, 3, color.filled())))?;
        let style = (FontFamily::SansSerif, 12).into_font().color(color);
        chart.draw_series(pts.iter().enumerate().filter_map(|(i, p)| {
            // Beside the point, not over it.
            labelled_batch(i)
                .map(|b| EmptyElement::at(*p) + Text::new(format!("{}{b}", l.batch), (5, -15), style.clone()))
        }))?;
    }
    if target_on {
        line(&mut chart, vec![(target_tokens_s, 0.0), (target_tokens_s, ymax)], RGBColor(214, 39, 40))?;
    }
    if let Some(p) = on {
        let diamond = |c: (f64, f64), s: i32| {
            EmptyElement::at(c) + Polygon::new(vec![(0, -s), (s, 0), (0, s), (-s, 0)], BLACK.filled())
        };
        chart.draw_series(std::iter::once(diamond(p, 7)))?;
    }
    let Some(below) = below else { return finish(area, chart, None, (&entries, true)) };
    let half = i32::try_from(w / 2).unwrap_or(0);
    for (e, (row, col)) in entries.iter().zip(at) {
        draw_entry(&below, e, (10 + col * half, 10 + row * LEGEND_ROW))?;
    }
    finish(area, chart, None, (&[], false))
}
