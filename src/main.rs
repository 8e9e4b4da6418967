//! The page's entry point: panic safety net, the data file (`--features fetch-data`, the page's
//! own build), then mount the app.

fn main() {
    use gpu_planner::web::trace::mark;
    mark("start");
    gpu_planner::web::panic::install();
    gpu_planner::web::panic::self_test();
    #[cfg(feature = "fetch-data")]
    wasm_bindgen_futures::spawn_local(async {
        match gpu_planner::web::data::load().await {
            Ok(()) => start(),
            Err(e) => gpu_planner::web::data::show_error(&e),
        }
    });
    #[cfg(not(feature = "fetch-data"))]
    start();
}

fn start() {
    use gpu_planner::web::trace::mark;
    // Decoded here rather than inside the first plan, so the trace can tell the two apart.
    let _ = gpu_planner::domain::catalog::Catalog::embedded();
    mark("catalog");
    leptos::mount::mount_to_body(gpu_planner::ui::App);
    mark("mounted");
    // The static first answer (src/ui/prerender.rs) goes in the same task, before the next paint.
    gpu_planner::web::files::remove_prerender();
}
