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
    use gpu_planner::chart::{draw_annual, draw_cumulative};
    let rvb = breakeven_rvb();
    assert!(rvb.own_per_gpu_hour < 60.0, "{}", rvb.own_per_gpu_hour);
    let l = rent_labels("累计成本 cumulative", "月 month");
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
        let mark = svg.split("breakeven ").nth(1).and_then(|t| t.split('<').next()).unwrap_or_default().trim();
        assert!(mark.ends_with(" months") && mark.chars().next().is_some_and(|c| c.is_ascii_digit()), "{mark}");
    }
}

/// The cumulative chart's month axis is labelled in whole months, over a few months or many.
#[test]
fn the_month_axis_is_labelled_in_whole_months() {
    use gpu_planner::chart::draw_cumulative;
    use gpu_planner::domain::{plan, Catalog, Scenario};
    for months in [3, 7, 48] {
        let mut s = Scenario::default();
        s.ownership.rent_hourly = Some(20.0);
        s.ownership.months = months;
        let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
        let rvb = r.rent_vs_buy.unwrap_or_else(|| panic!("rent-vs-buy"));
        let l = rent_labels("t", "months");
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (800, 400)).into_drawing_area();
            if let Err(e) = draw_cumulative(&area, &rvb, &l) {
                panic!("draw failed: {e}");
            }
        }
        let texts: Vec<&str> =
            svg.split("<text").skip(1).filter_map(|t| t.split('>').nth(1)?.split('<').next()).map(str::trim).collect();
        let fractional: Vec<&&str> = texts.iter().filter(|t| t.parse::<f64>().is_ok() && t.contains('.')).collect();
        assert!(fractional.is_empty(), "{months} months: axis labels {fractional:?} are not whole months");
        let ticks: Vec<f64> = texts.iter().filter_map(|t| t.parse::<f64>().ok()).collect();
        assert!(ticks.len() >= 3, "{months} months: ticks {texts:?}");
    }
}

/// The default report's rent-vs-buy with rent dear enough that owning the focus card breaks
/// even, whichever card that is.
fn breakeven_rvb() -> gpu_planner::domain::cost::RentVsBuy {
    use gpu_planner::domain::{plan, Catalog, Scenario};
    let mut s = Scenario::default();
    s.ownership.rent_monthly = Some(12_000.0);
    s.ownership.rent_hourly = Some(60.0);
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let rvb = r.rent_vs_buy.unwrap_or_else(|| panic!("no rent-vs-buy in the default report"));
    rvb
}

/// The cumulative rent-vs-buy chart of [`breakeven_rvb`], 800 × 400, with `l`'s texts.
fn cumulative_svg(l: &gpu_planner::chart::RentLabels) -> String {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (800, 400)).into_drawing_area();
        gpu_planner::chart::draw_cumulative(&area, &breakeven_rvb(), l).unwrap_or_else(|e| panic!("{e}"));
    }
    svg
}

/// Chart texts for the rent-vs-buy tests: a title and an x-axis name, the rest fixed.
fn rent_labels(title: &'static str, x: &'static str) -> gpu_planner::chart::RentLabels<'static> {
    gpu_planner::chart::RentLabels {
        title,
        x,
        y: "¥",
        own: "own",
        own_net: "own-net",
        on_demand: "on-demand",
        monthly: "monthly",
        yearly: "yearly",
        breakeven: "breakeven",
        unit: "months",
    }
}

/// The serving trade-off chart: every width's line with batch labels at 1, 8, 64, the plan's
/// operating point in the legend, and an x axis labelled in whole tokens/s (issue 29 item 11:
/// the old chart had unlabelled points, no operating point and "0.0, 10.0" axis labels).
#[test]
fn tradeoff_chart_labels_batches_and_marks_the_plan() {
    use gpu_planner::chart::{axis_number, draw_tradeoff, TradeoffLabels};
    let curves = vec![
        (1, (0..8).map(|i| (60.0 - 6.0 * f64::from(i), 40.0 * f64::from(1 << i))).collect::<Vec<_>>()),
        (2, vec![(90.0, 30.0), (85.0, 58.0)]),
    ];
    let labels = TradeoffLabels {
        title: "t",
        x: "tok/s per user",
        y: "tok/s per card",
        tp: "TP",
        target: "target",
        batch: "b=",
        plan: "this plan: TP1 × 2 = 2",
    };
    let render = |operating: Option<(f64, f64)>| {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
            draw_tradeoff(&area, &curves, 20.0, operating, &labels).unwrap_or_else(|e| panic!("{e}"));
        }
        svg_texts(&svg)
    };
    let texts = render(Some((30.0, 2_000.0)));
    for l in ["TP1", "TP2", "target", "b=1", "b=8", "b=64", "this plan: TP1 × 2 = 2", "10", "1.5k"] {
        assert!(texts.iter().any(|t| t == l), "lacks {l}: {texts:?}");
    }
    assert_eq!(texts.iter().filter(|t| *t == "b=1").count(), 2, "each width's batch 1 is labelled");
    // Batch 2 and 4 are not labelled (labels every third doubling); no "10.0"-style tokens/s.
    assert!(!texts.iter().any(|t| t == "b=2" || t == "b=4" || t == "0.0" || t == "10.0"), "{texts:?}");
    // No plan, or a plan with no figures: no legend entry, no diamond.
    assert!(!render(None).iter().any(|t| t.starts_with("this plan")));
    assert!(!render(Some((f64::NAN, 1.0))).iter().any(|t| t.starts_with("this plan")));
    assert_eq!(
        (axis_number(20.0, 90.0), axis_number(1500.0, 4000.0), axis_number(0.5, 2.0)),
        ("20".into(), "1.5k".into(), "0.5".into())
    );
}

/// The texts of an SVG's `<text>` elements, trimmed.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.trim().to_string()))
        .collect()
}

/// On a phone-width canvas the chart title is drawn smaller (18 px → 13 px) so it fits.
#[test]
fn a_narrow_chart_gets_a_smaller_title() {
    use gpu_planner::chart::{draw_tradeoff, TradeoffLabels};
    let labels = TradeoffLabels { title: "T", x: "x", y: "y", tp: "TP", target: "t", batch: "b=", plan: "p" };
    let size = |w: u32| {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (w, 300)).into_drawing_area();
            draw_tradeoff(&area, &[(1, vec![(10.0, 10.0)])], 5.0, None, &labels).unwrap_or_else(|e| panic!("{e}"));
        }
        let title = svg.split("<text").nth(1).unwrap_or_default().to_string();
        title
            .split("font-size=\"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let (narrow, wide) = (size(340), size(900));
    assert!(narrow > 0.0 && narrow < wide, "{narrow} vs {wide}");
}

/// On a phone-width canvas the trade-off legend goes below the plot, where it covers no curve
/// (issue 29 item 11: at 340 px the boxed legend hid most of the lines), and a "title · card"
/// breaks onto two lines instead of running off both edges.
#[test]
fn a_narrow_tradeoff_chart_puts_its_legend_below_the_plot() {
    use gpu_planner::chart::{draw_tradeoff, TradeoffLabels};
    let labels = TradeoffLabels {
        title: "Trade-off · AMD Instinct MI300X",
        x: "tok/s per user",
        y: "tok/s per card",
        tp: "TP",
        target: "target",
        batch: "b=",
        plan: "this plan",
    };
    let curves = vec![(1, vec![(60.0, 40.0), (50.0, 400.0)]), (8, vec![(120.0, 80.0), (90.0, 900.0)])];
    let texts = |w: u32| {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (w, 320)).into_drawing_area();
            draw_tradeoff(&area, &curves, 20.0, Some((30.0, 500.0)), &labels).unwrap_or_else(|e| panic!("{e}"));
        }
        svg_texts_at(&svg)
    };
    let y_of = |all: &[(String, f64, f64)], s: &str| {
        all.iter().find(|t| t.0 == s).map(|t| t.2).unwrap_or_else(|| panic!("lacks {s}: {all:?}"))
    };
    let narrow = texts(340);
    // The x-axis description is the plot's lowest text: every legend entry is below it.
    let axis = y_of(&narrow, "tok/s per user");
    for entry in ["TP1", "TP8", "target", "this plan"] {
        assert!(y_of(&narrow, entry) > axis, "{entry} at {} is not below the axis at {axis}", y_of(&narrow, entry));
    }
    assert!(y_of(&narrow, "Trade-off") < y_of(&narrow, "AMD Instinct MI300X"), "{narrow:?}");
    // Two entries a row; the plan's (the longest) on a row of its own at the left edge, so it
    // is not cut off at the right.
    assert!((y_of(&narrow, "TP1") - y_of(&narrow, "TP8")).abs() < 1.0, "{narrow:?}");
    // The row's second entry starts in the right half, the first near the left edge.
    let x_of = |s: &str| narrow.iter().find(|t| t.0 == s).map_or(f64::NAN, |t| t.1);
    assert!(x_of("TP1") < 60.0 && x_of("TP8") > 340.0 / 2.0 && x_of("TP8") < 340.0, "{narrow:?}");
    let plan = narrow.iter().find(|t| t.0 == "this plan").map_or(f64::NAN, |t| t.1);
    assert!(plan < 340.0 / 2.0 && y_of(&narrow, "this plan") > y_of(&narrow, "target"), "{narrow:?}");
    // A wide chart keeps the boxed legend inside the plot and the title on one line.
    let wide = texts(900);
    assert!(y_of(&wide, "TP1") < y_of(&wide, "tok/s per user"));
    assert!(wide.iter().any(|t| t.0 == "Trade-off · AMD Instinct MI300X"), "{wide:?}");
}

/// The number in attribute `name` of an SVG element's text (from after its tag name).
fn attr(element: &str, name: &str) -> Option<f64> {
    element.split(&format!(" {name}=\"")).nth(1)?.split('"').next()?.parse().ok()
}

/// (x, y, width, height) of every `<rect>` whose attributes contain `marker`.
fn svg_rects(svg: &str, marker: &str) -> Vec<[f64; 4]> {
    svg.split("<rect")
        .skip(1)
        .filter(|r| r.split('>').next().is_some_and(|a| a.contains(marker)))
        .filter_map(|r| Some([attr(r, "x")?, attr(r, "y")?, attr(r, "width")?, attr(r, "height")?]))
        .collect()
}

/// The legend box: the translucent rectangle.
fn legend_box(svg: &str) -> [f64; 4] {
    svg_rects(svg, "opacity=\"0.85").first().copied().unwrap_or_else(|| panic!("no legend box"))
}

/// The (text, x, y) named `name` among `all`.
fn named(all: &[(String, f64, f64)], name: &str) -> (String, f64, f64) {
    all.iter().find(|t| t.0 == name).cloned().unwrap_or_else(|| panic!("lacks {name}: {all:?}"))
}

/// The widest of `names` in the legend's 12 px font, as plotters estimates it.
fn widest(names: &[&str]) -> f64 {
    let area = SVGBackend::new("/dev/null", (10, 10)).into_drawing_area();
    let font: TextStyle = (FontFamily::SansSerif, 12).into_font().into();
    f64::from(names.iter().map(|n| area.estimate_text_size(n, &font).map_or(0, |s| s.0)).max().unwrap_or(0))
}

/// (text, x, y) of every `<text>` of an SVG.
fn svg_texts_at(svg: &str) -> Vec<(String, f64, f64)> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = t.split_once('>')?.1.split_once("</text>")?.0.trim().to_string();
            Some((body, attr(t, "x")?, attr(t, "y")?))
        })
        .collect()
}

/// The wide charts' legend is a box in the plot's top corner that their lines leave free: top
/// left for the rent-vs-buy curves (they start low at the left and rise to the right), top right
/// for the trade-off (its curves fall from the top left); one entry a row, in series order, each
/// entry's text inside the box.
#[test]
fn the_wide_legend_sits_in_its_corner_one_entry_a_row() {
    use gpu_planner::chart::{draw_tradeoff, TradeoffLabels};
    let (w, h) = (800.0, 400.0);
    let svg = cumulative_svg(&rent_labels("t", "months"));
    let at = svg_texts_at(&svg);
    let (own, on_demand) = (named(&at, "own"), named(&at, "on-demand"));
    assert!(own.1 < w / 4.0 && own.2 < h / 4.0, "own at {own:?}: not in the top-left corner");
    assert!((own.1 - on_demand.1).abs() < 1.0 && on_demand.2 > own.2 + 10.0, "rows: {own:?} {on_demand:?}");
    // The box (the translucent white rectangle) holds the entries.
    let [x, y, bw, bh] = legend_box(&svg);
    for t in [&own, &on_demand] {
        assert!(t.1 > x && t.1 < x + bw && t.2 >= y && t.2 < y + bh, "{t:?} outside the box {x},{y} {bw}×{bh}");
    }
    let labels = TradeoffLabels { title: "T", x: "x", y: "y", tp: "TP", target: "target", batch: "b=", plan: "p" };
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
        draw_tradeoff(&area, &[(1, vec![(60.0, 40.0), (50.0, 400.0)])], 20.0, None, &labels)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let tp1 = named(&svg_texts_at(&svg), "TP1");
    assert!(tp1.1 > 900.0 * 0.6 && tp1.2 < 420.0 / 4.0, "TP1 at {tp1:?}: not in the top-right corner");
}

/// The 2-point polylines of an SVG (legend marks are 16 px strokes) as (x1, y1, x2, y2), and the
/// number of polylines with more points (the drawn series).
fn svg_polylines(svg: &str) -> (Vec<(f64, f64, f64, f64)>, usize) {
    let (mut marks, mut series) = (Vec::new(), 0);
    for p in svg.split("<polyline").skip(1) {
        let Some(points) = p.split(" points=\"").nth(1).and_then(|v| v.split('"').next()) else { continue };
        let xy: Vec<f64> = points.split([' ', ',']).filter_map(|v| v.parse().ok()).collect();
        match xy[..] {
            [x1, y1, x2, y2] => marks.push((x1, y1, x2, y2)),
            _ if xy.len() > 20 => series += 1,
            _ => {}
        }
    }
    (marks, series)
}

/// Each legend entry's text starts just after its mark and spans the mark's height, so a reader
/// pairs them; the box is as wide as its longest text plus the mark; and every option's curve is
/// drawn (the legend's own marks are polylines too, so "has a polyline" proved nothing).
#[test]
fn each_legend_text_sits_beside_its_mark_and_every_curve_is_drawn() {
    let svg = cumulative_svg(&rent_labels("t", "months"));
    let (marks, series) = svg_polylines(&svg);
    let names = ["own", "own-net", "on-demand", "monthly"];
    assert!(series >= names.len(), "{series} curves drawn for {} options", names.len());
    let texts = svg_texts_at(&svg);
    let font_size = |name: &str| {
        svg.split("<text")
            .find(|t| {
                t.split_once('>')
                    .and_then(|(_, b)| b.split_once("</text>"))
                    .is_some_and(|(body, _)| body.trim() == name)
            })
            .and_then(|t| attr(t, "font-size"))
            .unwrap_or(0.0)
    };
    for name in names {
        let (_, tx, ty) = named(&texts, name);
        let size = font_size(name);
        // A 16 px horizontal mark ending 4–8 px before the text, at a height inside the text's.
        let beside = marks.iter().any(|&(x1, y1, x2, y2)| {
            (y1 - y2).abs() < 0.5
                && (x2 - x1 - 16.0).abs() < 0.5
                && (4.0..=8.0).contains(&(tx - x2))
                && y1 >= ty
                && y1 <= ty + size
        });
        assert!(size > 0.0 && beside, "{name} at ({tx}, {ty}) size {size}: no mark beside it in {marks:?}");
    }
    // The box holds the longest text after the mark.
    let [bx, _, bw, _] = legend_box(&svg);
    let own = named(&texts, "own-net").1;
    let widest = widest(&names);
    assert!(bx + bw >= own + widest, "box ends at {} before the text's end {}", bx + bw, own + widest);
}

/// The auto-plan chart's legend: the plans' entry is marked with a dot like the plotted plans,
/// centred on its row just before the text; the front's entry with its line.
#[test]
fn the_pareto_legend_marks_plans_with_a_dot_and_the_front_with_a_line() {
    use gpu_planner::chart::{draw_pareto, ParetoLabels};
    use gpu_planner::domain::{search::search, Catalog, Scenario};
    let r = search(&Scenario::default(), Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let l = ParetoLabels { title: "t", x: "days", y: "¥", plans: "plans", front: "front" };
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (900, 360)).into_drawing_area();
        draw_pareto(&area, &r, &l).unwrap_or_else(|e| panic!("{e}"));
    }
    let texts = svg_texts_at(&svg);
    let at = |name: &str| named(&texts, name);
    let (_, px, py) = at("plans");
    let circles: Vec<(f64, f64)> =
        svg.split("<circle").skip(1).filter_map(|c| Some((attr(c, "cx")?, attr(c, "cy")?))).collect();
    // The mark's centre: 8 px into the 16 px mark, which ends 6 px before the text.
    assert!(
        circles.iter().any(|&(cx, cy)| (cx - (px - 14.0)).abs() < 0.5 && cy > py && cy < py + 12.0),
        "no dot beside «plans» at ({px}, {py})"
    );
    let (_, fx, fy) = at("front");
    let (marks, _) = svg_polylines(&svg);
    assert!(marks.iter().any(|&(_, y1, x2, y2)| (y1 - y2).abs() < 0.5 && (fx - x2 - 6.0).abs() < 0.5 && y1 > fy));
    assert!(fx > 900.0 / 2.0, "the legend sits in the top-right corner");
}

/// The legend box's layout: a translucent fill and a black border over the same rectangle, 10 px
/// inside the plot's top and its left (or right) edge, 6 px of padding around the widest entry
/// (a 16 px mark, 6 px, the text), 4 px above and below its rows of 18 px.
#[test]
fn the_legend_box_is_laid_out_as_specified() {
    use gpu_planner::chart::{draw_tradeoff, TradeoffLabels};
    // The plot's left and right edges and top: from the y axis ("x,top x,bottom") and the x axis.
    let plot_edges = |svg: &str| {
        let (marks, _) = svg_polylines(svg);
        let y_axis = marks.iter().find(|m| (m.0 - m.2).abs() < 0.5 && m.3 - m.1 > 100.0).copied();
        let x_axis = marks.iter().find(|m| (m.1 - m.3).abs() < 0.5 && m.2 - m.0 > 300.0).copied();
        match (y_axis, x_axis) {
            (Some(y), Some(x)) => (y.0, x.2, y.1),
            _ => panic!("no axes in {marks:?}"),
        }
    };
    let check = |svg: &str, names: &[&str], right: bool| {
        let fill = svg_rects(svg, "opacity=\"0.85");
        let border = svg_rects(svg, "fill=\"none\" stroke=\"#000000");
        assert_eq!((fill.len(), border.first()), (1, fill.first()), "one box, its border over its fill");
        let [x, y, w, h] = fill[0];
        let n = names.len() as f64;
        assert!((w - (widest(names) + 16.0 + 6.0 + 2.0 * 6.0)).abs() <= 1.0, "width {w} for texts {}", widest(names));
        assert!((h - (18.0 * n + 2.0 * 4.0)).abs() <= 1.0, "height {h} for {n} rows");
        let (left, right_edge, top) = plot_edges(svg);
        assert!((y - top - 10.0).abs() <= 1.5, "box top {y}, plot top {top}");
        let inset = if right { right_edge - (x + w) } else { x - left };
        assert!(
            (inset - 10.0).abs() <= 1.5,
            "box 10 px inside the plot's {} edge: {inset}",
            ["left", "right"][usize::from(right)]
        );
        // Row k's mark: 6 px in from the box's left, centred 4 + 9 + 18·k px below its top.
        let (marks, _) = svg_polylines(svg);
        for k in 0..names.len() {
            let (mx, my) = (x + 6.0, y + 4.0 + 9.0 + 18.0 * k as f64);
            assert!(
                marks
                    .iter()
                    .any(|m| (m.0 - mx).abs() <= 1.0 && (m.1 - my).abs() <= 1.0 && (m.2 - m.0 - 16.0).abs() < 0.5),
                "row {k}: no mark at ({mx}, {my}) in {marks:?}"
            );
        }
    };
    check(&cumulative_svg(&rent_labels("t", "months")), &["own", "own-net", "on-demand", "monthly"], false);
    let labels = TradeoffLabels { title: "T", x: "x", y: "y", tp: "TP", target: "target", batch: "b=", plan: "p" };
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
        draw_tradeoff(&area, &[(1, vec![(60.0, 40.0), (50.0, 400.0)])], 20.0, None, &labels)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    check(&svg, &["TP1", "target"], true);
}
