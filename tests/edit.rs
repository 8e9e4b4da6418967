//! What the page's buttons do to a scenario, tested natively: custom cards keep ids of their
//! own, a custom model copies a preset with nothing hidden, the seeds' ownership preset, and the
//! card lookup shared by the report and the page.

use gpu_planner::domain::catalog::Gpu;
use gpu_planner::domain::edit::{free_custom_id, CardField, CardInput};
use gpu_planner::domain::model::{self, Dim, Flag, ModelSpec, Part};
use gpu_planner::domain::scenario::PriceOverride;
use gpu_planner::domain::{plan, share, Catalog, Scenario};

fn card(name: &str) -> CardInput {
    CardInput { name: name.into(), ..CardInput::default() }
}

fn add(s: &mut Scenario, name: &str) -> String {
    s.add_custom_gpu(Catalog::embedded(), &card(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn ranked_custom(s: &Scenario) -> Vec<(String, String)> {
    let r = plan(s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    r.cards.iter().filter(|v| v.gpu.starts_with("custom-")).map(|v| (v.gpu.clone(), v.name.clone())).collect()
}

#[test]
fn a_custom_card_added_after_a_removal_gets_its_own_id_and_is_ranked() {
    let mut s = Scenario::default();
    let a = add(&mut s, "Card A");
    add(&mut s, "Card B");
    s.remove_custom_gpu(&a);
    add(&mut s, "Card C");
    let ids: Vec<&str> = s.custom_gpus.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0], ids[1], "{ids:?}");
    let mut names: Vec<String> = ranked_custom(&s).into_iter().map(|(_, n)| n).collect();
    names.sort();
    assert_eq!(names, ["Card B", "Card C"]);
}

#[test]
fn a_card_saved_with_a_colliding_id_is_repaired_when_read() {
    // What the old form saved: add two, remove the first, add another (both `custom-2`).
    let mut s = Scenario::default();
    for name in ["Card B", "Card C"] {
        s.custom_gpus.push(card(name).to_gpu("custom-2".into()));
    }
    // A catalog id is no custom id either.
    let mut shadow = card("Card D").to_gpu(Catalog::embedded().gpus[0].id.clone());
    shadow.memory_gb = Some(47.0);
    s.custom_gpus.push(shadow);
    let back = share::decode(&share::encode(&s)).unwrap_or_else(|e| panic!("{e}"));
    let mut ids: Vec<String> = back.custom_gpus.iter().map(|g| g.id.clone()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 3, "{ids:?}");
    let ranked = ranked_custom(&back);
    assert_eq!(ranked.len(), 3, "every custom card is ranked: {ranked:?}");
    // The first of a pair keeps its id (quotes and choices that named it still hold).
    assert_eq!(back.custom_gpus[0].id, "custom-2");
}

#[test]
fn removing_a_card_drops_what_named_it_so_a_later_card_inherits_nothing() {
    let mut s = Scenario::default();
    add(&mut s, "Card A");
    let b = add(&mut s, "Card B");
    s.money.overrides.push(PriceOverride { gpu: b.clone(), rent_hourly: 1.0 });
    s.cards.only = vec![b.clone()];
    s.ownership.gpu = b.clone();
    s.remove_custom_gpu(&b);
    assert!(s.money.overrides.is_empty() && s.cards.only.is_empty() && s.ownership.gpu.is_empty());
    let c = add(&mut s, "Card C");
    assert!(s.money.overrides.iter().all(|o| o.gpu != c));
    assert!(plan(&s, Catalog::embedded()).is_ok());
}

#[test]
fn custom_ids_avoid_catalog_ids() {
    let forked = Catalog { gpus: vec![Gpu { id: "custom-1".into(), ..Gpu::default() }], ..Catalog::default() };
    assert_eq!(free_custom_id(&forked, &[]), "custom-2");
    let mine = [card("x").to_gpu("custom-7".into())];
    assert_eq!(free_custom_id(&forked, &mine), "custom-8");
}

#[test]
fn a_custom_card_out_of_range_is_refused() {
    for f in CardField::ALL {
        let (_, min, max) = f.limits();
        for bad in [min / 2.0 - 1.0, max * 2.0, f64::NAN] {
            let mut c = CardInput::default();
            f.set(&mut c, bad);
            let mut s = Scenario::default();
            assert!(s.add_custom_gpu(Catalog::embedded(), &c).is_err(), "{f:?} = {bad}");
            assert!(s.custom_gpus.is_empty());
        }
        let mut c = CardInput::default();
        f.set(&mut c, max);
        assert!(c.validate().is_ok(), "{f:?} = {max}");
    }
    let g = card("  ").to_gpu("custom-1".into());
    assert_eq!(g.name, "custom-1", "an empty name shows the id");
}

#[test]
fn the_lookup_finds_catalog_and_custom_cards() {
    let mut s = Scenario::default();
    let id = add(&mut s, "Mine");
    let cat = Catalog::embedded();
    assert_eq!(s.gpu(cat, &id).map(|g| g.name.as_str()), Some("Mine"));
    assert_eq!(s.gpu(cat, &cat.gpus[0].id).map(|g| g.id.as_str()), Some(cat.gpus[0].id.as_str()));
    assert!(s.gpu(cat, "nope").is_none());
}

/// Builds a model from the custom form's controls alone: the part switches, the flags, then
/// every field of a part that is on.
fn rebuilt_from_the_form(target: &ModelSpec) -> ModelSpec {
    let mut m = ModelSpec::default();
    for p in Part::ALL {
        p.switch(&mut m, p.is_on(target));
    }
    for f in Flag::ALL {
        f.set(&mut m, f.get(target));
    }
    for d in Dim::ALL {
        if d.info().part.is_on(target) {
            d.set(&mut m, d.get(target));
        }
    }
    m
}

#[test]
fn switching_to_custom_keeps_only_what_the_form_shows() {
    for p in model::presets() {
        let mut s = Scenario { model: p.id.clone(), ..Scenario::default() };
        s.select_model("custom");
        assert_eq!(s.model, "custom");
        let c = &s.custom_model;
        assert_eq!(c, &p.as_custom());
        assert_eq!(&rebuilt_from_the_form(c), c, "{}: a structural field is missing from the custom form", p.id);
        assert!(c.validate().is_ok(), "{}: {:?}", p.id, c.validate());
        // The copy plans like the preset, apart from the published counts it drops.
        let (a, b) = (p.computed_params(), c.computed_params());
        assert_eq!((a.total, a.active), (b.total, b.active), "{}", p.id);
        assert_eq!(p.kv_values_per_token().to_bits(), c.kv_values_per_token().to_bits(), "{}", p.id);
    }
}

#[test]
fn switching_to_custom_twice_keeps_the_users_edits() {
    let mut s = Scenario { model: "qwen2.5-7b".into(), ..Scenario::default() };
    s.select_model("custom");
    Dim::Layers.set(&mut s.custom_model, Some(3.0));
    s.select_model("custom");
    assert_eq!(s.custom_model.layers, 3);
}

#[test]
fn a_dense_24b_typed_after_deepseek_v3_is_24b() {
    let mut s = Scenario { model: "deepseek-v3".into(), ..Scenario::default() };
    s.select_model("custom");
    assert!(Part::Moe.is_on(&s.custom_model) && Part::Mla.is_on(&s.custom_model), "the copy shows MoE and MLA");
    Part::Moe.switch(&mut s.custom_model, false);
    Part::Mla.switch(&mut s.custom_model, false);
    // Mistral-Small-24B's shape.
    for (d, v) in [
        (Dim::Layers, 40.0),
        (Dim::Hidden, 5120.0),
        (Dim::Intermediate, 32768.0),
        (Dim::Heads, 32.0),
        (Dim::KvHeads, 8.0),
        (Dim::HeadDim, 128.0),
        (Dim::Vocab, 131_072.0),
    ] {
        d.set(&mut s.custom_model, Some(v));
    }
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    assert!((r.params / 1e9 - 23.57).abs() < 0.01, "{} B", r.params / 1e9);
    assert!((r.params - r.active_params).abs() < 1.0, "dense: every parameter is active");
}

#[test]
fn a_part_switched_on_is_valid_and_switched_off_leaves_nothing() {
    let base = ModelSpec::default().as_custom();
    for p in [Part::Moe, Part::Mla, Part::Window] {
        let mut m = base.clone();
        p.switch(&mut m, true);
        assert!(p.is_on(&m) && m.validate().is_ok(), "{p:?}: {:?}", m.validate());
        assert_ne!(m, base);
        p.switch(&mut m, false);
        assert_eq!(m, base, "{p:?} leaves nothing behind");
    }
    // Fields of a part that is off cannot be written.
    let mut m = base.clone();
    Dim::Experts.set(&mut m, Some(64.0));
    Dim::Window.set(&mut m, Some(512.0));
    assert_eq!(m, base);
}

#[test]
fn each_field_is_checked_against_its_own_limits() {
    let mut m = model::preset("deepseek-v3").unwrap_or_else(|| panic!("preset")).as_custom();
    Part::Window.switch(&mut m, true);
    Part::Encoder.switch(&mut m, true);
    Dim::WindowLayers.set(&mut m, Some(50.0));
    assert!(m.validate().is_ok(), "{:?}", m.validate());
    for d in Dim::ALL {
        let i = d.info();
        let mut bad = m.clone();
        d.set(&mut bad, Some(i.max + 1.0));
        let e = bad.validate().err().unwrap_or_else(|| panic!("{} above {} accepted", i.name, i.max));
        assert!(e.contains(i.name) || d == Dim::ExpertsPerToken, "{e}");
        if i.min > 0.0 {
            let mut low = m.clone();
            d.set(&mut low, Some(i.min - 1.0));
            assert!(low.validate().is_err(), "{} below {} accepted", i.name, i.min);
        }
    }
}

/// The seeds' A100 server preset sets its card, count, price and 4-card host and nothing else:
/// it once reset the utilisation and the engineer share and changed the plan's cards per server.
#[test]
fn the_seed_preset_sets_its_purchase_and_leaves_the_rest() {
    let mut s = Scenario::default();
    let chengdu = gpu_planner::domain::sites::site("chengdu").unwrap_or_else(|| panic!("site"));
    s.ownership.apply_site(chengdu, s.money.cny_per_usd);
    let (kwh, pue) = (s.ownership.electricity_per_kwh, s.ownership.pue);
    s.ownership.ops_share = 0.5;
    s.ownership.utilisation = 0.8;
    let per_server = s.parallel.gpus_per_server;
    s.apply_seed_a100_server();
    assert_eq!((s.ownership.site.as_str(), s.ownership.electricity_per_kwh, s.ownership.pue), ("chengdu", kwh, pue));
    assert_eq!(s.ownership.card_price, Some(68_750.0));
    assert_eq!((s.ownership.gpu.as_str(), s.ownership.cards), ("a100-80gb-sxm4", 4));
    assert_eq!((s.ownership.profile.as_str(), s.ownership.cards_per_host), ("custom", 4));
    assert_eq!((s.ownership.ops_share, s.ownership.utilisation), (0.5, 0.8), "the user's figures stay");
    assert_eq!(s.parallel.gpus_per_server, per_server, "the plan's layout stays");
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let rvb = r.rent_vs_buy.unwrap_or_else(|| panic!("rvb"));
    // ¥275,000 for the 4-card server: 4 × ¥68,750, host included, + ¥10,000 network.
    assert_eq!(rvb.own.servers, 1);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
    let storage = gpu_planner::domain::infra::storage_costs(m, &s).0;
    assert!((rvb.own.hardware - storage - 285_000.0).abs() < 1e-6, "{} − {storage}", rvb.own.hardware);
}

/// Picking a speech model starts its job from speech's values (10 clips a second within 10 s;
/// 1,000 hours, 5 epochs), not the image defaults that make every card miss 200 ms; back on an
/// image model the image values return. Values the user changed are kept either way.
#[test]
fn a_speech_model_starts_from_speech_values_and_keeps_the_users() {
    use gpu_planner::domain::scenario::VisionJob;
    let mut s = gpu_planner::domain::Scenario::default();
    s.select_model("whisper-large-v2");
    assert_eq!((s.vision.rate, s.vision.latency_ms, s.vision.dataset, s.vision.epochs), (10.0, 10_000.0, 1_000.0, 5.0));
    s.select_model("yolov8x");
    assert_eq!(s.vision, VisionJob::default());
    // Typed values survive both ways.
    s.vision.rate = 42.0;
    s.select_model("whisper-large-v2");
    assert_eq!((s.vision.rate, s.vision.latency_ms), (42.0, 200.0));
    s.vision = VisionJob::speech();
    s.vision.latency_ms = 3_000.0;
    s.select_model("resnet50");
    assert_eq!((s.vision.rate, s.vision.latency_ms), (10.0, 3_000.0));
    // The speech default meets its target on a card with figures: not every card misses.
    let mut w =
        gpu_planner::domain::Scenario { task: gpu_planner::domain::scenario::Task::Inference, ..Default::default() };
    w.select_model("whisper-large-v2");
    let r = gpu_planner::domain::plan(&w, gpu_planner::domain::Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.cards.iter().any(|v| v.fits && v.vision.as_ref().is_some_and(|x| x.meets)), "some card meets 10 s");
}

/// The engine choice lives only where its select shows (a model measured on two or more
/// engines): moving from ResNet-50 (PyTorch, TensorFlow) to SAM ViT-H (PyTorch and an unstated
/// row) or YOLOv8x (TensorRT) drops it; back on ResNet-50 the user picks again.
#[test]
fn an_engine_choice_does_not_follow_to_a_model_without_the_select() {
    use gpu_planner::domain::vision::Engine;
    let mut s = gpu_planner::domain::Scenario::default();
    s.select_model("resnet50");
    s.vision.engine = Some(Engine::Pytorch);
    s.select_model("resnet50");
    assert_eq!(s.vision.engine, Some(Engine::Pytorch), "kept on a model that offers it");
    for other in ["sam-vit-h-encoder", "yolov8x", "qwen2.5-7b"] {
        s.select_model("resnet50");
        s.vision.engine = Some(Engine::Pytorch);
        s.select_model(other);
        assert_eq!(s.vision.engine, None, "{other}");
    }
}
