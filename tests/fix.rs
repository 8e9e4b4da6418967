//! "Cheapest fix": every suggestion really fixes the plan it claims to, cheapest first.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::report;
use gpu_planner::domain::fix::{fixes, works};
use gpu_planner::domain::scenario::{CardFilter, Parallel, Search, Task};
use gpu_planner::domain::{Catalog, Scenario};

fn check_all(s: &Scenario) -> usize {
    let fs = fixes(s, Catalog::embedded());
    for f in &fs {
        let r = report(&f.scenario);
        let v = r.cards.iter().find(|c| c.gpu == f.gpu).unwrap_or_else(|| panic!("{} not planned", f.gpu));
        assert!(works(&f.scenario, v), "fix `{}` does not work: {v:?}", f.en);
        assert_eq!(v.gpus, f.gpus, "{}", f.en);
        assert_eq!(v.cost, f.cost, "{}", f.en);
    }
    for w in fs.windows(2) {
        assert!(w[0].cost.unwrap_or(f64::INFINITY) <= w[1].cost.unwrap_or(f64::INFINITY), "cheapest first");
    }
    fs.len()
}

/// Latency targets of an internal tool: TTFT p50/p99 in seconds, TPOT p50/p99 in milliseconds.
fn relax(s: &mut Scenario, (ttft50, ttft99): (f64, f64), (tpot50, tpot99): (f64, f64)) {
    s.inference.ttft_p50_s = ttft50;
    s.inference.ttft_p99_s = ttft99;
    s.inference.tpot_p50_ms = tpot50;
    s.inference.tpot_p99_ms = tpot99;
}

/// A 70B full fine-tune forced onto `gpus` RTX 4090s: it does not fit on two.
fn seventy_b_on_4090s(gpus: u32) -> Scenario {
    Scenario {
        task: Task::FullFinetune,
        model: "llama-3.1-70b".into(),
        parallel: Parallel { gpus, ..Parallel::default() },
        cards: CardFilter { only: vec!["rtx-4090".into()], ..CardFilter::default() },
        ..Scenario::default()
    }
}

/// Llama 3.1 8B pre-trained on 20B tokens on 8 A100s, with a 3-day deadline it misses.
fn missed_deadline() -> Scenario {
    Scenario {
        task: Task::Pretrain,
        model: "llama-3.1-8b".into(),
        training: gpu_planner::domain::scenario::Training { tokens: 2e10, ..Default::default() },
        parallel: Parallel { gpus: 8, ..Parallel::default() },
        cards: CardFilter { only: vec!["a100-80gb-sxm4".into()], ..CardFilter::default() },
        search: Search { deadline_days: Some(3.0), budget: None, max_gpus: 512 },
        ..Scenario::default()
    }
}

#[test]
fn a_70b_full_fine_tune_on_two_4090s_gets_working_fixes() {
    let s = Scenario { search: Search { max_gpus: 256, ..Search::default() }, ..seventy_b_on_4090s(2) };
    assert!(!report(&s).cards[0].fits);
    let fs = fixes(&s, Catalog::embedded());
    let names: Vec<&str> = fs.iter().map(|f| f.en.as_str()).collect();
    assert!(names.iter().any(|n| n.starts_with("use ")), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with("instead")), "another card: {names:?}");
    assert!(check_all(&s) >= 2);
}

#[test]
fn a_missed_deadline_gets_more_cards_or_a_faster_card() {
    let s = missed_deadline();
    let v = &report(&s).cards[0];
    assert!(v.fits && v.hours.unwrap_or(0.0) > 72.0, "the plan misses the deadline: {:?}", v.hours);
    let fs = fixes(&s, Catalog::embedded());
    assert!(fs.iter().any(|f| f.en.starts_with("use ")), "{:?}", fs.iter().map(|f| &f.en).collect::<Vec<_>>());
    check_all(&s);
}

#[test]
fn a_working_plan_needs_no_fix() {
    assert!(fixes(&Scenario::default(), Catalog::embedded()).is_empty());
}

#[test]
fn inference_that_does_not_fit_suggests_quantization() {
    let mut s = Scenario {
        task: Task::Inference,
        model: "llama-3.1-70b".into(),
        parallel: Parallel { gpus: 2, ..Parallel::default() },
        cards: CardFilter { only: vec!["l40s".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    // Relaxed targets (an internal tool): on two L40S the INT4 weights then fit and serve in time.
    relax(&mut s, (5.0, 10.0), (100.0, 200.0));
    let fs = fixes(&s, Catalog::embedded());
    assert!(fs.iter().any(|f| f.en.contains("INT4")), "{:?}", fs.iter().map(|f| &f.en).collect::<Vec<_>>());
    check_all(&s);
}

/// The team on four H100s it already owns: 100 users of Qwen2.5-72B at 4k prompts miss
/// the latency targets there (the prefill alone needs more compute), so the plan does not "work"
/// and the fixes are the serving ones — more cards, lighter weights or cache, shorter prompts,
/// another card — each re-planned and meeting the targets, cheapest first.
#[test]
fn serving_that_misses_its_targets_gets_serving_fixes() {
    let mut s = Scenario {
        task: Task::Inference,
        model: "qwen2.5-72b".into(),
        parallel: Parallel { gpus: 4, ..Parallel::default() },
        cards: CardFilter { only: vec!["h100-sxm".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    s.inference.concurrent = 100;
    let v = &report(&s).cards[0];
    let c = v.serving.clone().unwrap_or_else(|| panic!("a serving plan"));
    assert!(v.fits && !c.meets, "{c:?}");
    assert!(!works(&s, v));
    let fs = fixes(&s, Catalog::embedded());
    let names: Vec<&str> = fs.iter().map(|f| f.en.as_str()).collect();
    assert!(names.iter().any(|n| n.starts_with("use ")), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("ZeRO") || n.contains("recompute")), "{names:?}");
    assert!(check_all(&s) >= 1);
    // A plan that meets its targets needs no fix.
    s.parallel.gpus = 0;
    assert!(fixes(&s, Catalog::embedded()).is_empty());
}

/// A vision service that misses its latency target is not a working plan, and the fixes say why
/// (`works` once ignored the vision target, so such a plan got no fixes). ResNet-50 at batch 1
/// on a T4 runs ~1.8 ms (timm's benchmark tables): a 0.1 ms target cannot be met.
#[test]
fn a_vision_service_that_misses_its_latency_target_is_not_working() {
    use gpu_planner::domain::fix::{shortfalls, Shortfall};
    let mut s = Scenario { task: Task::Inference, model: "resnet50".into(), ..Scenario::default() };
    s.vision.latency_ms = 0.1;
    let r = report(&s);
    let v = r.cards.iter().find(|c| c.vision.is_some() && c.fits).unwrap_or_else(|| panic!("a planned card"));
    assert!(v.vision.as_ref().is_some_and(|f| !f.meets), "the target is missed");
    assert!(!works(&s, v));
    assert_eq!(shortfalls(&s, v), vec![Shortfall::MissesTargets]);
    // With the default 200 ms target the same card works and has no shortfall.
    let d = Scenario { task: Task::Inference, model: "resnet50".into(), ..Scenario::default() };
    let r = report(&d);
    let v = r.cards.iter().find(|c| c.gpu == v.gpu).unwrap_or_else(|| panic!("same card"));
    assert!(works(&d, v) && shortfalls(&d, v).is_empty(), "{v:?}");
}

/// The shortfalls name the numbers the fixes heading prints: the memory needed against the
/// card's, and the run's hours against the deadline's.
#[test]
fn shortfalls_carry_the_figures_of_the_failure() {
    use gpu_planner::domain::fix::{shortfalls, Shortfall};
    let s = missed_deadline();
    let v = &report(&s).cards[0];
    assert_eq!(shortfalls(&s, v), vec![Shortfall::MissesDeadline { hours: v.hours, deadline_h: 72.0 }]);
    let big = seventy_b_on_4090s(2);
    let v = &report(&big).cards[0];
    assert_eq!(shortfalls(&big, v), vec![Shortfall::DoesNotFit { needed: v.memory.total, capacity: v.capacity }]);
    assert!(v.memory.total > v.capacity);
}

/// More of the same card doubles from the plan's count to the first that works: 70B full
/// fine-tuning forced onto two RTX 4090s is offered 2·2^k cards, and half of that would not work.
/// Under a card limit that no doubling reaches, no such fix is offered (and the search stops).
#[test]
fn more_cards_doubles_to_the_fewest_that_works_and_stops_at_the_limit() {
    let s = Scenario { search: Search { max_gpus: 256, ..Search::default() }, ..seventy_b_on_4090s(2) };
    let fs = fixes(&s, Catalog::embedded());
    let more = fs.iter().find(|f| f.en.starts_with("use ")).unwrap_or_else(|| panic!("{fs:?}"));
    let n: u32 = more.en.trim_start_matches("use ").trim_end_matches(" cards").parse().unwrap_or(0);
    assert!(n > 2 && (n / 2).is_power_of_two() && n.is_multiple_of(2), "doubling from 2: {}", more.en);
    assert_eq!(more.scenario.parallel.gpus, n);
    let half = Scenario { parallel: Parallel { gpus: n / 2, auto: true, ..s.parallel.clone() }, ..s.clone() };
    let r = report(&half);
    let v = r.cards.iter().find(|c| c.gpu == "rtx-4090").unwrap_or_else(|| panic!("planned"));
    assert!(!works(&half, v), "{} cards already work", n / 2);
    let capped = Scenario { search: Search { max_gpus: n / 2, ..Search::default() }, ..s };
    let fs = fixes(&capped, Catalog::embedded());
    assert!(!fs.iter().any(|f| f.en.starts_with("use ") && f.gpu == "rtx-4090"), "{fs:?}");
}

/// A vision training job that does not fit is offered half the batch per card: ResNet-50 at 512
/// images per RTX 4090 needs ~26 GiB, at 256 ~14 GiB; a batch of 1 has no smaller batch to offer.
#[test]
fn a_vision_job_that_does_not_fit_is_offered_half_the_batch() {
    let mut s = Scenario {
        task: Task::Pretrain,
        model: "resnet50".into(),
        parallel: Parallel { gpus: 1, ..Parallel::default() },
        cards: CardFilter { only: vec!["rtx-4090".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    s.vision.batch = 512;
    assert!(!report(&s).cards[0].fits);
    let fs = fixes(&s, Catalog::embedded());
    let batch = fs.iter().find(|f| f.en.contains("per card")).unwrap_or_else(|| panic!("{fs:?}"));
    assert_eq!(batch.en, "batch 256 per card");
    assert_eq!(batch.zh, "每卡批大小减为 256");
    assert_eq!(batch.scenario.vision.batch, 256);
    assert_eq!(batch.scenario.parallel.gpus, 1, "the same card count");
    check_all(&s);
    // ViT-H/14 needs ~12 GiB at one image: on an 8 GB card there is no smaller batch to offer.
    let mut small = Catalog::embedded().gpu("l4").cloned().unwrap_or_else(|| panic!("l4"));
    small.id = "l4-8gb".into();
    small.memory_gb = Some(8.0);
    s.model = "vit-h14".into();
    s.vision.batch = 1;
    s.custom_gpus = vec![small];
    s.cards.only = vec!["l4-8gb".into()];
    assert!(!report(&s).cards[0].fits);
    let fs = fixes(&s, Catalog::embedded());
    assert!(!fs.is_empty() && !fs.iter().any(|f| f.en.contains("per card")), "{fs:?}");
}

/// A manual training layout that runs out of memory is offered the memory layouts that fix it on
/// the same cards, each applying what its label says: Llama 3.1 8B fully fine-tuned on eight
/// A100 80 GB without ZeRO keeps 16 B of states per parameter (~128 GB) on every card — ZeRO-3
/// shards them; pre-training at 4 × 8,192 tokens per card under ZeRO-3 keeps ~170 GB of
/// activations — full recompute keeps only each layer's input, on every layer (a partial
/// setting left from the manual layout is cleared).
#[test]
fn an_out_of_memory_layout_is_offered_the_memory_layouts_that_fix_it() {
    use gpu_planner::domain::scenario::Recompute;
    let manual = Parallel { auto: false, gpus: 8, zero: 0, recompute: Recompute::None, ..Parallel::default() };
    let states = Scenario {
        task: Task::FullFinetune,
        model: "llama-3.1-8b".into(),
        parallel: manual.clone(),
        cards: CardFilter { only: vec!["a100-80gb-sxm4".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    assert!(!report(&states).cards[0].fits);
    let fs = fixes(&states, Catalog::embedded());
    let zero = fs.iter().find(|f| f.en == "ZeRO stage 3").unwrap_or_else(|| panic!("{fs:?}"));
    assert_eq!((zero.scenario.parallel.zero, zero.scenario.parallel.gpus, zero.gpus), (3, 8, 8));
    assert_eq!(zero.zh, "使用 ZeRO-3");
    check_all(&states);

    let mut acts = Scenario { task: Task::Pretrain, parallel: Parallel { zero: 3, ..manual }, ..states };
    acts.training.seq_len = 8192;
    acts.training.micro_batch = 4;
    acts.training.global_batch = 32;
    acts.parallel.recompute_layers = 4;
    assert!(!report(&acts).cards[0].fits);
    let fs = fixes(&acts, Catalog::embedded());
    let full = fs.iter().find(|f| f.en == "full activation recompute").unwrap_or_else(|| panic!("{fs:?}"));
    let p = &full.scenario.parallel;
    assert_eq!((p.recompute, p.recompute_layers, p.zero, p.gpus), (Recompute::Full, 0, 3, 8));
    check_all(&acts);

    // Two sequences of 8,192 per card (~85 GB of activations): half the sequence or one
    // sequence per micro-batch fits; with one sequence already, no micro-batch fix.
    acts.training.micro_batch = 2;
    acts.training.global_batch = 16;
    assert!(!report(&acts).cards[0].fits);
    let fs = fixes(&acts, Catalog::embedded());
    let seq = fs.iter().find(|f| f.en.starts_with("sequence length")).unwrap_or_else(|| panic!("{fs:?}"));
    assert_eq!((seq.en.as_str(), seq.scenario.training.seq_len), ("sequence length 4096", 4096));
    let mb = fs.iter().find(|f| f.en == "micro-batch 1").unwrap_or_else(|| panic!("{fs:?}"));
    assert_eq!(mb.scenario.training.micro_batch, 1);
    acts.training.micro_batch = 1;
    acts.training.seq_len = 32_768;
    assert!(!report(&acts).cards[0].fits);
    assert!(!fixes(&acts, Catalog::embedded()).iter().any(|f| f.en == "micro-batch 1"));
}

/// A serving plan whose prompts do not fit is offered prompts of half the length (and their p90
/// halved, never below the new mean), and an FP8 KV cache only when the cache is not FP8
/// already.
#[test]
fn serving_fixes_halve_the_prompt_and_offer_fp8_cache_once() {
    use gpu_planner::domain::scenario::KvPrecision;
    let mut s = Scenario {
        task: Task::Inference,
        model: "llama-3.1-8b".into(),
        parallel: Parallel { gpus: 1, ..Parallel::default() },
        cards: CardFilter { only: vec!["rtx-4090".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    s.inference.context = 64_000;
    s.inference.context_p90 = Some(70_000);
    s.inference.concurrent = 1;
    // An internal tool's relaxed targets: only the memory decides.
    relax(&mut s, (60.0, 120.0), (500.0, 1000.0));
    let fs = fixes(&s, Catalog::embedded());
    let names: Vec<&str> = fs.iter().map(|f| f.en.as_str()).collect();
    if let Some(short) = fs.iter().find(|f| f.en.starts_with("prompts of ")) {
        assert_eq!(short.en, "prompts of 32000 tokens");
        assert_eq!(short.scenario.inference.context, 32_000);
        assert_eq!(short.scenario.inference.context_p90, Some(35_000));
    } else {
        panic!("no shorter prompts: {names:?}");
    }
    assert!(names.contains(&"FP8 KV cache"), "{names:?}");
    // Another card: the first in the whole ranking, other than this one, whose serving plan
    // meets the targets.
    let other = fs.iter().find(|f| f.en.ends_with(" instead")).unwrap_or_else(|| panic!("{names:?}"));
    let mut anywhere = s.clone();
    anywhere.cards.only.clear();
    let ranked = report(&anywhere).cards;
    let first = ranked
        .iter()
        .find(|c| c.gpu != "rtx-4090" && c.serving.as_ref().is_some_and(|p| p.meets))
        .unwrap_or_else(|| panic!("a card meets"));
    assert_eq!((other.gpu.as_str(), other.gpus), (first.gpu.as_str(), first.gpus));
    s.inference.kv = KvPrecision::Fp8;
    let fs = fixes(&s, Catalog::embedded());
    assert!(!fs.iter().any(|f| f.en == "FP8 KV cache"), "already FP8");
    // Four requests of 20,000 tokens hold ~10 GB of cache beside 16 GB of weights: two fit.
    s.inference.kv = KvPrecision::Bf16;
    s.inference.context = 20_000;
    s.inference.context_p90 = None;
    s.inference.concurrent = 4;
    let fs = fixes(&s, Catalog::embedded());
    let fewer = fs.iter().find(|f| f.en.ends_with("concurrent requests")).unwrap_or_else(|| panic!("{fs:?}"));
    assert_eq!((fewer.en.as_str(), fewer.scenario.inference.concurrent), ("2 concurrent requests", 2));
    assert_eq!(fewer.zh, "并发请求减为 2");
    s.inference.concurrent = 1;
    s.inference.context = 64_000;
    assert!(!fixes(&s, Catalog::embedded()).iter().any(|f| f.en.contains("concurrent")), "one is the fewest");
}

/// Each edit a fix can propose does what its label says, in both languages: the number in the
/// label is the value the changed scenario holds, and the named setting is the one set (a fix
/// once labelled "ZeRO stage 3" could apply stage 2, "sequence length N" apply N/2).
#[test]
fn every_change_does_what_its_label_says() {
    use gpu_planner::domain::change::Change;
    use gpu_planner::domain::format::Lang;
    use gpu_planner::domain::scenario::{KvPrecision, Offload, Recompute, WeightQuant};
    let mut base = Scenario::default();
    base.parallel.gpus = 2;
    base.parallel.zero = 1;
    base.parallel.recompute = Recompute::Selective;
    base.parallel.recompute_layers = 7;
    base.inference.context_p90 = Some(10_000);
    base.cards.only = vec!["a100-80g".into()];
    let after = |c: &Change| {
        let mut s = base.clone();
        c.apply(&mut s);
        s
    };
    let number = |c: &Change, l: Lang| -> Vec<u32> {
        c.label(l).split(|ch: char| !ch.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect()
    };
    type Holds = Box<dyn Fn(&Scenario) -> bool>;
    let cases: Vec<(Change, Holds, &[u32])> = vec![
        (Change::Cards(16), Box::new(|s| s.parallel.gpus == 16 && s.parallel.auto), &[16]),
        (Change::VisionBatch { batch: 24, keep: 3 }, Box::new(|s| s.vision.batch == 24 && s.parallel.gpus == 3), &[24]),
        (
            Change::Zero3 { keep: 5 },
            Box::new(|s| s.parallel.zero == 3 && s.parallel.gpus == 5 && !s.parallel.auto),
            &[3],
        ),
        (
            Change::FullRecompute { keep: 5 },
            Box::new(|s| {
                s.parallel.recompute == Recompute::Full && s.parallel.recompute_layers == 0 && s.parallel.gpus == 5
            }),
            &[],
        ),
        (
            Change::OffloadOptimizer { keep: 6 },
            Box::new(|s| s.parallel.offload == Offload::Optimizer && s.parallel.gpus == 6),
            &[],
        ),
        (Change::Weights(WeightQuant::Int4), Box::new(|s| s.weight_quant == WeightQuant::Int4), &[4]),
        (Change::Weights(WeightQuant::Int8), Box::new(|s| s.weight_quant == WeightQuant::Int8), &[8]),
        (Change::Weights(WeightQuant::Fp8), Box::new(|s| s.weight_quant == WeightQuant::Fp8), &[8]),
        (Change::Weights(WeightQuant::Nvfp4), Box::new(|s| s.weight_quant == WeightQuant::Nvfp4), &[4]),
        (Change::Weights(WeightQuant::Mxfp4), Box::new(|s| s.weight_quant == WeightQuant::Mxfp4), &[4]),
        (Change::KvFp8, Box::new(|s| s.inference.kv == KvPrecision::Fp8), &[8]),
        (
            Change::Prompts(3000),
            Box::new(|s| s.inference.context == 3000 && s.inference.context_p90 == Some(5000)),
            &[3000],
        ),
        (Change::Lora, Box::new(|s| s.task == Task::Lora), &[]),
        (Change::Qlora, Box::new(|s| s.task == Task::Qlora), &[4]),
        (Change::SeqLen(2048), Box::new(|s| s.training.seq_len == 2048), &[2048]),
        (Change::MicroBatchOne, Box::new(|s| s.training.micro_batch == 1), &[1]),
        (Change::Concurrent(12), Box::new(|s| s.inference.concurrent == 12), &[12]),
        (
            Change::Card { id: "l40s".into(), name: "L40S".into(), cards: 4, count: true },
            Box::new(|s| {
                s.parallel.gpus == 4 && s.parallel.auto && s.cards.only.is_empty() && s.ownership.gpu == "l40s"
            }),
            &[40, 4],
        ),
        (
            Change::Card { id: "l40s".into(), name: "L40S".into(), cards: 4, count: false },
            Box::new(|s| s.parallel.gpus == 2 && s.cards.only.is_empty() && s.ownership.gpu == "l40s"),
            &[40, 4],
        ),
    ];
    for (c, holds, numbers) in &cases {
        assert!(holds(&after(c)), "{c:?} does not do what it says: {:?}", after(c).parallel);
        for l in [Lang::En, Lang::Zh] {
            assert_eq!(number(c, l), numbers.to_vec(), "{c:?}: {}", c.label(l));
        }
        assert_ne!(c.label(Lang::En), c.label(Lang::Zh), "{c:?} is not translated");
    }
    // A label per edit: no two edits read alike.
    let labels: std::collections::BTreeSet<String> = cases.iter().map(|(c, _, _)| c.label(Lang::En)).collect();
    assert_eq!(labels.len(), cases.len() - 1, "the two card edits read alike, every other edit differently");
    assert_eq!(Change::Concurrent(1).label(Lang::En), "1 concurrent request");
}
