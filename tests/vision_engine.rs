//! The software a vision job runs on (issue 28 item 5). The same model on the same card runs at
//! different speeds on PyTorch eager, TensorFlow + XLA or TensorRT, and vision.json holds rows of
//! several: NVIDIA publishes ResNet-50 training on an A100 40GB SXM4 under TensorFlow 1.15, XLA
//! and DALI (2,375 img/s, AMP, batch 256) and under PyTorch + DALI on an A100 80GB SXM4 (2,470
//! img/s, NHWC). A job that names its engine takes that engine's rows first, even from another
//! card; one that does not takes the nearest row as before.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use common::assert_close;
use gpu_planner::domain::explain::explain;
use gpu_planner::domain::format::Lang;
use gpu_planner::domain::scenario::{CardFilter, Precision, Task, VisionJob};
use gpu_planner::domain::vision::{self, Engine};
use gpu_planner::domain::{Catalog, Scenario};

fn job(model: &str, task: Task, engine: Option<Engine>, gpu: &str) -> Scenario {
    Scenario {
        model: model.into(),
        task,
        precision: Precision::Fp16,
        vision: VisionJob { batch: 256, engine, ..VisionJob::default() },
        cards: CardFilter { only: vec![gpu.into()], ..CardFilter::default() },
        ..Scenario::default()
    }
}

fn speed(s: &Scenario, gpu: &str) -> vision::Speed {
    let m = vision::model(&s.model).expect("model");
    let g = Catalog::embedded().gpu(gpu).expect("card");
    vision::speed(m, s, g, Catalog::embedded()).expect("speed")
}

/// The engines a job can choose are those its model's rows for the task ran on.
#[test]
fn a_job_chooses_among_the_engines_its_model_was_measured_on() {
    let of = |id: &str, t: Task| vision::engines(vision::model(id).expect("model"), t);
    assert_eq!(of("resnet50", Task::FullFinetune), vec![Engine::Pytorch, Engine::Tensorflow]);
    assert_eq!(of("yolov8s", Task::Inference), vec![Engine::Tensorrt]);
    assert_eq!(of("pp-ocrv5-server-det", Task::Inference), vec![Engine::Paddle]);
    assert_eq!(of("whisper-large-v2", Task::Inference), vec![Engine::Ctranslate2]);
}

/// On the A100 40GB SXM4: no engine named keeps the card's own TensorFlow row (2,375 img/s as
/// published); TensorFlow named, the same; PyTorch named, NVIDIA's PyTorch row of the A100 80GB
/// SXM4 (2,470 img/s) carried by the two cards' ratio, and the basis says so.
#[test]
fn a_named_engine_takes_its_own_rows_first() {
    let gpu = "a100-40gb-sxm4";
    for e in [None, Some(Engine::Tensorflow)] {
        let sp = speed(&job("resnet50", Task::FullFinetune, e, gpu), gpu);
        assert_close(sp.per_card, 2375.0, 1e-12);
        assert_eq!((sp.basis.card.as_str(), sp.basis.engine), (gpu, Some(Engine::Tensorflow)));
    }
    let sp = speed(&job("resnet50", Task::FullFinetune, Some(Engine::Pytorch), gpu), gpu);
    assert_eq!((sp.basis.card.as_str(), sp.basis.engine), ("a100-80gb-sxm4", Some(Engine::Pytorch)));
    assert_close(sp.per_card, 2470.0 * sp.basis.ratio, 1e-12);
    assert!(sp.basis.ratio < 1.0, "the 40 GB card has the lower bandwidth: {}", sp.basis.ratio);
}

/// A card measured under both engines keeps each engine's largest batch: NVIDIA's V100 16 GB
/// trained ResNet-50 in fp32 at batch 112 under PyTorch (367 img/s) and at batch 128 under
/// TensorFlow (412 img/s); a PyTorch job on that card takes the PyTorch row, not a PyTorch row
/// of another card because the TensorFlow row's larger batch hid it.
#[test]
fn each_engine_keeps_its_largest_batch_on_a_card() {
    let mut g = Catalog::embedded().gpu("v100-sxm2-32gb").expect("card").clone();
    g.id = "V100-SXM2-16GB".into();
    let mut s = job("resnet50", Task::FullFinetune, Some(Engine::Pytorch), "v100-sxm2-32gb");
    s.precision = Precision::Fp32;
    let m = vision::model("resnet50").expect("model");
    let sp = vision::speed(m, &s, &g, Catalog::embedded()).expect("speed");
    assert_eq!((sp.basis.card.as_str(), sp.basis.engine), ("V100-SXM2-16GB", Some(Engine::Pytorch)));
    assert_close(sp.per_card, 367.0, 1e-12);
    s.vision.engine = Some(Engine::Tensorflow);
    assert_close(vision::speed(m, &s, &g, Catalog::embedded()).expect("speed").per_card, 412.0, 1e-12);
}

/// With no row of the named engine, the nearest row of another still answers, and the
/// explanation says which engine it ran on and that the named one has no figure, in both
/// languages; the choice travels in the JSON and the share link, and an unknown name is refused.
#[test]
fn a_missing_engine_is_said_and_the_choice_travels() {
    let s = job("yolov8s", Task::Inference, Some(Engine::Pytorch), "l4");
    let r = gpu_planner::domain::report::report(&s, Catalog::embedded()).expect("report");
    let v = &r.cards[0];
    let basis = &v.vision.as_ref().expect("figures").basis;
    assert_eq!(basis.engine, Some(Engine::Tensorrt));
    for (lang, words) in [
        (Lang::En, "with TensorRT (no PyTorch figure of this model for the job)"),
        (Lang::Zh, "，TensorRT（该模型没有此任务的 PyTorch 实测）"),
    ] {
        let lines = explain(&s, Catalog::embedded(), v, lang);
        let speed = lines.iter().find(|l| l.id == "vision_speed").expect("speed line");
        assert!(speed.formula.contains(words), "{}", speed.formula);
    }
    let json = gpu_planner::domain::json::write(&s, false).expect("json");
    assert!(json.contains("\"engine\":\"pytorch\""), "{json}");
    let back: Scenario = gpu_planner::domain::json::parse(&json).expect("parse");
    assert_eq!(back.vision.engine, Some(Engine::Pytorch));
    let link = gpu_planner::domain::share::encode(&s);
    assert_eq!(gpu_planner::domain::share::decode(&link).expect("decode").vision.engine, Some(Engine::Pytorch));
    assert!(gpu_planner::domain::json::parse::<Scenario>(&json.replace("\"pytorch\"", "\"mxnet\"")).is_err());
}
