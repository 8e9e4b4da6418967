//! The long fuzzing run of share links and plan(): `cargo run --profile fuzz --example fuzz -- N [SEED]`.
//! Uses the same generator as tests/fuzz.rs; exits non-zero on any panic or bad number.

#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    let mut args = std::env::args().skip(1);
    let cases: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0x5eed_2026);
    std::panic::set_hook(Box::new(|_| {})); // panics are counted, not printed
    let t = std::time::Instant::now();
    let st = common::fuzz::run(cases, seed);
    println!(
        "{} cases in {:.1} s: {} rejected with a message, {} planned, {} refused by validation, {} failures",
        st.cases,
        t.elapsed().as_secs_f64(),
        st.rejected,
        st.planned,
        st.plan_errors,
        st.failures.len()
    );
    for f in &st.failures {
        println!("FAIL {f}");
    }
    std::process::exit(i32::from(!st.failures.is_empty()));
}
