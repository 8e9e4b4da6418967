//! Expert and context parallelism as layout dimensions: their memory against published sizes,
//! and plan() and the auto-plan search using them where a model needs them.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use common::{assert_close, report};
use gpu_planner::domain::memory::{self, Layout, Stage};
use gpu_planner::domain::model::preset;
use gpu_planner::domain::scenario::{CardFilter, Parallel, Search, Task, Training};
use gpu_planner::domain::search::search;
use gpu_planner::domain::{Catalog, Scenario};

/// Pre-training `model` at `seq` tokens, one sequence a micro-batch, `global_batch` of them.
fn pretrain(model: &str, seq: u32, global_batch: u32) -> Scenario {
    Scenario {
        task: Task::Pretrain,
        model: model.into(),
        training: Training { seq_len: seq, micro_batch: 1, global_batch, ..Training::default() },
        ..Scenario::default()
    }
}

/// Mixtral 8x7B (Jiang et al. 2024): 46.7B parameters, 12.9B active with 2 of 8 experts. So one
/// expert is (46.7 − 12.9)/6 = 5.63B per all layers and the shared part 12.9 − 2·5.63 = 1.63B.
/// With 8-way expert parallelism each card keeps the shared part and one expert: 7.27B.
#[test]
fn expert_parallelism_keeps_one_expert_per_card_for_mixtral() {
    let s = Scenario { task: Task::Pretrain, model: "mixtral-8x7b".into(), ..Scenario::default() };
    let m = preset("mixtral-8x7b").unwrap_or_else(|| panic!("preset"));
    let expert = (46.7e9 - 12.9e9) / 6.0;
    let per_card = 12.9e9 - 2.0 * expert + expert;
    let l = Layout { dp: 8, ep: 8, ..Layout::single() };
    let b = memory::training_states(m, &s, &l, Stage::Only);
    assert_close(b.weights, 2.0 * per_card, 0.02);
    let dense = memory::training_states(m, &s, &Layout { dp: 8, ..Layout::single() }, Stage::Only);
    assert_close(dense.weights, 2.0 * 46.7e9, 1e-9);
}

/// Megatron-Core context parallelism splits each sequence, so a card holds 1/cp of the
/// activations and of the logits.
#[test]
fn context_parallelism_divides_activations_and_logits() {
    let s = Scenario {
        task: Task::Pretrain,
        model: "llama-3.1-8b".into(),
        training: Training { seq_len: 131_072, micro_batch: 1, global_batch: 16, ..Training::default() },
        ..Scenario::default()
    };
    let m = preset("llama-3.1-8b").unwrap_or_else(|| panic!("preset"));
    let one = memory::training(m, &s, &Layout { tp: 8, dp: 2, ..Layout::single() });
    let four = memory::training(m, &s, &Layout { tp: 8, dp: 2, cp: 4, ..Layout::single() });
    assert_close(four.activations, one.activations / 4.0, 1e-12);
    assert_close(four.logits, one.logits / 4.0, 1e-12);
}

/// A 128k-token sequence of Llama 3.1 8B does not fit on one 80 GB card's share without
/// splitting the sequence: the planner reaches for context parallelism.
#[test]
fn a_long_sequence_plan_uses_context_parallelism() {
    let s = Scenario {
        task: Task::FullFinetune,
        model: "llama-3.1-8b".into(),
        training: Training { seq_len: 131_072, micro_batch: 1, global_batch: 16, ..Training::default() },
        cards: CardFilter { only: vec!["h100-sxm".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    let r = report(&s);
    let c = &r.cards[0];
    println!("128k Llama 3.1 8B on H100: {} cards, {:?}", c.gpus, c.layout);
    assert!(c.fits && c.layout.cp > 1, "{:?}", c.layout);
    let no_cp = Scenario { parallel: Parallel { auto: false, gpus: c.gpus, ..s.parallel.clone() }, ..s.clone() };
    let manual = Scenario {
        parallel: Parallel {
            tp: c.layout.tp,
            pp: c.layout.pp,
            zero: c.layout.zero,
            recompute: c.layout.recompute,
            ..no_cp.parallel.clone()
        },
        ..no_cp
    };
    assert!(!report(&manual).cards[0].fits, "the same layout without CP must not fit");
}

/// DeepSeek-V3's own layout (report §3.2): PP16 × EP64 with ZeRO-1 data parallelism on 2,048
/// H800s. With the experts split 64 ways it fits; the same layout without expert parallelism
/// would keep 1/16 of all 671B parameters' states on every card and does not.
#[test]
fn expert_parallelism_makes_deepseek_v3s_layout_fit() {
    use gpu_planner::domain::framework::Framework;
    use gpu_planner::domain::scenario::Recompute;
    let mut s = Scenario {
        task: Task::Pretrain,
        model: "deepseek-v3".into(),
        training: Training { seq_len: 4096, micro_batch: 1, global_batch: 15_360, ..Training::default() },
        parallel: Parallel {
            auto: false,
            gpus: 2048,
            pp: 16,
            zero: 1,
            ep: 64,
            recompute: Recompute::Full,
            ..Parallel::default()
        },
        cards: CardFilter { only: vec!["h800-sxm".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    s.training.set_framework(Framework::Megatron);
    let with_ep = report(&s).cards[0].clone();
    println!(
        "DeepSeek-V3 PP16 EP64: {:.1} GiB per card, {:?}",
        with_ep.memory.total / (1u64 << 30) as f64,
        with_ep.layout
    );
    assert!(with_ep.fits && with_ep.layout.ep == 64 && with_ep.layout.dp == 128, "{:?}", with_ep.layout);
    s.parallel.ep = 1;
    assert!(!report(&s).cards[0].fits);
}

/// The auto-plan search covers expert-parallel layouts for MoE models.
#[test]
fn the_search_covers_expert_parallel_layouts() {
    let s = Scenario {
        task: Task::Pretrain,
        model: "qwen3-30b-a3b".into(),
        cards: CardFilter { only: vec!["a100-80gb-sxm4".into()], ..CardFilter::default() },
        search: Search { deadline_days: None, budget: None, max_gpus: 64 },
        ..Scenario::default()
    };
    let r = search(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.by_time.iter().chain(&r.pareto).any(|c| c.layout.ep > 1), "no EP layout among the best");
}

/// Context-parallel degrees split a sequence into 2·cp chunks (ring attention balances the
/// causal mask by giving each rank two): only degrees that divide it that way, and only from
/// 16k tokens.
#[test]
fn context_degrees_divide_the_sequence_into_two_chunks_per_rank() {
    use gpu_planner::domain::plan::context_degrees;
    let at = |seq: u32| {
        let mut s = Scenario { task: Task::Pretrain, ..Scenario::default() };
        s.training.seq_len = seq;
        context_degrees(&s)
    };
    assert_eq!(at(8_192), [1]);
    assert_eq!(at(131_072), [1, 2, 4, 8, 16]);
    // 18,000 = 2⁴ · 1,125: 32 chunks would not be whole.
    assert_eq!(at(18_000), [1, 2, 4, 8]);
}

/// What every auto-planned layout must satisfy, over dense, MoE, fixed-count and serving
/// scenarios on every card: a fitting layout's memory is within the card; data-parallel ranks
/// are whole multiples of the expert groups; and in training each rank has at least one
/// micro-batch per step (dp ≤ global batch / micro-batch).
#[test]
fn every_planned_layout_fits_its_card_and_its_batch() {
    let mut cases = vec![
        Scenario { task: Task::Pretrain, model: "mixtral-8x7b".into(), ..Scenario::default() },
        Scenario { task: Task::Pretrain, model: "deepseek-v3".into(), ..Scenario::default() },
        Scenario { task: Task::Inference, model: "qwen2.5-72b".into(), ..Scenario::default() },
    ];
    let mut fixed = Scenario { model: "qwen2.5-7b".into(), ..Scenario::default() };
    fixed.parallel.gpus = 16;
    fixed.training.global_batch = 8;
    fixed.training.micro_batch = 4;
    cases.push(fixed);
    for s in &cases {
        let r = report(s);
        let fitting: Vec<_> = r.cards.iter().filter(|v| v.fits).collect();
        assert!(fitting.len() > 5, "{}: {} fit", s.model, fitting.len());
        for v in fitting {
            let l = &v.layout;
            assert!(v.memory.total <= v.capacity * (1.0 + 1e-12), "{} on {}: {l:?}", s.model, v.gpu);
            assert_eq!(l.dp % l.ep.max(1), 0, "{} on {}: {l:?}", s.model, v.gpu);
            if s.task.is_training() {
                assert!(l.dp * s.training.micro_batch <= s.training.global_batch, "{} on {}: {l:?}", s.model, v.gpu);
            }
        }
    }
}

/// When nothing fits, the row still shows a layout at the user's card count (one 8-card server
/// when the count is automatic): the one with the least memory there, so "does not fit" comes
/// with how far off it is. Llama 3.1 405B pre-training on RTX 4090s with one sequence per step
/// (no data parallelism to shard its 6.5 TB of model states over) fits nowhere.
#[test]
fn a_card_that_fits_nowhere_shows_its_least_memory_layout_at_the_count() {
    use gpu_planner::domain::plan::memory_for;
    use gpu_planner::domain::scenario::Recompute;
    for (want, n) in [(0, 8), (16, 16)] {
        let mut s = Scenario { task: Task::Pretrain, model: "llama-3.1-405b".into(), ..Scenario::default() };
        s.cards.only = vec!["rtx-4090".into()];
        s.parallel.gpus = want;
        s.training.global_batch = 1;
        let v = report(&s).cards[0].clone();
        assert!(!v.fits, "{:?}", v.layout);
        assert_eq!(v.layout.gpus(), n, "{:?}", v.layout);
        assert_eq!(v.layout.dp % v.layout.ep.max(1), 0);
        let m = preset("llama-3.1-405b").unwrap_or_else(|| panic!("preset"));
        let lean = Layout { tp: 8, pp: n / 8, recompute: Recompute::Full, ..Layout::single() };
        assert!(v.memory.total <= memory_for(m, &s, &lean).total, "{:?}: {}", v.layout, v.memory.total);
    }
}

/// A serving row's report fields: prompt tokens per second = requests per second × prompt
/// length, and tensor parallelism inside a replica asks for NVLink-class links (one card per
/// replica does not).
#[test]
fn a_serving_row_reports_its_prompt_rate_and_the_links_it_needs() {
    for (model, tp_wanted) in [("qwen2.5-72b", true), ("qwen2.5-7b", false)] {
        let mut s = Scenario { task: Task::Inference, model: model.into(), ..Scenario::default() };
        s.cards.only = vec!["h100-sxm".into()];
        let v = report(&s).cards[0].clone();
        let (c, t) = (v.serving.as_ref().unwrap_or_else(|| panic!("serving")), v.throughput.unwrap_or_default());
        assert_close(t.prefill_tokens_s, c.rate_rps * f64::from(s.inference.context), 1e-12);
        assert!(t.prefill_tokens_s > 0.0);
        assert_eq!(v.layout.tp > 1, tp_wanted, "{model}: {:?}", v.layout);
        assert_eq!(v.interconnect_needed, if tp_wanted { "nvlink" } else { "pcie" }, "{model}");
    }
}

/// Of the layouts that fit at the plan's card count, the plan takes the fastest (the highest
/// predicted MFU): every layout the search could try for Qwen2.5-7B full fine-tuning and for
/// Llama 3.1 70B LoRA on 8 H100s is sized and timed here, and none beats the chosen one.
#[test]
fn the_plan_takes_the_fastest_layout_that_fits() {
    use gpu_planner::domain::compute::mfu;
    use gpu_planner::domain::plan::{context_degrees, expert_degrees, memory_for, tensor_degrees};
    use gpu_planner::domain::scenario::Recompute;
    for (model, task) in [("qwen2.5-7b", Task::FullFinetune), ("llama-3.1-70b", Task::Lora)] {
        let s = Scenario {
            model: model.into(),
            task,
            parallel: Parallel { gpus: 8, ..Parallel::default() },
            cards: CardFilter { only: vec!["h100-sxm".into()], ..CardFilter::default() },
            ..Scenario::default()
        };
        let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
        let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
        let r = report(&s);
        let v = &r.cards[0];
        assert!(v.fits && v.layout.gpus() == 8, "{model}: {:?}", v.layout);
        let cap = s.parallel.usable(g.memory_gb.unwrap_or(0.0) * 1024.0_f64.powi(3));
        let mut others = Vec::new();
        for tp in tensor_degrees(&m, &g, task) {
            for pp in [1, 2, 4, 8] {
                for cp in context_degrees(&s) {
                    for ep in expert_degrees(&m, task).into_iter().chain([1]) {
                        for zero in 0..=3 {
                            for recompute in [Recompute::None, Recompute::Selective, Recompute::Full] {
                                let shards = tp * pp * cp;
                                if 8 % shards != 0 || (8 / shards) % ep != 0 {
                                    continue;
                                }
                                let l = Layout { tp, pp, dp: 8 / shards, zero, recompute, ep, cp, ..Layout::single() };
                                if memory_for(&m, &s, &l).total <= cap {
                                    others.push(mfu(&m, &s, &g, &l).map_or(0.0, |u| u.predicted));
                                }
                            }
                        }
                    }
                }
            }
        }
        let best = others.iter().copied().fold(0.0, f64::max);
        assert!(others.len() > 10, "{model}: {} layouts fit", others.len());
        assert_close(v.mfu, best, 1e-9);
    }
}

/// Megatron-Core's MoE parallel folding: an expert-parallel group wider than the data-parallel
/// ranks is laid over TP × CP × DP with whole experts (expert TP 1). Megatron-Bridge's Qwen3
/// 235B-A22B on 256 H100s runs TP 2, PP 8, DP 16 and EP 32 that way (its H100 recipes set
/// `expert_tensor_parallel_size = 1`); EP 64 does not fit the 32 ranks of a stage.
#[test]
fn an_expert_group_wider_than_the_data_parallel_ranks_folds_over_tensor_parallelism() {
    let folded = Layout { tp: 2, pp: 8, dp: 16, ep: 32, ..Layout::single() };
    assert!(folded.folds_experts() && folded.ep_fits());
    assert_eq!(folded.expert_tp(), 1);
    let classic = Layout { ep: 8, ..folded };
    assert!(!classic.folds_experts() && classic.ep_fits());
    assert_eq!(classic.expert_tp(), 2);
    let too_wide = Layout { ep: 64, ..folded };
    assert!(!too_wide.folds_experts() && !too_wide.ep_fits());
    assert!(Layout { cp: 2, ep: 64, ..folded }.folds_experts(), "context-parallel ranks count too");
    // Qwen3-235B-A22B's config.json: 94 layers × 128 experts × 3 × 4,096 × 1,536 routed weights.
    let m = preset("qwen3-235b-a22b").unwrap_or_else(|| panic!("preset"));
    let routed = 94.0 * 128.0 * 3.0 * 4096.0 * 1536.0;
    assert_close(m.routed_expert_fraction() * m.params().total, routed, 0.001);
    // BF16 weights of one card, stage by stage alike: whole experts over EP 32 whatever the TP,
    // the dense rest over TP — so TP 2 folded holds the TP 1 card's experts and half its dense
    // weights.
    let s = Scenario { task: Task::Pretrain, model: "qwen3-235b-a22b".into(), ..Scenario::default() };
    let weights = |l: &Layout| memory::training_states(m, &s, l, Stage::Only).weights;
    let whole = weights(&Layout { dp: 32, ..Layout::single() });
    let f = m.routed_expert_fraction();
    let tp1 = weights(&Layout { tp: 1, dp: 32, ep: 32, ..Layout::single() });
    let tp2 = weights(&Layout { tp: 2, dp: 16, ep: 32, ..Layout::single() });
    assert_close(tp1, whole * (1.0 - f + f / 32.0), 1e-9);
    assert_close(tp2, whole * ((1.0 - f) / 2.0 + f / 32.0), 1e-9);
    // Not folded (EP 8 within DP 16), each expert is split by TP as well.
    let split = weights(&Layout { tp: 2, dp: 16, ep: 8, ..Layout::single() });
    assert_close(split, whole * ((1.0 - f) / 2.0 + f / 16.0), 1e-9);
    // A stated folded layout gets a plan (the engine used to reject EP > DP).
    let mut t = Scenario {
        task: Task::Pretrain,
        model: "qwen3-235b-a22b".into(),
        training: Training { seq_len: 4096, micro_batch: 1, global_batch: 8192, ..Training::default() },
        parallel: Parallel { auto: false, gpus: 256, tp: 2, pp: 8, ep: 32, zero: 1, ..Parallel::default() },
        cards: CardFilter { only: vec!["h100-sxm".into()], ..CardFilter::default() },
        ..Scenario::default()
    };
    let v = report(&t).cards[0].clone();
    assert!(v.fits && v.hours.is_some(), "{:?}", v.layout);
    assert_eq!((v.layout.dp, v.layout.ep), (16, 32));
    t.parallel.ep = 64;
    assert!(report(&t).cards[0].hours.is_none(), "EP 64 over 32 ranks has no plan");
}

/// Folded, each rank dispatches its own 1/tp of the sequence-parallel tokens and the group's
/// ranks are neighbours: EP 32 over TP 2 × DP 16 on 8-card servers keeps 7 of its 31 peers in
/// the server (NVLink) and sends the other 24/31 of the bytes over the fabric.
#[test]
fn a_folded_expert_group_sends_each_ranks_own_tokens_to_neighbours() {
    use gpu_planner::domain::comms::{link_within, step_comm, StepTraffic};
    let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
    let mut s = Scenario::default();
    s.infra.fabric_gbit_per_gpu = 400.0;
    let x = StepTraffic { moe_layers: 1.0, dispatch_bytes: 1e8, microbatches: 1.0, ..StepTraffic::default() };
    let l = Layout { tp: 2, dp: 16, ep: 32, ..Layout::single() };
    let c = step_comm(&s, &g, &l, &x, 1.0);
    let sent = 4.0 * 1e8 * 31.0 / 32.0;
    let remote = sent * 24.0 / 31.0;
    let inter = gpu_planner::domain::comms::inter_server(&s);
    assert_close(c.ep_s, (remote / inter).max((sent - remote) / link_within(&g, 8).0), 1e-12);
    assert_close(c.fabric.ep, remote, 1e-12);
}

/// Folded, an expert is whole on its rank and meets the group's tokens that each rank brought
/// (1/tp of the sequence-parallel tokens): Qwen3-235B-A22B at 512 tokens, TP 2 × DP 16 × EP 32,
/// runs 4,096-wide × 1,536 experts at 512/2 × 8 × 32/128 = 512 rows, where TP 2 with EP 8 (not
/// folded) runs 768-wide halves at 512 × 8 × 8/128 = 256 rows (both inside the measured curves).
#[test]
fn folded_experts_run_whole_at_the_groups_rows() {
    use gpu_planner::domain::compute::{expert_time_ratio, routed_flop_share};
    use gpu_planner::domain::experts::ratio;
    let s = pretrain("qwen3-235b-a22b", 512, 64);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let f = routed_flop_share(&m, &s);
    let folded = Layout { tp: 2, pp: 8, dp: 16, ep: 32, ..Layout::single() };
    assert_close(expert_time_ratio(&m, &s, &folded, 1), f * (1.0 / ratio(4096.0, 1536.0, 512.0) - 1.0), 1e-12);
    let split = Layout { ep: 8, ..folded };
    assert_close(expert_time_ratio(&m, &s, &split, 1), f * (1.0 / ratio(4096.0, 768.0, 256.0) - 1.0), 1e-12);
}

/// The fabric bytes of a folded expert group, worked by hand: Qwen3-235B-A22B, 4,096 tokens a
/// micro-batch, GBS 8,192 over DP 16 (512 micro-batches), TP 2 × PP 8 × EP 32 on 8-card
/// servers: ⌈94/8⌉ = 12 MoE layers a stage, each rank dispatching its own 4,096/2 tokens × 8
/// experts × 4,096 × 2 bytes, four all-to-alls a layer and micro-batch, 24 of its 31 peers in
/// other servers.
#[test]
fn a_folded_groups_fabric_bytes_worked_by_hand() {
    use gpu_planner::domain::compute::mfu;
    let s = pretrain("qwen3-235b-a22b", 4096, 8192);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
    let l = Layout { tp: 2, pp: 8, dp: 16, ep: 32, ..Layout::single() };
    let u = mfu(&m, &s, &g, &l).unwrap_or_else(|| panic!("mfu"));
    let dispatch = 4096.0 / 2.0 * 8.0 * 4096.0 * 2.0;
    assert_close(u.comm.fabric.ep, 4.0 * 12.0 * 512.0 * dispatch * 24.0 / 32.0, 1e-9);
}

/// DeepSeek-V3 under a deduplicating dispatcher (`dedup_dispatch`, DeepEP) sends a token to at
/// most 4 nodes once each (§3.2.2) only when its expert group spans servers: EP 8 inside one
/// 8-card server sends all top-8 copies over NVLink (nothing on the fabric); with CP 2 the
/// group's ranks are 2 apart and span two servers, each rank sends its half of the sequence to
/// at most 4 destinations, and 4 of its 7 peers are remote. The plain all-to-all dispatcher
/// (the default) sends all 8 copies there too.
#[test]
fn deepseek_v3_limits_its_sends_only_across_servers() {
    use gpu_planner::domain::comms::link_within;
    use gpu_planner::domain::compute::mfu;
    let mut s = pretrain("deepseek-v3", 4096, 8);
    s.training.conventions.dedup_dispatch = true;
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
    // 58 MoE layers, one micro-batch per rank, BF16 dispatch.
    let inside = mfu(&m, &s, &g, &Layout { dp: 8, ep: 8, ..Layout::single() }).unwrap_or_else(|| panic!("mfu"));
    let sent = 4.0 * 58.0 * (4096.0 * 7168.0 * 2.0 * 8.0) * 7.0 / 8.0;
    assert!(inside.comm.fabric.ep.abs() < 1e-9);
    assert_close(inside.comm.ep_s, sent / link_within(&g, 8).0, 1e-9);
    let across = mfu(&m, &s, &g, &Layout { cp: 2, dp: 8, ep: 8, ..Layout::single() }).unwrap_or_else(|| panic!("mfu"));
    let sent = 4.0 * 58.0 * (4096.0 / 2.0 * 7168.0 * 2.0 * 4.0) * 7.0 / 8.0;
    assert_close(across.comm.fabric.ep, sent * 4.0 / 7.0, 1e-9);
    s.training.conventions.dedup_dispatch = false;
    let plain = mfu(&m, &s, &g, &Layout { cp: 2, dp: 8, ep: 8, ..Layout::single() }).unwrap_or_else(|| panic!("mfu"));
    assert_close(plain.comm.fabric.ep, 2.0 * sent * 4.0 / 7.0, 1e-9);
}

/// Expert parallelism shrinks the gradients a rank reduces over the data-parallel ranks to its
/// own experts' (Mixtral 8x7B, 8 ranks): with EP 8 each holds one of the 8 experts a layer, so the
/// all-reduce carries (1 − r + r/8) of the EP-1 bytes, r the routed experts' share.
#[test]
fn expert_parallelism_shrinks_the_reduced_gradients() {
    use gpu_planner::domain::compute::mfu;
    let s = pretrain("mixtral-8x7b", 4096, 64);
    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}")).clone();
    let g = Catalog::embedded().gpu("h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
    let dp = |ep: u32| {
        mfu(&m, &s, &g, &Layout { dp: 8, ep, zero: 1, ..Layout::single() }).unwrap_or_else(|| panic!("mfu")).comm.dp_s
    };
    let r = m.routed_expert_fraction();
    assert!(r > 0.9, "{r}");
    assert_close(dp(8), dp(1) * (1.0 - r + r / 8.0), 1e-9);
}
