//! Share links: round trip, short for the default, versioned, and garbage is an error, never a panic.
#![cfg(not(target_arch = "wasm32"))] // host only: proptest and processes

use gpu_planner::domain::error::DecodeError;
use gpu_planner::domain::scenario::{Currency, Task};
use gpu_planner::domain::share::{decode, encode, MAX_LEN};
use gpu_planner::domain::Scenario;
use proptest::prelude::*;

#[test]
fn default_scenario_link_is_tiny_and_round_trips() {
    let link = encode(&Scenario::default());
    assert_eq!(link, "v1.e30"); // "{}": nothing differs from the default
    assert_eq!(decode(&link), Ok(Scenario::default()));
}

#[test]
fn changed_fields_round_trip_through_a_full_url() {
    let mut s = Scenario {
        task: Task::Inference,
        model: "qwen2.5-72b".into(),
        name: "<script>alert(1)</script>".into(),
        ..Scenario::default()
    };
    s.money.currency = Currency::USD;
    s.inference.concurrent = 32;
    // A custom card as the page makes it: a catalog card's figures under an id of its own (a
    // catalog id would be renamed on reading, see tests/edit.rs).
    let mut mine = gpu_planner::domain::Catalog::embedded().gpus[0].clone();
    mine.id = "custom-1".into();
    s.custom_gpus.push(mine);
    let url = format!("https://wiki.example/tools/gpu/?embed=1&s={}", encode(&s));
    assert_eq!(decode(&url), Ok(s.clone()));
    assert_eq!(decode(&format!("https://x/#s={}", encode(&s))), Ok(s));
}

#[test]
fn hostile_links_give_clear_errors() {
    assert_eq!(decode(""), Err(DecodeError::Empty));
    assert_eq!(decode("?s="), Err(DecodeError::Empty));
    assert!(matches!(decode("v2.e30"), Err(DecodeError::Version(v)) if v == "v2"));
    assert!(matches!(decode("v1.%%%"), Err(DecodeError::Encoding(_))));
    assert!(matches!(decode("v1.bm90IGpzb24"), Err(DecodeError::Json(_)))); // "not json"
    assert!(matches!(decode("v1.WzFd"), Err(DecodeError::Json(_)))); // "[1]"
    assert!(matches!(decode(&format!("v1.{}", "A".repeat(MAX_LEN))), Err(DecodeError::TooLong(..))));
    // A truncated link: either a clear error or a scenario, never a panic.
    let link = encode(&Scenario { model: "llama-3.1-70b".into(), ..Scenario::default() });
    for cut in 0..link.len() {
        let _ = decode(&link[..cut]);
    }
    // Wrong types inside valid JSON: {"training":{"seq_len":-5}}
    let bad = format!("v1.{}", base64_url(r#"{"training":{"seq_len":-5}}"#));
    assert!(matches!(decode(&bad), Err(DecodeError::Json(_))));
}

fn base64_url(s: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s)
}

proptest! {
    #[test]
    fn decoding_arbitrary_text_never_panics(text in ".{0,300}") {
        let _ = decode(&text);
        let _ = decode(&format!("v1.{text}"));
    }

    #[test]
    fn round_trip_for_varied_scenarios(seq in 1u32..200_000, tokens in 1.0f64..1e13, conc in 1u32..1000, usd in any::<bool>()) {
        let mut s = Scenario::default();
        s.training.seq_len = seq;
        s.training.tokens = tokens;
        s.inference.concurrent = conc;
        if usd { s.money.currency = Currency::USD; }
        prop_assert_eq!(decode(&encode(&s)), Ok(s));
    }
}

/// A link written before the market, condition and lead-time choices existed still opens, with
/// any market, new cards and the lead time from the data.
#[test]
fn an_old_link_without_market_choices_still_opens() {
    let old = r#"{"version":1,"money":{"currency":"USD","cny_per_usd":7.2,"overrides":[{"gpu":"h100-sxm","rent_hourly":2.5}]},"ownership":{"gpu":"a100-80gb-sxm4","card_price":12000,"budget":90000}}"#;
    let s = decode(&format!("v1.{}", base64_url(old))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.money.currency, Currency::USD);
    assert_eq!(s.money.overrides.len(), 1);
    assert_eq!((s.money.rent_market.as_str(), s.money.used), ("", false));
    assert_eq!(s.ownership.lead_weeks, None);
    assert!(gpu_planner::domain::plan(&s, gpu_planner::domain::Catalog::embedded()).is_ok());
    // The new choices travel in the link.
    let mut t = s.clone();
    t.money.rent_market = "hyperscaler".into();
    t.money.used = true;
    t.ownership.lead_weeks = Some(10.0);
    assert_eq!(decode(&encode(&t)), Ok(t));
}

/// A page link carries the top of its answer (`r=`, src/ui/prerender.rs): base64url JSON of a
/// caption, four headings and the first three rows of the ranking as the page words them — the
/// same card names, counts and costs as the report's top three — in the sender's language, and
/// a scenario link still reads with it present.
#[test]
fn a_link_carries_the_top_of_its_answer() {
    use base64::Engine as _;
    use gpu_planner::domain::format::Lang;
    use gpu_planner::ui::prerender::{snapshot, SNAPSHOT_MAX, SNAPSHOT_ROWS};
    let s = Scenario { model: "llama-3.1-70b".into(), task: Task::Lora, ..Scenario::default() };
    let r = gpu_planner::domain::plan(&s, gpu_planner::domain::Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    for (l, caption) in [(Lang::En, "link was sent"), (Lang::Zh, "链接发送时")] {
        let snap = snapshot(&r, &s, l);
        assert!(!snap.is_empty() && snap.len() <= SNAPSHOT_MAX, "{} characters", snap.len());
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(&snap).unwrap_or_else(|e| panic!("{e}"));
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert!(v["c"].as_str().is_some_and(|c| c.contains(caption)), "{v}");
        assert_eq!(v["h"].as_array().map(Vec::len), Some(4));
        let rows = v["r"].as_array().cloned().unwrap_or_default();
        assert_eq!(rows.len(), SNAPSHOT_ROWS);
        for (row, card) in rows.iter().zip(&r.cards) {
            // The name as the sender's page words it (the Chinese name of a Chinese card in zh).
            let name = gpu_planner::ui::i18n::card_name(&card.gpu, &card.name, l);
            assert_eq!(row[0].as_str(), Some(name.as_str()));
            assert_eq!(row[1].as_str(), Some(card.gpus.to_string().as_str()));
            let cost = card.cost.map(|c| gpu_planner::domain::format::money(c, s.money.currency));
            assert_eq!(row[3].as_str(), cost.as_deref(), "{row}");
        }
        let link = format!("https://example.org/gpu/?s={}&r={snap}", encode(&s));
        assert_eq!(decode(&link), Ok(s.clone()));
    }
}
