//! Times `plan()` natively: the default scenario and a few heavier ones over the whole catalog.
//! `cargo run --release --example bench`

use gpu_planner::domain::scenario::{Parallel, Task};
use gpu_planner::domain::{plan, Catalog, Scenario};
use std::time::Instant;

fn time(name: &str, s: &Scenario) {
    let cat = Catalog::embedded();
    let _ = plan(s, cat); // warm the embedded catalog and presets
    let n = 200;
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(plan(std::hint::black_box(s), cat).map(|r| r.cards.len()).unwrap_or(0));
    }
    let per = t.elapsed().as_secs_f64() / f64::from(n) * 1e3;
    println!("{name:<40} {per:>8.3} ms per plan() ({} cards)", cat.gpus.len());
}

/// The auto-plan search of the default scenario with a 14-day deadline (the Chromium bench's case).
fn time_search() {
    let cat = Catalog::embedded();
    let mut s = Scenario::default();
    s.search.deadline_days = Some(14.0);
    let searched = gpu_planner::domain::search::search(&s, cat).map(|r| r.searched).unwrap_or(0);
    let mut ms: Vec<f64> = (0..15)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(
                gpu_planner::domain::search::search(std::hint::black_box(&s), cat).map(|r| r.searched).ok(),
            );
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    println!(
        "{:<40} {:>8.3} ms median per search() ({searched} configurations)",
        "auto-plan search, default scenario", ms[7]
    );
}

fn main() {
    time_search();
    time("default (Qwen2.5-7B full FT, auto)", &Scenario::default());
    time(
        "Llama 3.1 405B pre-train, auto",
        &Scenario { task: Task::Pretrain, model: "llama-3.1-405b".into(), ..Scenario::default() },
    );
    time(
        "DeepSeek-V3 inference",
        &Scenario { task: Task::Inference, model: "deepseek-v3".into(), ..Scenario::default() },
    );
    let mut serving = Scenario { task: Task::Inference, model: "qwen2.5-72b".into(), ..Scenario::default() };
    serving.inference.concurrent = 100;
    time("Qwen2.5-72B serving 100 users", &serving);
    let mut yolo = Scenario { model: "yolov8x".into(), ..Scenario::default() };
    yolo.vision.resolution = 1280;
    time("YOLOv8x training at 1280 px (vision)", &yolo);
    yolo.task = Task::Inference;
    time("YOLOv8x serving 100 img/s (vision)", &yolo);
    time(
        "Qwen2.5-72B LoRA on 16 cards",
        &Scenario {
            task: Task::Lora,
            model: "qwen2.5-72b".into(),
            parallel: Parallel { gpus: 16, ..Parallel::default() },
            ..Scenario::default()
        },
    );
}
