//! The default scenario's answer as static HTML, written into the built index.html (by
//! scripts/postbuild.py from `public/prerender.html`) so a first visit sees the summary and the
//! top of the ranking before the WebAssembly has compiled. The live app removes it when it mounts
//! (src/main.rs); a scenario in the link or in local storage skips it (the inline script in
//! [`document`]). `gpu-planner prerender > public/prerender.html` regenerates it;
//! tests/prerender.rs fails when the file no longer matches the engine.

use super::i18n::Key;
use super::results::{row_text, TOP};
use crate::domain::format::{self, Lang};
use crate::domain::{plan, Catalog, Scenario};
use std::fmt::Write as _;

/// Text made safe inside HTML elements and double-quoted attributes (this page and
/// `accuracy.html`).
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The summary and the top rows of the ranking for the default scenario, in one language, with
/// the live page's classes (so it looks the same) but no test ids or controls.
#[must_use]
pub fn answer(l: Lang) -> String {
    let s = Scenario::default();
    let Ok(r) = plan(&s, Catalog::embedded()) else { return String::new() };
    let t = |k: Key| esc(k.text(l));
    let mut h = String::new();
    let _ = write!(h, "<header><h1>{}</h1><p>{}</p></header>", t(Key::Title), t(Key::Tagline));
    let _ = write!(h, "<div class=\"pairs\"><main class=\"results\"><section class=\"summary\">");
    let active = if r.active_params < r.params {
        format!(" ({} {:.1} B)", t(Key::Active), r.active_params / 1e9)
    } else {
        String::new()
    };
    let _ = write!(h, "<p>{}: <b>{:.2} B</b>{active}</p>", t(Key::Params), r.params / 1e9);
    let _ = write!(h, "<p>{}: <b>{}</b></p>", t(Key::MemorySingle), format::gib(r.memory_single.total));
    let _ = write!(h, "<p>{}: {}</p>", t(Key::QuickRule), esc(&format::quick_rule(&r.quick_rule)));
    if let Some(f) = r.training_flops {
        let _ = write!(h, "<p>{}: {}</p>", t(Key::Flops), format::flops(f));
    }
    for w in &r.warnings {
        let _ = write!(h, "<p class=\"warn\">{}</p>", esc(&format::warning(w, l)));
    }
    if !r.unknown_specs.is_empty() {
        let _ = write!(h, "<p class=\"muted\">{}: {}</p>", t(Key::UnknownSpecs), esc(&r.unknown_specs.join(", ")));
    }
    let _ = write!(h, "</section><div class=\"table-wrap\"><table class=\"ranking cards\"><thead><tr>");
    let time = if r.task.is_training() { Key::Time } else { Key::ThroughputLabel };
    for k in [Key::Card, Key::Fits, Key::Cards, Key::Layout, Key::MemoryPerCard, time, Key::Cost, Key::Warnings] {
        let _ = write!(h, "<th>{}</th>", t(k));
    }
    h.push_str("</tr></thead><tbody>");
    for c in r.cards.iter().take(TOP) {
        let x = row_text(c, l, &s, r.task.is_training());
        let class = if x.fits { "fits" } else { "nofit" };
        let _ = write!(
            h,
            "<tr class=\"{class}\"><td>{}</td><td>{}</td><td>{}</td><td class=\"mono\">{}</td>\
             <td><div class=\"bar\"><div class=\"fill{}\" style=\"width:{:.1}%\"></div></div><small>{}</small></td>\
             <td>{}</td><td>{}<br/><small>{}</small></td><td class=\"warn\">{}</td></tr>",
            esc(&x.name),
            t(if x.fits { Key::Yes } else { Key::No }),
            esc(&x.cards),
            esc(&x.layout),
            if x.fits { "" } else { " over" },
            x.pct,
            esc(&x.memory),
            esc(&x.time),
            esc(&x.cost),
            esc(&x.price),
            esc(&x.warnings),
        );
    }
    h.push_str("</tbody></table></div></main></div>");
    h
}

/// Shows the answer in the visitor's language unless the page opens a scenario of its own (a
/// share link, an embed, or one kept in local storage). Keys match src/web/storage.rs.
const CHOOSER: &str = "(function(){try{var q=location.search,ls=window.localStorage;\
if(/[?&](s|embed)=/.test(q)||/[?&]embed(&|$)/.test(q)||ls.getItem('gpu-planner/current/v1'))return;\
var l=ls.getItem('gpu-planner/lang')||navigator.language||'en',zh=/^zh/i.test(l);\
var p=document.getElementById('prerender');p.querySelector(zh?'[data-lang=zh]':'[data-lang=en]').hidden=false;\
p.hidden=false;}catch(e){}})();";

/// The block postbuild.py inserts at the start of `<body>`: both languages, hidden until the
/// inline script picks one.
#[must_use]
pub fn document() -> String {
    format!(
        "<div id=\"prerender\" hidden>\n<div class=\"app\" data-lang=\"en\" lang=\"en\" hidden>{}</div>\n\
         <div class=\"app\" data-lang=\"zh\" lang=\"zh\" hidden>{}</div>\n</div>\n<script>{CHOOSER}</script>\n",
        answer(Lang::En),
        answer(Lang::Zh)
    )
}
