//! "How was this computed": each figure of a card's plan as a formula with the inputs filled
//! in, the result, and its source. Pure; both languages carried side by side.

use super::catalog::Catalog;
use super::compute;
use super::format::{self, Lang};
use super::framework::{Framework, GradDtype};
use super::memory::{self, ActivationShape};
use super::scenario::{Optimizer, Recompute, Scenario, Task};
use super::verdict::CardVerdict;
use serde::Serialize;

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
        return vision(s, m, v);
    }
    let Ok(m) = s.model_spec() else { return Vec::new() };
    let gpu = catalog.gpu(&v.gpu).or_else(|| s.custom_gpus.iter().find(|g| g.id == v.gpu));
    let l = &v.layout;
    let p = m.params();
    let b = &v.memory;
    let shards = format!("{}·{}", l.tp, l.pp);
    let t = |en: &'static str, zh: &'static str| if lang == Lang::Zh { zh } else { en };
    let mut out = vec![line(
        "params",
        "parameters",
        "参数量",
        format!("Ψ = {:.3e}, Ψ_active = {:.3e}", p.total, p.active),
        format!("{:.2} B", p.total / 1e9),
        "config.json (models.json)",
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
    let training = s.task.is_training();
    if training {
        // Every figure below is read back from the breakdown itself, so the text cannot drift
        // from the number: bytes per parameter of this GPU's share Ψ/(tp·pp).
        let c = &s.training.conventions;
        let psi_gpu = p.total / (f64::from(l.tp.max(1)) * f64::from(l.pp.max(1)));
        let per = |x: f64| x / psi_gpu.max(1.0);
        let z = |stage: u8| if l.zero >= stage && l.dp > 1 { format!(" / dp {}", l.dp) } else { String::new() };
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
            "Megatron-LM, DeepSpeed, HF Trainer, torchtune (framework.rs)",
        ));
        out.push(line(
            "weights",
            "weights",
            "权重",
            format!(
                "{:.3} B × Ψ/({shards}){}{}",
                per(b.weights),
                z(3),
                if l.zero >= 3 { " + the gathered layer(s) in 16-bit" } else { "" }
            ),
            format::gib(b.weights),
            ZERO,
        ));
        if matches!(s.task, Task::Pretrain | Task::FullFinetune) {
            out.push(line(
                "gradients",
                "gradients",
                "梯度",
                format!(
                    "{:.3} B × Ψ/({shards}){} ({})",
                    per(b.gradients),
                    z(2),
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
                    "{:.3} B × Ψ/({shards}){} ({} at {} B per moment{}{})",
                    per(b.optimizer),
                    z(1),
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
                format!("{:.3} B × Ψ/({shards}){}", per(b.master_weights), z(1)),
                format::gib(b.master_weights),
                ZERO,
            ));
        } else {
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
        if b.buffers > 0.0 {
            out.push(line(
                "buffers",
                "framework buffers",
                "框架缓冲区",
                format!(
                    "gradient bucket min({:.0e}, trainable) × gradient bytes{}",
                    c.bucket_elems,
                    if l.zero >= 3 {
                        format!(" + ZeRO-3 prefetch {:.0e} × 2 B", c.prefetch_elems)
                    } else {
                        String::new()
                    }
                ),
                format::gib(b.buffers),
                "DeepSpeed reduce_bucket_size, stage3_prefetch_bucket_size",
            ));
        }
        let x = ActivationShape::of(m, s.training.seq_len, s.training.micro_batch, 2.0);
        let scores = !s.training.flash_attention && l.recompute == Recompute::None;
        out.push(line(
            "activations",
            "activations",
            "激活",
            format!(
                "per layer s·b·(4h + 2h + 4·q + 4·kv + {}·ffn{}) / tp, s={} b={} h={} ffn={:.0}; × {} layers / pp {} × in-flight; recompute {}{}",
                if x.gated { 8 } else { 4 },
                if scores { " + a·s²·2" } else { "" },
                s.training.seq_len,
                s.training.micro_batch,
                m.hidden,
                x.ffn,
                m.layers,
                l.pp,
                match l.recompute {
                    Recompute::None => "none",
                    Recompute::Selective => "selective",
                    Recompute::Full => "full",
                },
                m.encoder.as_ref().map_or(String::new(), |e| format!(
                    "; + the encoder's {} layers at s={} and each decoder layer's cross-attention over them",
                    e.layers, e.seq
                ))
            ),
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
    } else {
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
    if let (Some(g), true) = (gpu, training) {
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
                    "kernel {:.2} (GEMMs {:.2} / (1 + elementwise {:.3})) × pipeline {:.2} × recompute {:.2} × communication {:.2} × offload {:.2} (compute {:.3} s/step; exposed comm {:.3} s: DP {:.3} s over {}, TP {:.3} s, PP {:.3} s)",
                    u.kernel,
                    u.kernel * (1.0 + u.elementwise),
                    u.elementwise,
                    u.pipeline,
                    u.recompute,
                    u.communication,
                    u.offload,
                    u.comm.compute_s,
                    u.comm.exposed_s,
                    u.comm.dp_s,
                    dp_link(&u.comm.dp_link, g, lang),
                    u.comm.tp_s,
                    u.comm.pp_s
                ),
            };
            out.push(line(
                "mfu",
                "MFU (model FLOPs utilisation)",
                "MFU（模型算力利用率）",
                formula,
                format!("{:.1}%", u.used() * 100.0),
                "DESIGN.md §3; Narayanan et al. 2021; Rajbhandari et al. 2019; NCCL",
            ));
        }
        if let (Some(h), Some(pk)) = (v.hours, peak) {
            out.push(line(
                "time",
                "training time",
                "训练时间",
                format!(
                    "FLOPs / ({} cards × {pk} TFLOPS × MFU {:.1}%) / goodput {:.0}%",
                    v.gpus,
                    v.mfu * 100.0,
                    s.efficiency.goodput * 100.0
                ),
                format::hours(h, lang),
                "DESIGN.md §3; Dubey et al. 2024 (Llama 3) §3.3.4",
            ));
        }
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
    if lang == Lang::Zh {
        for e in &mut out {
            e.formula = zh_words(&e.formula);
        }
    }
    out
}

/// The words of the formulas in Chinese, longest phrases first; numbers and symbols stay. The
/// English formulas are written once above and translated here, so the two never drift apart
/// (tests/wording.rs checks that no English word is left).
const ZH_WORDS: &str = concat!(
    " cards in | 张卡，|",
    " B per parameter of this GPU's | B / 每参数，本卡 |",
    " (weights + gradients + optimizer + master + buffers)|（权重 + 梯度 + 优化器 + 主权重 + 缓冲区）|",
    " + the gathered layer(s) in 16-bit| + 聚合中的层（16 位）|",
    "; paged to host memory, not on the card|；分页到主机内存，不占显存|",
    ", trainable) × gradient bytes|, 可训练参数) × 梯度字节|",
    " requests × tp share| 个请求 × tp 分摊|",
    " + fp32 gradient partition| + fp32 梯度分片|",
    " s/step; exposed comm | s/步；未掩盖通信 |",
    " weights + gradients + optimizer| 权重 + 梯度 + 优化器|",
    "% replaces the prediction|% 替代预测值|",
    "gradient bucket min(|梯度桶 min(|",
    "your measured MFU |实测 MFU |",
    "; recompute selective|；选择性重算|",
    "; recompute none|；不重算|",
    "; recompute full|；全部重算|",
    " CUDA context + | CUDA 上下文 + |",
    "SGD with momentum|带动量的 SGD|",
    " × communication | × 通信 |",
    "fp32 accumulation|fp32 累加|",
    "custom switches|自定义开关|",
    " B per moment| B/矩估计|",
    "% fragmentation|% 碎片|",
    " per card-hour| / 卡·小时|",
    " × in-flight| × 在途微批|",
    " × recompute | × 重计算 |",
    " × pipeline | × 流水线 |",
    " values/token| 值/token|",
    " per matrix × | 每矩阵 × |",
    " GPU-hours × | GPU 小时 × |",
    " × offload | × 卸载 |",
    " (compute |（计算 |",
    "embeddings|词嵌入|",
    " prefetch | 预取 |",
    "per layer |每层 |",
    " params; | 参数；|",
    "kernel |算子 |",
    " (GEMMs |（矩阵乘 |",
    " (1 + elementwise | (1 + 逐元素算子 |",
    ") / goodput |) / 有效训练占比 |",
    " s over | s 经 |",
    " layers| 层|",
    " cards| 张卡|",
    "16-bit|16 位|",
    "8-bit|8 比特|",
    " at |，|",
    " (no P2P)|（无 P2P）|",
    "the network between servers|服务器间网络|",
    " server(s) of | 台服务器，每台 |",
    "(server + network) + storage|(服务器 + 网络) + 存储|",
    "capital |资本 |",
    " y, resale | 年，残值 |",
    "%, r |%，折现率 |",
    " + rack + | + 机柜 + |",
    "% engineer + |% 运维工程师 + |",
    "% maintenance|% 维护|",
    "(fixed + power × |(固定成本 + 电费 × |",
);

fn zh_words(s: &str) -> String {
    // One string "en|zh|en|zh|…" rather than a table of pairs: no pointers to ship.
    let mut words = ZH_WORDS.split('|');
    let mut s = s.to_string();
    while let (Some(en), Some(zh)) = (words.next(), words.next()) {
        s = s.replace(en, zh);
    }
    s
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

/// How each rent-vs-buy figure is computed, with the scenario's inputs filled in, in the order
/// the page shows them: card, hardware, fixed per year, power per hour, owned per card-hour,
/// rent per card-hour, breakeven hours, breakeven month.
#[must_use]
pub fn rent_vs_buy_formulas(s: &Scenario, r: &super::cost::RentVsBuy, lang: Lang) -> [String; 8] {
    let o = &s.ownership;
    let n = r.own.cards;
    let cur = s.money.currency;
    let m = |v: f64| format::money(v, cur);
    let capital =
        super::cost::annualised_capital(r.own.hardware, r.own.residual, o.depreciation_years, o.discount_rate);
    let t = |en: &'static str, zh: &'static str| if lang == Lang::Zh { zh } else { en };
    [
        format!("{n} cards in {} server(s) of {} cards", r.own.servers, s.parallel.gpus_per_server),
        format!("{n} × {} + {} × (server + network) + storage", m(r.own.card_price), r.own.servers),
        format!(
            "capital {} ({} y, resale {:.0}%, r {:.0}%) + rack + {:.0}% engineer + {:.0}% maintenance",
            m(capital),
            o.depreciation_years,
            r.own.residual * 100.0,
            o.discount_rate * 100.0,
            o.ops_share * 100.0,
            o.maintenance_per_year * 100.0
        ),
        format!(
            "({n} × TDP + {} × {} W) × PUE {} × {}/kWh",
            r.own.servers,
            o.host_watts,
            o.pue,
            format::money(o.electricity_per_kwh, o.currency)
        ),
        format!("(fixed + power × {h} h) / ({n} × {h} h)", h = format::grouped(8760.0 * r.utilisation, 0)),
        t("your quote, else the lowest dated price in the chosen market", "你的报价，否则用所选市场中注明日期的最低价")
            .into(),
        t(
            "(fixed − rented storage/yr) / (rent × cards − power per hour)",
            "(固定成本 − 每年存储租金) / (租金 × 卡数 − 每小时电费)",
        )
        .into(),
        t(
            "lead time + hardware / (monthly rent − monthly running cost), at the utilisation",
            "交付周期 + 硬件 / (月租金 − 每月运行成本)，按利用率",
        )
        .into(),
    ]
    .map(|f| if lang == Lang::Zh { zh_words(&f) } else { f })
}

/// How renting until the owned cards arrive is costed.
#[must_use]
pub fn bridge_formula(lang: Lang) -> &'static str {
    if lang == Lang::Zh {
        "租金 × 卡数 × 忙碌小时"
    } else {
        "rent × cards × busy hours"
    }
}

/// How the hybrid plan's card count is chosen.
#[must_use]
pub fn hybrid_formula(lang: Lang) -> &'static str {
    if lang == Lang::Zh {
        "argmin_N 固定成本(N) + 电费 × 自有小时 + 租金 × 租用小时"
    } else {
        "argmin over N of fixed(N) + power × owned hours + rent × rented hours"
    }
}

/// A vision job's figures: model states, activations from measured memory, the measured speed
/// and how it was carried to this card, and the time or the serving latency.
fn vision(s: &Scenario, m: &super::vision::VisionModel, v: &CardVerdict) -> Vec<Explanation> {
    let b = &v.memory;
    let gib = |x: f64| format::gib(x);
    let batch = v.vision.as_ref().map_or(s.vision.batch, |x| x.batch);
    let mut out = vec![
        line(
            "vision_states",
            "Weights, gradients, optimizer",
            "权重、梯度、优化器状态",
            format!("Ψ = {:.1} M; weights {} + gradients {} + optimizer {} (AMP: fp32 weights and gradients)", m.params_m, gib(b.weights), gib(b.gradients), gib(b.optimizer)),
            gib(b.weights + b.gradients + b.optimizer),
            "Micikevicius et al., Mixed Precision Training (2018); PyTorch AMP",
        ),
        line(
            "vision_activations",
            "Activations",
            "激活值",
            format!("{} per sample × batch {batch} (from measured memory: slope between batch sizes, or one figure less the model states; × (size ratio)²)", gib(b.activations / f64::from(batch.max(1)))),
            gib(b.activations),
            "src/domain/vision.json (measured peak memory, each row sourced)",
        ),
    ];
    if let Some(x) = &v.vision {
        let k = &x.basis;
        let carried = if k.card == v.gpu {
            String::new()
        } else {
            format!(" × {:.2} (min of peak and bandwidth ratios, × software stack)", k.ratio)
        };
        let from = if k.from_inference { " × 1/3 (training from an inference figure)" } else { "" };
        out.push(line(
            "vision_speed",
            "Speed per card",
            "每卡速度",
            format!(
                "measured on {} ({}){carried}{from}, scaled to this size and steps",
                k.card,
                if k.date.is_empty() { "undated" } else { &k.date }
            ),
            format!("{:.3} samples/s", x.samples_s),
            "",
        ));
        if let Some(e) = out.last_mut() {
            e.source.clone_from(&k.source);
        }
        if let Some(ms) = x.latency_ms {
            out.push(line(
                "vision_latency",
                "Latency",
                "延迟",
                format!("2 × batch time at batch {} (waiting for the batch before + its own)", x.batch),
                format!("{ms:.0} ms"),
                "M/D/1-style batching at full load (stated assumption)",
            ));
        }
    }
    if let Some(h) = v.hours {
        out.push(line(
            "vision_time",
            "Training time",
            "训练时间",
            format!(
                "({} samples × {} epochs ÷ ({} cards × batch time) + exposed gradient all-reduce) / goodput {:.0}%",
                m.samples(s.vision.dataset),
                s.vision.epochs,
                v.gpus,
                s.efficiency.goodput * 100.0
            ),
            format!("{h:.1} h"),
            "Li et al., PyTorch Distributed (VLDB 2020): all-reduce overlapped with backward",
        ));
    }
    out
}
