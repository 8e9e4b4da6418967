//! FP4 weights and math (NVFP4, MXFP4): their bytes from the format definitions, the catalog's
//! dense FP4 rates from the vendors' datasheets, which cards multiply which format as stored, and
//! what that does to a served model's prefill. Published FP4 serving runs (InferenceX B200 NVFP4,
//! MI355X MXFP4) are held-out rows of the accuracy table, not used here.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use common::assert_close;
use gpu_planner::domain::scenario::{Precision, Task, WeightQuant};
use gpu_planner::domain::serving::simulate::{simulate, Load, Run};
use gpu_planner::domain::serving::{math_tflops, Engine};
use gpu_planner::domain::{Catalog, Gpu, Scenario};

fn card(id: &str) -> Gpu {
    Catalog::embedded().gpu(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

/// NVFP4: E2M1 values + one E4M3 scale per 16 = 4.5 bits ("0.5625 bytes per parameter", NVIDIA
/// NeMo docs); MXFP4: one E8M0 scale per 32 = 4.25 bits (OCP Microscaling Formats v1.0, Table 1).
#[test]
fn fp4_weights_take_their_formats_bytes() {
    assert_close(WeightQuant::Nvfp4.bytes(Precision::Bf16), 0.5625, 1e-12);
    assert_close(WeightQuant::Mxfp4.bytes(Precision::Bf16), 0.53125, 1e-12);
    assert!(WeightQuant::Nvfp4.is_fp4() && WeightQuant::Mxfp4.is_fp4() && !WeightQuant::Int4.is_fp4());
    let s: Scenario = serde_json::from_str(r#"{"weight_quant":"nvfp4"}"#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.weight_quant, WeightQuant::Nvfp4);
    let s: Scenario = serde_json::from_str(r#"{"weight_quant":"mxfp4"}"#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.weight_quant, WeightQuant::Mxfp4);
}

/// The catalog's dense FP4 rates, from the datasheets: B200 9 PFLOPS (NVIDIA's NVFP4 blog, "9/18"
/// dense/sparse), RTX 5090 1,676 TFLOPS (RTX Blackwell whitepaper, Table 3), MI355X 256 CUs ×
/// 16,384 FLOP/clock × 2.4 GHz = 10,066.3 (AMD: "10.1 PFLOPS"); cards without FP4 have none.
#[test]
fn the_catalog_carries_dense_fp4_rates() {
    assert_eq!(card("b200-hgx").fp4_tflops, Some(9000.0));
    assert_eq!(card("rtx-5090").fp4_tflops, Some(1676.0));
    assert_close(card("mi355x").fp4_tflops.unwrap_or(0.0), 256.0 * 16_384.0 * 2.4e9 / 1e12, 1e-4);
    assert_eq!(card("h100-sxm").fp4_tflops, None);
    assert_eq!(card("huawei-ascend-910b3").fp4_tflops, None);
    // Every FP4 rate sits between 1× and 4× the card's dense FP8 rate (catalog validation).
    for g in &Catalog::embedded().gpus {
        if let (Some(f4), Some(f8)) = (g.fp4_tflops, g.fp8_tflops) {
            assert!(f4 >= f8 && f4 <= 4.05 * f8, "{}: {f4} vs {f8}", g.id);
        }
    }
}

/// NVIDIA Blackwell multiplies NVFP4 and MXFP4 as stored; AMD CDNA 4 only MXFP4 (an NVFP4
/// checkpoint is dequantized to the scenario's precision); Hopper has no FP4 units.
#[test]
fn fp4_math_runs_where_the_card_has_that_format() {
    let mut s = Scenario { precision: Precision::Fp8, ..Scenario::default() };
    s.weight_quant = WeightQuant::Nvfp4;
    assert_eq!(math_tflops(&card("b200-hgx"), &s), Some(9000.0));
    assert_eq!(math_tflops(&card("mi355x"), &s), card("mi355x").fp8_tflops);
    assert_eq!(math_tflops(&card("h100-sxm"), &s), card("h100-sxm").fp8_tflops);
    s.weight_quant = WeightQuant::Mxfp4;
    assert_eq!(math_tflops(&card("mi355x"), &s), card("mi355x").fp4_tflops);
    s.weight_quant = WeightQuant::Int4;
    assert_eq!(math_tflops(&card("b200-hgx"), &s), card("b200-hgx").fp8_tflops);
}

/// A long prompt's prefill is compute-bound: with FP4 math it runs at twice the FP8 rate on a
/// B200, so a lone request's first token comes in about half the time of the FP8 checkpoint.
#[test]
fn fp4_math_halves_a_compute_bound_prefill_on_b200() {
    let mut s = Scenario { task: Task::Inference, model: "llama-3.1-70b".into(), ..Scenario::default() };
    s.precision = Precision::Fp8;
    s.inference.context = 16_384;
    s.inference.output_tokens = 16;
    s.inference.max_batched_tokens = 16_384;
    s.inference.step_overhead_ms = 0.0;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let ttft = |q: WeightQuant| {
        let mut s = s.clone();
        s.weight_quant = q;
        let e = Engine::new(&m, &s, &card("b200-hgx"), 1, 1).unwrap_or_else(|| panic!("fits"));
        simulate(&e, Load::Bench { concurrency: 1, prompts: 1 }, Run::default())
            .unwrap_or_else(|| panic!("runs"))
            .ttft
            .p50
    };
    assert_close(ttft(WeightQuant::Fp8) / ttft(WeightQuant::Nvfp4), 2.0, 0.05);
}

/// A checkpoint's config.json says which FP4: gpt-oss's `quant_method: "mxfp4"`, NVIDIA ModelOpt's
/// `quant_method: "modelopt"` with `quant_algo: "NVFP4"`.
#[test]
fn config_json_names_the_fp4_format() {
    let quant = |q: &str| common::quantization_of(q).and_then(|x| x.weight_quant());
    assert_eq!(quant(r#"{"quant_method": "mxfp4"}"#), Some(WeightQuant::Mxfp4));
    assert_eq!(quant(r#"{"quant_method": "modelopt", "quant_algo": "NVFP4"}"#), Some(WeightQuant::Nvfp4));
    assert_eq!(quant(r#"{"quant_method": "modelopt", "quant_algo": "FP8"}"#), None);
    // The format's bits and block: 4-bit values, one scale per 16 (NVFP4) or 32 (MXFP4).
    let read = |q: &str| common::quantization_of(q).map(|x| (x.bits, x.group_size));
    assert_eq!(read(r#"{"quant_method": "modelopt", "quant_algo": "NVFP4"}"#), Some((Some(4), Some(16))));
    assert_eq!(read(r#"{"quant_method": "mxfp4"}"#), Some((Some(4), Some(32))));
}

/// The catalog check catches a sparse or mistyped FP4 figure: below the card's FP8 rate or above
/// 4× it (GeForce's FP8 figure is the FP32-accumulate rate, so its FP4 may reach 4×).
#[test]
fn the_catalog_check_refuses_fp4_outside_one_to_four_times_fp8() {
    let check = |fp4: f64| {
        let mut c = Catalog::embedded().clone();
        let g = c.gpus.iter_mut().find(|g| g.id == "b200-hgx").unwrap_or_else(|| panic!("b200"));
        g.fp4_tflops = Some(fp4);
        c.validate().iter().any(|m| m.contains("fp4"))
    };
    let fp8 = card("b200-hgx").fp8_tflops.unwrap_or(f64::NAN);
    assert!(check(0.9 * fp8) && check(4.1 * fp8), "outside 1-4x");
    assert!(!check(fp8) && !check(2.0 * fp8) && !check(4.0 * fp8), "inside 1-4x");
}
