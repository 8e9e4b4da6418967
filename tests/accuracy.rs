//! The accuracy table: every published reference number recomputed by the engine and held to its
//! stated tolerance (src/domain/accuracy.json, built by scripts/accuracy_cases.py from the
//! sourced rows in docs/accuracy-refs.json).

use gpu_planner::domain::accuracy::{cases, score, table};
use gpu_planner::domain::Catalog;

#[test]
fn at_least_40_sourced_cases_and_90_percent_within_tolerance() {
    let rows = table(Catalog::embedded());
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
    // Issue 12's goal: 90% of the expressible cases within tolerance (76 of 84 on 2026-12-01,
    // after the elementwise term and goodput of compute.rs, the roofline split of vision.rs and
    // CANN's kernel efficiency from MindSpeed-LLM's measurements).
    assert!(within * 100 >= counted * 90, "{within} of {counted} cases within tolerance (< 90%)");
    // Language-model rows and vision rows (speeds carried between cards, domain/vision.rs) are
    // also held separately, each at today's level: a new family of harder rows must not hide a
    // regression of the others. Language models: 62 of 70; the misses are Korthikanti et al.'s
    // 175B–1T MFUs (15–17% low against 15%), Llama 3.1 405B's hours with the planner's own
    // layout, one TensorRT-LLM v0.6.1 batch, NeMo's 2-GPU H100 decode latency, and two of the
    // held-out Ascend rows (Llama 3.1 8B +27%, Mixtral 8x7B at 32K +92%). Raise a ratchet when a
    // change fixes a miss; never fit a constant to reach it.
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
    assert!(counted >= 70 && within >= 62, "{within} of {counted} language-model cases within tolerance (< 62)");
    // Vision: all 14 (the RTX 4090 ViTs and SAM 2 encoders carried from the RTX 3090 missed
    // under the min(peak, bandwidth) rule that the roofline split replaced).
    let (within, counted) = score(&vision);
    assert!(counted >= 14 && within >= 14, "{within} of {counted} vision cases within tolerance (< 14)");
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
        if c.not_expressible.is_none() {
            assert!(r.problem.is_none(), "{}: {:?}", c.id, r.problem);
        }
    }
}

/// The page states [`SCORE`] and links `public/accuracy.html`; both must be what the engine
/// computes now. When this fails after an engine change, regenerate the page
/// (`cargo run --release --bin gpu-planner -- accuracy --html > public/accuracy.html`) and set
/// `SCORE` in src/domain/accuracy.rs.
#[test]
fn the_score_and_the_table_the_page_links_are_current() {
    use gpu_planner::domain::accuracy::{shown, shown_score, SCORE};
    let fresh = shown(&table(Catalog::embedded()));
    let (within, counted) = shown_score(&fresh);
    assert_eq!(SCORE, (within, counted, fresh.len()), "update accuracy::SCORE");
    let file =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/public/accuracy.html")).unwrap_or_default();
    assert!(file.trim_end() == gpu_planner::ui::accuracy::page(&fresh).trim_end(), "regenerate public/accuracy.html");
}
