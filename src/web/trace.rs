//! User-timing marks (`performance.mark`) at the start-up stages, so a trace (and
//! `bench/first-result.mjs`) can say where a share link's first result spends its time:
//! module start, catalog decoded, first plan, first render. A mark costs microseconds.

/// Records `gp:{name}` on the page's performance timeline; does nothing outside a browser.
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(&format!("gp:{name}"));
    }
}

/// Runs `f` and leaves its duration on the timeline as the measure `gp:{name}` (the latest run
/// only: the previous measure is cleared), so a benchmark can read how long the page's own
/// build, as shipped, takes to plan (bench/plan-in-page.mjs).
pub fn measure<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let Some(p) = web_sys::window().and_then(|w| w.performance()) else { return f() };
    let (start, whole) = (format!("gp:{name}:start"), format!("gp:{name}"));
    let _ = p.mark(&start);
    let out = f();
    p.clear_measures_with_measure_name(&whole);
    let _ = p.measure_with_start_mark(&whole, &start);
    p.clear_marks_with_mark_name(&start);
    out
}
