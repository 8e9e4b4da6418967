//! A CNN's memory format (NCHW, PyTorch's default, or NHWC `channels_last`) changes its speed on
//! tensor cores; NVIDIA's published ResNet-50 figures run NHWC, most teams' code runs NCHW.
//! A job that says its format is carried from a row of the other format by the model's NCHW/NHWC
//! ratio measured on one card (timm's paired RTX 3090 files): ResNet-50 training 826.06 / 1218.01
//! img/s, inference 3219.06 / 3729.86 = 0.863 (src/domain/vision.json, `nchw_over_nhwc_*`).
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use common::assert_close;
use gpu_planner::domain::explain::explain;
use gpu_planner::domain::format::Lang;
use gpu_planner::domain::scenario::{Precision, Task, VisionJob};
use gpu_planner::domain::vision::{self, MemoryFormat};
use gpu_planner::domain::{Catalog, Gpu, Scenario};

fn card(id: &str) -> &'static Gpu {
    Catalog::embedded().gpu(id).unwrap_or_else(|| panic!("{id}"))
}

fn resnet(task: Task, format: Option<MemoryFormat>) -> Scenario {
    Scenario {
        model: "resnet50".into(),
        task,
        precision: Precision::Fp16,
        vision: VisionJob { memory_format: format, ..VisionJob::default() },
        ..Scenario::default()
    }
}

fn speed(s: &Scenario, g: &str) -> vision::Speed {
    let m = vision::model(&s.model).expect("model");
    vision::speed(m, s, card(g), Catalog::embedded()).expect("speed")
}

const TRAIN_RATIO: f64 = 826.06 / 1218.01;

/// NVIDIA's A100 80GB figure (2,470 img/s, DeepLearningExamples, DALI, NHWC) is what an NHWC
/// job gets; an NCHW job on the same card gets it × 826.06/1218.01 (the ratio as stored, 0.678).
/// Lambda's NCHW run of the same recipe on that card measured 1,528 img/s (held out; the
/// accuracy table's row).
#[test]
fn an_nchw_job_is_carried_from_nvidias_nhwc_figure_by_the_measured_ratio() {
    let nhwc = speed(&resnet(Task::FullFinetune, Some(MemoryFormat::Nhwc)), "a100-80gb-sxm4");
    assert_close(nhwc.per_card, 2470.0, 1e-9);
    assert_eq!(nhwc.basis.layout, None);
    let nchw = speed(&resnet(Task::FullFinetune, Some(MemoryFormat::Nchw)), "a100-80gb-sxm4");
    assert_close(nchw.per_card, 2470.0 * 0.678, 1e-9);
    assert_close(nchw.per_card, 2470.0 * TRAIN_RATIO, 1e-3);
    assert_eq!(nchw.basis.layout, Some(0.678));
    // Unstated: as measured, no correction.
    let as_measured = speed(&resnet(Task::FullFinetune, None), "a100-80gb-sxm4");
    assert_close(as_measured.per_card, 2470.0, 1e-9);
}

/// On the RTX 3090 both formats are measured: each job takes its own row, uncorrected.
#[test]
fn a_card_measured_in_both_formats_uses_the_jobs_own_row() {
    let nchw = speed(&resnet(Task::FullFinetune, Some(MemoryFormat::Nchw)), "rtx-3090");
    assert_close(nchw.per_card, 826.06, 1e-9);
    assert_eq!(nchw.basis.layout, None);
    let nhwc = speed(&resnet(Task::FullFinetune, Some(MemoryFormat::Nhwc)), "rtx-3090");
    assert_close(nhwc.per_card, 1218.01, 1e-9);
    assert_eq!(nhwc.basis.layout, None);
}

/// Inference rows are timm's NCHW ones: an NHWC service runs 1/0.863 as fast, and the batch-1
/// latency's fixed time is carried the same way.
#[test]
fn an_nhwc_service_is_carried_from_an_nchw_row_by_the_inverse_ratio() {
    let nchw = speed(&resnet(Task::Inference, Some(MemoryFormat::Nchw)), "rtx-3090");
    let nhwc = speed(&resnet(Task::Inference, Some(MemoryFormat::Nhwc)), "rtx-3090");
    assert_close(nhwc.per_card, nchw.per_card / 0.863, 1e-9);
    assert_eq!(nhwc.basis.layout, Some(1.0 / 0.863));
    assert_close(nchw.per_card, 3219.06, 1e-9);
}

/// A model with no published pair (ViT: transformers run alike in both) is never corrected,
/// whatever the job says.
#[test]
fn no_measured_pair_no_correction() {
    for format in [Some(MemoryFormat::Nchw), Some(MemoryFormat::Nhwc)] {
        let s = Scenario { model: "vit-b16".into(), ..resnet(Task::FullFinetune, format) };
        for g in ["a100-80gb-sxm4", "h100-sxm", "rtx-3090", "l40s"] {
            assert_eq!(speed(&s, g).basis.layout, None, "{g} {format:?}");
        }
    }
}

/// The explanation names the factor in the page's language; the scenario keeps the choice in
/// its JSON (a share link and a saved scenario), and an unknown name is refused.
#[test]
fn the_format_is_explained_and_travels_with_the_scenario() {
    let s = resnet(Task::FullFinetune, Some(MemoryFormat::Nchw));
    let r = gpu_planner::domain::report::report(&s, Catalog::embedded()).expect("report");
    let v = r.cards.iter().find(|v| v.gpu == "a100-80gb-sxm4").expect("A100 verdict");
    for (lang, words) in [(Lang::En, "NCHW/NHWC speed ratio"), (Lang::Zh, "NCHW/NHWC 速度比")] {
        let lines = explain(&s, Catalog::embedded(), v, lang);
        let speed = lines.iter().find(|l| l.id == "vision_speed").expect("speed line");
        assert!(speed.formula.contains("× 0.678") && speed.formula.contains(words), "{}", speed.formula);
    }
    let json = gpu_planner::domain::json::write(&s, false).expect("json");
    assert!(json.contains("\"memory_format\":\"nchw\""), "{json}");
    let back: Scenario = gpu_planner::domain::json::parse(&json).expect("parse");
    assert_eq!(back.vision.memory_format, Some(MemoryFormat::Nchw));
    let link = gpu_planner::domain::share::encode(&s);
    assert_eq!(
        gpu_planner::domain::share::decode(&link).expect("decode").vision.memory_format,
        Some(MemoryFormat::Nchw)
    );
    assert!(gpu_planner::domain::json::parse::<Scenario>(&json.replace("\"nchw\"", "\"nhcw\"")).is_err());
}
