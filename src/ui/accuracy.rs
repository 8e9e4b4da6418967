//! "How accurate is it?": the engine against published reference numbers (domain/accuracy.rs),
//! from the table the tests keep equal to a fresh computation.

use super::i18n::{Key, Lang};
use crate::domain::accuracy::{shown_score, snapshot, Shown};
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
    let t = move |k: Key| k.text(lang.get());
    let row = move |c: &'static Shown| {
        let within = match (&c.not_expressible, c.within) {
            (Some(_), _) => t(Key::NotExpressible).to_string(),
            (None, true) => "✓".into(),
            (None, false) => "✗".into(),
        };
        let why = c.not_expressible.clone().unwrap_or_default();
        view! {
            <tr class:out=c.not_expressible.is_none() && !c.within>
                <td><a href=c.url.clone() target="_blank" rel="noopener noreferrer">{c.id.clone()}</a></td>
                <td>{format!("{} {}", fmt(c.published), c.unit)}</td>
                <td>{c.ours.map_or("—".into(), fmt)}</td>
                <td>{c.error.map_or("—".into(), |e| format!("{:+.1}%", e * 100.0))}</td>
                <td>{format!("±{:.0}%", c.tolerance * 100.0)}</td>
                <td title=why>{within}</td>
            </tr>
        }
    };
    view! {
        <details class="accuracy" data-testid="accuracy" on:toggle=move |_| open.set(true)>
            <summary><h2>{move || t(Key::Accuracy)}</h2></summary>
            <p class="muted">{move || t(Key::AccuracyIntro)}</p>
            <p data-testid="accuracy-score">{move || {
                let (within, counted) = shown_score(snapshot());
                format!("{within} / {counted} {} ({} {})", t(Key::AccuracyScore), snapshot().len(), t(Key::CasesInAll))
            }}</p>
            <div class="table-wrap">
                <table class="accuracy-table">
                    <thead><tr>
                        <th>{move || t(Key::AccuracyCase)}</th><th>{move || t(Key::Published)}</th><th>{move || t(Key::Ours)}</th>
                        <th>{move || t(Key::ErrorLabel)}</th><th>{move || t(Key::Tolerance)}</th><th>{move || t(Key::Within)}</th>
                    </tr></thead>
                    <tbody>{move || open.get().then(|| snapshot().iter().map(row).collect_view())}</tbody>
                </table>
            </div>
        </details>
    }
}
