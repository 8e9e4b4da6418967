//! Said as a person would: warnings, "how this was computed", rent-vs-buy formulas, the
//! checklist and the rule of thumb carry card names and translated words, never catalog ids,
//! Rust debug names, NaN, or English inside the Chinese text; domestic accelerators are not
//! called cut-down export variants; the stacks are named as their vendors name them.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::report;
use gpu_planner::domain::checklist::checklist;
use gpu_planner::domain::explain::{bridge_formula, explain, hybrid_formula, rent_vs_buy_formulas};
use gpu_planner::domain::format::{self, Lang};
use gpu_planner::domain::model::presets;
use gpu_planner::domain::scenario::{Ownership, Task};
use gpu_planner::domain::verdict::Warning;
use gpu_planner::domain::{Catalog, Scenario};

/// Lowercase words a Chinese reader meets in Chinese ML writing as they are.
const ALLOWED_IN_ZH: &[&str] = &["token", "tokens", "logits", "torchtune", "ffn", "flash", "attention", "min", "pin"];

/// Whole lowercase ASCII words of three letters or more: English that slipped into Chinese
/// text. File names, identifiers, tools and formats (config.json, kv_heads, gpu-burn, fp32) are
/// not words.
fn english_words(s: &str) -> Vec<String> {
    // A link (a measurement's source) is an address, not words.
    let s: String = s.split_whitespace().filter(|w| !w.starts_with("http")).collect::<Vec<_>>().join(" ");
    s.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_lowercase()) && !ALLOWED_IN_ZH.contains(w))
        .map(str::to_string)
        .collect()
}

/// Catalog ids, Debug names and non-numbers that must never reach a reader.
fn leaks(s: &str) -> Vec<String> {
    let ids: Vec<&str> = Catalog::embedded().gpus.iter().map(|g| g.id.as_str()).collect();
    const DEBUG: &[&str] = &[
        "None",
        "Some",
        "Full",
        "Selective",
        "NaN",
        "inf",
        "Bf16",
        "Fp16",
        "Fp32",
        "Tf32",
        "Fp8",
        "Int8",
        "Int4",
        "Nf4",
        "FullFinetune",
        "Pretrain",
        "Qlora",
        "AdamW8bit",
        "SgdMomentum",
        "rocm",
        "cann",
        "neuware",
        "dtk",
        "musa",
    ];
    let mut out: Vec<String> = s
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| ids.contains(w) || DEBUG.contains(w))
        .map(str::to_string)
        .collect();
    out.extend(ids.iter().filter(|id| id.contains('-') && s.contains(*id)).map(|id| (*id).to_string()));
    // Internal file names are not sources a reader can open (the page links catalog.json and
    // reads the user's config.json; nothing else).
    for raw in ["other (", "is other", "ZeRO-0 None", "{:?}", "models.json", "vision.json", "DESIGN.md", "src/", ".rs"]
    {
        if s.contains(raw) {
            out.push(raw.to_string());
        }
    }
    out
}

/// Every text the domain writes for a reader of this scenario, in `lang`.
fn texts(s: &Scenario, lang: Lang) -> Vec<String> {
    let r = report(s);
    let mut out = vec![format::quick_rule(&r.quick_rule), format::serving_accuracy_line(lang)];
    out.extend(r.unknown_specs.iter().cloned());
    out.extend(r.warnings.iter().map(|w| format::warning(w, lang)));
    for v in &r.cards {
        out.extend(v.warnings.iter().map(|w| format::warning(w, lang)));
        for e in explain(s, Catalog::embedded(), v, lang) {
            out.extend([e.label(lang).to_string(), e.formula, e.result, e.source.to_string()]);
        }
    }
    if let Some(i) = &r.infra {
        out.extend(i.warnings.iter().map(|w| format::warning(w, lang)));
        if let Some(g) = s.gpu(Catalog::embedded(), &i.gpu) {
            for c in checklist(g, Catalog::embedded()) {
                out.extend(if lang == Lang::Zh {
                    [c.topic_zh.to_string(), c.zh]
                } else {
                    [c.topic_en.to_string(), c.en]
                });
            }
        }
    }
    if let Some(rvb) = &r.rent_vs_buy {
        out.extend(rent_vs_buy_formulas(s, rvb, lang));
        out.push(hybrid_formula(lang).to_string());
        out.push(bridge_formula(lang).to_string());
    }
    out
}

fn only(cards: &[&str]) -> Scenario {
    let mut s = Scenario::default();
    s.cards.only = cards.iter().map(|c| (*c).to_string()).collect();
    s
}

fn card_texts(s: &Scenario, id: &str, lang: Lang) -> Vec<String> {
    let r = report(s);
    let v = r.cards.iter().find(|c| c.gpu == id).unwrap_or_else(|| panic!("{id} ranked"));
    v.warnings.iter().map(|w| format::warning(w, lang)).collect()
}

const DOMESTIC: &[&str] = &[
    "huawei-ascend-910b3",
    "cambricon-mlu370-x8",
    "hygon-dcu-z100",
    "hygon-dcu-k100-ai",
    "moore-threads-mtt-s4000",
    "biren-br100",
    "iluvatar-bi-v100",
    "enflame-cloudblazer-t20",
    "kunlunxin-p800",
];
const EXPORT_VARIANTS: &[&str] = &["h800-sxm", "h20", "a800-80gb-sxm4", "l20", "rtx-4090-d", "rtx-5090-d"];

#[test]
fn domestic_chips_are_not_called_cut_down_export_variants() {
    for id in DOMESTIC {
        let s = only(&[id]);
        let (en, zh) = (card_texts(&s, id, Lang::En).join(" | "), card_texts(&s, id, Lang::Zh).join(" | "));
        assert!(!en.contains("China-market") && !en.contains("cut"), "{id}: {en}");
        assert!(!zh.contains("特供") && !zh.contains("削减"), "{id}: {zh}");
        // Its own wording: the stack's maturity and how it is bought.
        assert!(en.contains("younger than CUDA") && zh.contains("生态"), "{id}: {en} / {zh}");
        assert!(en.contains("delivery") && zh.contains("交付"), "{id}: {en} / {zh}");
        let g = Catalog::embedded().gpu(id).unwrap_or_else(|| panic!("{id}"));
        for c in checklist(g, Catalog::embedded()) {
            assert!(!c.en.contains("China-market") && !c.zh.contains("特供"), "{id} checklist: {} / {}", c.en, c.zh);
        }
    }
    for id in EXPORT_VARIANTS {
        let s = only(&[id]);
        assert!(card_texts(&s, id, Lang::En).iter().any(|w| w.contains("China-market")), "{id}");
        assert!(card_texts(&s, id, Lang::Zh).iter().any(|w| w.contains("特供")), "{id}");
    }
    // A modified grey-market board is neither: it has more memory than the part it came from.
    let modded = only(&["rtx-4090-48gb-mod"]);
    let en = card_texts(&modded, "rtx-4090-48gb-mod", Lang::En).join(" | ");
    assert!(!en.contains("China-market"), "{en}");
}

#[test]
fn the_power_warning_counts_the_cards_the_plan_has() {
    // A 7B served on one RTX 5090: one card, no 8-card server.
    let mut s = only(&["rtx-5090"]);
    s.task = Task::Inference;
    let r = report(&s);
    assert_eq!(r.cards[0].gpus, 1);
    let zh = card_texts(&s, "rtx-5090", Lang::Zh).join(" | ");
    let en = card_texts(&s, "rtx-5090", Lang::En).join(" | ");
    assert!(zh.contains("575 W") && !zh.contains("8 卡"), "{zh}");
    assert!(en.contains("575 W") && !en.contains("per server"), "{en}");
    // Four cards in one server: the warning says four.
    s.parallel.gpus = 4;
    let zh = card_texts(&s, "rtx-5090", Lang::Zh).join(" | ");
    let en = card_texts(&s, "rtx-5090", Lang::En).join(" | ");
    assert!(zh.contains("4 卡") && zh.contains("2,300 W") && !zh.contains("8 卡"), "{zh}");
    assert!(en.contains("4 cards") && en.contains("2,300 W"), "{en}");
}

#[test]
fn hygon_gets_no_contradictory_compute_warnings() {
    for id in ["hygon-dcu-z100", "hygon-dcu-k100-ai"] {
        let r = report(&only(&[id]));
        let w = &r.cards[0].warnings;
        let unknown = w.iter().any(|w| matches!(w, Warning::UnknownCompute));
        let fallback = w.iter().any(|w| matches!(w, Warning::NoNativePrecision { .. }));
        assert!(
            unknown && !fallback,
            "{id}: 'estimated at the fallback rate' and 'cannot be estimated' together: {w:?}"
        );
    }
}

#[test]
fn software_stacks_are_named_as_their_vendors_name_them() {
    for (id, en_name, zh_name) in [
        ("huawei-ascend-910b3", "CANN", "CANN"),
        ("mi300x", "ROCm", "ROCm"),
        ("cambricon-mlu370-x8", "Neuware", "Neuware"),
        ("hygon-dcu-z100", "DTK", "DTK"),
        ("moore-threads-mtt-s4000", "MUSA", "MUSA"),
        ("biren-br100", "Biren's own", "Biren 自有"),
        ("kunlunxin-p800", "Kunlunxin's own", "Kunlunxin 自有"),
    ] {
        let s = only(&[id]);
        let en = card_texts(&s, id, Lang::En).join(" | ");
        let zh = card_texts(&s, id, Lang::Zh).join(" | ");
        assert!(en.contains(en_name) && zh.contains(zh_name), "{id}: {en} / {zh}");
        let g = Catalog::embedded().gpu(id).unwrap_or_else(|| panic!("{id}"));
        let item = checklist(g, Catalog::embedded())
            .into_iter()
            .find(|i| i.topic_en == "Software stack")
            .unwrap_or_else(|| panic!("{id}"));
        assert!(item.en.contains(en_name) && item.zh.contains(zh_name), "{id}: {} / {}", item.en, item.zh);
        for t in [en, zh, item.en, item.zh] {
            assert!(leaks(&t).is_empty(), "{id}: {:?} in {t}", leaks(&t));
        }
    }
}

#[test]
fn the_rule_of_thumb_prints_no_degenerate_range_or_raw_float() {
    let serve = report(&Scenario { task: Task::Inference, ..Scenario::default() });
    let t = format::quick_rule(&serve.quick_rule);
    let (low, high) = (format::gib(serve.quick_rule.low), format::gib(serve.quick_rule.high));
    assert_eq!(low, high);
    assert!(!t.contains(&format!("{low} – {high}")) && !t.contains("1.2–1.2"), "{t}");
    let qlora = report(&Scenario { task: Task::Qlora, ..Scenario::default() });
    let t = format::quick_rule(&qlora.quick_rule);
    let bytes = t.split(" B × ").next().and_then(|x| x.rsplit('(').next()).unwrap_or_default();
    assert!(bytes.split('.').nth(1).is_none_or(|d| d.len() <= 2), "raw float {bytes} in {t}");
    assert!(t.contains("1.5–3)"), "{t}");
    let full = format::quick_rule(&report(&Scenario::default()).quick_rule);
    assert!(full.contains(" – ") && full.contains("(2 B × 3–6)"), "{full}");
}

/// A few scenarios a Chinese team would open: every task, export variants and domestic cards,
/// a rent-vs-buy with the seed server.
fn zh_scenarios() -> Vec<Scenario> {
    let mut out = Vec::new();
    for task in Task::ALL {
        for cards in
            [&["a100-80gb-sxm4", "rtx-4090", "h20"][..], &["huawei-ascend-910b3", "hygon-dcu-z100", "biren-br100"]]
        {
            let mut s = only(cards);
            s.task = task;
            s.ownership = Ownership { rent_hourly: Some(12.0), ..Ownership::seed_a100_server() };
            s.ownership.gpu = cards[0].to_string();
            out.push(s);
        }
    }
    // Vision, OCR and speech jobs: training on several cards (the all-reduce term) and serving.
    for (model, task) in
        [("resnet50", Task::FullFinetune), ("resnet50", Task::Inference), ("vit-b16", Task::FullFinetune)]
    {
        let mut s = only(&["a100-80gb-sxm4", "rtx-4090", "huawei-ascend-910b3"]);
        s.model = model.into();
        s.task = task;
        s.parallel.gpus = 4;
        out.push(s);
    }
    // A fine-grained MoE's training: the MFU line names the experts' factor.
    let mut s = only(&["h100-sxm", "huawei-ascend-910b3"]);
    s.model = "qwen3-30b-a3b".into();
    s.task = Task::Pretrain;
    out.push(s);
    // SAM served with eager attention: the activations line names the score tensors.
    let mut s = only(&["a100-80gb-sxm4", "rtx-4090"]);
    s.model = "sam-vit-h-encoder".into();
    s.task = Task::Inference;
    s.training.flash_attention = false;
    out.push(s);
    out
}

#[test]
fn the_chinese_texts_carry_no_english_words() {
    let mut bad = Vec::new();
    for s in zh_scenarios() {
        for t in texts(&s, Lang::Zh) {
            let w = english_words(&t);
            if !w.is_empty() {
                bad.push(format!("{:?}: {w:?} in «{t}»", s.task));
            }
        }
    }
    bad.sort();
    bad.dedup();
    assert!(bad.is_empty(), "{} texts with English words:\n{}", bad.len(), bad.join("\n"));
}

/// Property over every task × every model preset × groups of cards (NVIDIA, AMD, export
/// variants, domestic, a modified board), in both languages: no text contains a catalog id, a
/// Rust debug name or NaN.
#[test]
fn no_text_carries_a_catalog_id_or_a_debug_name() {
    let groups: [&[&str]; 4] = [
        &["h100-sxm", "rtx-4090", "mi300x", "l4"],
        &[
            "huawei-ascend-910b3",
            "hygon-dcu-z100",
            "biren-br100",
            "cambricon-mlu370-x8",
            "cambricon-mlu590",
            "huawei-ascend-910",
        ],
        &["h20", "rtx-4090-48gb-mod", "moore-threads-mtt-s4000", "a100-40gb-pcie"],
        &["enflame-cloudblazer-t20", "kunlunxin-p800", "iluvatar-bi-v100", "rtx-5090-d"],
    ];
    let mut bad = Vec::new();
    for task in Task::ALL {
        for m in presets() {
            for g in groups {
                let mut s = only(g);
                s.task = task;
                s.model = m.id.clone();
                s.ownership.rent_hourly = Some(10.0);
                let Ok(_) = gpu_planner::domain::plan(&s, Catalog::embedded()) else { continue };
                for lang in [Lang::En, Lang::Zh] {
                    for t in texts(&s, lang) {
                        let l = leaks(&t);
                        if !l.is_empty() {
                            bad.push(format!("{l:?} in «{t}»"));
                        }
                    }
                }
            }
        }
    }
    bad.sort();
    bad.dedup();
    assert!(
        bad.is_empty(),
        "{} texts leak names:\n{}",
        bad.len(),
        bad.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Every warning has its own words in both languages, with its figures in them (the wording
/// is grouped in format.rs: one put in the wrong group would print nothing).
#[test]
fn every_warning_is_worded_in_both_languages_with_its_figures() {
    let all = [
        (Warning::ConsumerCardForTraining, ""),
        (Warning::PcieTrainingBeyond8 { gpus: 13 }, "13"),
        (Warning::TensorParallelOverPcie { tp: 16 }, "16"),
        (Warning::FabricUnknown { kind: "hccs".into() }, "HCCS"),
        (Warning::MultiServer { servers: 7 }, "7"),
        (Warning::RoundedToOrder { needed: 10, cards: 16, per_server: 8, headroom: 0.05 }, "16"),
        (Warning::ServingTargetsMissed { ttft_p99_s: 2.5, tpot_p99_ms: 91.0 }, "91"),
        (Warning::LatencyTargetMissed { latency_ms: 333.0, target_ms: 200.0 }, "333"),
        (Warning::HighPower { card_w: 1_200.0, server_w: 9_600.0, cards: 8 }, "9,600"),
        (Warning::SoftwareEcosystem { software: "cann".into(), vendor: "Huawei".into() }, ""),
        (Warning::ChinaMarketVariant, ""),
        (Warning::DomesticAccelerator, ""),
        (Warning::NoNativePrecision { precision: "FP8".into() }, "FP8"),
        (Warning::UnknownCompute, ""),
        (Warning::CpuOffload, ""),
        (Warning::UnknownCard { id: "x-9000".into() }, "x-9000"),
        (Warning::BeyondContext { tokens: 65_536, max: 32_768 }, "32768"),
        (Warning::MemoryEstimated { from: "ViT-B/16".into(), scale: 27.19 }, "27.19"),
        (Warning::FabricDominates { needed_gbit: 412.0, fabric_gbit: 200.0 }, "412"),
        (Warning::RackPowerOverLimit { rack_kw: 14.2, limit_kw: 12.0 }, "14.2"),
        (Warning::OfficeRoom { server_w: 2_100.0 }, "2100"),
        (Warning::CardPowerUnknown, ""),
        (Warning::DoesNotFit { needed_gib: 91.5, capacity_gib: 80.0 }, "91.5"),
    ];
    let mut seen = std::collections::HashSet::new();
    for (w, figure) in &all {
        let (en, zh) = (format::warning(w, Lang::En), format::warning(w, Lang::Zh));
        assert!(!en.is_empty() && !zh.is_empty() && en != zh, "{w:?}: {en} / {zh}");
        assert!(en.contains(figure) && zh.contains(figure), "{w:?} lacks {figure}: {en} / {zh}");
        assert!(seen.insert(en.clone()) && seen.insert(zh), "{w:?} shares its words: {en}");
    }
}

/// The FLOPs tooltip states the count the figure was computed with: 6·N per token for full
/// training, 4·N for LoRA and QLoRA (no weight gradients of the frozen weights), the 12·L·h·s
/// attention term only when the convention counts it (compute::training_flops, evaluated here
/// per token of Llama 3.1 8B at 4,096 tokens); and no English inside the Chinese text.
#[test]
fn the_flops_tooltip_states_the_count_the_figure_uses() {
    use gpu_planner::domain::compute::training_flops;
    let m = gpu_planner::domain::model::preset("llama-3.1-8b").unwrap_or_else(|| panic!("preset"));
    let n = m.params().active;
    let attention = 12.0 * f64::from(m.layers) * f64::from(m.heads * m.head_dim()) * 4096.0;
    for task in [Task::Pretrain, Task::FullFinetune, Task::Lora, Task::Qlora] {
        for counted in [true, false] {
            let per_token = training_flops(m, task, 4096, 1.0, counted);
            let dense = if matches!(task, Task::Lora | Task::Qlora) { 4.0 } else { 6.0 };
            let want = dense * n + if counted { attention } else { 0.0 };
            assert!((per_token / want - 1.0).abs() < 1e-12, "{task:?} {counted}: {per_token} vs {want}");
            for lang in [Lang::En, Lang::Zh] {
                let text = format::flops_formula(task, false, counted, lang);
                assert!(text.contains(&format!("{dense}·N")), "{task:?}: {text}");
                assert_eq!(text.contains("12·L·h·s"), counted, "{task:?} {counted}: {text}");
                if lang == Lang::Zh {
                    assert!(english_words(text).is_empty(), "{text}");
                }
            }
        }
    }
    let vision = format::flops_formula(Task::Pretrain, true, true, Lang::En);
    assert!(vision.starts_with("3 × forward FLOPs per sample"), "{vision}");
    assert!(english_words(format::flops_formula(Task::Lora, true, true, Lang::Zh)).is_empty());
}

/// A time's band reads in the unit the time itself is shown in: a 2.2-day run's band is
/// "1.8–2.9 days", not "42.8 h–2.9 days" (the page showed both units side by side); minutes and
/// hours alike, in both languages.
#[test]
fn a_times_band_is_in_the_times_own_unit() {
    assert_eq!(format::hours(52.8, Lang::En), "2.2 days");
    assert_eq!(format::hours_band((42.8, 69.6), 52.8, Lang::En), "1.8–2.9 days");
    assert_eq!(format::hours_band((42.8, 69.6), 52.8, Lang::Zh), "1.8–2.9 天");
    assert_eq!(format::hours(42.1, Lang::En), "42.1 h");
    assert_eq!(format::hours_band((33.5, 57.6), 42.1, Lang::En), "33.5–57.6 h");
    assert_eq!(format::hours_band((0.4, 0.9), 0.6, Lang::En), "24.0–54.0 min");
    assert_eq!(format::hours_band((0.4, 0.9), 0.6, Lang::Zh), "24.0–54.0 分钟");
    // The units change at exactly one hour, two days and a year.
    assert_eq!(format::hours(1.0, Lang::En), "1.0 h");
    assert_eq!(format::hours(48.0, Lang::En), "2.0 days");
    assert_eq!(format::hours(24.0 * 365.0, Lang::En), "1.0 years");
    assert_eq!(format::hours(24.0 * 364.0, Lang::En), "364.0 days");
}

/// The card a time's efficiency is borrowed from is named as the page's language names it: the
/// Chinese page says 华为昇腾 910B3, not its English catalog name (the 910B1 borrows its figures).
#[test]
fn a_borrowed_tier_names_its_card_in_the_pages_language() {
    use gpu_planner::domain::tier::Tier;
    let t = Tier::Borrowed { from: "huawei-ascend-910b3".into() };
    let zh = format::tier(&t, Lang::Zh);
    assert!(zh.contains("华为昇腾 910B3") && !zh.contains("Huawei"), "{zh}");
    let en = format::tier(&t, Lang::En);
    assert!(en.contains("Huawei Ascend 910B3"), "{en}");
    let cal = format::tier(&Tier::Calibrated { on: "huawei-ascend-910b3".into() }, Lang::Zh);
    assert!(cal.contains("华为昇腾 910B3"), "{cal}");
}
