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
    let _ = write!(h, "<p class=\"muted\">{}</p><table><thead><tr>", both(Key::AccuracyGroups));
    for k in [Key::Role, Key::Kind, Key::Rows, Key::Within, Key::LackingShort, Key::MedianError, Key::P90Error] {
        let _ = write!(h, "<th>{}</th>", both(k));
    }
    h.push_str("</tr></thead><tbody>\n");
    for g in groups {
        let _ = writeln!(
            h,
            "<tr><td>{:?}</td><td>{:?}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}%</td><td>{:.1}%</td></tr>",
            g.role,
            g.kind,
            g.rows,
            g.within,
            g.lacking,
            g.median_abs_error * 100.0,
            g.p90_abs_error * 100.0
        );
    }
    h.push_str("</tbody></table><h2>&nbsp;</h2><table><thead><tr>");
    for k in [Key::AccuracyCase, Key::Role, Key::Published, Key::Ours, Key::ErrorLabel, Key::Tolerance, Key::Within] {
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
            "<tr{out}><td><a href=\"{}\">{}</a></td><td>{:?}</td><td>{} {}</td><td>{}</td><td>{}</td><td>±{:.0}%</td><td>{within}</td></tr>",
            esc(&c.url),
            esc(&c.id),
            c.role,
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
    h.push_str("</tbody></table></body></html>\n");
    h
}

/// The score and a link to the table.
#[component]
pub fn AccuracyView() -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let t = move |k: Key| k.text(lang.get());
    let (within, all, lacking) = SCORE;
    view! {
        <section class="accuracy group" data-testid="accuracy">
            <h2>{move || t(Key::Accuracy)}</h2>
            <p class="muted">{move || t(Key::AccuracyIntro)}</p>
            <p data-testid="accuracy-score">{move || format!("{within} / {all} {} ({lacking} {}) · ", t(Key::AccuracyScore), t(Key::LackingFeature))}
                <a href="accuracy.html" target="_blank" rel="noopener" data-testid="accuracy-link">{move || t(Key::AccuracyTable)}</a></p>
        </section>
    }
}
