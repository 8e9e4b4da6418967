//! "How this was computed" shows the same figures as the report, with the inputs in the formula.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::report;
use gpu_planner::domain::explain::{explain, rent_vs_buy_formulas};
use gpu_planner::domain::format::{self, Lang};
use gpu_planner::domain::scenario::{Ownership, Task};
use gpu_planner::domain::{Catalog, Scenario};

#[test]
fn card_explanations_match_the_report_figures() {
    for task in [Task::FullFinetune, Task::Lora, Task::Inference] {
        let s = Scenario { task, ..Scenario::default() };
        let r = report(&s);
        let v = &r.cards[0];
        let lines = explain(&s, Catalog::embedded(), v, Lang::En);
        let find = |id: &str| lines.iter().find(|e| e.id == id).map(|e| e.result.clone());
        assert_eq!(find("weights"), Some(format::gib(v.memory.weights)), "{task:?}");
        assert_eq!(find("overhead"), Some(format::gib(v.memory.overhead)), "{task:?}");
        if task.is_training() {
            assert_eq!(find("activations"), Some(format::gib(v.memory.activations)));
            assert!(lines.iter().any(|e| e.id == "activations" && e.formula.contains("s=4096")));
        } else {
            assert_eq!(find("kv_cache"), Some(format::gib(v.memory.kv_cache)));
        }
        assert!(lines.iter().all(|e| !e.source.is_empty() && !e.label(Lang::Zh).is_empty()));
    }
}

#[test]
fn rent_vs_buy_formulas_carry_the_inputs() {
    let s = Scenario {
        ownership: Ownership { rent_hourly: Some(12.0), ..Ownership::seed_a100_server() },
        ..Scenario::default()
    };
    let rvb = report(&s).rent_vs_buy.unwrap_or_else(|| panic!("rvb"));
    let f = rent_vs_buy_formulas(&s, &rvb, Lang::En);
    assert!(f[1].contains("¥68,750"), "{}", f[1]);
    assert!(f[3].contains(&format!("PUE {}", s.ownership.pue)), "{}", f[3]);
}

/// The bytes per parameter a training line prints, times this GPU's Ψ/(tp·pp), give back the
/// figure beside it (the QLoRA line once said "2 B × Ψ" beside 18.8 GiB). Checked for every
/// framework and training task.
#[test]
fn printed_bytes_per_parameter_reproduce_the_figures() {
    use gpu_planner::domain::framework::Framework;
    for framework in Framework::ALL {
        for task in [Task::Pretrain, Task::FullFinetune, Task::Lora, Task::Qlora] {
            let mut s = Scenario { task, ..Scenario::default() };
            s.training.set_framework(framework);
            let r = report(&s);
            // The best card whose weights are not ZeRO-3 sharded (that line, "/ dp N" plus the
            // gathered layers, is evaluated by `training_formulas_evaluate_to_their_figures`).
            let v = r
                .cards
                .iter()
                .find(|v| v.fits && v.layout.zero < 3)
                .unwrap_or_else(|| panic!("{framework:?} {task:?}"));
            let psi_gpu = r.params / f64::from(v.layout.tp * v.layout.pp);
            let lines = explain(&s, Catalog::embedded(), v, Lang::En);
            let leading = |id: &str| -> f64 {
                let e = lines.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id} line"));
                e.formula.split(" B").next().and_then(|x| x.parse().ok()).unwrap_or_else(|| panic!("{}", e.formula))
            };
            let close = |printed: f64, bytes: f64| (printed * psi_gpu - bytes).abs() <= 0.0005 * psi_gpu + 1e-9 * bytes;
            assert!(close(leading("weights"), v.memory.weights), "{framework:?} {task:?} weights");
            if matches!(task, Task::Pretrain | Task::FullFinetune) {
                assert!(close(leading("gradients"), v.memory.gradients), "{framework:?} {task:?} gradients");
                assert!(close(leading("optimizer"), v.memory.optimizer), "{framework:?} {task:?} optimizer");
                assert!(close(leading("master"), v.memory.master_weights), "{framework:?} {task:?} master");
            }
            let fw = lines.iter().find(|e| e.id == "framework").unwrap_or_else(|| panic!("framework line"));
            let states = v.memory.weights + v.memory.gradients + v.memory.optimizer + v.memory.master_weights;
            assert_eq!(fw.result, format::gib(states + v.memory.buffers));
        }
    }
}

/// The predicted MFU is shown with its factors, and their product is the MFU the time uses.
#[test]
fn mfu_line_shows_factors_whose_product_is_the_mfu() {
    let r = report(&Scenario::default());
    let v = &r.cards[0];
    let u = v.utilisation.as_ref().unwrap_or_else(|| panic!("training has an MFU"));
    let product = u.kernel * u.pipeline * u.recompute * u.communication * u.offload;
    assert!((product - v.mfu).abs() < 1e-12, "{product} vs {}", v.mfu);
    let lines = explain(&Scenario::default(), Catalog::embedded(), v, Lang::En);
    let e = lines.iter().find(|e| e.id == "mfu").unwrap_or_else(|| panic!("mfu line"));
    assert!(
        e.formula.contains(&format!("kernel {:.2}", u.kernel)) && e.formula.contains("communication"),
        "{}",
        e.formula
    );
    assert_eq!(e.result, format!("{:.1}%", v.mfu * 100.0));
}

/// An MoE step's all-to-all is named with its seconds in the MFU line, in both languages, and a
/// dense step's is not: Mixtral 8x7B with EP 8 on 16 H100s (the group spans two servers).
#[test]
fn the_mfu_line_names_the_moe_all_to_all() {
    use gpu_planner::domain::scenario::Parallel;
    let mut s = Scenario { model: "mixtral-8x7b".into(), task: Task::Pretrain, ..Scenario::default() };
    s.parallel = Parallel {
        auto: false,
        gpus: 16,
        tp: 1,
        pp: 1,
        ep: 8,
        zero: 1,
        recompute: gpu_planner::domain::scenario::Recompute::Full,
        ..s.parallel.clone()
    };
    let r = report(&s);
    let v = r.cards.iter().find(|v| v.gpu == "h100-sxm").unwrap_or_else(|| panic!("h100"));
    let u = v.utilisation.as_ref().unwrap_or_else(|| panic!("training has an MFU"));
    assert!(u.comm.ep_s > 0.0, "{:?}", u.comm);
    let line = |lang| {
        let lines = explain(&s, Catalog::embedded(), v, lang);
        lines.into_iter().find(|e| e.id == "mfu").unwrap_or_else(|| panic!("mfu line")).formula
    };
    let (en, zh) = (line(Lang::En), line(Lang::Zh));
    assert!(en.contains(&format!("EP all-to-all {:.3} s", u.comm.ep_s)), "{en}");
    assert!(zh.contains(&format!("EP 全对全 {:.3} s", u.comm.ep_s)), "{zh}");
    // The data-parallel traffic hidden behind the backward pass slows it (comms::contended).
    assert!(u.comm.contended_s > 0.0, "{:?}", u.comm);
    assert!(en.contains(&format!("hidden traffic slows the compute beside it by {:.3} s", u.comm.contended_s)), "{en}");
    assert!(zh.contains(&format!("被掩盖的通信使同时运行的计算慢了 {:.3} s", u.comm.contended_s)), "{zh}");
    // Mixtral's experts are whole on each card here (EP, no TP): they run at the dense share and
    // the line names no expert factor. Split over 8 tensor-parallel ranks they are 1,792 wide
    // and slower (compute.rs expert_time_ratio): the factor is printed, and the product of the
    // kernel's parts is still the kernel.
    assert!((u.experts - 1.0).abs() < 1e-12 && !en.contains("expert GEMMs"), "{en}");
    let mut narrow = s.clone();
    narrow.parallel.tp = 8;
    narrow.parallel.ep = 1;
    let r = report(&narrow);
    let v = r.cards.iter().find(|v| v.gpu == "h100-sxm").unwrap_or_else(|| panic!("h100"));
    let u = v.utilisation.as_ref().unwrap_or_else(|| panic!("training has an MFU"));
    assert!(u.experts > 1.05, "{}", u.experts);
    let lines = explain(&narrow, Catalog::embedded(), v, Lang::En);
    let f = &lines.iter().find(|e| e.id == "mfu").unwrap_or_else(|| panic!("mfu line")).formula;
    assert!(f.contains(&format!(" / expert GEMMs {:.3})", u.experts)), "{f}");
    let gemms = after(f, "(GEMMs ").unwrap_or(0.0);
    let kernel = gemms / ((1.0 + u.elementwise) * u.attention * u.experts);
    assert!((kernel - u.kernel).abs() < 0.006, "{kernel} vs {}", u.kernel);
    let lines = explain(&narrow, Catalog::embedded(), v, Lang::Zh);
    let f = &lines.iter().find(|e| e.id == "mfu").unwrap_or_else(|| panic!("mfu line")).formula;
    assert!(f.contains(&format!(" / 专家矩阵乘 {:.3})", u.experts)), "{f}");
    // Context parallelism 2 adds its ring.
    let mut ring = s.clone();
    ring.parallel.cp = 2;
    let r = report(&ring);
    let v = r.cards.iter().find(|v| v.gpu == "h100-sxm").unwrap_or_else(|| panic!("h100"));
    let c = &v.utilisation.as_ref().unwrap_or_else(|| panic!("mfu")).comm;
    let lines = explain(&ring, Catalog::embedded(), v, Lang::En);
    let f = &lines.iter().find(|e| e.id == "mfu").unwrap_or_else(|| panic!("mfu line")).formula;
    assert!(c.cp_s > 0.0 && f.contains(&format!("CP ring {:.3} s", c.cp_s)), "{f}");
    let dense = report(&Scenario::default());
    let d = &dense.cards[0];
    let plain = explain(&Scenario::default(), Catalog::embedded(), d, Lang::En);
    let mfu = plain.iter().find(|e| e.id == "mfu").unwrap_or_else(|| panic!("mfu line"));
    assert!(!mfu.formula.contains("all-to-all") && !mfu.formula.contains("CP ring"), "{}", mfu.formula);
}

/// The number after `key` in `text` ("/ dp 4" → 4).
fn after(text: &str, key: &str) -> Option<f64> {
    let rest = &text[text.find(key)? + key.len()..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// A state line, "c B × Ψ/(tp·pp) [/ dp·cp N | / dp N] …", evaluated.
fn evaluate_states(formula: &str, psi_gpu: f64) -> f64 {
    let c: f64 = formula.split(" B").next().and_then(|x| x.parse().ok()).unwrap_or_else(|| panic!("{formula}"));
    let ranks = after(formula, "/ dp·cp ").or_else(|| after(formula, "/ dp ")).unwrap_or(1.0);
    c * psi_gpu / ranks
}

/// The activation line evaluated: per layer (or per layer input) × layers × in flight, plus the
/// working set of one recomputed layer, / cp.
fn evaluate_activations(formula: &str) -> f64 {
    let mib = 1_048_576.0;
    let per = after(formula, "= ").unwrap_or_else(|| panic!("{formula}")) * mib;
    let layers = after(formula, "MiB × ").unwrap_or_else(|| panic!("{formula}"));
    let in_flight = after(formula, "layers × ").unwrap_or_else(|| panic!("{formula}"));
    let working = after(formula, "working set ").map_or(0.0, |w| w * mib);
    let cp = after(formula, "/ cp ").unwrap_or(1.0);
    let encoder = after(formula, "cross-attention over them ").map_or(0.0, |e| e * mib);
    // Partial recompute: "+ N layers not recomputed × X MiB × in flight".
    let kept = formula.find(" layers not recomputed × ").map_or(0.0, |i| {
        let n: f64 =
            formula[..i].rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{formula}"));
        n * after(formula, "layers not recomputed × ").unwrap_or_else(|| panic!("{formula}")) * mib * in_flight
    });
    (per * layers * in_flight + kept + working) / cp + encoder
}

/// The printed formulas evaluate to the figures beside them under data parallelism with every
/// ZeRO stage, context parallelism and each recompute setting: the coefficient of a sharded term
/// is the unsharded one, divided once by the ranks (it was once divided twice: "3.000 B ×
/// Ψ/(2·1) / dp 4" beside 45.4 GiB), and full recompute prints what it keeps.
#[test]
fn training_formulas_evaluate_to_their_figures() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::scenario::{Parallel, Recompute};
    let gib = |x: f64| x / 1_073_741_824.0;
    let mut checked = 0;
    for framework in [Framework::DeepSpeed, Framework::Megatron, Framework::Fsdp] {
        for zero in 0..=3u8 {
            for (recompute, cp, op_sac) in [
                (Recompute::None, 1, false),
                (Recompute::Selective, 2, false),
                (Recompute::Full, 1, false),
                (Recompute::Selective, 1, true),
            ] {
                let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
                s.training.set_framework(framework);
                s.training.conventions.op_sac = op_sac;
                s.training.global_batch = 64;
                s.parallel =
                    Parallel { auto: false, gpus: 16, tp: 2, pp: 1, zero, recompute, cp, ..Parallel::default() };
                let r = report(&s);
                let v = &r.cards[0];
                assert_eq!((v.layout.zero, v.layout.cp, v.layout.recompute), (zero, cp, recompute), "layout kept");
                let psi_gpu = r.params / f64::from(v.layout.tp * v.layout.pp);
                let lines = explain(&s, Catalog::embedded(), v, Lang::En);
                let formula =
                    |id: &str| lines.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id} line")).formula.clone();
                let b = &v.memory;
                for (id, value) in [
                    ("weights", b.weights),
                    ("gradients", b.gradients),
                    ("optimizer", b.optimizer),
                    ("master", b.master_weights),
                ] {
                    let got = evaluate_states(&formula(id), psi_gpu);
                    assert!(
                        (gib(got) - gib(value)).abs() <= 0.0005 * gib(psi_gpu) + 0.005,
                        "{framework:?} ZeRO {zero} {id}: `{}` = {:.2} GiB beside {:.2} GiB",
                        formula(id),
                        gib(got),
                        gib(value)
                    );
                }
                let a = formula("activations");
                let got = evaluate_activations(&a);
                assert!(
                    (got / b.activations - 1.0).abs() < 0.002,
                    "{framework:?} {recompute:?}: `{a}` = {got} beside {}",
                    b.activations
                );
                assert_eq!(a.contains("full recompute"), recompute == Recompute::Full, "{a}");
                assert_eq!(a.contains("op-level"), op_sac, "{a}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 48);
    // An encoder–decoder model adds its encoder's term.
    let s = Scenario { task: Task::FullFinetune, model: "flan-t5-large".into(), ..Scenario::default() };
    let v = report(&s).cards[0].clone();
    let lines = explain(&s, Catalog::embedded(), &v, Lang::En);
    let a = lines.iter().find(|e| e.id == "activations").map(|e| e.formula.clone()).unwrap_or_default();
    assert!((evaluate_activations(&a) / v.memory.activations - 1.0).abs() < 0.002, "{a}");
}

/// A vision run's time line evaluates to the time: steps = samples × epochs / (cards × batch),
/// each a batch time plus the exposed all-reduce, over the stated goodput (it once divided the
/// samples by the batch time, which is not a time). With goodput stated at 100% nothing else
/// enters.
#[test]
fn the_vision_time_formula_evaluates_to_the_time() {
    let mut s = Scenario { task: Task::FullFinetune, model: "resnet50".into(), ..Scenario::default() };
    s.cards.only = vec!["a100-80gb-sxm4".into()];
    // Four 8-card servers on 10 Gb/s Ethernet: ResNet-50's 102 MB of fp32 gradients take
    // ~0.16 s per step, far more than the backward pass hides.
    s.parallel.gpus = 32;
    s.infra.fabric_gbit_per_gpu = 10.0;
    s.efficiency.goodput = Some(1.0);
    let r = report(&s);
    let v = &r.cards[0];
    let hours = v.hours.unwrap_or_else(|| panic!("timed"));
    let lines = explain(&s, Catalog::embedded(), v, Lang::En);
    let f = lines.iter().find(|e| e.id == "vision_time").map(|e| e.formula.clone()).unwrap_or_default();
    let num = |key: &str| after(&f.replace(',', ""), key).unwrap_or_else(|| panic!("{key} in {f}"));
    let (samples, epochs, cards, batch) = (num(""), num("samples × "), num("÷ ("), num("× batch "));
    let steps = num(") = ");
    assert!((steps - samples * epochs / (cards * batch)).abs() <= 1.0, "{f}");
    let step_s = num("batch time ") + num("exposed all-reduce ");
    assert!((steps * step_s / 3600.0 / hours - 1.0).abs() < 0.01, "{f} against {hours} h");
    assert!(num("exposed all-reduce ") > 0.0, "the network's share shows: {f}");
}

/// A ZeRO-sharded term prints the dp·cp ranks it is divided by — the layout's own, only when
/// they are more than one, and only for the sharded terms — and the framework line prints this
/// GPU's share Ψ/(tp·pp). (Every printed formula also evaluates to its figure, tested above;
/// these hold what it prints, which a self-consistent but wrong rank count would pass.)
#[test]
fn sharded_terms_print_the_ranks_they_divide_by() {
    use gpu_planner::domain::scenario::Parallel;
    for (gpus, tp, pp, cp) in [(16, 2, 1, 1), (16, 2, 1, 2), (16, 2, 2, 1), (2, 2, 1, 1)] {
        let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
        s.training.global_batch = 64;
        s.parallel = Parallel { auto: false, gpus, tp, pp, zero: 1, cp, ..Parallel::default() };
        let r = report(&s);
        let v = &r.cards[0];
        assert_eq!((v.layout.tp, v.layout.pp, v.layout.cp), (tp, pp, cp), "layout kept");
        let lines = explain(&s, Catalog::embedded(), v, Lang::En);
        let formula =
            |id: &str| lines.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id} line")).formula.clone();
        let ranks = v.layout.dp * v.layout.cp;
        let optimizer = formula("optimizer");
        let printed = after(&optimizer, "/ dp·cp ").or_else(|| after(&optimizer, "/ dp "));
        if ranks > 1 {
            assert_eq!(printed, Some(f64::from(ranks)), "ZeRO-1 optimizer over {ranks} ranks: `{optimizer}`");
            assert_eq!(optimizer.contains("dp·cp"), cp > 1, "{optimizer}");
        } else {
            assert_eq!(printed, None, "one rank, nothing to divide: `{optimizer}`");
        }
        assert!(!formula("weights").contains("/ dp"), "ZeRO-1 keeps whole weights: `{}`", formula("weights"));
        assert!(!formula("gradients").contains("/ dp"), "ZeRO-1 keeps whole gradients: `{}`", formula("gradients"));
        let psi_gpu = r.params / f64::from(tp * pp);
        assert!(
            formula("framework").contains(&format!("= {psi_gpu:.3e}")),
            "Ψ/(tp·pp) = {psi_gpu:.3e}: {}",
            formula("framework")
        );
        assert!(formula("weights").contains(&format!("Ψ/({tp}·{pp})")), "{}", formula("weights"));
    }
}

/// A custom card (not in the catalog) gets its training-time lines, worked from its own peak.
#[test]
fn a_custom_cards_plan_is_explained_with_its_own_peak() {
    let catalog = Catalog::embedded();
    let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
    let mut mine = catalog.gpu("h100-sxm").unwrap_or_else(|| panic!("h100")).clone();
    mine.id = "our-card".into();
    mine.name = "Our card".into();
    s.custom_gpus.push(mine);
    s.cards.only = vec!["our-card".into()];
    let r = report(&s);
    let v = r.cards.iter().find(|c| c.gpu == "our-card").unwrap_or_else(|| panic!("custom card planned"));
    for l in [Lang::En, Lang::Zh] {
        let lines = explain(&s, catalog, v, l);
        assert!(lines.iter().any(|e| e.id == "flops"), "{l:?}: {:?}", lines.iter().map(|e| &e.id).collect::<Vec<_>>());
    }
    // A vision job on 16 of them is explained as on the catalog card it copies (the exposed
    // all-reduce over its links included).
    let mut vs = s.clone();
    vs.model = "vit-h14".into();
    vs.parallel.gpus = 16;
    let formulas = |sc: &Scenario, id: &str| {
        let r = report(sc);
        let v = r.cards.iter().find(|c| c.gpu == id).unwrap_or_else(|| panic!("{id} planned")).clone();
        explain(sc, catalog, &v, Lang::En)
            .into_iter()
            .map(|e| (e.id, e.formula.replace("Our card", "H100 SXM")))
            .collect::<Vec<_>>()
    };
    let mut catalog_card = vs.clone();
    catalog_card.custom_gpus.clear();
    catalog_card.cards.only = vec!["h100-sxm".into()];
    let (ours, theirs) = (formulas(&vs, "our-card"), formulas(&catalog_card, "h100-sxm"));
    assert!(ours.iter().any(|(id, f)| *id == "vision_time" && !f.contains("all-reduce 0.0000 s")), "{ours:?}");
    assert_eq!(ours, theirs);
}

/// The framework line's figure is the sum of the five terms it names (buffers included, which
/// DeepSpeed's ZeRO-3 has); a LoRA plan explains its adapters with their own states; the
/// activation line prints the bytes factor only when activations are not 16-bit.
#[test]
fn state_lines_name_what_their_figures_hold() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::scenario::{Parallel, Precision};
    let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
    s.training.set_framework(Framework::DeepSpeed);
    s.parallel = Parallel { auto: false, gpus: 8, zero: 3, ..Parallel::default() };
    let v = report(&s).cards[0].clone();
    let b = &v.memory;
    assert!(b.buffers > 0.0, "ZeRO-3 buffers");
    let lines = explain(&s, Catalog::embedded(), &v, Lang::En);
    let find = |id: &str| lines.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id} line")).clone();
    assert_eq!(
        find("framework").result,
        format::gib(b.weights + b.gradients + b.optimizer + b.master_weights + b.buffers)
    );
    assert!(!find("activations").formula.contains(" × 2 B"), "16-bit activations: {}", find("activations").formula);

    let lora = Scenario { task: Task::Lora, ..Scenario::default() };
    let v = report(&lora).cards[0].clone();
    let lines = explain(&lora, Catalog::embedded(), &v, Lang::En);
    let adapters = lines.iter().find(|e| e.id == "adapters").unwrap_or_else(|| panic!("adapters line"));
    assert_eq!(adapters.result, format::gib(v.memory.gradients + v.memory.optimizer + v.memory.master_weights));
    assert!(adapters.formula.starts_with(&format!("r {} ×", lora.lora.rank)), "{}", adapters.formula);

    let mut fp32 = Scenario { task: Task::FullFinetune, precision: Precision::Fp32, ..Scenario::default() };
    fp32.parallel = Parallel { auto: false, gpus: 8, zero: 3, ..Parallel::default() };
    let v = report(&fp32).cards[0].clone();
    let a = explain(&fp32, Catalog::embedded(), &v, Lang::En).into_iter().find(|e| e.id == "activations");
    let a = a.unwrap_or_else(|| panic!("activations line")).formula;
    assert!(a.contains(" × 2 B"), "fp32 activations are twice the 16-bit bytes: {a}");
}

/// Each line speaks the page's language: its label and its words (the CUDA context line's
/// source, the price line's) are the Chinese ones on a Chinese page and the English ones
/// otherwise.
#[test]
fn labels_and_sources_follow_the_page_language() {
    let cjk = |t: &str| t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    let s = Scenario::default();
    let v = report(&s).cards[0].clone();
    for lang in [Lang::En, Lang::Zh] {
        let lines = explain(&s, Catalog::embedded(), &v, lang);
        assert!(lines.len() > 5);
        for e in &lines {
            assert_eq!(e.label(Lang::Zh), e.label_zh);
            assert_eq!(e.label(Lang::En), e.label_en);
            assert!(cjk(e.label_zh) && !cjk(e.label_en), "{} / {}", e.label_en, e.label_zh);
        }
        let overhead = lines.iter().find(|e| e.id == "overhead").unwrap_or_else(|| panic!("overhead line"));
        assert_eq!(cjk(&overhead.source), lang == Lang::Zh, "{}", overhead.source);
    }
}

/// Which state lines divide by the data-parallel ranks follows the ZeRO stage and the
/// framework's conventions: ZeRO-0 divides nothing (not even the master weights); ZeRO-1 the
/// optimizer and master weights; ZeRO-2 also the gradients, unless the framework keeps them
/// whole (`zero2_full_grads`), steps the optimizer in the backward (no gradient kept) or keeps an
/// fp32 gradient partition beside 16-bit gradients at ZeRO-3. Every line still evaluates to its
/// figure.
#[test]
fn the_sharded_lines_follow_the_stage_and_the_conventions() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::scenario::Parallel;
    let divides = |f: &str| f.contains("/ dp");
    for zero in 0..=3u8 {
        for variant in 0..4 {
            let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
            s.training.set_framework(Framework::Custom);
            s.training.global_batch = 64;
            // One convention at a time, the others off (variant 0: none).
            let c = &mut s.training.conventions;
            c.zero2_full_grads = variant == 1;
            c.optimizer_in_backward = variant == 2;
            c.fp32_grad_partition = variant == 3;
            let c = s.training.conventions;
            s.parallel = Parallel { auto: false, gpus: 8, tp: 1, pp: 1, zero, ..Parallel::default() };
            let r = report(&s);
            let v = &r.cards[0];
            assert_eq!((v.layout.zero, v.layout.dp), (zero, 8), "layout kept");
            let lines = explain(&s, Catalog::embedded(), v, Lang::En);
            let formula =
                |id: &str| lines.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id} line")).formula.clone();
            let what = format!("ZeRO {zero}, variant {variant}");
            assert_eq!(divides(&formula("master")), zero >= 1, "{what}: {}", formula("master"));
            assert_eq!(divides(&formula("optimizer")), zero >= 1, "{what}: {}", formula("optimizer"));
            let grads = zero >= 2
                && !(zero == 2 && c.zero2_full_grads)
                && !(c.optimizer_in_backward || (zero >= 3 && c.fp32_grad_partition));
            assert_eq!(divides(&formula("gradients")), grads, "{what}: {}", formula("gradients"));
            let got = evaluate_states(&formula("gradients"), r.params);
            let gib = |x: f64| x / 1_073_741_824.0;
            assert!(
                (gib(got) - gib(v.memory.gradients)).abs() <= 0.0005 * gib(r.params) + 0.005,
                "{what}: `{}` = {:.2} GiB beside {:.2} GiB",
                formula("gradients"),
                gib(got),
                gib(v.memory.gradients)
            );
        }
    }
}

/// The buffers line is there when the plan has buffers and only then; the activation line
/// prints a bytes factor only off 16 bits and splits "norms and GEMM inputs whole" out only
/// under tensor parallelism without sequence parallelism.
#[test]
fn optional_words_appear_only_when_they_apply() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::scenario::Parallel;
    let mut seen = (false, false);
    for (framework, tp, sp) in [
        (Framework::DeepSpeed, 1, false),
        (Framework::Megatron, 2, false),
        (Framework::Megatron, 2, true),
        (Framework::Megatron, 1, false),
    ] {
        let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
        s.training.set_framework(framework);
        s.training.conventions.sequence_parallel = sp;
        s.training.global_batch = 64;
        s.parallel = Parallel { auto: false, gpus: 8, tp, zero: 3, ..Parallel::default() };
        let v = report(&s).cards[0].clone();
        let lines = explain(&s, Catalog::embedded(), &v, Lang::En);
        let buffers = lines.iter().find(|e| e.id == "buffers");
        assert_eq!(buffers.is_some(), v.memory.buffers > 0.0, "{framework:?}: {} B of buffers", v.memory.buffers);
        seen = (seen.0 || buffers.is_some(), seen.1 || buffers.is_none());
        if let Some(b) = buffers {
            assert_eq!(b.result, format::gib(v.memory.buffers));
        }
        let a = lines.iter().find(|e| e.id == "activations").unwrap_or_else(|| panic!("activations")).formula.clone();
        assert!(a.contains("ffn) B") || a.contains("·2 B"), "16-bit, no bytes factor: {a}");
        assert_eq!(a.contains("norms and GEMM inputs whole"), tp > 1 && !sp, "tp {tp}, sp {sp}: {a}");
    }
    assert_eq!(seen, (true, true), "plans with and without buffers");
}

fn has_cjk(t: &str) -> bool {
    t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// An English page's explanations carry no Chinese and a Chinese page's do, for language
/// models (training and serving), vision training and serving, and the rent-or-buy formulas.
#[test]
fn explanations_are_in_the_page_language() {
    use gpu_planner::domain::explain::{bridge_formula, hybrid_formula};
    let cases = [
        Scenario { task: Task::FullFinetune, ..Scenario::default() },
        Scenario { task: Task::Inference, ..Scenario::default() },
        Scenario { model: "yolov8x".into(), task: Task::FullFinetune, ..Scenario::default() },
        Scenario { model: "yolov8x".into(), task: Task::Inference, ..Scenario::default() },
        Scenario { model: "resnet50".into(), task: Task::FullFinetune, ..Scenario::default() },
    ];
    for s in cases {
        let r = report(&s);
        // A card whose figure is carried from another card's measurement, and the first card.
        for v in r.cards.iter().filter(|v| v.fits).take(3) {
            let en = explain(&s, Catalog::embedded(), v, Lang::En);
            let zh = explain(&s, Catalog::embedded(), v, Lang::Zh);
            assert!(en.len() >= 3 && en.len() == zh.len(), "{} {:?}", s.model, s.task);
            for e in &en {
                assert!(!has_cjk(&e.formula) && !has_cjk(&e.source), "{} on {}: {e:?}", s.model, v.gpu);
            }
            let chinese = zh.iter().filter(|e| has_cjk(&e.formula) || has_cjk(&e.source)).count();
            assert!(chinese * 2 >= zh.len(), "{} on {}: {chinese} of {} lines in Chinese", s.model, v.gpu, zh.len());
            if gpu_planner::domain::vision::model(&s.model).is_some() {
                assert!(en.iter().any(|e| e.id == "vision_speed"), "{} speed line", s.model);
            }
        }
    }
    let s = Scenario { ownership: Ownership::seed_a100_server(), ..Scenario::default() };
    let rvb = report(&s).rent_vs_buy.unwrap_or_else(|| panic!("rent vs buy"));
    for f in rent_vs_buy_formulas(&s, &rvb, Lang::En)
        .iter()
        .chain([&bridge_formula(Lang::En).to_string(), &hybrid_formula(Lang::En).to_string()])
    {
        assert!(!f.is_empty() && !has_cjk(f), "{f}");
    }
    let zh = rent_vs_buy_formulas(&s, &rvb, Lang::Zh);
    assert!(zh.iter().filter(|f| has_cjk(f)).count() * 2 >= zh.len(), "{zh:?}");
    assert!(has_cjk(bridge_formula(Lang::Zh)) && has_cjk(hybrid_formula(Lang::Zh)));
    assert!(bridge_formula(Lang::En).contains("rent") && hybrid_formula(Lang::En).contains("argmin"));
}

/// The framework, the optimizer and the link the data-parallel gradients cross are named in the
/// lines that use them.
#[test]
fn lines_name_the_framework_the_optimizer_and_the_link() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::scenario::{CardFilter, Optimizer, Parallel};
    for (f, name) in [
        (Framework::Megatron, "Megatron-LM"),
        (Framework::DeepSpeed, "DeepSpeed ZeRO"),
        (Framework::Fsdp, "PyTorch FSDP"),
        (Framework::Torchtune, "torchtune"),
        (Framework::Custom, "custom switches"),
    ] {
        let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
        s.training.set_framework(f);
        let v = report(&s).cards[0].clone();
        let lines = explain(&s, Catalog::embedded(), &v, Lang::En);
        let fw = lines.iter().find(|e| e.id == "framework").unwrap_or_else(|| panic!("framework line"));
        assert!(fw.formula.starts_with(name), "{}", fw.formula);
    }
    for (o, name) in [
        (Optimizer::AdamW, "AdamW"),
        (Optimizer::AdamW8bit, "8-bit AdamW"),
        (Optimizer::SgdMomentum, "SGD with momentum"),
        (Optimizer::Sgd, "SGD"),
        (Optimizer::Adafactor, "Adafactor"),
    ] {
        let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
        s.training.optimizer = o;
        let v = report(&s).cards[0].clone();
        let lines = explain(&s, Catalog::embedded(), &v, Lang::En);
        let opt = lines.iter().find(|e| e.id == "optimizer").unwrap_or_else(|| panic!("optimizer line"));
        assert!(
            opt.formula.contains(&format!(" {name} ")) || opt.formula.contains(&format!("{name} ")),
            "{}",
            opt.formula
        );
    }
    // One H100 server: NVLink; two of them: the network; two RTX 4090s: PCIe without P2P.
    for (card, gpus, link) in
        [("h100-sxm", 8, "NVLink"), ("h100-sxm", 16, "the network between servers"), ("rtx-4090", 2, "PCIe (no P2P)")]
    {
        let mut s = Scenario { task: Task::Lora, ..Scenario::default() };
        s.cards = CardFilter { only: vec![card.into()], ..CardFilter::default() };
        s.training.global_batch = 64;
        s.parallel = Parallel { auto: false, gpus, ..Parallel::default() };
        let v = report(&s).cards[0].clone();
        assert_eq!(v.layout.dp, gpus, "{card}");
        let lines = explain(&s, Catalog::embedded(), &v, Lang::En);
        let mfu = lines.iter().find(|e| e.id == "mfu").unwrap_or_else(|| panic!("mfu line"));
        assert!(mfu.formula.contains(link), "{card} × {gpus}: {}", mfu.formula);
    }
}

/// The activation line under the settings the main sweep leaves out: eager attention (the
/// a·s²·b scores kept only without recompute), no context parallelism (no "/ cp"), Megatron's
/// partial recompute (the layers not recomputed listed, only when there are some), and the
/// op-level policy's bytes factor (none at 16 bits, × 2 at fp32) — each evaluated to its figure.
#[test]
fn activation_lines_evaluate_under_eager_attention_partial_recompute_and_op_sac() {
    use gpu_planner::domain::scenario::{Parallel, Precision, Recompute};
    let check = |s: &Scenario| {
        let v = report(s).cards[0].clone();
        let lines = explain(s, Catalog::embedded(), &v, Lang::En);
        let a = lines.iter().find(|e| e.id == "activations").unwrap_or_else(|| panic!("activations")).formula.clone();
        let got = evaluate_activations(&a);
        assert!((got / v.memory.activations - 1.0).abs() < 0.002, "`{a}` = {got} beside {}", v.memory.activations);
        assert_eq!(v.layout.cp, 1);
        assert!(!a.contains("/ cp"), "{a}");
        a
    };
    for recompute in [Recompute::None, Recompute::Selective] {
        let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
        s.training.flash_attention = false;
        s.parallel = Parallel { auto: false, gpus: 8, zero: 3, recompute, ..Parallel::default() };
        let a = check(&s);
        assert_eq!(a.contains("a·s²·b"), recompute == Recompute::None, "{a}");
    }
    for (some, want) in [(4, true), (0, false)] {
        let mut s = Scenario { task: Task::FullFinetune, ..Scenario::default() };
        s.parallel = Parallel { auto: false, gpus: 8, zero: 3, recompute: Recompute::Full, ..Parallel::default() };
        s.parallel.recompute_layers = some;
        let a = check(&s);
        assert_eq!(a.contains("layers not recomputed"), want, "{some}: {a}");
    }
    for (precision, factor) in [(Precision::Bf16, false), (Precision::Fp32, true)] {
        let mut s = Scenario { task: Task::FullFinetune, precision, ..Scenario::default() };
        s.training.conventions.op_sac = true;
        s.parallel = Parallel { auto: false, gpus: 8, zero: 3, recompute: Recompute::Selective, ..Parallel::default() };
        let a = check(&s);
        assert!(a.starts_with("op-level"), "{a}");
        assert_eq!(a.contains("ffn) × 2 B"), factor, "{a}");
        assert_eq!(a.contains("ffn) B"), !factor, "{a}");
    }
}

/// The adapters line sums the adapters' gradients, optimizer states and master weights — for
/// 16-bit adapters under mixed precision the master copy is not zero.
#[test]
fn the_adapters_line_sums_all_three_terms() {
    use gpu_planner::domain::framework::Framework;
    let mut masters = 0;
    for f in Framework::ALL {
        for fp32 in [true, false] {
            let mut s = Scenario { task: Task::Lora, ..Scenario::default() };
            s.training.set_framework(f);
            s.training.conventions.adapter_fp32 = fp32;
            let v = report(&s).cards[0].clone();
            let b = &v.memory;
            masters += usize::from(b.master_weights > 0.0);
            let lines = explain(&s, Catalog::embedded(), &v, Lang::En);
            let a = lines.iter().find(|e| e.id == "adapters").unwrap_or_else(|| panic!("adapters line"));
            assert_eq!(a.result, format::gib(b.gradients + b.optimizer + b.master_weights), "{f:?} fp32 {fp32}");
        }
    }
    assert!(masters > 0, "some LoRA plan keeps master weights");
}

/// A vision card's speed line says how the figure was carried only when it was: ResNet-50
/// inference on an RTX 4090 is measured there (timm's table), on an RTX 4080 SUPER it is carried.
#[test]
fn the_vision_speed_line_states_a_carry_only_when_there_is_one() {
    use gpu_planner::domain::scenario::CardFilter;
    for (card, carried) in [("rtx-4090", false), ("rtx-4080-super", true)] {
        let mut s = Scenario { model: "resnet50".into(), task: Task::Inference, ..Scenario::default() };
        s.precision = gpu_planner::domain::scenario::Precision::Fp16;
        s.cards = CardFilter { only: vec![card.into()], ..CardFilter::default() };
        let v = report(&s).cards[0].clone();
        let lines = explain(&s, Catalog::embedded(), &v, Lang::En);
        let sp = lines.iter().find(|e| e.id == "vision_speed").unwrap_or_else(|| panic!("speed line"));
        assert_eq!(sp.formula.contains("roofline"), carried, "{card}: {}", sp.formula);
    }
}

/// Serving SAM ViT-H with eager attention, the activations line shows the score tensors it is
/// sized by (3 × 16 heads × (1,024 / 16)² tokens squared × 2 B per image in bf16) and the
/// page's figure, in both languages; with fused attention it says where the measured figure
/// came from instead.
#[test]
fn the_activations_line_names_eager_attentions_scores() {
    let mut s = Scenario { model: "sam-vit-h-encoder".into(), task: Task::Inference, ..Scenario::default() };
    s.cards.only = vec!["a100-80gb-sxm4".into()];
    s.precision = gpu_planner::domain::scenario::Precision::Bf16;
    s.training.flash_attention = false;
    let r = report(&s);
    let v = &r.cards[0];
    let per = 3.0 * 16.0 * 4096f64.powi(2) * 2.0;
    let batch = v.vision.as_ref().map_or(0, |x| x.batch);
    assert!((v.memory.activations - per * f64::from(batch)).abs() < 1.0, "{}", v.memory.activations);
    let line = |lang| {
        explain(&s, Catalog::embedded(), v, lang).into_iter().find(|l| l.id == "vision_activations").expect("line")
    };
    let en = line(Lang::En);
    assert!(en.formula.contains("3 score tensors × 16 heads × 4096² × 2 B; tokens = (1024 / 16)²"), "{}", en.formula);
    assert_eq!(en.result, format::gib(v.memory.activations));
    assert!(line(Lang::Zh).formula.contains("非融合注意力：3 个分数张量 × 16 个头"), "{}", line(Lang::Zh).formula);
    s.training.flash_attention = true;
    let fused = report(&s);
    let l = explain(&s, Catalog::embedded(), &fused.cards[0], Lang::En);
    let f = l.iter().find(|l| l.id == "vision_activations").expect("line");
    assert!(f.formula.contains("from measured memory"), "{}", f.formula);
}

/// One card trains alone: no collective runs, so none slows the compute and the MFU line says
/// nothing about hidden traffic; eight cards in data parallel hide their gradient all-reduce
/// behind the backward pass and the line states what it costs.
#[test]
fn only_hidden_traffic_is_said_to_slow_the_compute() {
    use gpu_planner::domain::scenario::Parallel;
    let line = |gpus: u32, lang: Lang| {
        let mut s = Scenario { model: "llama-3.1-8b".into(), task: Task::Lora, ..Scenario::default() };
        s.parallel = Parallel { auto: false, gpus, tp: 1, pp: 1, zero: 1, ..Parallel::default() };
        let r = report(&s);
        let v = r.cards.iter().find(|v| v.gpu == "h100-sxm").unwrap_or_else(|| panic!("h100"));
        let c = v.utilisation.as_ref().unwrap_or_else(|| panic!("training has an MFU")).comm.clone();
        let lines = explain(&s, Catalog::embedded(), v, lang);
        (c, lines.into_iter().find(|e| e.id == "mfu").unwrap_or_else(|| panic!("mfu line")).formula)
    };
    for lang in [Lang::En, Lang::Zh] {
        let (alone, text) = line(1, lang);
        assert!(alone.contended_s.abs() < 1e-15 && alone.dp_s.abs() < 1e-15, "{alone:?}");
        assert!(!text.contains("hidden traffic") && !text.contains("被掩盖的通信"), "{text}");
        let (eight, text) = line(8, lang);
        assert!(eight.contended_s > 0.0, "{eight:?}");
        assert!(text.contains("hidden traffic") || text.contains("被掩盖的通信"), "{text}");
    }
}
