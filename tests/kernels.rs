//! The per-card GEMM table (domain/kernels.rs) against the measurements it was distilled from
//! (docs/research/2026-12-01-measured-gemm.json: aiconfigurator's gemm_perf files), the catalog,
//! and the way unmeasured cards borrow it.

use gpu_planner::domain::catalog::Catalog;
use gpu_planner::domain::compute::kernel_efficiency;
use gpu_planner::domain::kernels::{
    self, Source, MEASURED, REFERENCE, REFERENCE_GEMM, REFERENCE_GEMM_FP8, TRAINING_SHARE, TRAINING_SHARE_A100,
    TRAINING_SHARE_FP8,
};
use gpu_planner::domain::scenario::Precision;
use serde_json::Value;

fn research() -> Value {
    let text = std::fs::read_to_string("docs/research/2026-12-01-measured-gemm.json").expect("research file");
    serde_json::from_str(&text).expect("JSON")
}

/// aiconfigurator's directory name of each measured catalog card.
fn measured_dir(id: &str) -> &'static str {
    match id {
        "a100-80gb-sxm4" => "a100_sxm",
        "h100-sxm" => "h100_sxm",
        "h200-sxm" => "h200_sxm",
        "l40s" => "l40s",
        "b200-hgx" => "b200_sxm",
        "b300-hgx" => "b300_sxm",
        "rtx-pro-6000-blackwell" => "rtx_pro_6000_server",
        "rtx-5090" => "rtx_5090",
        other => panic!("no aiconfigurator card for {other}"),
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    assert!(n > 0, "no points");
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Each share is the median measured TFLOPS over the shapes at M = 4096 and 16384, over the
/// catalog's dense peak: recomputed from the measurement file, within 0.005 (the table rounds
/// to three places; the RTX 5090's to two).
#[test]
fn every_share_is_the_median_of_its_measured_points_over_the_catalog_peak() {
    let data = research();
    let catalog = Catalog::embedded();
    for m in &MEASURED {
        let g = catalog.gpu(m.gpu).unwrap_or_else(|| panic!("{} not in the catalog", m.gpu));
        assert_eq!(g.architecture.as_deref(), Some(m.architecture), "{}", m.gpu);
        assert_eq!(g.bf16_tflops, Some(m.peak), "{}: peak", m.gpu);
        let rows = data["cards"][measured_dir(m.gpu)]["gemm"].as_array().expect("gemm rows");
        let at = |dtype: &str| -> Vec<f64> {
            rows.iter()
                .filter(|r| r["dtype"] == dtype && r["m"].as_u64().unwrap_or(0) >= 4096)
                .filter_map(|r| r["tflops"].as_f64())
                .collect()
        };
        let bf16 = median(at("bf16")) / m.peak;
        assert!((bf16 - m.gemm).abs() < 0.005, "{}: BF16 {bf16:.3} vs table {}", m.gpu, m.gemm);
        let fp8 = at("fp8");
        match (m.gemm_fp8, g.fp8_tflops) {
            (Some(t), Some(peak)) => {
                let share = median(fp8) / peak;
                assert!((share - t).abs() < 0.005, "{}: FP8 {share:.3} vs table {t}", m.gpu);
            }
            (None, _) => assert!(fp8.is_empty() || g.fp8_tflops.is_none(), "{}: FP8 rows left out", m.gpu),
            (Some(_), None) => panic!("{}: an FP8 share for a card without FP8", m.gpu),
        }
    }
}

/// Unmeasured CUDA cards borrow the measured card of their architecture nearest in peak; other
/// stacks take the reference.
#[test]
fn unmeasured_cards_borrow_their_architecture() {
    let catalog = Catalog::embedded();
    let from = |id: &str| match kernels::source(catalog.gpu(id).expect("card")) {
        Source::Own(m) => format!("own {}", m.gpu),
        Source::Borrowed(m) => m.gpu.to_owned(),
        Source::Reference => "reference".to_owned(),
    };
    assert_eq!(from("h100-sxm"), "own h100-sxm");
    for (card, lender) in [
        ("rtx-4090", "l40s"),
        ("l20", "l40s"),
        ("h800-sxm", "h100-sxm"),
        ("h20", "h100-sxm"),
        ("a100-40gb-sxm4", "a100-80gb-sxm4"),
        ("a800-80gb-sxm4", "a100-80gb-sxm4"),
        ("rtx-3090", "a100-80gb-sxm4"),
        ("rtx-pro-6000-blackwell-max-q", "rtx-pro-6000-blackwell"),
        ("b200-hgx", "own b200-hgx"),
    ] {
        let got = from(card);
        assert!(got == lender || got == format!("own {card}") && lender.starts_with("own"), "{card}: {got}");
    }
    for card in ["mi300x", "huawei-ascend-910b3", "v100-sxm2-32gb", "moore-threads-mtt-s4000"] {
        assert_eq!(from(card), "reference", "{card}");
    }
}

/// The GEMM efficiency a card trains at follows its measurement: an L40S at 0.605/0.797 of an
/// H100's (aiconfigurator's medians: 218.9 of 362.05 vs 788.4 of 989.4 TFLOPS), an RTX 4090 as
/// the L40S it borrows from; an A100 running an FP8 scenario in 16 bits at the BF16 share.
#[test]
fn kernel_efficiency_follows_the_measured_shares() {
    let catalog = Catalog::embedded();
    let k = |id: &str, p| kernel_efficiency(catalog.gpu(id).expect("card"), p);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-3 * b.abs().max(1e-9);
    assert!(close(k("l40s", Precision::Bf16) / k("h100-sxm", Precision::Bf16), (218.9 / 362.05) / (788.4 / 989.4)));
    assert!(close(k("rtx-4090", Precision::Bf16), k("l40s", Precision::Bf16)));
    assert!(close(k("h100-sxm", Precision::Bf16), 0.797 * TRAINING_SHARE));
    assert!(close(k("h100-sxm", Precision::Fp8), 0.508 * TRAINING_SHARE_FP8));
    assert!(close(k("a100-80gb-sxm4", Precision::Fp8), k("a100-80gb-sxm4", Precision::Bf16)));
    // Ampere at the A100's own training share, borrowers included (the A40 borrows its GEMMs).
    assert!(close(k("a100-80gb-sxm4", Precision::Bf16), 0.803 * TRAINING_SHARE_A100));
    assert!(close(k("a40", Precision::Bf16), 0.803 * TRAINING_SHARE_A100));
    // An FP8 step is faster than a BF16 one on an H100, but far from twice (measured 1.27×
    // of GEMM throughput: 1005 vs 788 TFLOPS).
    let h = catalog.gpu("h100-sxm").expect("card");
    let speedup = k("h100-sxm", Precision::Fp8) * h.fp8_tflops.unwrap_or(0.0)
        / (k("h100-sxm", Precision::Bf16) * h.bf16_tflops.unwrap_or(1.0));
    assert!(speedup > 1.2 && speedup < 1.6, "FP8 speed-up {speedup}");
    // Off CUDA: the 0.59 the steady-state rows set, CANN as CUDA, others at 0.7 of it.
    let reference = (0.803 + 0.797) / 2.0 * TRAINING_SHARE;
    assert!(close(reference, 0.59));
    assert!(close(k("huawei-ascend-910b3", Precision::Bf16), reference));
    assert!(close(k("mi300x", Precision::Bf16), reference * 0.7));
}

/// The reference shares are the means of the reference cards' measured ones.
#[test]
fn the_reference_is_the_mean_of_its_cards() {
    let mean = |f: fn(&kernels::Measured) -> Option<f64>| {
        let xs: Vec<f64> = MEASURED.iter().filter(|m| REFERENCE.contains(&m.gpu)).filter_map(f).collect();
        xs.iter().sum::<f64>() / xs.len() as f64
    };
    assert!((mean(|m| Some(m.gemm)) - REFERENCE_GEMM).abs() < 1e-12);
    assert!((mean(|m| m.gemm_fp8) - REFERENCE_GEMM_FP8).abs() < 1e-12);
    assert_eq!(REFERENCE.len(), 2);
}

/// The tier of a time: a benchmark calibrates only once it moved the kernel scale; a CUDA card
/// of an architecture with no measured GEMMs borrows the measured-run card nearest in 16-bit
/// peak (a V100's 125 TFLOPS FP16 is nearest the RTX 4090's 165, not the A100's 312).
#[test]
fn tiers_follow_the_measurements_and_the_benchmark() {
    use gpu_planner::domain::scenario::{Benchmark, Scenario};
    use gpu_planner::domain::tier::{self, Tier};
    let catalog = Catalog::embedded();
    let g = |id: &str| catalog.gpu(id).expect("card");
    let mut s = Scenario::default();
    assert_eq!(tier::of(&s, g("a100-80gb-sxm4"), catalog), Tier::Measured);
    assert_eq!(tier::of(&s, g("l20"), catalog), Tier::Borrowed { from: "l40s".into() });
    assert_eq!(tier::of(&s, g("v100-sxm2-32gb"), catalog), Tier::Borrowed { from: "rtx-4090".into() });
    // A CUDA card of an unmeasured architecture, at three 16-bit peaks: nearest in log distance.
    for (peak, from) in [(150.0, "rtx-4090"), (320.0, "a100-80gb-sxm4"), (900.0, "h100-sxm"), (5000.0, "h100-sxm")] {
        let card = gpu_planner::domain::Gpu { fp16_tflops: Some(peak), ..g("v100-sxm2-32gb").clone() };
        assert_eq!(tier::of(&s, &card, catalog), Tier::Borrowed { from: from.into() }, "{peak}");
    }
    assert_eq!(tier::of(&s, g("mi300x"), catalog), Tier::Roofline);
    assert_eq!(tier::of(&s, g("huawei-ascend-910b4"), catalog), Tier::Borrowed { from: "huawei-ascend-910b3".into() });
    s.efficiency.benchmark = Some(Benchmark { gpu: "a100-80gb-sxm4".into(), tokens_per_s_gpu: 1000.0 });
    assert_eq!(tier::of(&s, g("h100-sxm"), catalog), Tier::Measured, "a benchmark not yet applied calibrates nothing");
    s.efficiency.kernel_scale = 0.8;
    assert_eq!(tier::of(&s, g("h100-sxm"), catalog), Tier::Calibrated { on: "a100-80gb-sxm4".into() });
    s.efficiency.mfu = Some(0.4);
    assert_eq!(tier::of(&s, g("h100-sxm"), catalog), Tier::YourMfu);
}

/// Each tier takes its band: a benchmark's own card the measured one, every other card the
/// borrowed one; the band is published = figure / (1 ± p90), the lower side capped at 90%.
#[test]
fn each_tier_takes_its_band() {
    use gpu_planner::domain::tier::{band, p90, Tier, BAND_P90};
    let of = |k: &str| BAND_P90.iter().find(|(n, _)| *n == k).map(|(_, v)| *v).expect("band");
    let same = |a: f64, b: f64| assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    let on = Tier::Calibrated { on: "a100-80gb-sxm4".into() };
    same(p90(&Tier::Measured, "h100-sxm"), of("measured"));
    same(p90(&Tier::YourMfu, "h100-sxm"), of("measured"));
    same(p90(&on, "a100-80gb-sxm4"), of("measured"));
    same(p90(&on, "h100-sxm"), of("borrowed"));
    same(p90(&Tier::Borrowed { from: "l40s".into() }, "l20"), of("borrowed"));
    same(p90(&Tier::Roofline, "mi300x"), of("roofline"));
    let (lo, hi) = band(10.0, 0.25);
    assert!((lo - 8.0).abs() < 1e-12 && (hi - 10.0 / 0.75).abs() < 1e-12);
    let (_, hi) = band(10.0, 1.13);
    assert!((hi - 100.0).abs() < 1e-9, "a p90 above 90% is capped on the slow side");
}

/// The MI325X runs the MI300X's die and software at a higher power limit. AMD's MLPerf Training
/// v5.0 Llama 2 70B LoRA logs (mlcommons/training_results_v5.0, AMD results, `throughput`):
/// 2.734 samples/s on 8 MI325X, 2.027 on 8 MI300X — ×1.349, with the same code (NeMo, FP8 GEMMs
/// and parameters, LoRA r 16 on attention, one packed 8,192-token sequence per GPU, TP 1) except
/// 21 of the MI300X's 80 blocks recomputed. The kernels run ×1519/1273 (AMD's max-achievable FP8
/// FLOPS of the two) faster on the MI325X, and the two plans' predicted speeds keep the
/// published ratio within 5% (×1.14 with one ROCm share for both: the recompute alone).
#[test]
fn the_mi325x_runs_the_mi300xs_kernels_at_its_sustained_clock() {
    use gpu_planner::domain::compute::mfu;
    use gpu_planner::domain::memory::Layout;
    use gpu_planner::domain::scenario::{LoraTargets, Recompute, Task, WeightQuant};
    use gpu_planner::domain::Scenario;
    let catalog = Catalog::embedded();
    let card = |id: &str| catalog.gpu(id).unwrap_or_else(|| panic!("{id}")).clone();
    let (mi300x, mi325x) = (card("mi300x"), card("mi325x"));
    assert_eq!(mi300x.fp8_tflops, mi325x.fp8_tflops, "one peak: the clock is the difference");
    let ratio = kernels::gemm_share(&mi325x, Precision::Fp8) / kernels::gemm_share(&mi300x, Precision::Fp8);
    assert!((ratio - 1519.0 / 1273.0).abs() < 1e-12, "{ratio}");
    let bf16 = kernels::gemm_share(&mi325x, Precision::Bf16) / kernels::gemm_share(&mi300x, Precision::Bf16);
    assert!((bf16 - 843.0 / 708.0).abs() < 1e-12, "{bf16}");
    assert!((kernels::sibling_ratio(&card("h100-sxm"), true) - 1.0).abs() < 1e-15);
    let mut s = Scenario { model: "llama-2-70b".into(), task: Task::Lora, ..Scenario::default() };
    s.precision = Precision::Fp8;
    s.weight_quant = WeightQuant::Fp8;
    s.lora.rank = 16;
    s.lora.targets = LoraTargets::Attention;
    s.training.seq_len = 8192;
    s.training.micro_batch = 1;
    s.training.global_batch = 8;
    let m = s.model_spec().expect("model").clone();
    let plain = Layout { dp: 8, ..Layout::single() };
    let fast = mfu(&m, &s, &mi325x, &plain).expect("mfu").predicted;
    let mut r = s.clone();
    r.parallel.auto = false;
    r.parallel.recompute_layers = 21;
    let slow = mfu(&m, &r, &mi300x, &Layout { recompute: Recompute::Full, ..plain }).expect("mfu").predicted;
    let published = 2.734_403_782 / 2.026_509_656;
    let predicted = fast / slow;
    assert!((predicted / published - 1.0).abs() < 0.05, "predicted ×{predicted:.3}, published ×{published:.3}");
}

/// The MI355X's GEMMs scale from the MI300X's by the two cards' max-achievable BF16 matmul shares
/// in one table (Stas Bekman's ml-engineering MAMF table: 1,565 of the catalog's 2,500 TFLOPS
/// against 668.4 of 1,307.4), FP8 alike; the MI350X (same die, no measurement) keeps the MI300X's.
#[test]
fn the_mi355x_scales_from_the_mi300x_by_their_measured_matmul_shares() {
    let catalog = Catalog::embedded();
    let card = |id: &str| catalog.gpu(id).unwrap_or_else(|| panic!("{id}")).clone();
    let (mi300x, mi355x, mi350x) = (card("mi300x"), card("mi355x"), card("mi350x"));
    assert_eq!((mi300x.bf16_tflops, mi355x.bf16_tflops), (Some(1307.4), Some(2500.0)), "the peaks the shares use");
    let measured = (1565.0 / 2500.0) / (668.4 / 1307.4);
    for p in [Precision::Bf16, Precision::Fp8] {
        let ratio = kernels::gemm_share(&mi355x, p) / kernels::gemm_share(&mi300x, p);
        assert!((ratio - measured).abs() < 1e-12, "{p:?} {ratio}");
        assert!((kernels::gemm_share(&mi350x, p) - kernels::gemm_share(&mi300x, p)).abs() < 1e-15);
    }
    assert!((measured - 1.225).abs() < 1e-3, "{measured}");
}

/// The H100 PCIe runs the H100's die at 350 W with 114 SMs: one script measured its BF16 matmul
/// at 495.93 TFLOPS against 797.51 on an H100 SXM (zzc0721/torch-performance-test-data #95 and
/// #79), 0.656 of its 756.5 peak. Borrowing the SXM's measured share put it at 603 (+22%); its
/// sibling ratio keeps it within 2% of the measurement.
#[test]
fn the_h100_pcie_multiplies_at_its_measured_share() {
    let catalog = Catalog::embedded();
    let card = |id: &str| catalog.gpu(id).unwrap_or_else(|| panic!("{id}")).clone();
    let pcie = card("h100-pcie");
    let tflops = kernels::gemm_share(&pcie, Precision::Bf16) * pcie.bf16_tflops.unwrap_or(f64::NAN);
    assert!((tflops / 495.93 - 1.0).abs() < 0.02, "{tflops:.0} TFLOPS");
    let h800 = card("h800-pcie");
    let tflops = kernels::gemm_share(&h800, Precision::Bf16) * h800.bf16_tflops.unwrap_or(f64::NAN);
    assert!((tflops / 503.83 - 1.0).abs() < 0.02, "{tflops:.0} TFLOPS");
    let sxm = kernels::gemm_share(&card("h100-sxm"), Precision::Fp8);
    assert!(kernels::gemm_share(&pcie, Precision::Fp8) < sxm);
}

/// The H100 NVL (132 SMs at 350–400 W) borrowed the 700 W SXM's share until a cuBLAS FP16 GEMM on
/// one was found: 461.985 TFLOPS at 8192³ against the SXM's 736.19 under the same protocol
/// (docs/research/2026-12-07-h100-nvl-gemm-leads.md): 0.553 of its 835.5 peak against 0.744 of
/// 989.4, ×0.743. The same runs at 4096³ (487.446 against 760.04) give ×0.760 and the harness's
/// other 8192³ run (451.30) ×0.726: the ratio sits within that spread, for BF16 and FP8 alike.
#[test]
fn the_h100_nvl_multiplies_at_its_measured_share_of_the_sxms() {
    let catalog = Catalog::embedded();
    let card = |id: &str| catalog.gpu(id).unwrap_or_else(|| panic!("{id}")).clone();
    let (nvl, sxm) = (card("h100-nvl"), card("h100-sxm"));
    assert_eq!((nvl.bf16_tflops, sxm.bf16_tflops), (Some(835.5), Some(989.4)), "the peaks the shares use");
    let ratio_at = |nvl_tflops: f64, sxm_tflops: f64| (nvl_tflops / 835.5) / (sxm_tflops / 989.4);
    let (low, high) = (ratio_at(451.30, 736.19), ratio_at(487.446, 760.04));
    for p in [Precision::Bf16, Precision::Fp8] {
        let ratio = kernels::gemm_share(&nvl, p) / kernels::gemm_share(&sxm, p);
        assert!((ratio - ratio_at(461.985, 736.19)).abs() < 1e-12, "{p:?} {ratio}");
        assert!(
            ratio > low && ratio < high && (ratio - 0.743).abs() < 1e-3,
            "{p:?} {ratio} outside {low:.3}…{high:.3}"
        );
    }
}
