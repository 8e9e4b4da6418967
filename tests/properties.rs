//! Property checks: no NaN, infinity or negative value anywhere in a Report; memory never falls
//! when the model, sequence or batch grows; bad input is an error value, never a panic.
#![cfg(not(target_arch = "wasm32"))] // host only: proptest and processes

mod common;
use common::{numbers, report};
use gpu_planner::domain::memory::Layout;
use gpu_planner::domain::model::presets;
use gpu_planner::domain::plan::memory_for;
use gpu_planner::domain::scenario::*;
use gpu_planner::domain::{plan, Catalog, ModelSpec, PlanError, Scenario};
use proptest::prelude::*;

fn task() -> impl Strategy<Value = Task> {
    prop::sample::select(Task::ALL.to_vec())
}

fn scenario() -> impl Strategy<Value = Scenario> {
    let ids: Vec<String> = presets().iter().map(|m| m.id.clone()).collect();
    (
        task(),
        prop::sample::select(ids),
        1u32..131_072,
        1u32..64,
        (1u32..4096, 1.0f64..1e13),
        (0u32..64, prop::sample::select(vec![1u32, 2, 4, 8]), 1u32..8, 0u8..4, any::<bool>()),
        (1u32..200_000, 0u32..8192, 1u32..512),
        prop::sample::select(vec![Precision::Fp32, Precision::Tf32, Precision::Bf16, Precision::Fp16, Precision::Fp8]),
        prop::sample::select(vec![
            WeightQuant::None,
            WeightQuant::Fp8,
            WeightQuant::Int8,
            WeightQuant::Int4,
            WeightQuant::Nf4,
        ]),
        prop::option::of(0.05f64..1.0),
    )
        .prop_map(
            |(
                task,
                model,
                seq,
                mb,
                (gb, tokens),
                (gpus, tp, pp, zero, auto),
                (ctx, out, conc),
                precision,
                weight_quant,
                mfu,
            )| {
                let mut s = Scenario { task, model, precision, weight_quant, ..Scenario::default() };
                s.training =
                    Training { seq_len: seq, micro_batch: mb, global_batch: gb, tokens, ..Training::default() };
                s.parallel = Parallel { auto, gpus, tp, pp, zero, ..Parallel::default() };
                s.inference = Inference { context: ctx, output_tokens: out, concurrent: conc, ..Inference::default() };
                s.efficiency.mfu = mfu;
                s
            },
        )
}

fn finite_nonneg(v: f64) -> bool {
    v.is_finite() && v >= 0.0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The page's number parser agrees bit for bit with `str::parse::<f64>` on decimal text
    /// (sign, leading zeros, bare ".5" / "5.", exponents, long digit strings).
    #[test]
    fn parse_decimal_matches_std(
        sign in prop::sample::select(vec!["", "-", "+"]),
        int in "[0-9]{0,25}",
        dot in any::<bool>(),
        frac in "[0-9]{0,25}",
        exp in prop::option::of((prop::sample::select(vec!["e", "E"]), prop::sample::select(vec!["", "-", "+"]), 0u32..400)),
    ) {
        let mut t = format!("{sign}{int}{}{frac}", if dot { "." } else { "" });
        if let Some((e, es, ev)) = exp { t.push_str(&format!("{e}{es}{ev}")); }
        let std = t.parse::<f64>().ok().filter(|v| v.is_finite());
        let ours = gpu_planner::domain::units::parse_decimal(&t).filter(|v| v.is_finite());
        prop_assert_eq!(ours.map(f64::to_bits), std.map(f64::to_bits), "text {:?}", t);
    }

    /// The size-saving index sort orders exactly like the standard library's stable sort.
    #[test]
    fn sort_stable_by_matches_std_stable_sort(keys in proptest::collection::vec(0u8..8, 0..300)) {
        let items: Vec<(u8, usize)> = keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect();
        let mut ours = items.clone();
        gpu_planner::domain::units::sort_stable_by(&mut ours, |a, b| a.0.cmp(&b.0));
        let mut std_sorted = items;
        std_sorted.sort_by_key(|a| a.0);
        prop_assert_eq!(ours, std_sorted);
    }

    #[test]
    fn reports_hold_no_nan_infinity_or_negative(s in scenario()) {
        let r = report(&s);
        for (path, v) in numbers(&r) {
            prop_assert!(finite_nonneg(v), "{path} = {v}");
        }
        // NaN/inf become JSON null, so check the optional figures on the Rust side too.
        for c in &r.cards {
            for v in [c.hours, c.gpu_hours, c.cost, c.rent_hourly].into_iter().flatten() {
                prop_assert!(finite_nonneg(v), "{}: {v}", c.gpu);
            }
            if let Some(t) = c.throughput {
                for v in [t.prefill_tokens_s, t.decode_tokens_s, t.per_request_tokens_s, t.time_to_first_token_s] {
                    prop_assert!(finite_nonneg(v), "{}: {v}", c.gpu);
                }
            }
            prop_assert!(finite_nonneg(c.memory.total));
        }
    }

    #[test]
    fn memory_never_falls_when_sequence_or_batch_grows(s in scenario(), extra_seq in 1u32..4096, extra_mb in 1u32..8) {
        let m = s.model_spec().map_err(|e| TestCaseError::fail(e.to_string()))?.clone();
        let layout = Layout::single();
        let base = memory_for(&m, &s, &layout).total;
        let mut longer = s.clone();
        longer.training.seq_len += extra_seq;
        longer.inference.context += extra_seq;
        prop_assert!(memory_for(&m, &longer, &layout).total >= base);
        let mut bigger = s.clone();
        bigger.training.micro_batch += extra_mb;
        bigger.inference.concurrent += extra_mb;
        prop_assert!(memory_for(&m, &bigger, &layout).total >= base);
    }

    #[test]
    fn memory_never_falls_when_the_model_grows(task in task(), layers in 1u32..120, extra_layers in 1u32..40, hidden_mult in 1u32..64, extra_hidden in 1u32..16) {
        let small = ModelSpec { layers, hidden: hidden_mult * 128, heads: hidden_mult, kv_heads: hidden_mult, intermediate: hidden_mult * 128 * 4, ..ModelSpec::default() };
        let deeper = ModelSpec { layers: layers + extra_layers, ..small.clone() };
        let wider = ModelSpec { hidden: (hidden_mult + extra_hidden) * 128, heads: hidden_mult + extra_hidden, kv_heads: hidden_mult + extra_hidden, intermediate: (hidden_mult + extra_hidden) * 512, ..small.clone() };
        let s = Scenario { task, model: "custom".into(), ..Scenario::default() };
        let l = Layout::single();
        let base = memory_for(&small, &s, &l).total;
        prop_assert!(memory_for(&deeper, &s, &l).total >= base);
        prop_assert!(memory_for(&wider, &s, &l).total >= base);
    }

    #[test]
    fn arbitrary_json_never_panics(text in ".{0,200}") {
        if let Ok(s) = serde_json::from_str::<Scenario>(&text) {
            let _ = plan(&s, Catalog::embedded());
        }
    }
}

#[test]
fn every_preset_and_task_plans_and_some_card_fits() {
    for m in presets() {
        for task in Task::ALL {
            let r = report(&Scenario { model: m.id.clone(), task, ..Scenario::default() });
            assert!(r.cards.iter().any(|c| c.fits), "{} {task:?}: nothing fits", m.id);
        }
    }
}

#[test]
fn bad_input_is_an_error_value_with_a_clear_message() {
    let cat = Catalog::embedded();
    let neg = Scenario { training: Training { tokens: -1e9, ..Training::default() }, ..Scenario::default() };
    let e = plan(&neg, cat).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("training.tokens") && e.contains("-1000000000"), "{e}");

    let nan =
        Scenario { efficiency: Efficiency { mfu: Some(f64::NAN), ..Efficiency::default() }, ..Scenario::default() };
    assert!(matches!(plan(&nan, cat), Err(PlanError::OutOfRange { field: "efficiency.mfu", .. })));

    let unknown = Scenario {
        cards: CardFilter { only: vec!["gtx-9999".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    assert_eq!(plan(&unknown, cat).err().map(|e| e.to_string()).as_deref(), Some("unknown gpu id `gtx-9999`"));
    // Beside a known card the unknown one is left out with a warning, not an error.
    let mixed = Scenario {
        cards: CardFilter { only: vec!["gtx-9999".into(), "h100-sxm".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    let r = plan(&mixed, cat).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cards.iter().map(|c| c.gpu.as_str()).collect::<Vec<_>>(), ["h100-sxm"]);
    assert!(r.warnings.contains(&gpu_planner::domain::verdict::Warning::UnknownCard { id: "gtx-9999".into() }));

    let none = Scenario { cards: CardFilter { min_memory_gb: 5000.0, ..CardFilter::default() }, ..Scenario::default() };
    assert_eq!(plan(&none, cat), Err(PlanError::NoCards));

    let model = Scenario { model: "gpt-7".into(), ..Scenario::default() };
    assert_eq!(plan(&model, cat), Err(PlanError::UnknownModel("gpt-7".into())));

    let custom = Scenario {
        model: "custom".into(),
        custom_model: ModelSpec { layers: 0, ..ModelSpec::default() },
        ..Scenario::default()
    };
    assert!(matches!(plan(&custom, cat), Err(PlanError::InvalidModel(_))));

    let huge = Scenario { training: Training { tokens: 1e308, ..Training::default() }, ..Scenario::default() };
    assert!(matches!(plan(&huge, cat), Err(PlanError::OutOfRange { .. })));

    let mut layers = Scenario::default();
    layers.parallel.recompute_layers = 5_000;
    assert!(matches!(plan(&layers, cat), Err(PlanError::OutOfRange { field: "parallel.recompute_layers", .. })));
    layers.parallel.recompute_layers = 1_000;
    assert!(plan(&layers, cat).is_ok());
}

#[test]
fn a_fixed_card_count_that_cannot_hold_the_model_is_reported_not_fitting() {
    let s = Scenario {
        model: "llama-3.1-405b".into(),
        parallel: Parallel { gpus: 1, ..Parallel::default() },
        cards: CardFilter { only: vec!["rtx-4090".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    let r = report(&s);
    assert!(!r.cards[0].fits);
    assert!(r.cards[0].warnings.iter().any(|w| matches!(w, gpu_planner::domain::verdict::Warning::DoesNotFit { .. })));
}

#[test]
fn parse_decimal_reads_what_people_type_and_rejects_the_rest() {
    use gpu_planner::domain::units::parse_decimal;
    let cases =
        [("1.", Some(1.0)), (".5", Some(0.5)), ("+2e3", Some(2000.0)), ("007", Some(7.0)), ("-0.25", Some(-0.25))];
    for (text, want) in cases {
        assert_eq!(parse_decimal(text), want, "{text}");
    }
    // 0.1 + 0.2 territory: the nearest double, same as the standard library.
    assert_eq!(parse_decimal("0.30000000000000004").map(f64::to_bits), Some(0.300_000_000_000_000_04_f64.to_bits()));
    for bad in ["", ".", "-", "e5", "1e", "1e+", "1..2", "1.2.3", "inf", "NaN", "1,5", "0x10", " 1", "1 "] {
        assert_eq!(parse_decimal(bad), None, "{bad:?}");
    }
}

/// The "cards to consider" interconnect filter: "fast" keeps the cards with NVLink-class links
/// (an H100 SXM, not an RTX 4090), "pcie" the others, and together they cover the catalog.
#[test]
fn the_interconnect_filter_splits_the_catalog() {
    let cat = Catalog::embedded();
    let ids = |kind: &str| {
        let s = Scenario {
            cards: CardFilter { interconnect: kind.into(), ..CardFilter::default() },
            ..Scenario::default()
        };
        cat.gpus.iter().filter(|g| plan::selected(&s, g)).map(|g| g.id.clone()).collect::<Vec<_>>()
    };
    let (fast, pcie, all) = (ids("fast"), ids("pcie"), ids(""));
    assert!(fast.contains(&"h100-sxm".to_string()) && !fast.contains(&"rtx-4090".to_string()), "{fast:?}");
    assert!(pcie.contains(&"rtx-4090".to_string()) && !pcie.contains(&"h100-sxm".to_string()), "{pcie:?}");
    assert_eq!(fast.len() + pcie.len(), all.len());
    assert_eq!(all.len(), cat.gpus.len());
}

/// The number walk sees what JSON hides: NaN and infinity (serde_json writes both as null).
#[test]
fn the_number_walk_sees_nan_and_infinity() {
    #[derive(serde::Serialize)]
    struct Inner {
        x: f64,
        list: Vec<Option<f64>>,
    }
    #[derive(serde::Serialize)]
    struct Outer {
        a: f64,
        inner: Inner,
        n: u32,
    }
    let v = Outer { a: f64::NAN, inner: Inner { x: 1.5, list: vec![None, Some(f64::INFINITY)] }, n: 3 };
    let got = common::floats::floats(&v);
    let paths: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, [".a", ".inner.x", ".inner.list[1]", ".n"]);
    assert!(got[0].1.is_nan() && got[2].1 == f64::INFINITY && (got[1].1 - 1.5).abs() < 1e-12);
    assert_eq!(serde_json::to_value(&v).unwrap_or_default()["a"], serde_json::Value::Null, "JSON hides it");
}
