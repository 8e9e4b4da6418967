//! User-timing marks (`performance.mark`) at the start-up stages, so a trace (and
//! `bench/first-result.mjs`) can say where a share link's first result spends its time:
//! module start, catalog decoded, first plan, first render. A mark costs microseconds.

/// Records `gp:{name}` on the page's performance timeline; does nothing outside a browser.
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(&format!("gp:{name}"));
    }
}
