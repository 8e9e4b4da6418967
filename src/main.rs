//! The page's entry point: panic safety net, then mount the app.

fn main() {
    gpu_planner::web::panic::install();
    gpu_planner::web::panic::self_test();
    leptos::mount::mount_to_body(gpu_planner::ui::App);
    // The static first answer (src/ui/prerender.rs) goes in the same task, before the next paint.
    gpu_planner::web::files::remove_prerender();
}
