//! The page's entry point: panic safety net, then mount the app.

fn main() {
    use gpu_planner::web::trace::mark;
    mark("start");
    gpu_planner::web::panic::install();
    gpu_planner::web::panic::self_test();
    // Decoded here rather than inside the first plan, so the trace can tell the two apart.
    let _ = gpu_planner::domain::catalog::Catalog::embedded();
    mark("catalog");
    leptos::mount::mount_to_body(gpu_planner::ui::App);
    mark("mounted");
    // The static first answer (src/ui/prerender.rs) goes in the same task, before the next paint.
    gpu_planner::web::files::remove_prerender();
}
