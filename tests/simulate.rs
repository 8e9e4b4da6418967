//! The step-level serving simulation (`serving::simulate`).
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::scenario::{CardFilter, Task};
use gpu_planner::domain::serving::simulate::{simulate, Load, Run};
use gpu_planner::domain::serving::Engine;
use gpu_planner::domain::{Catalog, Scenario};

fn scenario(model: &str, context: u32, output: u32) -> Scenario {
    let mut s =
        Scenario { task: Task::Inference, model: model.into(), cards: CardFilter::default(), ..Scenario::default() };
    s.inference.context = context;
    s.inference.output_tokens = output;
    s
}

fn engine(s: &Scenario, card: &str, tp: u32) -> Engine {
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu(card).cloned().unwrap_or_else(|| panic!("{card}"));
    Engine::new(&m, s, &g, tp, tp).unwrap_or_else(|| panic!("fits"))
}

#[test]
fn explore() {
    let s = scenario("qwen2.5-72b", 2048, 256);
    let e = engine(&s, "h100-sxm", 4);
    let t0 = std::time::Instant::now();
    let users = (e.kv_tokens / (2048.0 + 128.0)).min(1024.0) as u32;
    println!("users {users}");
    let sat = simulate(&e, Load::Users { users, think_s: 0.0 }, Run { max_seqs: 1024, ..Run::default() }).unwrap();
    println!("sat {:?} in {:?}", sat, t0.elapsed());
    for f in [0.1, 0.5, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.5, 2.0] {
        let t0 = std::time::Instant::now();
        let o = simulate(&e, Load::Rate(f * sat.rate), Run { max_seqs: 1024, ..Run::default() }).unwrap();
        println!("{f:.2} rate {:.2} ttft p50 {:.3} p99 {:.3} tpot p50 {:.4} p99 {:.4} batch {:.1} pre {} fin {} closed {:?} {:?}", o.rate, o.ttft.p50, o.ttft.p99, o.tpot.p50, o.tpot.p99, o.batch, o.preemptions, o.finished, e.at(f*sat.rate).map(|l| (l.ttft_p99_s, l.tpot_p99_s)), t0.elapsed());
    }
    let one = simulate(&e, Load::Users { users: 1, think_s: 0.0 }, Run::default()).unwrap();
    println!("one {:?}", one);
}

#[test]
fn explore_cached() {
    let mut s = scenario("qwen2.5-72b", 4096, 512);
    s.inference.concurrent = 100;
    s.inference.prefix_share = 0.8;
    println!("{:?}", s.inference);
    let e = engine(&s, "h100-sxm", 4);
    for n in 1..5u32 {
        let o = simulate(
            &e,
            Load::Users { users: 100u32.div_ceil(n), think_s: 0.0 },
            Run { requests: 300, warmup: 100, max_seqs: 1024, ..Run::default() },
        )
        .unwrap();
        println!(
            "{n} rate {:.2} ttft p50 {:.3} p99 {:.3} tpot p50 {:.4} p99 {:.4} batch {:.1}",
            o.rate, o.ttft.p50, o.ttft.p99, o.tpot.p50, o.tpot.p99, o.batch
        );
    }
}

#[test]
fn explore_one() {
    let mut s = scenario("qwen2.5-72b", 4096, 512);
    s.inference.prefix_share = 0.8;
    let e = engine(&s, "h100-sxm", 4);
    println!(
        "step0 {} step820 {} step(24,0) {} step(24,820) {}",
        e.step(0.0, 0.0),
        e.step(0.0, 820.0),
        e.step(24.0, 0.0),
        e.step(24.0, 820.0)
    );
    for u in [1u32, 2, 5, 25] {
        let o = simulate(
            &e,
            Load::Users { users: u, think_s: 0.0 },
            Run { requests: 300, warmup: 100, max_seqs: 1024, ..Run::default() },
        )
        .unwrap();
        println!("{u} ttft {:?} tpot {:?}", o.ttft, o.tpot.p50);
    }
}
