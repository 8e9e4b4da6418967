//! The default scenario's answer as static HTML, written into the built index.html (by
//! scripts/postbuild.py from `public/prerender.html`) so a first visit sees the summary and the
//! top of the ranking before the WebAssembly has compiled. The live app removes it when it mounts
//! (src/main.rs); a scenario in the link or in local storage skips it (the inline script in
//! [`document`]). `gpu-planner prerender > public/prerender.html` regenerates it;
//! tests/prerender.rs fails when the file no longer matches the engine.

use super::i18n::Key;
use super::results::{row_text, TOP};
use crate::domain::format::{self, Lang};
use crate::domain::{plan, Catalog, Report, Scenario};
use std::fmt::Write as _;

/// Text made safe inside HTML elements and double-quoted attributes (this page and
/// `accuracy.html`).
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The scenario a first visitor starts from: in Chinese, priced in China's market.
#[must_use]
pub fn first_visit(l: Lang) -> Scenario {
    if l == Lang::Zh {
        Scenario::china_default()
    } else {
        Scenario::default()
    }
}

/// The summary and the top rows of the ranking for the default scenario, in one language, with
/// the live page's classes (so it looks the same) but no test ids or controls.
#[must_use]
pub fn answer(l: Lang) -> String {
    let s = first_visit(l);
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

/// Rows of the answer a share link carries (`&r=`, [`snapshot`]).
pub const SNAPSHOT_ROWS: usize = 3;
/// The longest `r=` value the page reads (the inline script and src/web/url.rs).
pub const SNAPSHOT_MAX: usize = 2000;

/// The top of the answer for a share link's `r=`: base64url (no padding) of
/// `{"c": caption, "h": [card, cards, time, cost], "r": [[…], …]}`, in the sender's language.
/// The inline script ([`CHOOSER`]) shows it as text before the WebAssembly has started — a
/// link's recipient otherwise waits for the whole start-up for a first row (issue 29) — and the
/// live answer replaces it. Empty when the answer has no card or would not fit the limit.
#[must_use]
pub fn snapshot(r: &Report, s: &Scenario, l: Lang) -> String {
    use base64::Engine as _;
    let training = r.task.is_training();
    let time = if training { Key::Time } else { Key::ThroughputLabel };
    let rows: Vec<[String; 4]> = r
        .cards
        .iter()
        .take(SNAPSHOT_ROWS)
        .map(|c| {
            let x = row_text(c, l, s, training);
            [x.name, x.cards, x.time, x.cost]
        })
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let head = [Key::Card, Key::Cards, time, Key::Cost].map(|k| k.text(l));
    let v = serde_json::json!({ "c": Key::LinkAnswer.text(l), "h": head, "r": rows });
    let out = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    if out.len() <= SNAPSHOT_MAX {
        out
    } else {
        String::new()
    }
}

/// Shows the answer in the visitor's language unless the page opens a scenario of its own (a
/// share link, an embed, or one kept in local storage). A share link with an answer (`r=`,
/// [`snapshot`]) shows that answer instead, as text. Keys match src/web/storage.rs; local
/// storage is read last (a sandboxed iframe throws on it).
const CHOOSER: &str = "(function(){try{var q=location.search,d=document;\
if(/[?&]s=/.test(q)){var m=/[?&]r=([A-Za-z0-9_-]{1,2000})(&|$)/.exec(q);if(!m)return;\
var b=atob(m[1].replace(/-/g,'+').replace(/_/g,'/')),u=new Uint8Array(b.length);\
for(var i=0;i<b.length;i++)u[i]=b.charCodeAt(i);var j=JSON.parse(new TextDecoder().decode(u));\
var a=d.createElement('div'),c=d.createElement('p'),t=d.createElement('table'),h=t.createTHead().insertRow(),y=t.createTBody();\
a.className='app';a.setAttribute('data-lang','link');c.className='muted';c.textContent=String(j.c);\
t.className='ranking';j.h.slice(0,4).forEach(function(x){var e=d.createElement('th');e.textContent=String(x);h.appendChild(e)});\
j.r.slice(0,3).forEach(function(r){var w=y.insertRow();r.slice(0,4).forEach(function(x){w.insertCell().textContent=String(x)})});\
a.appendChild(c);a.appendChild(t);var p=d.getElementById('prerender');p.appendChild(a);p.hidden=false;return;}\
if(/[?&]embed(=|&|$)/.test(q))return;var ls=window.localStorage;if(ls.getItem('gpu-planner/current/v1'))return;\
var l=ls.getItem('gpu-planner/lang')||navigator.language||'en',zh=/^zh/i.test(l);\
var p=d.getElementById('prerender');p.querySelector(zh?'[data-lang=zh]':'[data-lang=en]').hidden=false;\
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
