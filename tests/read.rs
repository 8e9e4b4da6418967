//! The scenario's sections are read by field tables (domain/read.rs), not serde's derive: every
//! field must be in its table (a field left out would silently keep its default when a saved
//! scenario or a share link is read — data loss), and a wrong type must stay an error.
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::framework::Conventions;
use gpu_planner::domain::model::{MlaSpec, ModelSpec, MoeSpec};
use gpu_planner::domain::scenario::{
    CardFilter, Efficiency, Inference, Infra, Lora, Money, Ownership, Parallel, PriceOverride, Scenario, Search,
    Training, VisionJob,
};
use serde::{de::DeserializeOwned, Serialize};
use serde_json::{json, Value};

/// A different value of the same kind (enums and nested structs come from `other`).
fn changed(key: &str, x: &Value, other: &[(&str, Value)]) -> Value {
    if let Some((_, v)) = other.iter().find(|(k, _)| *k == key) {
        return v.clone();
    }
    match x {
        Value::Bool(b) => json!(!b),
        Value::Number(n) if n.is_u64() => json!(n.as_u64().unwrap_or(0) + 3),
        Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) + 0.5),
        Value::Null => json!(0.25),
        Value::String(s) => json!(format!("{s}x")),
        Value::Array(_) => json!([1.5, 2.5]),
        Value::Object(_) => panic!("{key}: give a nested value in `other`"),
    }
}

/// The top-level field names of a struct's derived `Debug` text ("T { a: 1, b: U { .. } }"):
/// the compiler's own list of fields, independent of the tables.
fn debug_fields(text: &str) -> Vec<String> {
    let (mut depth, mut names, mut word, mut in_str) = (0, Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => in_str = !in_str,
            '\\' if in_str => {
                chars.next();
            }
            _ if in_str => {}
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ':' if depth == 1 && !word.is_empty() => names.push(std::mem::take(&mut word)),
            c if depth == 1 && (c.is_alphanumeric() || c == '_') => word.push(c),
            _ => word.clear(),
        }
    }
    names
}

/// Changes each field of `T::default()` in turn and reads it back.
fn every_field_is_read<T: Serialize + DeserializeOwned + Default + std::fmt::Debug>(other: &[(&str, Value)]) {
    let base = serde_json::to_value(T::default()).unwrap_or_else(|e| panic!("{e}"));
    let obj = base.as_object().unwrap_or_else(|| panic!("an object"));
    assert!(!obj.is_empty());
    // Written by the same table: it must name every field the struct has.
    let mut written: Vec<String> = obj.keys().cloned().collect();
    let mut fields = debug_fields(&format!("{:?}", T::default()));
    written.sort();
    fields.sort();
    assert_eq!(written, fields, "the field table must name every field");
    for (k, x) in obj {
        let want = changed(k, x, other);
        assert_ne!(&want, x, "{k}: the changed value must differ");
        let mut w = obj.clone();
        w.insert(k.clone(), want.clone());
        let t: T = serde_json::from_value(Value::Object(w)).unwrap_or_else(|e| panic!("{k}: {e}"));
        let back = serde_json::to_value(&t).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back[k], want, "field `{k}` is not read from JSON");
    }
    // Unknown fields are ignored, missing ones keep their defaults, like the derive with
    // #[serde(default)].
    let t: T = serde_json::from_value(json!({"no_such_field": 1})).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(serde_json::to_value(&t).unwrap_or_default(), base);
}

#[test]
fn every_scenario_section_reads_every_field() {
    let megatron =
        serde_json::to_value(Conventions::of(gpu_planner::domain::framework::Framework::Megatron)).unwrap_or_default();
    every_field_is_read::<Training>(&[
        ("optimizer", json!("sgd")),
        ("framework", json!("megatron")),
        ("conventions", megatron),
    ]);
    every_field_is_read::<Lora>(&[("targets", json!("qv"))]);
    every_field_is_read::<Inference>(&[
        ("kv", json!("fp8")),
        ("rate_rps", json!(2.5)),
        ("context_p90", json!(8192)),
        ("output_p90", json!(2048)),
        ("engine", json!("trtllm")),
    ]);
    every_field_is_read::<Parallel>(&[("recompute", json!("full")), ("offload", json!("optimizer"))]);
    every_field_is_read::<CardFilter>(&[
        ("segments", json!(["consumer"])),
        ("vendors", json!(["AMD"])),
        ("only", json!(["l4"])),
    ]);
    every_field_is_read::<PriceOverride>(&[]);
    every_field_is_read::<Money>(&[
        ("currency", json!("USD")),
        ("overrides", json!([{"gpu": "l4", "rent_hourly": 2.0}])),
    ]);
    every_field_is_read::<Efficiency>(&[("benchmark", json!({"gpu": "h100-sxm", "tokens_per_s_gpu": 1234.5}))]);
    every_field_is_read::<Ownership>(&[("currency", json!("USD"))]);
    every_field_is_read::<Infra>(&[]);
    every_field_is_read::<Search>(&[]);
    every_field_is_read::<VisionJob>(&[("memory_format", json!("nhwc")), ("engine", json!("tensorrt"))]);
    every_field_is_read::<Conventions>(&[
        ("grad", json!("fp32")),
        ("optimizer_state", json!("bf16")),
        ("attention", json!("xformers")),
    ]);
    // Nested sections: a changed default, whole (the comparison is of the whole value).
    let with = |t: Value, k: &str, v: Value| {
        let mut t = t;
        t[k] = v;
        t
    };
    let d = serde_json::to_value(Scenario::default()).unwrap_or_default();
    let nested = |k: &str, f: &str, v: Value| (k.to_string(), with(d[k].clone(), f, v));
    let sections: Vec<(String, Value)> = vec![
        ("task".into(), json!("inference")),
        ("precision".into(), json!("fp8")),
        ("weight_quant".into(), json!("int4")),
        ("custom_gpus".into(), json!([gpu_planner::domain::Catalog::embedded().gpu("l4").cloned()])),
        nested("custom_model", "layers", json!(7)),
        nested("training", "seq_len", json!(1234)),
        nested("lora", "rank", json!(7)),
        nested("inference", "context", json!(1234)),
        nested("parallel", "gpus", json!(7)),
        nested("cards", "min_memory_gb", json!(7.5)),
        nested("money", "cny_per_usd", json!(7.5)),
        nested("efficiency", "mfu", json!(0.5)),
        nested("ownership", "cards", json!(7)),
        nested("infra", "fabric_gbit_per_gpu", json!(100.0)),
        nested("search", "max_gpus", json!(7)),
        nested("vision", "batch", json!(7)),
    ];
    let sections: Vec<(&str, Value)> = sections.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    every_field_is_read::<Scenario>(&sections);
}

#[test]
fn every_catalog_and_model_record_reads_every_field() {
    use gpu_planner::domain::catalog::{Gpu, Interconnect, Price, Source};
    let moe = json!({"experts": 8, "experts_per_token": 2, "shared_experts": 0, "expert_intermediate": 14336, "dense_layers": 0, "dense_intermediate": null, "route_groups": null});
    let mla = json!({"kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "q_lora_rank": 1536});
    every_field_is_read::<MlaSpec>(&[("q_lora_rank", json!(1536))]);
    every_field_is_read::<MoeSpec>(&[("dense_intermediate", json!(18432)), ("route_groups", json!(4))]);
    every_field_is_read::<Source>(&[]);
    every_field_is_read::<Interconnect>(&[("domain", json!(4))]);
    every_field_is_read::<Price>(&[]);
    every_field_is_read::<Gpu>(&[
        ("name_zh", json!("华为昇腾 910B3")),
        ("architecture", json!("Hopper")),
        ("form_factor", json!("SXM")),
        ("memory_type", json!("HBM3")),
        ("ecc", json!(true)),
        ("year", json!(2024)),
        ("pcie_gen", json!(5)),
        ("interconnect", json!({"kind": "nvlink", "gb_s": 900.0, "domain": 8})),
        ("sources", json!([{"title": "datasheet", "url": "https://example.org", "accessed": "2026-11"}])),
    ]);
    every_field_is_read::<ModelSpec>(&[
        ("head_dim", json!(128)),
        ("moe", moe),
        ("mla", mla),
        ("sliding_window", json!(4096)),
        ("encoder", json!({"layers": 24, "seq": 512})),
    ]);
}

#[test]
fn a_wrong_type_is_an_error_that_names_the_field() {
    for (bad, field) in [
        (json!({"seq_len": "long"}), "seq_len"),
        (json!({"seq_len": -1}), "seq_len"),
        (json!({"seq_len": 1.5}), "seq_len"),
        (json!({"tokens": null}), "tokens"),
        (json!({"master_weights": 1}), "master_weights"),
        (json!({"optimizer": "lion"}), "optimizer"),
    ] {
        let e = serde_json::from_value::<Training>(bad).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(field), "{field}: {e}");
    }
    assert!(serde_json::from_value::<Training>(json!([1, 2])).is_err());
    assert!(serde_json::from_value::<Parallel>(json!({"zero": 300})).is_err(), "ZeRO stage beyond u8");
    let e = serde_json::from_value::<Ownership>(json!({"demand": [1, "x"]})).err().map(|e| e.to_string());
    assert!(e.is_some_and(|e| e.contains("demand")));
}

/// A scenario file that names its framework gets that framework's accounting, as picking it on
/// the page does; a switch it states overrides the framework's own. Megatron-Core's
/// docs/source/api-guide/dist_optimizer.md: "bf16 param, fp32 grads … distributed optimizer:
/// 6 + 12/d bytes per parameter" (d = data-parallel ranks); with 16-bit gradients 4 + 12/d.
#[test]
fn a_scenario_file_naming_its_framework_gets_its_conventions_and_keeps_stated_switches() {
    use gpu_planner::domain::framework::{Framework, GradDtype};
    use gpu_planner::domain::memory::{training_states, Layout, Stage};
    let per_param = |text: &str| {
        let s: Scenario = serde_json::from_str(text).expect("scenario");
        let m = s.model_spec().expect("model");
        let b = training_states(m, &s, &Layout { dp: 8, zero: 1, ..Layout::single() }, Stage::Only);
        (s.training.clone(), (b.weights + b.gradients + b.optimizer + b.master_weights) / m.params().total)
    };
    let base =
        r#"{"model": "llama-3.1-8b", "task": "pretrain", "precision": "bf16", "training": {"framework": "megatron""#;
    let (t, bytes) = per_param(&format!("{base}}}}}"));
    assert_eq!(t.framework, Framework::Megatron);
    assert_eq!(t.conventions, Conventions::of(Framework::Megatron));
    assert!((bytes - (6.0 + 12.0 / 8.0)).abs() < 1e-9, "{bytes}");
    let (t, bytes) = per_param(&format!(r#"{base}, "conventions": {{"grad": "half"}}}}}}"#));
    assert_eq!(t.conventions.grad, GradDtype::Half);
    assert!(t.conventions.sequence_parallel && t.conventions.dropout, "the framework's other switches stay");
    assert!((bytes - (4.0 + 12.0 / 8.0)).abs() < 1e-9, "{bytes}");
    // No framework named: DeepSpeed, as before.
    let s: Scenario = serde_json::from_str(r#"{"training": {"seq_len": 2048}}"#).expect("scenario");
    assert_eq!(s.training.conventions, Conventions::of(Framework::DeepSpeed));
}
