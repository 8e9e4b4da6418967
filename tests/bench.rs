//! Speed in headless Chromium: plan() over the whole catalog, input-to-screen latency, chart
//! redraws. Run by scripts/bench.sh with `--release`; prints the figures (and asserts nothing
//! about time, so a slow CI machine cannot fail the suite: budgets are checked by the script).
#![cfg(target_arch = "wasm32")]

use gpu_planner::domain::scenario::Task;
use gpu_planner::domain::{plan, Catalog, Scenario};
use gpu_planner::ui::App;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median milliseconds of `runs` plan() calls over the catalog, after one warm-up call.
fn plan_median(s: &Scenario, runs: usize) -> f64 {
    let cat = Catalog::embedded();
    let _ = plan(s, cat);
    median(
        (0..runs)
            .map(|_| {
                let t = now();
                let _ = plan(s, cat);
                now() - t
            })
            .collect(),
    )
}

#[wasm_bindgen_test]
async fn bench_in_chromium() {
    let cat = Catalog::embedded();
    let s = Scenario::default();
    bench_plans(&s);
    // The page stays mounted to the end, as when this was one function.
    let _page = bench_typing().await;
    bench_search(&s, cat);
    bench_charts(&s, cat);
}

/// plan() over the catalog: a language-model job, a vision job and two serving jobs.
fn bench_plans(s: &Scenario) {
    let plan_ms = plan_median(s, 60);
    console_log!("BENCH plan_ms {plan_ms:.3}");
    // A vision job (YOLOv8x at 1280 px): measured speeds carried to every card.
    let mut v = Scenario { model: "yolov8x".into(), ..Scenario::default() };
    v.vision.resolution = 1280;
    let vision_ms = plan_median(&v, 60);
    console_log!("BENCH vision_plan_ms {vision_ms:.3}");
    // Serving over the catalog: every card's replicas searched on the simulated scheduler.
    for (name, model, users) in [("serving_72b_100users", "qwen2.5-72b", 100), ("serving_7b_8users", "qwen2.5-7b", 8)] {
        let mut q = Scenario { task: Task::Inference, model: model.into(), ..Scenario::default() };
        q.inference.concurrent = users;
        let ms = plan_median(&q, 9);
        console_log!("BENCH {name}_plan_ms {ms:.3}");
    }
}

/// The page mounted, then a typed sequence length to the memory total on screen, 20 times.
/// Returns the mounted page.
async fn bench_typing() -> impl Sized {
    if let Ok(Some(st)) = window().local_storage() {
        let _ = st.clear();
    }
    let container = document().create_element("div").unwrap_or_else(|_| panic!("div"));
    let _ = document().body().map(|b| b.append_child(&container));
    let page = leptos::mount::mount_to(container.unchecked_into(), App);
    leptos::task::tick().await;
    // The panels below the answer (the inputs among them) mount after the first paint.
    for _ in 0..2 {
        let p = js_sys::Promise::new(&mut |resolve, _| {
            let _ = window().request_animation_frame(&resolve);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    }
    leptos::task::tick().await;
    let input: web_sys::HtmlInputElement = document()
        .query_selector("[data-testid='seq']")
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("seq"))
        .unchecked_into();
    let total: web_sys::Element =
        document().query_selector("[data-testid='memory-total']").ok().flatten().unwrap_or_else(|| panic!("total"));
    let mut lat = Vec::new();
    let mut sync = Vec::new();
    for i in 0..20 {
        let before = total.text_content().unwrap_or_default();
        input.set_value(&(4096 + 512 * (i + 1)).to_string());
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let ev = web_sys::Event::new_with_event_init_dict("input", &init).unwrap_or_else(|_| panic!("ev"));
        let t = now();
        let _ = input.dispatch_event(&ev);
        sync.push(now() - t);
        leptos::task::tick().await;
        lat.push(now() - t);
        assert_ne!(before, total.text_content().unwrap_or_default());
    }
    console_log!("BENCH input_to_screen_ms {:.3}", median(lat));
    console_log!("BENCH input_sync_part_ms {:.3}", median(sync));
    let t = now();
    leptos::task::tick().await;
    console_log!("BENCH empty_tick_ms {:.3}", now() - t);
    page
}

/// The auto-plan's search with a deadline.
fn bench_search(s: &Scenario, cat: &Catalog) {
    let mut sd = s.clone();
    sd.search.deadline_days = Some(14.0);
    let mut searched = 0;
    let search_ms = median(
        (0..7)
            .map(|_| {
                let t = now();
                searched = gpu_planner::domain::search::search(&sd, cat).map(|r| r.searched).unwrap_or(0);
                now() - t
            })
            .collect(),
    );
    console_log!("BENCH search_ms {search_ms:.3} configs {searched}");
}

/// The memory bar and the rent-or-buy chart drawn on a canvas.
fn bench_charts(s: &Scenario, cat: &Catalog) {
    let r = plan(s, cat).unwrap_or_else(|e| panic!("{e}"));
    let canvas: web_sys::HtmlCanvasElement =
        document().create_element("canvas").unwrap_or_else(|_| panic!("c")).unchecked_into();
    canvas.set_width(900);
    canvas.set_height(220);
    let labels = ["w", "g", "o", "m", "a", "l", "k", "b", "x", "cap"];
    let v = &r.cards[0];
    let mem = median(
        (0..30)
            .map(|_| {
                let t = now();
                let _ = gpu_planner::web::canvas::draw_memory(canvas.clone(), &v.memory, v.capacity, &labels);
                now() - t
            })
            .collect(),
    );
    console_log!("BENCH chart_memory_ms {mem:.3}");
    let mut s2 = s.clone();
    s2.ownership.rent_hourly = Some(12.0);
    let rvb = plan(&s2, cat).ok().and_then(|r| r.rent_vs_buy).unwrap_or_else(|| panic!("rvb"));
    canvas.set_height(360);
    let l = gpu_planner::chart::RentLabels {
        title: "t",
        x: "x",
        y: "y",
        own: "o",
        own_net: "n",
        on_demand: "d",
        monthly: "m",
        yearly: "y",
        breakeven: "b",
        unit: "u",
    };
    let cum = median(
        (0..30)
            .map(|_| {
                let t = now();
                let _ = gpu_planner::web::canvas::draw_rent(canvas.clone(), &rvb, &l, false);
                now() - t
            })
            .collect(),
    );
    console_log!("BENCH chart_cumulative_ms {cum:.3}");
}
