//! "How accurate is it?": the engine against published reference numbers (domain/accuracy.rs).
//! The page states the score and links the full table, a static page written by [`page`]
//! (`gpu-planner accuracy --html > public/accuracy.html`) and shipped beside the page; the tests
//! keep both current.

use super::i18n::{Key, Lang};
use super::prerender::esc;
use crate::domain::accuracy::{Group, Shown, SCORE};
use leptos::prelude::*;
use std::fmt::Write as _;

fn fmt(v: f64) -> String {
    if v.abs() >= 1000.0 {
        crate::domain::format::grouped(v, 0)
    } else {
        format!("{v:.3}")
    }
}

/// The accuracy table as a standalone page, headings in both languages.
#[must_use]
pub fn page(rows: &[Shown], groups: &[Group]) -> String {
    let both = |k: Key| format!("{} · {}", esc(k.text(Lang::En)), esc(k.text(Lang::Zh)));
    let (within, all, lacking) = crate::domain::accuracy::shown_headline(rows);
    let mut h = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\" />\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />",
    );
    let _ = write!(h, "<title>GPU Planner · {}</title>", both(Key::Accuracy));
    h.push_str(
        "<style>body{font:14px system-ui,sans-serif;margin:16px;color:#222}table{border-collapse:collapse}\
         td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left}tr.out td{background:#fdecea}\
         .muted{color:#666}</style></head><body>",
    );
    let _ = write!(h, "<h1>{}</h1>", both(Key::Accuracy));
    let _ = write!(
        h,
        "<p class=\"muted\">{}</p><p class=\"muted\">{}</p>",
        esc(Key::AccuracyIntro.text(Lang::En)),
        esc(Key::AccuracyIntro.text(Lang::Zh))
    );
    let _ = write!(
        h,
        "<p><b>{within} / {all}</b> {} ({lacking} {})</p>",
        both(Key::AccuracyScore),
        both(Key::LackingFeature)
    );
    // Headings of this static page only (not in the page's string table: the wasm does not ship them).
    let _ = write!(
        h,
        "<p class=\"muted\">By role and kind: calibration rows set (or were seen while setting) a constant; validation \
         rows were added after and judge them. Median and p90 of |error| over the rows with a figure. · \
         按用途和类别：校准行用于设定（或在设定时参考过）常数；验证行在此之后加入，只用于检验。|误差| 的中位数和 p90 只计有数值的行。</p>\
         <table><thead><tr>"
    );
    for k in ["role · 用途", "kind · 类别", "rows · 行数"] {
        let _ = write!(h, "<th>{k}</th>");
    }
    let _ = write!(h, "<th>{}</th>", both(Key::Within));
    for k in ["engine lacks · 引擎缺项", "median |error| · |误差| 中位数", "p90 |error| · |误差| p90"] {
        let _ = write!(h, "<th>{k}</th>");
    }
    h.push_str("</tr></thead><tbody>\n");
    for g in groups {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}%</td><td>{:.1}%</td></tr>",
            g.role.label(),
            g.kind.label(),
            g.rows,
            g.within,
            g.lacking,
            g.median_abs_error * 100.0,
            g.p90_abs_error * 100.0
        );
    }
    case_rows(&mut h, rows, &both);
    h.push_str("</tbody></table></body></html>\n");
    h
}

/// The table of every case, one row each, with its role, figures, error and verdict.
fn case_rows(h: &mut String, rows: &[Shown], both: &dyn Fn(Key) -> String) {
    h.push_str("</tbody></table><h2>&nbsp;</h2><table><thead><tr>");
    let _ = write!(h, "<th>{}</th><th>role · 用途</th>", both(Key::AccuracyCase));
    for k in [Key::Published, Key::Ours, Key::ErrorLabel, Key::Tolerance, Key::Within] {
        let _ = write!(h, "<th>{}</th>", both(k));
    }
    h.push_str("</tr></thead><tbody>\n");
    for c in rows {
        let within = match (&c.not_expressible, c.within) {
            (Some(why), _) => format!("{}: {}", both(Key::NotExpressible), esc(why)),
            (None, true) => "✓".into(),
            (None, false) => "✗".into(),
        };
        let out = if c.not_expressible.is_none() && !c.within { " class=\"out\"" } else { "" };
        let _ = writeln!(
            h,
            "<tr{out}><td><a href=\"{}\">{}</a></td><td>{}</td><td>{} {}</td><td>{}</td><td>{}</td><td>±{:.0}%</td><td>{within}</td></tr>",
            esc(&c.url),
            esc(&c.id),
            c.role.label(),
            fmt(c.published),
            esc(&c.unit),
            match (c.ours, c.band, &c.open) {
                (Some(o), Some((lo, hi)), Some(why)) => format!("{} ({}–{}: {})", fmt(o), fmt(lo), fmt(hi), esc(why)),
                (o, _, _) => o.map_or("—".into(), fmt),
            },
            c.error.map_or("—".into(), |e| format!("{:+.1}%", e * 100.0)),
            c.tolerance * 100.0,
        );
    }
}

/// The score and a link to the table.
#[component]
pub fn AccuracyView() -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let t = move |k: Key| k.text(lang.get());
    let (within, all, lacking) = SCORE;
    view! {
        <section class="accuracy group" id="accuracy" data-testid="accuracy">
            <h2>{move || t(Key::Accuracy)}</h2>
            <p class="muted">{move || t(Key::AccuracyIntro)}</p>
            <p data-testid="accuracy-score">{move || format!("{within} / {all} {} ({lacking} {}) · ", t(Key::AccuracyScore), t(Key::LackingFeature))}
                <a href="accuracy.html" target="_blank" rel="noopener" data-testid="accuracy-link">{move || t(Key::AccuracyTable)}</a></p>
        </section>
    }
}
