//! The page's entry point: panic hook, then mount the app.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(gpu_planner::ui::App);
}
