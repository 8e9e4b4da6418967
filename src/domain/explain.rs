//! "How was this computed": each figure of a card's plan as a formula with the inputs filled
//! in, the result, and its source. Pure; both languages carried side by side.

use super::catalog::Catalog;
use super::compute;
use super::format::{self, Lang};
use super::framework::{Framework, GradDtype};
use super::memory::{self, Layout, TokenCoefficients};
use super::scenario::{Optimizer, Recompute, Scenario, Task};
use super::verdict::CardVerdict;
use serde::Serialize;

mod zh;

mod ownership;
pub use ownership::{bridge_formula, hybrid_formula, rent_vs_buy_formulas};

mod vision;

/// One explained figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    pub id: &'static str,
    pub label_en: &'static str,
    pub label_zh: &'static str,
    /// The formula with this scenario's values in it.
    pub formula: String,
    pub result: String,
    pub source: String,
}

impl Explanation {
    #[must_use]
    pub fn label(&self, lang: Lang) -> &'static str {
        if lang == Lang::Zh {
            self.label_zh
        } else {
            self.label_en
        }
    }
}

const ZERO: &str = "Rajbhandari et al., ZeRO (2019), §5.1";
const KORTHIKANTI: &str = "Korthikanti et al., Reducing Activation Recomputation (2022), §4";

fn line(
    id: &'static str,
    label_en: &'static str,
    label_zh: &'static str,
    formula: String,
    result: String,
    source: &'static str,
) -> Explanation {
    Explanation { id, label_en, label_zh, formula, result, source: source.into() }
}

/// Explanations for one card's plan; empty when the scenario is invalid.
#[must_use]
pub fn explain(s: &Scenario, catalog: &Catalog, v: &CardVerdict, lang: Lang) -> Vec<Explanation> {
    if let Some(m) = super::vision::model(&s.model) {
        let gpu = catalog.gpu(&v.gpu).or_else(|| s.custom_gpus.iter().find(|g| g.id == v.gpu));
        return translated(vision::vision(s, m, v, gpu, lang), lang);
    }
    let Ok(m) = s.model_spec() else { return Vec::new() };
    let gpu = catalog.gpu(&v.gpu).or_else(|| s.custom_gpus.iter().find(|g| g.id == v.gpu));
    let p = m.params();
    let b = &v.memory;
    let t = |en: &'static str, zh: &'static str| if lang == Lang::Zh { zh } else { en };
    let mut out = vec![line(
        "params",
        "parameters",
        "参数量",
        format!("Ψ = {:.3e}, Ψ_active = {:.3e}", p.total, p.active),
        format!("{:.2} B", p.total / 1e9),
        "Hugging Face config.json",
    )];
    if let Some(e) = &m.encoder {
        out.push(line(
            "encoder",
            "encoder–decoder",
            "编码器–解码器",
            format!(
                "{} encoder layers × {} positions per sample ({:.0}% of Ψ); {} decoder layers with cross-attention; the cache holds {} encoder positions per request",
                e.layers,
                e.seq,
                m.encoder_fraction() * 100.0,
                m.layers,
                e.seq
            ),
            format!("{:.2} B", p.total * m.encoder_fraction() / 1e9),
            "Vaswani et al. 2017; Raffel et al. 2020 (T5); Radford et al. 2022 (Whisper)",
        ));
    }
    if s.task.is_training() {
        training_memory(s, m, v, &mut out);
    } else {
        inference_memory(s, m, v, &mut out);
    }
    out.push(line(
        "overhead",
        "runtime overhead",
        "运行时开销",
        format!(
            "{} GiB CUDA context + {:.0}% fragmentation",
            s.efficiency.runtime_gib,
            s.efficiency.fragmentation * 100.0
        ),
        format::gib(b.overhead),
        t("PyTorch CUDA semantics; editable", "PyTorch CUDA 语义；可修改"),
    ));
    if let (Some(g), true) = (gpu, s.task.is_training()) {
        training_time(s, m, g, v, lang, &mut out);
    }
    if let (Some(c), Some(r)) = (v.cost, v.rent_hourly) {
        let formula = match v.gpu_hours {
            Some(gh) => {
                format!("{} GPU-hours × {} per card-hour", format::grouped(gh, 0), format::money(r, s.money.currency))
            }
            None => format!("{} × {} cards / (tokens/s × 3600) × 10⁶", format::money(r, s.money.currency), v.gpus),
        };
        out.push(line(
            "cost",
            "cost",
            "成本",
            formula,
            format::money(c, s.money.currency),
            t("catalog.json dated price or your quote", "catalog.json 注明日期的价格或你的报价"),
        ));
    }
    translated(out, lang)
}

/// The memory lines of a training plan: the framework's bytes per parameter, then each term
/// as it is computed (memory.rs), so each formula evaluates to the figure beside it.
fn training_memory(s: &Scenario, m: &super::model::ModelSpec, v: &CardVerdict, out: &mut Vec<Explanation>) {
    let l = &v.layout;
    let p = m.params();
    let b = &v.memory;
    let shards = format!("{}·{}", l.tp, l.pp);
    // Every figure below is read back from the breakdown itself, so the text cannot drift
    // from the number: bytes per parameter of this GPU's share Ψ/(tp·pp).
    let c = &s.training.conventions;
    let psi_gpu = p.total / (f64::from(l.tp.max(1)) * f64::from(l.pp.max(1)));
    let per = |x: f64| x / psi_gpu.max(1.0);
    // A ZeRO-sharded term prints its unsharded bytes per parameter and the division by the
    // dp·cp ranks it is sharded over, so that the formula evaluates to the figure beside it.
    let ranks = l.dp.max(1) * l.cp.max(1);
    let ranks_name = if l.cp > 1 { format!("dp·cp {ranks}") } else { format!("dp {ranks}") };
    let term = |bytes: f64, sharded: bool| -> String {
        if sharded && ranks > 1 {
            format!("{:.3} B × Ψ/({shards}) / {ranks_name}", per(bytes) * f64::from(ranks))
        } else {
            format!("{:.3} B × Ψ/({shards})", per(bytes))
        }
    };
    let grads_sharded = l.zero >= 2
        && !(l.zero == 2 && c.zero2_full_grads)
        && !(c.optimizer_in_backward || (l.zero >= 3 && c.fp32_grad_partition));
    out.push(line(
        "framework",
        "framework accounting",
        "框架口径",
        format!(
            "{}: {:.2} + {:.2} + {:.2} + {:.2} + {:.2} = {:.2} B per parameter of this GPU's Ψ/(tp·pp) = {:.3e} (weights + gradients + optimizer + master + buffers)",
            framework_name(s.training.framework),
            per(b.weights),
            per(b.gradients),
            per(b.optimizer),
            per(b.master_weights),
            per(b.buffers),
            per(b.weights + b.gradients + b.optimizer + b.master_weights + b.buffers),
            psi_gpu
        ),
        format::gib(b.weights + b.gradients + b.optimizer + b.master_weights + b.buffers),
        "Megatron-LM, DeepSpeed, HF Trainer, torchtune",
    ));
    out.push(line(
        "weights",
        "weights",
        "权重",
        format!(
            "{}{}",
            term(b.weights, l.zero >= 3),
            if l.zero >= 3 { ", the gathered 16-bit layer(s) included" } else { "" }
        ),
        format::gib(b.weights),
        ZERO,
    ));
    if matches!(s.task, Task::Pretrain | Task::FullFinetune) {
        full_training_states(s, v, &term, grads_sharded, out);
    } else {
        adapter_states(s, m, v, out);
    }
    working_memory(s, m, v, out);
}

/// Gradients, optimizer states and master weights of full training, each as its term prints it.
fn full_training_states(
    s: &Scenario,
    v: &CardVerdict,
    term: &dyn Fn(f64, bool) -> String,
    grads_sharded: bool,
    out: &mut Vec<Explanation>,
) {
    let (l, b) = (&v.layout, &v.memory);
    let c = &s.training.conventions;
    out.push(line(
        "gradients",
        "gradients",
        "梯度",
        format!(
            "{} ({})",
            term(b.gradients, grads_sharded),
            if c.grad == GradDtype::Fp32 { "fp32 accumulation" } else { "16-bit" }
        ),
        format::gib(b.gradients),
        ZERO,
    ));
    out.push(line(
        "optimizer",
        "optimizer states",
        "优化器状态",
        format!(
            "{} ({} at {} B per moment{}{})",
            term(b.optimizer, l.zero >= 1),
            optimizer_name(s.training.optimizer),
            c.optimizer_state.bytes(),
            if c.fp32_grad_partition { " + fp32 gradient partition" } else { "" },
            if c.paged_optimizer { "; paged to host memory, not on the card" } else { "" }
        ),
        format::gib(b.optimizer),
        ZERO,
    ));
    out.push(line(
        "master",
        "fp32 master weights",
        "fp32 主权重",
        term(b.master_weights, l.zero >= 1),
        format::gib(b.master_weights),
        ZERO,
    ));
}

/// The LoRA adapters' weights, gradients and optimizer states (the frozen weights are above).
fn adapter_states(s: &Scenario, m: &super::model::ModelSpec, v: &CardVerdict, out: &mut Vec<Explanation>) {
    let b = &v.memory;
    let c = &s.training.conventions;
    let a = memory::lora_params(m, s.lora.rank, s.lora.targets);
    out.push(line(
        "adapters",
        "LoRA adapters",
        "LoRA 适配器",
        format!(
            "r {} × (d_in + d_out) per matrix × {} layers = {:.3e} params; {} weights + gradients + optimizer",
            s.lora.rank,
            m.layers,
            a,
            if c.adapter_fp32 { "fp32" } else { "16-bit" }
        ),
        format::gib(b.gradients + b.optimizer + b.master_weights),
        "Hu et al., LoRA (2021); Dettmers et al., QLoRA (2023) §3",
    ));
}

/// The training memory that is not model state: framework buffers, activations, logits.
fn working_memory(s: &Scenario, m: &super::model::ModelSpec, v: &CardVerdict, out: &mut Vec<Explanation>) {
    let (l, b) = (&v.layout, &v.memory);
    let c = &s.training.conventions;
    if b.buffers > 0.0 {
        out.push(line(
            "buffers",
            "framework buffers",
            "框架缓冲区",
            format!(
                "gradient bucket min({:.0e}, trainable) × gradient bytes{}",
                c.bucket_elems,
                if l.zero >= 3 { format!(" + ZeRO-3 prefetch {:.0e} × 2 B", c.prefetch_elems) } else { String::new() }
            ),
            format::gib(b.buffers),
            "DeepSpeed reduce_bucket_size, stage3_prefetch_bucket_size",
        ));
    }
    out.push(line(
        "activations",
        "activations",
        "激活",
        activation_formula(m, s, l),
        format::gib(b.activations),
        KORTHIKANTI,
    ));
    out.push(line(
        "logits",
        "logits (fp32 for the loss)",
        "logits（fp32 计算损失）",
        format!("s {} × b {} × V {} × 4 B / tp {}", s.training.seq_len, s.training.micro_batch, m.vocab, l.tp),
        format::gib(b.logits),
        KORTHIKANTI,
    ));
}

/// The memory lines of serving: quantized weights and the KV cache.
fn inference_memory(s: &Scenario, m: &super::model::ModelSpec, v: &CardVerdict, out: &mut Vec<Explanation>) {
    let (l, b) = (&v.layout, &v.memory);
    let shards = format!("{}·{}", l.tp, l.pp);
    out.push(line(
        "weights",
        "weights",
        "权重",
        format!(
            "(Ψ − embeddings) × {:.3} B + embeddings × {} B, / (tp·pp) {shards}",
            s.weight_quant.bytes(s.precision),
            s.precision.bytes()
        ),
        format::gib(b.weights),
        "GPTQ, AWQ (g128); QLoRA NF4 (Dettmers et al. 2023)",
    ));
    let i = &s.inference;
    out.push(line(
        "kv_cache",
        "KV cache",
        "KV 缓存",
        format!(
            "{:.0} values/token × {} B × ({} + {}{}) tokens × {} requests{} × tp share",
            m.kv_values_per_token(),
            i.kv.bytes(),
            i.context,
            i.output_tokens,
            m.encoder.as_ref().map_or(String::new(), |e| format!(" + {} encoder positions", e.seq)),
            i.concurrent,
            if l.ep > 1 { format!(" / {} attention groups", l.ep) } else { String::new() }
        ),
        format::gib(b.kv_cache),
        "2·L·kv_heads·head_dim (config.json); MLA: DeepSeek-V2 §2.1",
    ));
}

/// The training FLOPs, the MFU and its factors, the time and how sure it is.
fn training_time(
    s: &Scenario,
    m: &super::model::ModelSpec,
    g: &super::catalog::Gpu,
    v: &CardVerdict,
    lang: Lang,
    out: &mut Vec<Explanation>,
) {
    let flops = compute::model_flops(m, s);
    let peak = compute::peak_tflops(g, s.precision);
    let lora = matches!(s.task, Task::Lora | Task::Qlora);
    let attention = if s.training.conventions.attention_flops {
        format!(" + {}·L·h·s", if lora { 8 } else { 12 })
    } else {
        String::new()
    };
    out.push(line(
        "flops",
        "training FLOPs",
        "训练计算量",
        format!("({}·Ψ_active{attention}) × D tokens {:.3e}", if lora { 4 } else { 6 }, s.training.tokens),
        format::flops(flops),
        "Kaplan et al. 2020; PaLM (Chowdhery et al. 2022) App. B",
    ));
    if let Some(u) = &v.utilisation {
        let formula = match u.measured {
            Some(x) => format!("your measured MFU {:.1}% replaces the prediction", x * 100.0),
            None => format!(
                "kernel {:.2} (GEMMs {:.2} / (1 + elementwise {:.3}{}) / attention kernel {:.3}{}) × pipeline {:.2} × recompute {:.2} × communication {:.2} × offload {:.2} (compute {:.3} s/step; exposed comm {:.3} s: DP {:.3} s over {}, TP {:.3} s, PP {:.3} s{})",
                u.kernel,
                u.kernel * (1.0 + u.elementwise) * u.attention * u.experts,
                u.elementwise,
                if compute::eager_kernels(m, &s.training.conventions) { ", eager PyTorch kernels" } else { "" },
                u.attention,
                if u.experts > 1.0005 { format!(" / expert GEMMs {:.3}", u.experts) } else { String::new() },
                u.pipeline,
                u.recompute,
                u.communication,
                u.offload,
                u.comm.compute_s,
                u.comm.exposed_s,
                u.comm.dp_s,
                dp_link(&u.comm.dp_link, g, lang),
                u.comm.tp_s,
                u.comm.pp_s,
                moe_ring_and_contention(&u.comm),
            ),
        };
        out.push(line(
            "mfu",
            "MFU (model FLOPs utilisation)",
            "MFU（模型算力利用率）",
            formula,
            format!("{:.1}%", u.used() * 100.0),
            "NVIDIA AIConfigurator (GEMM), FlashAttention-2 (Dao 2023); Narayanan et al. 2021; Rajbhandari et al. 2019; NCCL; Lee et al. 2025",
        ));
    }
    if let (Some(h), Some(pk)) = (v.hours, peak) {
        out.push(line(
            "time",
            "training time",
            "训练时间",
            format!(
                "FLOPs / ({} cards × {pk} TFLOPS × MFU {:.1}%) / {}",
                v.gpus,
                v.mfu * 100.0,
                super::goodput::describe(&super::goodput::from_wall(s.efficiency.goodput, v.gpus, h))
            ),
            format::hours(h, lang),
            "Dubey et al. 2024 (Llama 3) §3.3.4; Young 1974",
        ));
        if let (Some(t), Some(b)) = (&v.tier, v.hours_band) {
            out.push(line(
                "time_band",
                "how sure",
                "可信范围",
                format!(
                    "{}: 9 of 10 held-out published runs of this kind lie within ±{:.0}% of the engine",
                    format::tier(t, lang),
                    super::tier::p90(t, &v.gpu) * 100.0
                ),
                format::hours_band(b, h, lang),
                "accuracy.html",
            ));
        }
    }
}

/// The formulas' words in the page language (the English is written once, zh.rs translates).
fn translated(mut out: Vec<Explanation>, lang: Lang) -> Vec<Explanation> {
    if lang == Lang::Zh {
        for e in &mut out {
            e.formula = zh::zh_words(&e.formula);
        }
    }
    out
}

/// The activation figure as the terms it is computed from (memory/activations.rs): the per-layer
/// bytes with the coefficients of each width, the layers and micro-batches the worst stage
/// holds, the context-parallel split, and the encoder's share; evaluated, it gives the figure.
fn activation_formula(m: &super::model::ModelSpec, s: &Scenario, l: &Layout) -> String {
    let w = memory::worst_stage(m, s, l);
    let x = &w.shape;
    let flash = s.training.flash_attention;
    let mib = |v: f64| format!("{:.2} MiB", v / 1_048_576.0);
    let layers = memory::stage_layers(m.layers, l.pp);
    let k = TokenCoefficients::of(x);
    let coeff = |c: f64, name: &str| format!("{c}{name}");
    let bytes = if (x.bytes - 2.0).abs() > f64::EPSILON { format!(" × {}", x.bytes / 2.0) } else { String::new() };
    let split = if x.sequence_parallel || l.tp <= 1 {
        format!("/ tp {}", l.tp)
    } else {
        format!("(norms and GEMM inputs whole, the rest / tp {})", l.tp)
    };
    let scores = !flash && l.recompute == Recompute::None;
    let per_layer = memory::layer_activation_bytes(x, l.tp, scores);
    let cp = if l.cp > 1 { format!(" / cp {}", l.cp) } else { String::new() };
    let in_flight = (w.in_flight * 100.0).round() / 100.0;
    let body = match l.recompute {
        Recompute::Full => {
            let input = memory::layer_input_bytes(x, l.tp);
            let working = memory::layer_activation_bytes(x, l.tp, !flash);
            let recomputed = memory::recomputed_layers(x, layers);
            // Partial recompute: the layers not recomputed keep everything.
            let kept = if recomputed < layers {
                format!(" + {} layers not recomputed × {} × {in_flight} in flight", layers - recomputed, mib(working))
            } else {
                String::new()
            };
            format!(
                "full recompute keeps each layer's input s·b·2h B{bytes} / tp {} = {} × {} layers × {in_flight} in flight{kept} + one layer's working set {}{cp}, s={} b={} h={}",
                l.tp,
                mib(input),
                recomputed,
                mib(working),
                x.seq,
                x.batch,
                x.hidden
            )
        }
        Recompute::Selective if x.op_sac => op_sac_formula(x, l, layers, flash, &format!("{in_flight}"), &cp),
        _ => format!(
            "per layer s·b·({} + {} + {} + {}){}{bytes} B {split} = {} × {} layers × {in_flight} in flight{cp}, s={} b={} h={} q={} kv={} ffn={}; recompute {}",
            coeff(k.hidden, "h"),
            coeff(k.q, "q"),
            coeff(k.kv, "kv"),
            coeff(k.ffn, "·ffn"),
            if scores { " + a·s²·b·2" } else { "" },
            mib(per_layer),
            layers,
            x.seq,
            x.batch,
            x.hidden,
            x.q_width,
            x.kv_width,
            x.ffn,
            if l.recompute == Recompute::Selective { "selective" } else { "none" }
        ),
    };
    match &m.encoder {
        Some(e) => format!(
            "{body}; + the encoder's {} layers at s={} and each decoder layer's cross-attention over them {}",
            e.layers,
            e.seq,
            mib(memory::encoder_activation_bytes(m, x, l, flash, w.in_flight))
        ),
        None => body,
    }
}

/// What torchtitan's op-level selective recompute keeps (memory/activations.rs
/// `op_sac_layer_bytes`), evaluated like the other activation lines.
fn op_sac_formula(
    x: &memory::ActivationShape,
    l: &Layout,
    layers: f64,
    flash: bool,
    in_flight: &str,
    cp: &str,
) -> String {
    let mib = |v: f64| format!("{:.2} MiB", v / 1_048_576.0);
    let (h, q, kv, f) = memory::op_sac_coefficients(x);
    let bytes = if (x.bytes - 2.0).abs() > f64::EPSILON { format!(" × {}", x.bytes / 2.0) } else { String::new() };
    format!(
        "op-level selective recompute keeps per layer s·b·({h}h + {q}q + {kv}kv + {f}·ffn){bytes} B / tp {} = {} × {layers} layers × {in_flight} in flight + one layer's working set {}{cp}, s={} b={} h={} q={} kv={} ffn={}",
        l.tp,
        mib(memory::op_sac_layer_bytes(x, l.tp)),
        mib(memory::layer_activation_bytes(x, l.tp, !flash)),
        x.seq,
        x.batch,
        x.hidden,
        x.q_width,
        x.kv_width,
        x.ffn
    )
}

/// The link the data-parallel traffic crosses, as its vendor names it.
fn dp_link(code: &str, g: &super::catalog::Gpu, lang: Lang) -> String {
    match code {
        "nvlink" => format::vendor_name(&g.interconnect.kind, &g.vendor, lang),
        "pcie_no_p2p" => "PCIe (no P2P)".into(),
        "fabric" => "the network between servers".into(),
        _ => "PCIe".into(),
    }
}

fn framework_name(f: Framework) -> &'static str {
    match f {
        Framework::Megatron => "Megatron-LM",
        Framework::DeepSpeed => "DeepSpeed ZeRO",
        Framework::Fsdp => "PyTorch FSDP / HF Trainer",
        Framework::Torchtune => "torchtune",
        Framework::Custom => "custom switches",
    }
}

fn optimizer_name(o: Optimizer) -> &'static str {
    match o {
        Optimizer::AdamW => "AdamW",
        Optimizer::AdamW8bit => "8-bit AdamW",
        Optimizer::SgdMomentum => "SGD with momentum",
        Optimizer::Sgd => "SGD",
        Optimizer::Adafactor => "Adafactor",
    }
}

/// The MoE all-to-all and the context-parallel ring of a step, when it has them (before overlap:
/// the exposed total above counts what is left of them), and the compute lost to the traffic
/// that hides behind it (comms::contended).
fn moe_ring_and_contention(c: &super::comms::StepComm) -> String {
    let mut out = String::new();
    if c.ep_s > 0.0 {
        out += &format!(", EP all-to-all {:.3} s", c.ep_s);
    }
    if c.cp_s > 0.0 {
        out += &format!(", CP ring {:.3} s", c.cp_s);
    }
    if c.contended_s > 0.0 {
        out += &format!("; hidden traffic slows the compute beside it by {:.3} s", c.contended_s);
    }
    out
}
