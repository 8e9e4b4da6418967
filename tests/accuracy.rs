//! The accuracy table: every published reference number recomputed by the engine and held to its
//! stated tolerance (src/domain/accuracy.json, built by scripts/accuracy_cases.py from the
//! sourced rows in docs/accuracy-refs.json).

use gpu_planner::domain::accuracy::{cases, groups, headline, score, Kind, Role, Row};
use gpu_planner::domain::Catalog;

/// The whole table, computed once for the tests of this file (each reads it; every serving row
/// replays 20,000 requests, and the rate-at-the-limits rows a bisection of such runs).
fn table(catalog: &Catalog) -> Vec<Row> {
    static TABLE: std::sync::OnceLock<Vec<Row>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| gpu_planner::domain::accuracy::table(catalog)).clone()
}

/// The rows that set (or were seen while setting) a constant.
fn calibration(rows: Vec<Row>) -> Vec<Row> {
    rows.into_iter().filter(|r| r.case.role == Role::Calibration).collect()
}

#[test]
fn at_least_40_sourced_calibration_cases_and_90_percent_within_tolerance() {
    let rows = calibration(table(Catalog::embedded()));
    for r in &rows {
        println!(
            "{:<48} {:>14.4} {:>14} {:>+8} tol {:>4.0}% {}{}",
            r.case.id,
            r.case.published,
            r.ours.map_or("-".into(), |o| format!("{o:.4}")),
            r.error.map_or("-".into(), |e| format!("{:+.1}%", e * 100.0)),
            r.case.tolerance * 100.0,
            if r.within { "ok" } else { "OUT" },
            r.case.not_expressible.as_ref().map_or(String::new(), |_| " (not expressible)".into()),
        );
    }
    let (within, counted) = score(&rows);
    println!("{within} of {counted} expressible cases within tolerance; {} cases in all", rows.len());
    assert!(counted >= 40, "only {counted} expressible cases");
    // Issue 12's goal: 90% of the expressible calibration cases within tolerance (76 of 84 on
    // 2026-12-01, after the elementwise term and goodput of compute.rs, the roofline split of
    // vision.rs and CANN's kernel efficiency from MindSpeed-LLM's measurements; 79 of 87 once
    // Llama 3's three MFU rows are scored over the unpublished virtual stages).
    assert!(within * 100 >= counted * 90, "{within} of {counted} cases within tolerance (< 90%)");
    // Language-model rows and vision rows (speeds carried between cards, domain/vision.rs) are
    // also held separately, each at today's level: a new family of harder rows must not hide a
    // regression of the others. Language models: 67 of 74 (Llama 3's MFU rows pass over the open
    // virtual stages; Llama 3.1 405B's hours and NeMo's Llama 3 8B FP8 row once Megatron's fused
    // SwiGLU, the interleaved schedule's in-flight penalty and Transformer Engine's FP8 GEMM
    // inputs are counted); the misses are Korthikanti et al.'s 175B–1T MFUs (15–17% low against
    // 15%), one TensorRT-LLM v0.6.1 batch, NeMo's 2-GPU H100 decode latency, and two of the
    // held-out Ascend rows (Llama 3.1 8B +27%, Mixtral 8x7B at 32K +92%). 66 since the per-card
    // GEMM table (domain/kernels.rs): torchtune's RTX 4090 QLoRA row, priced at the L40S's
    // measured GEMM share (the same AD102 die), misses at −45%; its README figure needs ~70% of
    // the 4090's dense peak with recompute and NF4 dequantization, which no other row reaches.
    // Raise a ratchet when a change fixes a miss; never fit a constant to reach it.
    let (llm, vision): (Vec<_>, Vec<_>) = rows.into_iter().partition(|r| !r.case.id.starts_with("vision-"));
    // Ascend 910B (MindSpeed-LLM): the five rows CANN's kernel efficiency was read from all
    // within, the eight with a figure at least six within, and not all on one side.
    let npu: Vec<_> = llm.iter().filter(|r| r.case.id.starts_with("mindspeed-")).collect();
    let first = ["llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b", "qwen2-7b"];
    let read: Vec<_> = npu.iter().filter(|r| first.iter().any(|f| r.case.id.contains(&format!("-{f}-")))).collect();
    assert!(read.len() == 5 && read.iter().all(|r| r.within), "{} rows read, not all within", read.len());
    let errors: Vec<f64> = npu.iter().filter_map(|r| r.error).collect();
    assert!(errors.len() >= 8 && npu.iter().filter(|r| r.within).count() >= 6, "Ascend rows: {errors:?}");
    assert!(errors.iter().any(|e| *e > 0.0) && errors.iter().any(|e| *e < 0.0), "Ascend rows all one side: {errors:?}");
    let (within, counted) = score(&llm);
    assert!(counted >= 74 && within >= 66, "{within} of {counted} language-model cases within tolerance (< 66)");
    // Vision: all 14 (the RTX 4090 ViTs and SAM 2 encoders carried from the RTX 3090 missed
    // under the min(peak, bandwidth) rule that the roofline split replaced).
    let (within, counted) = score(&vision);
    assert!(counted >= 14 && within >= 14, "{within} of {counted} vision cases within tolerance (< 14)");
}

/// Ours over published speed of a reference card's 16-bit training calibration rows (GPU-hours
/// inverted), the figures `kernels::TRAINING_SHARE*` were set on.
fn calibration_speed_ratios(rows: &[Row], card: &str) -> Vec<f64> {
    use gpu_planner::domain::accuracy::Metric;
    let mut ratios: Vec<f64> = rows
        .iter()
        .filter(|r| r.case.not_expressible.is_none())
        .filter(|r| r.case.scenario.pointer("/cards/only/0").and_then(|v| v.as_str()) == Some(card))
        .filter(|r| matches!(r.case.scenario["precision"].as_str(), None | Some("bf16" | "fp16")))
        .filter_map(|r| match r.case.metric {
            Metric::GpuHours => r.error.map(|e| 1.0 / (1.0 + e)),
            Metric::MfuPct | Metric::HwTflops | Metric::TokensPerSGpu => r.error.map(|e| 1.0 + e),
            _ => None,
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios
}

/// The training share is set per reference card on that card's own calibration rows: the A100's
/// 13 rows run at a median 1.00 of their published speed (0.975 at the joint 0.7375 the H100
/// keeps), and the H100's four BF16 rows stay within their scatter (median 0.98).
#[test]
fn each_reference_cards_training_share_is_set_on_its_calibration_rows() {
    let rows = calibration(table(Catalog::embedded()));
    let median =
        |v: &[f64]| if v.len() % 2 == 1 { v[v.len() / 2] } else { (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0 };
    let a100 = calibration_speed_ratios(&rows, "a100-80gb-sxm4");
    assert!(a100.len() >= 13 && (median(&a100) - 1.0).abs() <= 0.01, "A100 {a100:?}");
    let h100 = calibration_speed_ratios(&rows, "h100-sxm");
    assert!(h100.len() >= 4 && (median(&h100) - 1.0).abs() <= 0.03, "H100 {h100:?}");
}

#[test]
fn every_case_is_sourced_and_computable() {
    assert!(cases().len() >= 40);
    for r in table(Catalog::embedded()) {
        let c = &r.case;
        assert!(c.url.starts_with("http"), "{}: no source url", c.id);
        assert!(!c.source.is_empty() && !c.inputs.is_empty(), "{}", c.id);
        assert!(c.published.is_finite() && c.published > 0.0, "{}", c.id);
        assert!(c.tolerance > 0.0 && c.tolerance <= 0.35, "{}: tolerance {}", c.id, c.tolerance);
        // A calibration row always has a figure; a validation row without one is a miss (the
        // engine's memory says the published layout does not fit), counted as such.
        if c.not_expressible.is_none() && c.role == Role::Calibration {
            assert!(r.problem.is_none(), "{}: {:?}", c.id, r.problem);
        }
    }
}

/// Validation rows judge the constants; nothing but the scorer may read them. No source file
/// of the engine or its tests names one (a test that looked one up could tune a constant to it).
#[test]
fn validation_rows_are_read_by_the_scorer_only() {
    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs" || x == "py") {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["src", "tests", "scripts", "bench", "examples"] {
        rust_files(&root.join(d), &mut files);
    }
    assert!(files.len() > 50, "{} files", files.len());
    let validation: Vec<&str> = cases().iter().filter(|c| c.role == Role::Validation).map(|c| c.id.as_str()).collect();
    assert!(validation.len() >= 40, "{} validation rows", validation.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for id in &validation {
            assert!(!text.contains(id), "{} names the validation row {id}", f.display());
        }
    }
}

/// The held-out training-time rows, as they stand: the share within tolerance and the p90 error
/// may only improve (a ratchet: raise it when a change fixes misses; never fit to reach it).
/// Issue 26 asks for 85% within; on 2026-12-01 it is 50 of 79 (median 13.9%, p90 41.6% with
/// the per-card GEMM table of domain/kernels.rs; 14.2% and 42.1% before it). On 2026-12-03
/// torchtitan's op-level recompute made two rows that had no prediction (plan over 80 GB)
/// predicted misses (+41%, +45% on a stand-in card): 50 of 79, median 14.8%, p90 43.3% —
/// the same fit, two fewer rows hidden. On 2026-12-04, 51 of 79, p90 41.0%: the MI355X's and
/// MI350X's Infinity Fabric bandwidth and the MI350X's FP8 rate read into the catalog (their
/// data-parallel all-reduce had run over PCIe): MLPerf's MI350X row −63% → −16% (within), the
/// MI355X's −43% → −26%. On 2026-12-05 (session 30), 64 of 79 (median 10.9%, p90 24.7%); in
/// session 31, 66 once the A100 trains at its own share set on its calibration rows
/// (kernels::TRAINING_SHARE_A100), 67 (p90 24.4%) once the MI355X's GEMMs scale from the
/// MI300X's by their measured matmul shares (kernels::SIBLINGS). 66 (p90 24.7%) in session 37,
/// facts and not a fit: the held-out rows were read again against their recipes, and Megatron-
/// Bridge 25.09's DeepSeek-V3 run overlaps its expert all-to-all (`A2A_1F1B` on H100) with
/// tensor-parallel overlap and gradient-reduce overlap off — with its all-to-all hidden the
/// engine's MoE layers run it 55% fast (was −16% with the all-to-all exposed). 67 (p90 23.2%) in
/// session 38, from Megatron-Core's code and no fit: every MoE layer's token copies to and from
/// its experts (permute, regroup by expert, un-permute: compute::moe_token_bytes) counted with the
/// other memory-bound kernels; MindSpeed's Qwen3-30B-A3B +24.7% → +16.8%. 69 (median 8.0%, p90
/// 22.1%) in session 39: the collectives hidden behind compute slow it by Lee et al.'s measured
/// 18.9% while they run (comms::contended; the A100's share re-set on its own calibration rows,
/// 0.763 → 0.782); MPT-7B on 512 H100s +23.2% → +11.7%, FlagPerf's ZeRO-3 on H800 +25.9% →
/// +16.3%, Megatron-Bridge's DeepSeek-V3 +42.1% → +24.9%; dgxc's Llama 3 8B SFT −20.0% → −20.6%
/// (out).
#[test]
fn held_out_training_time_rows_do_not_regress() {
    let rows = table(Catalog::embedded());
    let g = groups(&rows);
    let v = g.iter().find(|g| g.role == Role::Validation && g.kind == Kind::TrainingTime).expect("validation group");
    println!("{g:#?}");
    assert!(v.rows >= 79, "{v:?}");
    assert!(v.within >= 69, "{v:?}");
    assert!(v.p90_abs_error <= 0.221 && v.median_abs_error <= 0.080, "{v:?}");
    let (within, all) = headline(&rows);
    assert_eq!(all, rows.len());
    assert!(within <= score(&rows).0, "the headline counts no row the older score does not");
}

/// The held-out vision rows (Lambda's, Roboflow's, timm's other cards…), as they stand: a ratchet.
/// On 2026-12-04, 24 of 57 within before a job could state its memory format; 31 of 57 after
/// the 28 Lambda ResNet-50 rows said what their logs print (`memory_format : nchw`) and NVIDIA's
/// NHWC figures were carried to them by timm's NCHW/NHWC ratio (measured on an RTX 3090, a
/// calibration source; no validation row set it). 32 once a job could name its engine and every
/// vision row said which its source ran on (Lambda's A100 40 GB fp16 rows no longer take NVIDIA's
/// TensorFlow + XLA figure; the A100 40 GB SXM4 fp32 row moved out, see the README).
#[test]
fn held_out_vision_rows_do_not_regress() {
    let rows = table(Catalog::embedded());
    let g = groups(&rows);
    let v = g.iter().find(|g| g.role == Role::Validation && g.kind == Kind::Vision).expect("vision group");
    assert!(v.rows >= 57, "{v:?}");
    assert!(v.within >= 32, "{v:?}");
}

/// A row whose source leaves an input open is scored over the input's values: inside the band
/// of figures passes, outside it for every value fails, and the figure shown is the one nearest
/// the published value.
#[test]
fn an_open_input_is_scored_over_its_band() {
    use gpu_planner::domain::accuracy::table_of;
    let base = cases().iter().find(|c| c.id == "llama3-405b-8k-8192gpu-mfu").expect("row").clone();
    let open = base.open.first().cloned().expect("open virtual stages");
    assert_eq!(open.path, "/parallel/virtual_stages");
    let band = table_of(std::slice::from_ref(&base), Catalog::embedded())[0].band.expect("band");
    let (lo, hi) = band;
    assert!(hi > lo * 1.05, "the virtual stages move the bubble: {band:?}");
    let at = |published: f64| {
        let mut c = base.clone();
        c.published = published;
        table_of(&[c], Catalog::embedded()).remove(0)
    };
    let mid = at((lo + hi) / 2.0);
    assert!(mid.within && mid.ours.is_some_and(|o| o >= lo && o <= hi));
    let far = at(hi * (1.0 + base.tolerance) * 1.05);
    assert!(!far.within, "{far:?}");
    assert!((far.ours.unwrap_or(0.0) - hi).abs() < 1e-9, "the nearest figure is the band's top");
    let low = at(lo * (1.0 - base.tolerance) * 0.95);
    assert!(!low.within);
    // Each value alone, by hand: the band's ends are the extremes over them.
    let figures: Vec<f64> = open
        .values
        .iter()
        .map(|v| {
            let mut c = base.clone();
            c.open = Vec::new();
            c.scenario["parallel"]["virtual_stages"] = v.clone();
            table_of(&[c], Catalog::embedded())[0].ours.expect("figure")
        })
        .collect();
    let (min, max) = figures.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(*x), b.max(*x)));
    assert!((min - lo).abs() < 1e-9 && (max - hi).abs() < 1e-9, "{figures:?} vs {band:?}");
}

/// Two open inputs are scored over every combination of their values: the band's ends are the
/// extremes over the four figures, each computed alone with both inputs set by hand (Llama 3's
/// virtual stages 2 and 8 × a 25 or 400 Gb/s fabric per GPU).
#[test]
fn two_open_inputs_are_scored_over_their_combinations() {
    use gpu_planner::domain::accuracy::{table_of, Open};
    let mut base = cases().iter().find(|c| c.id == "llama3-405b-8k-8192gpu-mfu").expect("row").clone();
    let stages = [serde_json::json!(2), serde_json::json!(8)];
    let fabric = [serde_json::json!(25), serde_json::json!(400)];
    base.open = vec![
        Open { path: "/parallel/virtual_stages".into(), values: stages.to_vec(), why: String::new() },
        Open { path: "/infra/fabric_gbit_per_gpu".into(), values: fabric.to_vec(), why: String::new() },
    ];
    let (lo, hi) = table_of(std::slice::from_ref(&base), Catalog::embedded())[0].band.expect("band");
    let mut figures = Vec::new();
    for v in &stages {
        for f in &fabric {
            let mut c = base.clone();
            c.open = Vec::new();
            c.scenario["parallel"]["virtual_stages"] = v.clone();
            c.scenario["infra"] = serde_json::json!({ "fabric_gbit_per_gpu": f });
            figures.push(table_of(&[c], Catalog::embedded())[0].ours.expect("figure"));
        }
    }
    let (min, max) = figures.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(*x), b.max(*x)));
    assert!((min - lo).abs() < 1e-9 && (max - hi).abs() < 1e-9, "{figures:?} vs {:?}", (lo, hi));
    // The fabric matters at 8,192 GPUs: the four figures are not two repeated.
    figures.sort_by(f64::total_cmp);
    figures.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    assert_eq!(figures.len(), 4, "{figures:?}");
}

/// The tiers' bands are the held-out rows' p90 |error| per tier, and the measured cards are the
/// cards of the calibration time rows with a figure.
#[test]
fn tier_bands_and_measured_cards_follow_the_table() {
    use gpu_planner::domain::accuracy::{kind, tier_bands};
    use gpu_planner::domain::tier::{BAND_P90, MEASURED_CARDS};
    let catalog = Catalog::embedded();
    let rows = table(catalog);
    let mut measured: Vec<String> = rows
        .iter()
        .filter(|r| r.case.role == Role::Calibration && kind(r.case.metric) == Kind::TrainingTime && r.ours.is_some())
        .filter_map(|r| r.case.scenario["cards"]["only"][0].as_str().map(String::from))
        .collect();
    measured.sort();
    measured.dedup();
    let mut listed: Vec<String> = MEASURED_CARDS.iter().map(|s| (*s).to_string()).collect();
    listed.sort();
    assert_eq!(measured, listed);
    for ((name, p90, n), (listed_name, listed_p90)) in tier_bands(&rows, catalog).into_iter().zip(BAND_P90) {
        println!("{name}: p90 {p90:.3} over {n} rows");
        assert_eq!(name, listed_name);
        assert!(n >= 5, "{name}: only {n} rows");
        assert!((p90 - listed_p90).abs() < 0.005, "{name}: p90 {p90:.3}, BAND_P90 says {listed_p90}");
    }
}

/// Serving under load (issue 27): published benchmark runs (vLLM, SGLang and TensorRT-LLM on
/// A100, H200, B200 and MI355X) replayed on the step-level simulation with the source's client
/// schedule, all held out (no constant was set from them). Held at today's level: the dense
/// models on A100 land within ±20% (their TPOT and throughput rows all of them); 26 rows within
/// on the roofline alone, 39 since the decode step is never faster than AIConfigurator's measured
/// operators (serving/measured.rs: DeepSeek-R1's decode on H200 from 25–55% fast to −21…+18%).
/// The first tokens of DeepSeek-R1 still come 55–90% early (prefill from measured operators is
/// not done). Raise the ratchet when a change fixes a miss; never fit a constant to reach it.
/// 39 → 35 on 2026-12-04, a fact and not a fit: the catalog's MI355X had its Infinity Fabric
/// bandwidth unknown, so its 4-card replicas ran tensor parallelism over PCIe, and those
/// all-reduces had hidden that the MI355X has no measured decode floors (serving/measured.rs)
/// and no software-stack factor in serving (issue 27): with the fabric read (7 × 153.6 GB/s)
/// its DeepSeek-R1 rows come 34–54% fast on TPOT and 80% early on TTFT, four of them now out.
/// 35 → 42 on 2026-12-05: seven InferenceX rows of TensorRT-LLM with MTP speculative decoding
/// (3 drafted tokens; H200 and B200, 1k/1k and 8k/1k), added as held-out rows when the engine
/// learned speculative decoding (serving/speculative.rs). Scored with MTP off first they were
/// all out (+27…+38% slow); with it all seven are within over the open acceptance rate
/// (0.6–0.9; one rate, 0.7, puts all seven within at once). No figure was set from them.
/// Also on 2026-12-05: eight median first-token rows of the InferenceX runs whose means are here
/// (`*-ttft_median`), held out before any change to the first-token model, all out (−60…−97%).
/// A prefill's fixed cost (no CUDA graphs for prefill, the engine's frontend) is the next step
/// (docs/research/2026-12-05-ttft-fixed-cost-evidence.md); raise the ratchet when they move in.
/// 42 → 47 on 2026-12-05 (later): thirteen held-out rows from outside InferenceX (gpustack's
/// Qwen3-8B on one H100 under three engines, tenstorrent's vLLM DeepSeek-R1-AWQ sweep on 8 × H100),
/// scored before the engine's eager prompt steps (serving/launch.rs) were modelled: four within
/// then (46 of 88); with the model 47 of 88 (B200 NVFP4 conc 256 TPOT and throughput in, H200
/// SGLang conc 8 TPOT out at +20.3%). The median first-token rows moved to −24…−37%, still out.
/// 47 → 53 the same day: cards without measured decode operators borrow those of the measured
/// card nearest in bandwidth (serving/measured.rs `ops_for`; the MI355X the B200's); the six
/// MI355X TPOT and throughput rows, −52…+108% on the roofline alone, came within (−9…+11%).
/// 53 → 55: the A100 Qwen3-14B-AWQ run was launched with --enforce-eager, which the scenario can
/// now say (`enforce_eager`): every decode step waits for 40 layers' launches at the dense figure
/// set from sfllm PR #46 (18.5 ms + 2 ms a step): TPOT 20.46 ms against 20.63 (was −47.8%), and
/// the throughput row with it.
/// 55 → 61: a request reaches the scheduler 1.29 ms after it is sent (`FRONTEND_S`, pegainfer
/// #738), so in a closed loop one sent as an answer ends misses the step starting then and waits
/// for it. Five InferenceX median first-token rows (TensorRT-LLM H200 conc 16/32, MI355X conc
/// 4/32/64) and gpustack's SGLang Qwen3-8B median came within; TensorRT-LLM H200 conc 4 sits at
/// −20.0%, just out.
/// 61 → 75 on 2026-12-06 (session 40): 65 MLPerf Inference rows joined by a rule committed before
/// scoring (52 server latency rows, 13 Offline throughput rows), 10 of them within once the B200
/// preview's FP4 weights were read as `nvfp4`; → 79: compute-bound serving work capped at the
/// card's measured GEMM share (serving::compute_share; MI300X Offline and two server p99s in).
/// 84 → 89 (session 41): a step's linear layers take √(W² + C²) (serving::gemm_time, chosen on
/// measured GEMM tables) and the attention's KV read follows them instead of hiding under their
/// math: five MLPerf Offline rows and four server rows in, four server rows out.
/// 89 → 99 (session 45): 18 rows of the planner's own question, the rate one replica carries
/// within each MLPerf server run's p99 limits (serving::rate_at_targets; third addendum of
/// docs/research/2026-12-06-mlperf-prereg.md), 10 within; MI300X (+29…+39%), H100 NVL (+58%,
/// +73%), Mixtral on H100 and H200 (+28%, +22%) and v4.0's H100 pair (+20.2%) carry too much.
/// 99 → 104 (session 46): the step pays the element-wise kernels between its linear layers
/// (serving::elementwise_s, AIConfigurator's add-norm, activation and embedding memory ops; rule
/// in docs/research/2026-12-07-elementwise-prereg.md): 13 rows in, 8 out, most of them MLPerf
/// server rows near saturation.
/// 104 → 129 (session 47): 28 held-out Ascend 910B rows joined by a rule committed before scoring
/// (docs/research/2026-12-07-ascend-serving-prereg.md), 25 within once CANN pays its per-layer
/// cost (serving::launch::CANN_LAYER_S, set on 12 calibration rows named `calib-serve-*`): the 24
/// rows of the calibration's own tutorial at concurrency 8–34 all within (TPOT −4…−16%), of the
/// four from other sources one (a single card's W4A4 run: TTFT +155%, TPOT +94%, the engine having
/// no 4-bit math; the nightly W8A8 baseline −26%).
/// 129 → 131 (session 49): the H100 NVL multiplies at its own measured share of the SXM's (×0.743,
/// kernels::H100_NVL_MM; rule in docs/research/2026-12-07-h100-nvl-sibling-prereg.md): its two
/// MLPerf Offline rows +12%/+16% → −5%/0%, one server rate +49% → +19%; four rows in, one out (a
/// first-token mean +9% → +51%), the NVL's first-token p99s further out (+34% → +108%, +112% → +221%).
/// 131 → 134 (session 49): vLLM V0 is an engine of its own (`vllm_v0`: prompt steps eager, 43 µs
/// of host time per decoding request a step, serving::V0_HOST_PER_SEQ_S from Vidur's profiles;
/// rule in docs/research/2026-12-07-vllm-v0-prereg.md) and the 18 MLPerf v4.1 MI300X rows of
/// vLLM 0.4.3 run on it: the three rates within the p99 limits +24…+33% → +8…+16%, the three
/// Offline rows still within (−4…0%), time per token still −50…−64% short.
/// 134 → 136 (session 50): SGLang's overlap scheduler hides the fixed time a step (a step lasts
/// the longer of its GPU work and its host work; serving::hides_host; rule, not blind, in
/// docs/research/2026-12-08-sglang-hidden-fixed-time-prereg.md): gpustack's Qwen3-8B time per
/// token +25% → −2% and InferenceX's H200 DeepSeek-R1 conc 8 +25% → +9%; none out.
#[test]
fn serving_benchmarks_under_load_are_held_out_and_scored() {
    let rows: Vec<Row> = table(Catalog::embedded()).into_iter().filter(|r| r.case.id.starts_with("serve-")).collect();
    assert!(rows.len() >= 60, "{} serving rows", rows.len());
    assert!(rows.iter().all(|r| r.case.role == Role::Validation && r.case.prompts.is_some()));
    let (within, counted) = score(&rows);
    assert!(counted == rows.len() && within >= 136, "{within} of {counted} serving rows within tolerance (< 136)");
    let dense: Vec<&Row> =
        rows.iter().filter(|r| r.case.id.contains("qwen2-7b") && !r.case.id.ends_with("ttft_mean")).collect();
    assert!(dense.len() == 10 && dense.iter().all(|r| r.within), "A100 Qwen2-7B TPOT/throughput rows");
}

/// Every reading of every row parses: a value a source leaves open that the planner cannot read
/// (the MLPerf B200 rows' weights written `fp4`, not `nvfp4`) would otherwise drop out of the
/// row's band unseen, and the row be scored on the readings that remain.
#[test]
fn every_reading_of_every_row_is_a_scenario() {
    use gpu_planner::domain::accuracy::{cases, readings, scenario};
    let mut bad = Vec::new();
    for c in cases() {
        for one in readings(c) {
            if let Err(e) = scenario(&one) {
                bad.push(format!("{}: {e}", c.id));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    assert!(
        cases().iter().map(|c| readings(c).len()).sum::<usize>() > cases().len(),
        "some rows are read over open inputs"
    );
}

/// The serving accuracy the page states under its table (serving::SERVING_P90) is the held-out
/// serving rows' own: the 90th percentile of |error| by the figure checked, over at least 20 rows
/// each.
#[test]
fn the_serving_bands_the_page_states_follow_the_table() {
    use gpu_planner::domain::accuracy::serving_bands;
    use gpu_planner::domain::serving::SERVING_P90;
    let rows = table(Catalog::embedded());
    let bands = serving_bands(&rows);
    assert_eq!(bands.len(), SERVING_P90.len());
    for (name, median, p90, n) in &bands {
        println!("{name}: median {median:.3}, p90 {p90:.3} over {n} rows");
    }
    for ((name, _, p90, n), (listed, listed_p90, listed_n)) in bands.into_iter().zip(SERVING_P90) {
        assert_eq!(name, listed);
        assert!(n >= 20, "{name}: only {n} rows");
        assert_eq!(n, listed_n, "{name}: {n} rows, SERVING_P90 says {listed_n}");
        assert!((p90 - listed_p90).abs() < 0.005, "{name}: p90 {p90:.3}, SERVING_P90 says {listed_p90}");
    }
}

/// CANN's per-layer serving cost (serving::launch::CANN_LAYER_S) is the rule of
/// docs/research/2026-12-07-ascend-serving-prereg.md applied to its six calibration rows
/// (vllm-ascend's suffix-decoding tutorial, Qwen3-32B on four Atlas 800T A2 cards, one request at
/// a time): the median of (published time per token − the engine's with the cost off) ÷ 64
/// layers, rounded to 0.01 ms. The cost adds 64 × CANN_LAYER_S to every step of a lone request
/// (tests/launch.rs), so the engine's time per token with it off is its figure less that.
#[test]
fn the_cann_layer_cost_is_the_median_of_its_calibration_rows() {
    use gpu_planner::domain::accuracy::table_of;
    use gpu_planner::domain::serving::launch::CANN_LAYER_S;
    let rows: Vec<_> = cases().iter().filter(|c| c.id.starts_with("calib-serve-910b")).cloned().collect();
    assert!(rows.len() == 12 && rows.iter().all(|c| c.role == Role::Calibration && c.concurrency == Some(1)));
    let scored = table_of(&rows, Catalog::embedded());
    let mut per_layer: Vec<f64> = scored
        .iter()
        .filter(|r| r.case.id.ends_with("-tpot_mean"))
        .map(|r| (r.case.published / 1e3 - (r.ours.unwrap_or(f64::NAN) / 1e3 - 64.0 * CANN_LAYER_S)) / 64.0)
        .collect();
    assert_eq!(per_layer.len(), 6);
    per_layer.sort_by(f64::total_cmp);
    let median = (per_layer[2] + per_layer[3]) / 2.0;
    assert!(((median * 1e5).round() / 1e5 - CANN_LAYER_S).abs() < 1e-12, "median {median} s a layer");
    // With the cost on, the twelve rows that set it are within (their tokens/s rows too).
    assert!(scored.iter().all(|r| r.within), "calibration rows out");
}
