//! Real `config.json` files (tests/configs/, sources in tests/configs/SOURCES.md) read into
//! models and held to the parameter counts their model cards publish; a config of a preset's
//! model plans like the preset; bad configs give an error naming the field.

mod common;
use common::{assert_close, report};
use gpu_planner::domain::config::{check_index, read_config, ConfigError, ConfigRead};
use gpu_planner::domain::model::preset;
use gpu_planner::domain::Scenario;

fn read(file: &str) -> ConfigRead {
    let path = format!("{}/tests/configs/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_config(&text).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// (file, published total in billions, published active in billions for MoE, tolerance on the
/// total).
/// Counts leave out norms and biases (<0.1%) and multi-token-prediction heads.
const PUBLISHED: [(&str, f64, Option<f64>, f64); 27] = [
    // huggingface.co/meta-llama/Llama-3.1-8B: "8.03B params" (safetensors); model card "8B".
    ("llama-3.1-8b.json", 8.03, None, 0.03),
    // huggingface.co/meta-llama/Llama-3.1-70B: "70.6B params"; model card "70B".
    ("llama-3.1-70b.json", 70.6, None, 0.03),
    // huggingface.co/Qwen/Qwen2.5-7B-Instruct model card: "Number of Parameters: 7.61B".
    ("qwen2.5-7b-instruct.json", 7.61, None, 0.03),
    // huggingface.co/Qwen/Qwen3-8B model card: "Number of Parameters: 8.2B".
    ("qwen3-8b.json", 8.2, None, 0.03),
    // huggingface.co/Qwen/Qwen3-32B model card: "Number of Parameters: 32.8B".
    ("qwen3-32b.json", 32.8, None, 0.03),
    // huggingface.co/Qwen/Qwen3-30B-A3B: "30.5B in total and 3.3B activated".
    ("qwen3-30b-a3b.json", 30.5, Some(3.3), 0.03),
    // The FP8 repack of the same model: same shape, plus a quantization_config.
    ("qwen3-30b-a3b-fp8.json", 30.5, Some(3.3), 0.03),
    // huggingface.co/Qwen/Qwen3-235B-A22B: "235B in total and 22B activated".
    ("qwen3-235b-a22b.json", 235.0, Some(22.0), 0.03),
    // huggingface.co/Qwen/Qwen3-Next-80B-A3B-Thinking: "80B in total and 3B activated".
    // Its Gated DeltaNet layers are sized as attention layers here (a 1.4% under-count).
    ("qwen3-next-80b-a3b-thinking.json", 80.0, Some(3.0), 0.03),
    // huggingface.co/deepseek-ai/DeepSeek-V3: "671B total parameters with 37B activated"
    // (the 685B on the Hub adds the 14B multi-token-prediction module).
    ("deepseek-v3.json", 671.0, Some(37.0), 0.03),
    // huggingface.co/moonshotai/Kimi-K2-Instruct: "32 billion activated parameters and
    // 1 trillion total parameters".
    ("kimi-k2.json", 1000.0, Some(32.0), 0.04),
    // mistral.ai/news/mixtral-of-experts: "46.7B total parameters but only uses 12.9B".
    ("mixtral-8x7b.json", 46.7, Some(12.9), 0.03),
    // huggingface.co/openai/gpt-oss-20b: "21B parameters with 3.6B active parameters".
    ("gpt-oss-20b.json", 21.0, Some(3.6), 0.03),
    // huggingface.co/openai/gpt-oss-120b: "117B parameters with 5.1B active parameters".
    ("gpt-oss-120b.json", 117.0, Some(5.1), 0.03),
    // huggingface.co/google/gemma-2-2b-it: "2.61B params" (Gemma 2 report: 2.6B).
    ("gemma-2-2b-it.json", 2.61, None, 0.03),
    // huggingface.co/zai-org/GLM-4.5-Air: "106 billion total parameters and 12 billion active".
    ("glm-4.5-air.json", 106.0, Some(12.0), 0.03),
    // huggingface.co/MiniMaxAI/MiniMax-M2: "230 billion total parameters with 10 billion
    // active" (M2.5 keeps the M2 shape).
    ("minimax-m2.5.json", 230.0, Some(10.0), 0.03),
    // huggingface.co/meta-llama/Llama-4-Scout-17B-16E-Instruct: "17B activated, 109B total";
    // the total includes the vision encoder, which this config only names by its size.
    ("llama-4-scout.json", 109.0, Some(17.0), 0.05),
    // huggingface.co/Qwen/Qwen3-VL-8B-Instruct: "8.77B params" (language model + vision tower).
    ("qwen3-vl-8b.json", 8.77, None, 0.05),
    // Encoder–decoder. huggingface.co/google-t5/t5-base model card: "T5-Base is the checkpoint
    // with 220 million parameters" (the Hub's safetensors count: 223M).
    ("t5-base.json", 0.22, None, 0.03),
    // huggingface.co/google/flan-t5-base: "248M params"; flan-t5-large: "783M params".
    ("flan-t5-base.json", 0.248, None, 0.03),
    ("flan-t5-large.json", 0.783, None, 0.03),
    // github.com/openai/whisper README, "Available models": large, 1550 M parameters. The
    // convolutional front end and position tables (~7M) are not counted here.
    ("whisper-large-v3.json", 1.55, None, 0.03),
    // Gemma 3 technical report (arXiv 2503.19786), Table 1: Gemma 3 1B has 302M embedding and
    // 698M non-embedding parameters. Its config alternates 5 sliding-window layers with 1 global.
    ("gemma-3-1b-it.json", 1.0, None, 0.03),
    // LLaMA paper (arXiv 2302.13971), Table 2: "6.7B". The config has no num_key_value_heads
    // (multi-head attention: as many KV heads as heads).
    ("llama-7b.json", 6.7, None, 0.03),
    // mistral.ai/news/announcing-mistral-7b: "Mistral 7B is a 7.3B parameter model"; the
    // checkpoint is bitsandbytes NF4 (the count is of the model, not of its 4-bit storage).
    ("mistral-7b-bnb-4bit.json", 7.3, None, 0.03),
    // Qwen2 technical report (arXiv 2407.10671) and the model's name: 57B in total, 14B active
    // (64 routed experts, top 8, one shared expert of 20,480; decoder_sparse_step 1).
    ("qwen2-57b-a14b.json", 57.0, Some(14.0), 0.03),
];

#[test]
fn parsed_counts_match_published_counts() {
    let mut failures = Vec::new();
    for (file, total, active, tol) in PUBLISHED {
        let r = read(file);
        let c = r.model.computed_params();
        let vision = r.vision_params.unwrap_or(0.0);
        let got = (c.total + vision) / 1e9;
        let got_active = (c.active + vision) / 1e9;
        // Vendors differ on whether the embeddings count as active: gpt-oss's card leaves the
        // input embedding out (20.91B total, 3.61B active), GLM-4.5-Air's both embedding and
        // head (13.4B − 1.2B ≈ 12B), Qwen's keeps both in.
        let embeddings = c.embedding / 1e9;
        println!("{file:38} total {got:8.2} B (published {total}), active {got_active:7.2} B ({active:?})");
        if (got / total - 1.0).abs() > tol {
            failures.push(format!("{file}: total {got:.2} B vs published {total} B"));
        }
        if let Some(a) = active {
            if a < (got_active - embeddings) * 0.95 || a > got_active * 1.05 {
                failures.push(format!("{file}: active {got_active:.2} B vs published {a} B"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Each family's structure as read (the parts that change memory beyond the count).
#[test]
fn families_read_their_structure() {
    let v3 = read("deepseek-v3.json").model;
    let (moe, mla) = (v3.moe.as_ref().expect("moe"), v3.mla.as_ref().expect("mla"));
    assert_eq!((moe.experts, moe.experts_per_token, moe.shared_experts, moe.dense_layers), (256, 8, 1, 3));
    assert_eq!((mla.kv_lora_rank, mla.qk_rope_head_dim, mla.q_lora_rank), (512, 64, Some(1536)));

    let gemma = read("gemma-2-2b-it.json").model;
    assert_eq!((gemma.sliding_window, gemma.sliding_window_layers), (Some(4096), Some(0.5)));
    assert!(gemma.tied_embeddings, "gemma ties its output head");

    let oss = read("gpt-oss-20b.json");
    assert_eq!((oss.model.sliding_window, oss.model.sliding_window_layers), (Some(128), Some(0.5)));
    let q = oss.quantization.expect("mxfp4");
    assert_eq!((q.method.as_str(), q.bits, q.group_size), ("mxfp4", Some(4), Some(32)));

    let next = read("qwen3-next-80b-a3b-thinking.json");
    // 36 of 48 layers are linear: 32 value heads × 128 × 128 state = 512 tokens of 2·2·256 KV.
    assert_eq!((next.model.sliding_window, next.model.sliding_window_layers), (Some(512), Some(0.75)));
    assert_eq!(next.model.moe.as_ref().map(|m| m.shared_experts), Some(1));

    let vl = read("qwen3-vl-8b.json");
    assert_eq!((vl.model.layers, vl.model.hidden), (36, 4096));
    assert!(vl.vision_params.is_some_and(|p| p > 0.3e9), "vision tower sized");

    let scout = read("llama-4-scout.json").model;
    assert_eq!(scout.moe.as_ref().map(|m| (m.experts, m.experts_per_token, m.shared_experts)), Some((16, 1, 1)));

    let fp8 = read("qwen3-30b-a3b-fp8.json").quantization.expect("fp8");
    assert_eq!((fp8.method.as_str(), fp8.bits, fp8.group_size), ("fp8", Some(8), Some(128 * 128)));

    // Encoder–decoder stacks: T5's naming (the relu MLP of the original, the gated one of Flan,
    // the head tied unless untied) and BART/Whisper's (1,500 audio frames into the encoder).
    let t5 = read("t5-base.json").model;
    assert_eq!((t5.layers, t5.encoder.as_ref().map(|e| (e.layers, e.seq))), (12, Some((12, 512))));
    assert!(!t5.gated_mlp && t5.tied_embeddings && t5.heads == t5.kv_heads);
    let flan = read("flan-t5-large.json").model;
    assert!(flan.gated_mlp && !flan.tied_embeddings);
    assert_eq!((flan.intermediate, flan.head_dim()), (2816, 64));
    let whisper = read("whisper-large-v3.json");
    let w = &whisper.model;
    assert_eq!((w.layers, w.hidden, w.heads, w.intermediate, w.vocab, w.max_context), (32, 1280, 20, 5120, 51866, 448));
    assert_eq!(w.encoder.as_ref().map(|e| (e.layers, e.seq)), Some((32, 1500)));
    assert!(!w.gated_mlp && w.tied_embeddings);
    assert!(whisper.notes.iter().any(|n| n.contains("encoder–decoder")), "{:?}", whisper.notes);
    // What was not in the file is said, not silently assumed.
    assert!(whisper.notes.iter().any(|n| n.contains("no tie_word_embeddings")), "{:?}", whisper.notes);
    assert!(!read("flan-t5-large.json").notes.iter().any(|n| n.contains("tie_word_embeddings")));

    let glm = read("glm-4.5-air.json").model;
    assert_eq!(glm.moe.as_ref().map(|m| (m.dense_layers, m.dense_intermediate)), Some((1, Some(10944))));
}

/// The config of a preset's model, pasted, plans exactly like the preset's structure (as the
/// custom form would hold it), and within the preset's published-vs-computed gap of the preset.
#[test]
fn config_plans_like_its_preset() {
    for (file, id) in [
        ("llama-3.1-8b.json", "llama-3.1-8b"),
        ("llama-3.1-70b.json", "llama-3.1-70b"),
        ("qwen2.5-7b-instruct.json", "qwen2.5-7b"),
        ("qwen3-8b.json", "qwen3-8b"),
        ("qwen3-30b-a3b.json", "qwen3-30b-a3b"),
        ("deepseek-v3.json", "deepseek-v3"),
        ("mixtral-8x7b.json", "mixtral-8x7b"),
        ("flan-t5-large.json", "flan-t5-large"),
        ("whisper-large-v3.json", "whisper-large-v3"),
    ] {
        let p = preset(id).expect("preset");
        let parsed = read(file).model;
        let shape = |m: &gpu_planner::domain::ModelSpec| {
            (m.layers, m.hidden, m.intermediate, m.heads, m.kv_heads, m.head_dim(), m.vocab, m.tied_embeddings)
        };
        assert_eq!(shape(&parsed), shape(p), "{file}: shape");
        assert_eq!(
            (&parsed.moe, &parsed.mla, &parsed.encoder),
            (&p.moe, &p.mla, &p.encoder),
            "{file}: moe/mla/encoder"
        );
        let custom = |m| Scenario { model: "custom".into(), custom_model: m, ..Scenario::default() };
        let from_config = report(&custom(ModelSpec { max_context: p.max_context, ..parsed }));
        let from_preset = report(&custom(p.as_custom()));
        assert_close(from_config.memory_single.total, from_preset.memory_single.total, 1e-12);
        let published = report(&Scenario { model: id.into(), ..Scenario::default() });
        assert_close(from_config.memory_single.total, published.memory_single.total, 0.02);
        println!(
            "{file}: {:.2} GB from config, {:.2} GB preset",
            from_config.memory_single.total / 1e9,
            published.memory_single.total / 1e9
        );
    }
}

use gpu_planner::domain::ModelSpec;

#[test]
fn bad_configs_name_the_field() {
    assert!(matches!(read_config("{not json"), Err(ConfigError::NotJson(_))));
    assert!(matches!(read_config(""), Err(ConfigError::NotJson(_))));
    assert_eq!(read_config("[1, 2]"), Err(ConfigError::NotObject));
    let base = r#"{"num_hidden_layers": 32, "hidden_size": 4096, "intermediate_size": 11008,
        "num_attention_heads": 32, "vocab_size": 32000"#;
    assert!(read_config(&format!("{base}}}")).is_ok());
    let without = base.replace(r#""hidden_size": 4096,"#, "");
    assert_eq!(read_config(&format!("{without}}}")), Err(ConfigError::Missing("hidden_size")));
    let negative = base.replace("4096", "-4096");
    let e = read_config(&format!("{negative}}}")).expect_err("negative");
    assert!(e.to_string().contains("hidden_size") && e.to_string().contains("-4096"), "{e}");
    let fraction = base.replace("32000", "32000.5");
    assert!(read_config(&format!("{fraction}}}")).expect_err("fraction").to_string().contains("vocab_size"));
    let text = base.replace("11008", "\"big\"");
    assert!(read_config(&format!("{text}}}")).expect_err("string").to_string().contains("intermediate_size"));
    // Structures the planner cannot size are refused by name.
    for (extra, field) in [
        // An encoder–decoder flag on decoder-only names: the encoder–decoder fields are missing.
        (r#", "is_encoder_decoder": true"#, "d_model"),
        (r#", "mamba_d_state": 16"#, "mamba_d_state"),
        (r#", "num_layers": 40"#, "num_layers"),
        (r#", "layer_types": ["full_attention"]"#, "layer_types"),
    ] {
        let e = read_config(&format!("{base}{extra}}}")).expect_err(field);
        assert!(e.to_string().contains(field), "{field}: {e}");
    }
    let mut types = vec!["\"full_attention\""; 31];
    types.push("\"cross_attention\"");
    let e = read_config(&format!("{base}, \"layer_types\": [{}]}}", types.join(","))).expect_err("layer kind");
    assert!(e.to_string().contains("layer_types[31]") && e.to_string().contains("cross_attention"), "{e}");
    let sliding = vec!["\"sliding_attention\""; 32].join(",");
    let e = read_config(&format!("{base}, \"layer_types\": [{sliding}]}}")).expect_err("window");
    assert_eq!(e, ConfigError::Missing("sliding_window"));
    // Encoder and decoder of different shapes cannot be one EncoderSpec.
    let whisper = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/configs/whisper-large-v3.json"))
        .unwrap_or_default();
    let uneven = whisper.replace(r#""decoder_ffn_dim": 5120"#, r#""decoder_ffn_dim": 4096"#);
    assert_ne!(uneven, whisper);
    let e = read_config(&uneven).expect_err("uneven stacks");
    assert!(e.to_string().contains("decoder_ffn_dim") && e.to_string().contains("4096"), "{e}");
    // MoE without its routing.
    let e = read_config(&format!("{base}, \"num_local_experts\": 8}}")).expect_err("top-k");
    assert_eq!(e, ConfigError::Missing("num_experts_per_tok"));
    // MLA without its dimensions.
    let e = read_config(&format!("{base}, \"kv_lora_rank\": 512}}")).expect_err("mla");
    assert!(matches!(e, ConfigError::Missing(_)), "{e}");
    // kv heads above heads: the model's own check.
    let e = read_config(&format!("{base}, \"num_key_value_heads\": 64}}")).expect_err("kv");
    assert!(e.to_string().contains("kv_heads"), "{e}");
}

#[test]
fn safetensors_index_cross_checks_the_count() {
    let r = read("llama-3.1-8b.json");
    let params = r.model.computed_params().total;
    // The published index of Llama-3.1-8B: 16,060,522,496 bytes of bf16.
    let index = r#"{"metadata": {"total_size": 16060522496}, "weight_map": {}}"#;
    assert_eq!(check_index(index, params, 2.0), Ok(None));
    let off = check_index(r#"{"metadata": {"total_size": 17000000000}}"#, params, 2.0).expect("parsed");
    assert!(off.is_some_and(|d| d < -0.02), "{off:?}");
    assert_eq!(check_index("{}", params, 2.0), Err(ConfigError::Missing("metadata.total_size")));
}

/// One paste box takes either file: a config becomes the scenario's custom model (pre-quantised
/// FP8 weights set the weight format), an index is checked against the model in use.
#[test]
fn a_pasted_config_becomes_the_custom_model_and_an_index_is_checked() {
    use gpu_planner::domain::config::{read_pasted, Pasted};
    use gpu_planner::domain::scenario::WeightQuant;
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/configs/qwen3-30b-a3b-fp8.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let Ok(Pasted::Config(read)) = read_pasted(&text, 0.0, 2.0) else { panic!("not read as a config") };
    let mut s = Scenario::default();
    s.apply_config(&read);
    assert_eq!((s.model.as_str(), s.weight_quant), ("custom", WeightQuant::Fp8));
    assert_eq!(s.custom_model, read.model);
    // The same structure as the Qwen3-30B-A3B preset: the same plan.
    let p = preset("qwen3-30b-a3b").expect("preset");
    assert_eq!((&s.custom_model.moe, s.custom_model.layers), (&p.moe, p.layers));
    let index = r#"{"metadata": {"total_size": 16060522496}, "weight_map": {"lm_head.weight": "x"}}"#;
    let params = read_config(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/configs/llama-3.1-8b.json"))
            .unwrap_or_default(),
    )
    .map(|r| r.model.computed_params().total)
    .unwrap_or(0.0);
    assert_eq!(read_pasted(index, params, 2.0), Ok(Pasted::Index(None)));
    assert!(matches!(read_pasted(index, params * 1.1, 2.0), Ok(Pasted::Index(Some(d))) if (d - 0.1).abs() < 1e-3));
}

/// Messages in Chinese keep the field name as written in the file.
#[test]
fn config_errors_read_in_both_languages() {
    use gpu_planner::domain::format::Lang;
    let e = read_config(r#"{"hidden_size": 4096}"#).expect_err("incomplete");
    let (en, zh) = (e.message(Lang::En), e.message(Lang::Zh));
    assert_eq!(en, e.to_string());
    assert!(zh.starts_with("缺少字段 `") && en.starts_with("missing field `"), "{zh} / {en}");
    assert!(read_config("not json").expect_err("json").message(Lang::Zh).starts_with("不是有效的 JSON"));
}

/// Share-link and plan errors read in Chinese too (field names and values as written).
#[test]
fn link_and_plan_errors_read_in_both_languages() {
    use gpu_planner::domain::error::{DecodeError, PlanError};
    use gpu_planner::domain::format::{decode_error, plan_error, Lang};
    let e = DecodeError::TooLong(9000, 8000);
    assert_eq!(decode_error(&e, Lang::En), e.to_string());
    assert_eq!(decode_error(&e, Lang::Zh), "链接过长（9000 个字符；最多 8000）");
    let p = PlanError::UnknownModel("x".into());
    assert!(plan_error(&p, Lang::Zh).starts_with("未知的模型预设") && plan_error(&p, Lang::En) == p.to_string());
}

/// Group-limited routing is read from `n_group`/`topk_group` only where it limits anything:
/// DeepSeek-V3 routes each token into at most 4 of 8 groups; Kimi K2 and GLM-4.5-Air write 1/1
/// (the preset comparison above holds the preset to the same reading).
#[test]
fn group_limited_routing_comes_from_n_group_and_topk_group() {
    let groups = |file: &str| read(file).model.moe.and_then(|e| e.route_groups);
    assert_eq!(groups("deepseek-v3.json"), Some(4));
    assert_eq!(groups("kimi-k2.json"), None);
    assert_eq!(groups("glm-4.5-air.json"), None);
}

/// The reader's branches with a real file each (issue 30 item 5): Gemma 3's sliding-window
/// pattern, a config without `num_key_value_heads`, a bitsandbytes 4-bit checkpoint, and Qwen2-MoE's
/// `decoder_sparse_step` / `mlp_only_layers` (the latter written into the real Qwen2-57B-A14B file).
#[test]
fn each_config_branch_reads_a_real_file() {
    // Gemma 3 1B: 512-token windows on 5 of every 6 layers (sliding_window_pattern 6); one KV
    // head of 256 (head_dim given, not hidden / heads = 288).
    let g3 = read("gemma-3-1b-it.json").model;
    assert_eq!((g3.sliding_window, g3.kv_heads, g3.head_dim()), (Some(512), 1, 256));
    assert_close(g3.sliding_window_layers.unwrap_or(0.0), 5.0 / 6.0, 1e-12);

    // LLaMA-7B predates grouped-query attention: no num_key_value_heads means one KV head per head.
    let llama = read("llama-7b.json");
    assert_eq!((llama.model.heads, llama.model.kv_heads), (32, 32));
    assert!(llama.notes.iter().any(|n| n.contains("num_key_value_heads")), "the default is said: {:?}", llama.notes);

    // A bitsandbytes checkpoint with load_in_4bit: NF4 weights, not generic INT4.
    let bnb = read("mistral-7b-bnb-4bit.json");
    let q = bnb.quantization.as_ref().unwrap_or_else(|| panic!("quantization_config"));
    assert_eq!((q.method.as_str(), q.bits), ("bitsandbytes", Some(4)));
    assert_eq!(q.weight_quant(), Some(gpu_planner::domain::scenario::WeightQuant::Nf4));

    // Qwen2-57B-A14B: every layer is MoE (decoder_sparse_step 1); the shared expert of 20,480 is
    // read as 8 shared experts of the routed width 2,560 (the same weights).
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/configs/qwen2-57b-a14b.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let q2 = read_config(&text).unwrap_or_else(|e| panic!("{e}")).model;
    let moe = q2.moe.clone().unwrap_or_else(|| panic!("moe"));
    assert_eq!((moe.experts, moe.experts_per_token, moe.dense_layers, moe.shared_experts), (64, 8, 0, 8));
    // A step of 2 makes half the 28 layers dense (18,944-wide MLPs), 4 listed mlp-only layers more;
    // each dense layer trades 64 experts, the shared one and the router for one MLP:
    // 3·h·(64·2560 + 20480 − 18944) + h·64.
    let edit =
        |k: &str, v: &str| read_config(&text.replacen("\"decoder_sparse_step\": 1", &format!("\"{k}\": {v}"), 1));
    let per_dense = 3.0 * 3584.0 * (64.0 * 2560.0 + 20_480.0 - 18_944.0) + 3584.0 * 64.0;
    let total = q2.computed_params().total;
    for (k, v, dense) in [("decoder_sparse_step", "2", 14u32), ("mlp_only_layers", "[0, 1, 2, 3]", 4)] {
        let m = edit(k, v).unwrap_or_else(|e| panic!("{k}: {e}")).model;
        assert_eq!(m.moe.as_ref().map(|x| (x.dense_layers, x.dense_intermediate)), Some((dense, Some(18_944))), "{k}");
        assert_close(total - m.computed_params().total, f64::from(dense) * per_dense, 1e-9);
    }
    assert!(edit("mlp_only_layers", "3").is_err(), "a non-list mlp_only_layers is refused");
}

/// The model takes the config's saved name, else its first architecture, clipped to 80
/// characters; a value quoted in an error is clipped to 40 characters and an ellipsis.
#[test]
fn names_and_quoted_values_are_kept_short() {
    let base = r#"{"num_hidden_layers": 32, "hidden_size": 4096, "intermediate_size": 11008,
        "num_attention_heads": 32, "vocab_size": 32000"#;
    let name = |extra: &str| read_config(&format!("{base}{extra}}}")).map(|c| c.model.name).unwrap_or_default();
    assert_eq!(
        name(r#", "_name_or_path": "Qwen/Qwen2.5-7B-Instruct", "architectures": ["X"]"#),
        "Qwen/Qwen2.5-7B-Instruct"
    );
    assert_eq!(name(r#", "architectures": ["LlamaForCausalLM", "Other"]"#), "LlamaForCausalLM");
    assert_eq!(name(""), "config.json");
    let long = "a".repeat(100);
    assert_eq!(name(&format!(r#", "_name_or_path": "{long}""#)), "a".repeat(80));
    // 40 characters are quoted whole; 41 are cut to 40 and "…".
    let quoted = |s: &str| match read_config(&format!("{base}, \"layer_types\": {s}}}")) {
        Err(ConfigError::Unsupported { value, .. }) => value,
        other => panic!("{other:?}"),
    };
    let forty = format!("\"{}\"", "b".repeat(38)); // 40 characters with its quotes
    assert_eq!(quoted(&forty), forty);
    let forty_one = format!("\"{}\"", "b".repeat(39));
    assert_eq!(quoted(&forty_one), format!("{}…", &forty_one[..40]));
}

/// Whole numbers may be written as floats (4096.0); a number outside a field's range is refused
/// with the range; an index's byte count must be a positive number.
#[test]
fn whole_numbers_and_their_ranges() {
    let base = r#"{"num_hidden_layers": 32, "hidden_size": 4096.0, "intermediate_size": 11008,
        "num_attention_heads": 32, "vocab_size": 32000"#;
    let c = read_config(&format!("{base}}}")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.model.hidden, 4096);
    let zero_layers = base.replace(r#""num_hidden_layers": 32"#, r#""num_hidden_layers": 0"#);
    assert!(matches!(read_config(&format!("{zero_layers}}}")), Err(ConfigError::BadNumber { min: 1, .. })));
    let huge = base.replace(r#""num_attention_heads": 32"#, r#""num_attention_heads": 2048"#);
    let e = read_config(&format!("{huge}}}")).expect_err("beyond range");
    assert!(matches!(&e, ConfigError::BadNumber { field, .. } if field == "num_attention_heads"), "{e:?}");
    for size in ["-14000000000", "0"] {
        let index = format!(r#"{{"metadata": {{"total_size": {size}}}}}"#);
        assert!(check_index(&index, 7e9, 2.0).is_err(), "total_size {size} accepted");
    }
}

/// A linear-attention layer's fixed state (Qwen3-Next: 32 value heads × 128 × 128) is counted as
/// a window of state ÷ (2 × KV heads × head size) tokens: 524,288 ÷ (2 × 2 × 256) = 512 with the
/// config's head_dim; without it the head size is hidden ÷ heads = 2048 ÷ 16 = 128, so 1,024.
#[test]
fn a_linear_attention_state_is_counted_with_the_head_size() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/configs/qwen3-next-80b-a3b-thinking.json");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let window = |t: &str| {
        let c = read_config(t).unwrap_or_else(|e| panic!("{e}"));
        c.notes.iter().find(|n| n.contains("linear attention")).cloned().unwrap_or_default()
    };
    assert!(window(&text).contains("512-token window"), "{}", window(&text));
    let without = text.replace(r#""head_dim": 256,"#, "");
    assert_ne!(without, text);
    assert!(window(&without).contains("1024-token window"), "{}", window(&without));
}

/// T5-11B keeps T5's 1,024-wide model but 128 heads of 128 (`d_kv`), so its attention is 16×
/// wider than d_model: "T5-11B … 11 billion parameters" (Raffel et al. 2020 §3.7; the Hub's
/// google-t5/t5-11b config: d_model 1024, d_ff 65536, d_kv 128, num_heads 128, 24 + 24 layers).
/// The encoder–decoder reader keeps the head size, the name and the source.
#[test]
fn t5_11b_keeps_its_head_size() {
    let t5 =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/configs/t5-base.json")).unwrap_or_default();
    let mut v: serde_json::Value = serde_json::from_str(&t5).unwrap_or_default();
    for (k, x) in [
        ("d_model", 1024),
        ("d_ff", 65_536),
        ("d_kv", 128),
        ("num_heads", 128),
        ("num_layers", 24),
        ("num_decoder_layers", 24),
    ] {
        v[k] = x.into();
    }
    v["_name_or_path"] = "google-t5/t5-11b".into();
    let c = read_config(&v.to_string()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((c.model.head_dim, c.model.id.as_str(), c.model.source.as_str()), (Some(128), "custom", "config.json"));
    assert_eq!(c.model.name, "google-t5/t5-11b");
    assert_close(c.model.params().total / 1e9, 11.0, 0.05);
}

/// Qwen2-57B-A14B's one shared expert of width 20,480 counts as 8 routed-width (2,560) experts; a
/// shared width that is no multiple of the expert width is refused; a config that already counts
/// its shared experts keeps that count. Mixtral's expert width is its `intermediate_size`, so it
/// has no separate dense width; `decoder_sparse_step` 1 (Qwen3-30B-A3B) makes every layer MoE and
/// says nothing.
#[test]
fn shared_experts_dense_widths_and_sparse_steps() {
    let text = |f: &str| {
        std::fs::read_to_string(format!("{}/tests/configs/{f}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_default()
    };
    let moe = |t: &str| read_config(t).unwrap_or_else(|e| panic!("{e}")).model.moe.unwrap_or_else(|| panic!("no moe"));
    let qwen2 = text("qwen2-57b-a14b.json");
    assert_eq!(moe(&qwen2).shared_experts, 8);
    let odd =
        qwen2.replace(r#""shared_expert_intermediate_size": 20480"#, r#""shared_expert_intermediate_size": 3000"#);
    assert_ne!(odd, qwen2);
    assert!(
        matches!(read_config(&odd), Err(ConfigError::Unsupported { field, .. }) if field == "shared_expert_intermediate_size")
    );
    let counted = qwen2.replacen('{', r#"{"n_shared_experts": 2, "#, 1);
    assert_eq!(moe(&counted).shared_experts, 2);
    assert_eq!(moe(&text("mixtral-8x7b.json")).dense_intermediate, None);
    let q3 = read_config(&text("qwen3-30b-a3b.json")).unwrap_or_else(|e| panic!("{e}"));
    assert!(q3.notes.iter().all(|n| !n.contains("decoder_sparse_step")), "{:?}", q3.notes);
    assert_eq!(q3.model.moe.map(|m| m.dense_layers), Some(0));
}

/// A MoE model with dense layers needs their width: DeepSeek-V3's first three layers are dense
/// (`first_k_dense_replace` 3, `intermediate_size` 18,432); without that field the config is
/// refused by name. Qwen3-30B-A3B has no dense layer, so its `intermediate_size` may go.
#[test]
fn dense_layers_of_a_moe_need_their_width() {
    let text = |f: &str| {
        std::fs::read_to_string(format!("{}/tests/configs/{f}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_default()
    };
    let ds = text("deepseek-v3.json");
    let without = ds.replace(r#""intermediate_size": 18432,"#, "");
    assert_ne!(without, ds);
    assert_eq!(read_config(&without).map(|_| ()), Err(ConfigError::Missing("intermediate_size")));
    let q3 = text("qwen3-30b-a3b.json");
    let without = q3.replace(r#""intermediate_size": 6144,"#, "");
    assert_ne!(without, q3);
    assert!(read_config(&without).is_ok());
}

/// A group limit of as many groups as a token has experts limits nothing (top-8 experts can lie
/// in at most 8 groups): DeepSeek-V3 with topk_group 8 of 16 groups routes freely.
#[test]
fn a_group_limit_as_wide_as_top_k_limits_nothing() {
    let ds = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/configs/deepseek-v3.json"))
        .unwrap_or_default();
    let mut v: serde_json::Value = serde_json::from_str(&ds).unwrap_or_default();
    assert_eq!(v["num_experts_per_tok"], 8);
    v["n_group"] = 16.into();
    v["topk_group"] = 8.into();
    let c = read_config(&v.to_string()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.model.moe.and_then(|m| m.route_groups), None);
    v["topk_group"] = 7.into();
    let c = read_config(&v.to_string()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.model.moe.and_then(|m| m.route_groups), Some(7));
}

/// A model mixing sliding-window and linear-attention layers is refused by name (one windowed
/// kind per model is what the KV sizing carries).
#[test]
fn sliding_and_linear_layers_together_are_refused() {
    let base = r#"{"num_hidden_layers": 4, "hidden_size": 4096, "intermediate_size": 11008,
        "num_attention_heads": 32, "vocab_size": 32000, "sliding_window": 4096,
        "linear_num_value_heads": 32, "linear_key_head_dim": 128, "linear_value_head_dim": 128"#;
    let types = r#""layer_types": ["full_attention", "sliding_attention", "linear_attention", "full_attention"]"#;
    match read_config(&format!("{base}, {types}}}")) {
        Err(ConfigError::Unsupported { field, value, .. }) => {
            assert_eq!((field.as_str(), value.as_str()), ("layer_types", "sliding and linear layers"));
        }
        other => panic!("{other:?}"),
    }
    let one_kind = types.replace("sliding_attention", "full_attention");
    assert!(read_config(&format!("{base}, {one_kind}}}")).is_ok());
}

/// Qwen3-VL-8B's vision tower (27 blocks of width 1,152, MLP 4,304): 27 × (4 × 1,152² +
/// 2 × 1,152 × 4,304) = 411.05M parameters, worked by hand; GPTQ/AWQ-style 8- and 4-bit weights
/// read as INT8 and INT4, bitsandbytes 4-bit as NF4.
#[test]
fn vision_tower_and_integer_weights() {
    let vl = read("qwen3-vl-8b.json");
    assert_close(vl.vision_params.unwrap_or(0.0), 27.0 * (4.0 * 1152.0 * 1152.0 + 2.0 * 1152.0 * 4304.0), 1e-12);
    assert_close(27.0 * (4.0 * 1152.0 * 1152.0 + 2.0 * 1152.0 * 4304.0), 411.05e6, 1e-4);
    use gpu_planner::domain::scenario::WeightQuant;
    let quant = |q: &str| common::quantization_of(q).and_then(|x| x.weight_quant());
    assert_eq!(quant(r#"{"quant_method": "gptq", "bits": 8, "group_size": 128}"#), Some(WeightQuant::Int8));
    assert_eq!(quant(r#"{"quant_method": "awq", "bits": 4, "group_size": 128}"#), Some(WeightQuant::Int4));
    assert_eq!(quant(r#"{"quant_method": "bitsandbytes", "load_in_4bit": true}"#), Some(WeightQuant::Nf4));
    assert_eq!(quant(r#"{"quant_method": "gptq", "bits": 3}"#), None);
}

/// A sliding window as long as the context limits nothing (no window, no note); a shorter one
/// applies to every layer of a model that says no more.
#[test]
fn a_window_as_long_as_the_context_is_no_window() {
    let base = r#"{"num_hidden_layers": 32, "hidden_size": 4096, "intermediate_size": 11008,
        "num_attention_heads": 32, "vocab_size": 32000, "sliding_window": 32768"#;
    let read_with = |context: u32| {
        read_config(&format!("{base}, \"max_position_embeddings\": {context}}}")).unwrap_or_else(|e| panic!("{e}"))
    };
    let same = read_with(32_768);
    assert_eq!(same.model.sliding_window, None);
    assert!(same.notes.iter().all(|n| !n.contains("sliding window")), "{:?}", same.notes);
    let longer = read_with(131_072);
    assert_eq!(longer.model.sliding_window, Some(32_768));
    assert!(
        longer.notes.iter().any(|n| n.contains("sliding window of 32768 tokens on 100% of layers")),
        "{:?}",
        longer.notes
    );
}
