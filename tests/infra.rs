//! Storage, network, power and cooling pinned to arithmetic on published sizes and the catalog's TDPs.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::{assert_close, report};
use gpu_planner::domain::checklist::checklist;
use gpu_planner::domain::infra::{checkpoint_bytes, power};
use gpu_planner::domain::scenario::{CardFilter, Infra, Parallel, Task, Training};
use gpu_planner::domain::verdict::Warning;
use gpu_planner::domain::{Catalog, ModelSpec, Scenario};

fn seventy_b() -> (ModelSpec, Scenario) {
    let m = ModelSpec {
        params_b: Some(70.0),
        layers: 80,
        hidden: 8192,
        intermediate: 28672,
        heads: 64,
        kv_heads: 8,
        vocab: 128_256,
        ..ModelSpec::default()
    };
    let s = Scenario { task: Task::Pretrain, model: "custom".into(), custom_model: m.clone(), ..Scenario::default() };
    (m, s)
}

/// A 70B model's bf16 weights are 2 × 70e9 = 140 GB; resuming also needs fp32 master weights and
/// Adam's two fp32 moments: 14 × 70e9 = 980 GB ≈ 1 TB (16 B/param, i.e. ≈ 1.1 TB, if fp32
/// gradients are saved too).
#[test]
fn checkpoint_sizes_of_a_70b_model() {
    let (m, s) = seventy_b();
    let (weights, full) = checkpoint_bytes(&m, &s);
    assert_close(weights, 140e9, 1e-12);
    assert_close(full, 980e9, 1e-12);
    assert!((0.95e12..=1.15e12).contains(&full));
}

/// A LoRA run saves only its adapters: fp32 adapter weights, and with AdamW's two fp32 moments
/// 4 + 8 = 12 bytes per adapter parameter to resume. Worked by hand with Hu et al.'s r·(d_in +
/// d_out) per adapted matrix on Llama-2-70B's shape (its config.json: hidden 8192, 64 heads, 8 KV
/// heads, intermediate 28672, 80 layers) at rank 16 on every linear layer: 16 · 80 · (q, o
/// 2·(8192+8192) + k, v 2·(8192+1024) + gated MLP 3·(8192+28672)) = 207,093,760.
#[test]
fn a_lora_checkpoint_holds_only_the_adapters() {
    let (m, mut s) = seventy_b();
    s.task = Task::Lora;
    let (weights, full) = checkpoint_bytes(&m, &s);
    assert_close(weights, 4.0 * 207_093_760.0, 1e-12);
    assert_close(full, 12.0 * 207_093_760.0, 1e-12);
    s.task = Task::Qlora;
    assert_close(checkpoint_bytes(&m, &s).1, 12.0 * 207_093_760.0, 1e-12);
}

/// fp32 weights have no separate master copy: 4 + 8 = 12 B/param; bf16 without fp32 master
/// weights (a pure-bf16 optimizer) saves 2 + 8 = 10 B/param.
#[test]
fn a_checkpoint_counts_master_weights_only_for_mixed_precision() {
    let (m, mut s) = seventy_b();
    s.precision = gpu_planner::domain::scenario::Precision::Fp32;
    assert_close(checkpoint_bytes(&m, &s).1, 12.0 * 70e9, 1e-12);
    s.precision = gpu_planner::domain::scenario::Precision::Bf16;
    s.training.master_weights = false;
    assert_close(checkpoint_bytes(&m, &s).1, 10.0 * 70e9, 1e-12);
}

#[test]
fn checkpoint_write_time_and_share_of_the_run() {
    let (_, mut s) = seventy_b();
    s.infra = Infra { storage_gb_s: 2.0, checkpoint_every_hours: 2.0, ..Infra::default() };
    let r = report(&s);
    let i = r.infra.unwrap_or_else(|| panic!("infra"));
    assert_close(i.checkpoint_write_s, 490.0, 1e-12); // 980 GB / 2 GB/s
    assert_close(i.checkpoint_overhead, 490.0 / 7200.0, 1e-12);
    // Kept: 3 × 980 GB + 140 GB weights + 1e9 tokens × 4 B.
    assert_close(i.storage, 3.0 * 980e9 + 140e9 + 4e9, 1e-12);
    assert_close(i.dataset, 1e9 * 4.0, 1e-12); // the default 1e9 tokens as int32 ids
}

/// Power sums are the catalog TDPs plus the host: 16 × H100 SXM (700 W) in 2 servers with 1.5 kW
/// hosts = 14.2 kW IT; heat 14,200 W × 3.41214 = 48,452 BTU/h; 14.2 / 3.51685 = 4.04 tons.
#[test]
fn power_and_cooling_sum_the_catalog_tdps() {
    let g = Catalog::embedded().gpu("h100-sxm").unwrap_or_else(|| panic!("h100"));
    assert_eq!(g.tdp_w, Some(700.0));
    let s = Scenario::default();
    let p = power(&s, g, 16);
    assert_eq!(p.servers, 2);
    assert_close(p.server_w, 8.0 * 700.0 + 1_500.0, 1e-12);
    assert_close(p.it_kw, 14.2, 1e-12);
    assert_close(p.heat_btu_h, 48_452.388, 1e-6);
    assert_close(p.cooling_tons, 4.0377, 1e-4);
    assert_close(p.psu_w, 8_900.0, 1e-12); // 7,100 W × 1.25 rounded up to 100 W
    assert_close(p.facility_kw, 14.2 * s.ownership.pue, 1e-12);
    // NVIDIA rates a DGX H100 at 10.2 kW max; our loaded 8-card server stays below that rating.
    assert!(p.server_w < 10_200.0);
}

#[test]
fn office_room_and_rack_limits_are_flagged() {
    let mut s = Scenario {
        parallel: Parallel { gpus: 4, ..Parallel::default() },
        cards: CardFilter { only: vec!["rtx-4090".into()], ..CardFilter::default() },
        task: Task::Lora,
        ..Scenario::default()
    };
    s.infra.room = "office".into();
    let w = report(&s).infra.map(|i| i.warnings).unwrap_or_default();
    assert!(w.iter().any(|w| matches!(w, Warning::OfficeRoom { .. })), "{w:?}");
    s.infra.room = "datacenter".into();
    s.infra.rack_kw_limit = 1.0;
    let w = report(&s).infra.map(|i| i.warnings).unwrap_or_default();
    assert!(w.iter().any(|w| matches!(w, Warning::RackPowerOverLimit { .. })), "{w:?}");
}

#[test]
fn a_slow_fabric_dominates_multi_server_training() {
    // Fused kernels (Megatron-style): the step these figures were read from.
    let fused = {
        let mut t = Training { global_batch: 512, tokens: 1e11, ..Training::default() };
        t.conventions.fused_kernels = true;
        t
    };
    let mk = |gbit: f64| Scenario {
        task: Task::Pretrain,
        model: "llama-3.1-70b".into(),
        training: fused.clone(),
        parallel: Parallel { gpus: 64, ..Parallel::default() },
        cards: CardFilter { only: vec!["h100-sxm".into()], ..CardFilter::default() },
        infra: Infra { fabric_gbit_per_gpu: gbit, ..Infra::default() },
        ..Scenario::default()
    };
    // 8 Gb/s per GPU: the gradient traffic (ZeRO-3 over 16 servers) keeps the fabric busy for 56%
    // of a 39.3 s step. (At 25 Gb/s, 20% of a 35.0 s step: no warning; at 10 Gb/s, 46% of 38.0 s
    // since the hidden traffic's contention, comms::contended, lengthens the step.)
    let slow = report(&mk(8.0)).infra.unwrap_or_else(|| panic!("infra"));
    let n = slow.network.unwrap_or_else(|| panic!("multi-server plan has network traffic"));
    assert!(slow.warnings.iter().any(|w| matches!(w, Warning::FabricDominates { .. })));
    // The sizing reads the time model's own fabric bytes (comms.rs): the same figure, the same
    // step, so the warning and the predicted MFU cannot disagree.
    let r = report(&mk(8.0));
    let v = r.cards.iter().find(|c| c.gpu == "h100-sxm").unwrap_or_else(|| panic!("h100"));
    let comm = &v.utilisation.as_ref().unwrap_or_else(|| panic!("utilisation")).comm;
    assert_eq!(n.bytes, comm.fabric);
    assert!(n.bytes.total() > 0.0);
    assert_close(n.needed_gbit, n.bytes.total() * 8.0 / 1e9 / n.step_s, 1e-12);
    assert_close(n.comm_share, n.needed_gbit / 8.0, 1e-12);
    // One step's time is the run's hours over its steps: 1e11 tokens / (512 × seq_len) steps.
    let steps = 1e11 / (512.0 * f64::from(Training::default().seq_len));
    assert_close(n.step_s, v.hours.unwrap_or_default() * 3600.0 / steps, 1e-12);
    assert!(n.comm_share > 0.5 && comm.exposed_s > comm.tp_s, "{comm:?}");
    // Inside one server nothing crosses the fabric: no network figure. Nor for serving.
    let one = Scenario { task: Task::Lora, parallel: Parallel { gpus: 8, ..Parallel::default() }, ..mk(10.0) };
    let r = report(&one);
    let v = r.cards.iter().find(|c| c.gpu == "h100-sxm").unwrap_or_else(|| panic!("h100"));
    assert!((v.gpus, v.servers, v.hours.is_some()) == (8, 1, true), "{} cards, {} servers", v.gpus, v.servers);
    assert!(r.infra.is_some_and(|i| i.network.is_none()));
    let serve = Scenario { task: Task::Inference, ..mk(10.0) };
    assert!(report(&serve).infra.is_some_and(|i| i.network.is_none()));
    let fast = report(&mk(400.0)).infra.unwrap_or_else(|| panic!("infra"));
    assert!(fast.network.is_some_and(|f| f.comm_share < n.comm_share));
}

#[test]
fn checklist_is_bilingual_and_follows_the_card() {
    let cat = Catalog::embedded();
    let ascend = checklist(cat.gpu("huawei-ascend-910b3").unwrap_or_else(|| panic!("910b")), cat);
    assert!(ascend.iter().any(|i| i.topic_en == "Software stack" && i.en.contains("CANN")));
    let h100 = checklist(cat.gpu("h100-sxm").unwrap_or_else(|| panic!("h100")), cat);
    assert!(h100.iter().any(|i| i.en.contains("HBM")));
    assert!(h100.iter().any(|i| i.zh.contains("NVLink")));
    let rtx = checklist(cat.gpu("rtx-4090").unwrap_or_else(|| panic!("4090")), cat);
    assert!(rtx.iter().any(|i| i.en.contains("12V")));
    for i in h100.iter().chain(&ascend).chain(&rtx) {
        assert!(!i.en.is_empty() && !i.zh.is_empty());
    }
}

/// A card without a published power is not counted as 0 W in silence: the power row says the
/// figure is unknown, the infrastructure warns that the sums count the hosts only, and the
/// rent-vs-buy power formula says so too. A sourced estimate is counted and labelled as one.
#[test]
fn unknown_card_power_is_flagged_and_an_estimate_is_counted_as_one() {
    use gpu_planner::domain::catalog::CardPower;
    use gpu_planner::domain::cost::own_costs;
    use gpu_planner::domain::format::{card_power, Lang};
    let c = Catalog::embedded();
    let ascend = c.gpu("huawei-ascend-910b3").unwrap_or_else(|| panic!("910B3"));
    assert_eq!((ascend.tdp_w, ascend.power()), (None, CardPower::Unknown), "no published power");
    let s = Scenario::default();
    let p = power(&s, ascend, 8);
    assert_eq!(p.card_power, CardPower::Unknown);
    assert_close(p.server_w, s.ownership.host_watts, 1e-12);
    assert!(card_power(p.card_power, Lang::En).contains("not published"));
    assert!(card_power(p.card_power, Lang::Zh).contains("未公布"));
    let mut on_ascend = Scenario { task: Task::Pretrain, ..Scenario::default() };
    on_ascend.ownership.gpu = ascend.id.clone();
    on_ascend.cards = CardFilter { only: vec![ascend.id.clone()], ..CardFilter::default() };
    let r = report(&on_ascend);
    let i = r.infra.unwrap_or_else(|| panic!("infra"));
    assert!(i.warnings.contains(&Warning::CardPowerUnknown), "{:?}", i.warnings);

    // The same card with an estimate of 400 W: counted in the server, flagged as an estimate.
    let estimated = gpu_planner::domain::catalog::Gpu { power_estimate_w: Some(400.0), ..ascend.clone() };
    let p = power(&s, &estimated, 8);
    assert_eq!(p.card_power, CardPower::Estimated(400.0));
    assert_close(p.server_w, 8.0 * 400.0 + s.ownership.host_watts, 1e-12);
    assert!(card_power(p.card_power, Lang::En).starts_with("≈400 W (estimated"));
    // Electricity per hour: (8 × 400 W + 1 host) × PUE × price, against hosts only when unknown.
    let o = &s.ownership;
    let with = own_costs(&s, &estimated, 8, 1.0).power_per_hour;
    let without = own_costs(&s, ascend, 8, 1.0).power_per_hour;
    assert_close(with - without, 3.2 * o.pue * o.electricity_per_kwh, 1e-9);
    // A published TDP wins over an estimate.
    let both = gpu_planner::domain::catalog::Gpu { tdp_w: Some(350.0), ..estimated };
    assert_eq!(both.power(), CardPower::Published(350.0));
}

/// The rest of the power sums, by hand: 16 × H100 SXM in 2 servers of 7,100 W (8 × 700 W +
/// 1,500 W host), 2 servers a rack: one rack of 14.2 kW; UPS 14.2 kW / 0.9 × 1.25 = 19.72 kVA.
/// 40 cards: 5 servers, 3 racks, the fullest rack 2 × 7,100 W.
#[test]
fn racks_and_ups_follow_the_servers() {
    let g = Catalog::embedded().gpu("h100-sxm").unwrap_or_else(|| panic!("h100"));
    let s = Scenario::default();
    assert_close(s.ownership.host_watts, 1_500.0, 1e-12);
    let p = power(&s, g, 16);
    assert_eq!((p.cards_per_server, p.racks), (8, 1));
    assert_close(p.rack_w, 14_200.0, 1e-12);
    assert_close(p.ups_kva, 14.2 / 0.9 * 1.25, 1e-12);
    let p = power(&s, g, 40);
    assert_eq!((p.servers, p.racks), (5, 3));
    assert_close(p.rack_w, 14_200.0, 1e-12);
    assert_close(p.it_kw, 40.0 * 0.7 + 5.0 * 1.5, 1e-12);
    // Three cards fill part of one server: that server's draw, one rack.
    let p = power(&s, g, 3);
    assert_eq!((p.cards_per_server, p.servers, p.racks), (3, 1, 1));
    assert_close(p.server_w, 3.0 * 700.0 + 1_500.0, 1e-12);
}

/// Storage is bought or rented per TB in the ownership currency and shown in the page's: the
/// 70B run keeps 3 × 980 GB + 140 GB + 1e9 tokens × 4 B = 3.084 TB: ¥1,500/TB = ¥4,626 up front,
/// ¥120 per TB-month = ¥370.08 a month; in US dollars at ¥7.1 per dollar, a 7.1th of that.
/// Serving keeps the weights only (140 GB), no dataset and no checkpoint pauses.
#[test]
fn storage_costs_convert_and_serving_keeps_the_weights() {
    use gpu_planner::domain::infra::storage_costs;
    use gpu_planner::domain::scenario::Currency;
    let (m, mut s) = seventy_b();
    s.training.tokens = 1e9;
    assert_eq!((s.ownership.currency, s.money.currency), (Currency::CNY, Currency::CNY));
    let (own, rent) = storage_costs(&m, &s);
    assert_close(own, 3.084 * 1_500.0, 1e-12);
    assert_close(rent, 3.084 * 120.0, 1e-12);
    s.money.currency = Currency::USD;
    let (own_usd, rent_usd) = storage_costs(&m, &s);
    assert_close(own_usd, own / 7.1, 1e-12);
    assert_close(rent_usd, rent / 7.1, 1e-12);
    s.money.currency = Currency::CNY;
    s.task = Task::Inference;
    let i = report(&s).infra.unwrap_or_else(|| panic!("infra"));
    assert_close(i.storage, 140e9, 1e-12);
    assert_close(i.dataset, 0.0, 1e-12);
    assert_close(i.checkpoint_overhead, 0.0, 1e-12);
    assert!(i.network.is_none());
}

/// One RTX 4090 in a data centre within its rack limit gets no warning; in an office its 450 W
/// is at the office's card limit (≥ 450 W) and is warned about; a rack exactly at its kW limit
/// is within it (the warning is for above).
#[test]
fn rooms_within_their_limits_get_no_warning() {
    let mut s = Scenario {
        parallel: Parallel { gpus: 1, ..Parallel::default() },
        cards: CardFilter { only: vec!["rtx-4090".into()], ..CardFilter::default() },
        task: Task::Lora,
        ..Scenario::default()
    };
    let w = report(&s).infra.map(|i| i.warnings).unwrap_or_default();
    assert!(w.is_empty(), "{w:?}");
    s.infra.room = "office".into();
    let w = report(&s).infra.map(|i| i.warnings).unwrap_or_default();
    assert!(w.iter().any(|w| matches!(w, Warning::OfficeRoom { .. })), "a 450 W card in an office: {w:?}");
    s.infra.room = "datacenter".into();
    let rack_kw = report(&s).infra.map(|i| i.power.rack_w / 1000.0).unwrap_or_default();
    s.infra.rack_kw_limit = rack_kw;
    let w = report(&s).infra.map(|i| i.warnings).unwrap_or_default();
    assert!(w.is_empty(), "exactly at the limit: {w:?}");
    // Just under the rack's draw: warned, with the rack's own kW and the limit in the warning.
    s.infra.rack_kw_limit = rack_kw * 0.99;
    let w = report(&s).infra.map(|i| i.warnings).unwrap_or_default();
    assert_eq!(w, vec![Warning::RackPowerOverLimit { rack_kw, limit_kw: rack_kw * 0.99 }]);
    // Cards under 450 W in an office: one L4 (72 W) is fine; four L40S (350 W each) make a
    // server over 1.5 kW, which an office circuit and its air conditioning are not sized for.
    s.infra = gpu_planner::domain::scenario::Infra { room: "office".into(), ..Default::default() };
    s.cards.only = vec!["l4".into()];
    let w = report(&s).infra.map(|i| i.warnings).unwrap_or_default();
    assert!(w.is_empty(), "one L4 in an office: {w:?}");
    s.cards.only = vec!["l40s".into()];
    s.parallel.gpus = 4;
    let i = report(&s).infra.unwrap_or_else(|| panic!("infra"));
    assert!(i.power.server_w > 1_500.0, "{}", i.power.server_w);
    assert!(i.warnings.iter().any(|w| matches!(w, Warning::OfficeRoom { .. })), "{:?}", i.warnings);
}
