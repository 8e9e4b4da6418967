//! "How accurate is it?": the engine against published reference numbers (domain/accuracy.rs).
//! The table is computed only when the section is opened (it runs ~70 plans).

use super::i18n::{Key, Lang};
use crate::domain::accuracy::{score, table, Row};
use crate::domain::Catalog;
use leptos::prelude::*;

fn fmt(v: f64) -> String {
    if v.abs() >= 1000.0 {
        crate::domain::format::grouped(v, 0)
    } else {
        format!("{v:.3}")
    }
}

/// The accuracy table, in a collapsed section.
#[component]
pub fn AccuracyView() -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let open = RwSignal::new(false);
    let rows = Memo::new(move |_| if open.get() { table(Catalog::embedded()) } else { Vec::new() });
    let t = move |k: Key| k.text(lang.get());
    let row = move |r: Row| {
        let c = r.case;
        let within = match (&c.not_expressible, r.within) {
            (Some(_), _) => t(Key::NotExpressible).to_string(),
            (None, true) => "✓".into(),
            (None, false) => "✗".into(),
        };
        let why = c.not_expressible.clone().unwrap_or_else(|| c.note.clone());
        view! {
            <tr class:out=move || c.not_expressible.is_none() && !r.within>
                <td><a href=c.url.clone() target="_blank" rel="noopener noreferrer" title=c.source.clone()>{c.id.clone()}</a></td>
                <td>{format!("{} {}", fmt(c.published), c.unit)}</td>
                <td>{r.ours.map_or("—".into(), fmt)}</td>
                <td>{r.error.map_or("—".into(), |e| format!("{:+.1}%", e * 100.0))}</td>
                <td>{format!("±{:.0}%", c.tolerance * 100.0)}</td>
                <td title=why>{within}</td>
            </tr>
        }
    };
    view! {
        <details class="accuracy" data-testid="accuracy" on:toggle=move |_| open.set(true)>
            <summary><h2>{move || t(Key::Accuracy)}</h2></summary>
            <p class="muted">{move || t(Key::AccuracyIntro)}</p>
            <p data-testid="accuracy-score">{move || rows.with(|r| {
                if r.is_empty() { return String::new(); }
                let (within, counted) = score(r);
                format!("{within} / {counted} {} ({} {})", t(Key::AccuracyScore), r.len(), t(Key::AccuracyCase))
            })}</p>
            <div class="table-wrap">
                <table class="accuracy-table">
                    <thead><tr>
                        <th>{move || t(Key::AccuracyCase)}</th><th>{move || t(Key::Published)}</th><th>{move || t(Key::Ours)}</th>
                        <th>{move || t(Key::ErrorLabel)}</th><th>{move || t(Key::Tolerance)}</th><th>{move || t(Key::Within)}</th>
                    </tr></thead>
                    <tbody>{move || rows.get().into_iter().map(row).collect_view()}</tbody>
                </table>
            </div>
        </details>
    }
}
