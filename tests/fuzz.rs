//! The fast subset of the share-link and plan() fuzzer (the million-case run is
//! `cargo run --profile fuzz --example fuzz -- 1000000`, see README).
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

#[test]
fn fuzzed_links_never_panic_or_produce_bad_numbers() {
    let st = common::fuzz::run(3_000, 0x5eed);
    assert!(st.failures.is_empty(), "{:#?}", st.failures);
    assert!(st.planned > 500 && st.rejected > 1000 && st.plan_errors > 50, "{st:?}");
}
