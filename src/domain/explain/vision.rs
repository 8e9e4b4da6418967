//! How a vision job's figures are computed.

use super::{line, Explanation};
use crate::domain::catalog::Gpu;
use crate::domain::format::{self, Lang};
use crate::domain::scenario::Scenario;
use crate::domain::verdict::CardVerdict;
use crate::domain::vision::VisionModel;
use crate::domain::vision_data::VisionFigures;

/// A vision job's figures: model states, activations from measured memory, the measured speed
/// and how it was carried to this card, and the time or the serving latency.
pub(super) fn vision(s: &Scenario, m: &VisionModel, v: &CardVerdict, g: Option<&Gpu>, lang: Lang) -> Vec<Explanation> {
    let b = &v.memory;
    let gib = |x: f64| format::gib(x);
    let batch = v.vision.as_ref().map_or(s.vision.batch, |x| x.batch);
    let mut out = vec![
        line(
            "vision_states",
            "Weights, gradients, optimizer",
            "权重、梯度、优化器状态",
            format!(
                "Ψ = {:.1} M; weights {} + gradients {} + optimizer {} (AMP: fp32 weights and gradients)",
                m.params_m,
                gib(b.weights),
                gib(b.gradients),
                gib(b.optimizer)
            ),
            gib(b.weights + b.gradients + b.optimizer),
            "Micikevicius et al., Mixed Precision Training (2018); PyTorch AMP",
        ),
        activations(s, m, gib(b.activations / f64::from(batch.max(1))), batch, gib(b.activations), lang),
    ];
    if let Some(x) = &v.vision {
        speed(s, v, x, lang, &mut out);
    }
    if let (Some(h), Some(x)) = (v.hours, &v.vision) {
        out.push(time(s, m, v, g, (x, h), lang));
    }
    out
}

/// The activations line: from measured memory, or (serving with eager attention) the scores
/// that attention materialises.
fn activations(s: &Scenario, m: &VisionModel, per: String, batch: u32, total: String, lang: Lang) -> Explanation {
    let t = |en: &'static str, zh: &'static str| if lang == Lang::Zh { zh } else { en };
    let eager = crate::domain::vision::activation_basis(m, s).1 == crate::domain::vision::MemoryBasis::EagerScores;
    if let Some((side, patch, tokens)) = crate::domain::vision::global_tokens(m, s).filter(|_| eager) {
        return line(
            "vision_activations",
            "Activations",
            "激活值",
            format!(
                "{per} per sample × batch {batch} (eager attention: 3 score tensors × {} heads × {tokens}² × {} B; tokens = ({side} / {patch})²)",
                m.global_heads.unwrap_or(0),
                s.precision.bytes()
            ),
            total,
            "segment-anything image_encoder.py: Attention.forward · add_decomposed_rel_pos",
        );
    }
    line(
        "vision_activations",
        "Activations",
        "激活值",
        format!("{per} per sample × batch {batch} (from measured memory: slope between batch sizes, or one figure less the model states; × (size ratio)²)"),
        total,
        t("published peak-memory measurements of the model (each with its source)", "该模型公开的峰值显存实测（各附来源）"),
    )
}

/// The measured speed, how it was carried to this card, and a service's latency.
fn speed(s: &Scenario, v: &CardVerdict, x: &VisionFigures, lang: Lang, out: &mut Vec<Explanation>) {
    let t = |en: &'static str, zh: &'static str| if lang == Lang::Zh { zh } else { en };
    let k = &x.basis;
    let carried = if k.card == v.gpu {
        String::new()
    } else {
        format!(
            " × {:.2} (roofline 1 / (u / peak ratio + (1 − u) / bandwidth ratio), u the measured time's share at peak; the smaller ratio when the model's FLOPs are unknown; × software stack)",
            k.ratio
        )
    };
    let from = if k.from_inference { " × 1/3 (training from an inference figure)" } else { "" };
    let tf32 = if k.tf32 {
        t(
            " (FP32 work at the TF32 tensor rate, as the framework does by default)",
            "（FP32 运算按框架默认以 TF32 张量核速率运行）",
        )
    } else {
        ""
    };
    let layout = k.layout.map_or(String::new(), |f| {
        format!(
            " × {f:.3} ({})",
            t(
                "the other memory format, NCHW/NHWC speed ratio measured on one card (timm)",
                "换用另一种内存布局：同一张卡上实测的 NCHW/NHWC 速度比（timm）"
            )
        )
    });
    out.push(line(
        "vision_speed",
        "Speed per card",
        "每卡速度",
        format!(
            "measured on {} ({}){}{carried}{from}{layout}{tf32}, scaled to this size and steps",
            // A catalog card by its name; a card outside the catalog is stored by name.
            crate::domain::Catalog::embedded().gpu(&k.card).map_or(k.card.as_str(), |c| c.name.as_str()),
            if k.date.is_empty() { t("undated", "未注明日期") } else { &k.date },
            engine(s, k.engine, lang),
        ),
        format!("{:.3} {}", x.samples_s, t("samples/s", "样本/秒")),
        "",
    ));
    if let Some(e) = out.last_mut() {
        e.source.clone_from(&k.source);
    }
    if let (Some(ms), Some(k), Some(load)) = (x.latency_ms, x.p99_batch, x.load) {
        out.push(line(
            "vision_latency",
            "Latency (p99)",
            "延迟（p99）",
            format!(
                "2 × batch time at batch {k} (the batch in service, then its own; {k} = 99th percentile of Poisson arrivals during a batch, cap {}), {} cards at {:.0}% of their full-batch capacity",
                x.batch,
                v.gpus,
                load * 100.0
            ),
            format!("{ms:.0} ms"),
            t(
                "dynamic batching as a bulk-service queue M/D^(b)/1 (Bailey 1954), read at its 99th percentile",
                "动态批处理按批量服务排队模型 M/D^(b)/1（Bailey 1954）取第 99 百分位",
            ),
        ));
    }
}

/// The software a measurement ran on, and whether it is the one the job names: " with
/// TensorFlow", or " with TensorFlow (no PyTorch figure of this model for the job)".
fn engine(s: &Scenario, used: Option<crate::domain::vision::Engine>, lang: Lang) -> String {
    use crate::domain::vision::Engine;
    let zh = lang == Lang::Zh;
    let shown = Engine::label;
    let with =
        used.map_or(String::new(), |e| if zh { format!("，{}", shown(e)) } else { format!(" with {}", shown(e)) });
    match s.vision.engine.filter(|e| used != Some(*e)) {
        Some(e) if zh => format!("{with}（该模型没有此任务的 {} 实测）", shown(e)),
        Some(e) => format!("{with} (no {} figure of this model for the job)", shown(e)),
        None => with,
    }
}

/// The training time: the same terms as vision::verdict — steps = samples × epochs / (cards ×
/// batch), each a batch time plus the all-reduce the backward pass cannot hide.
fn time(
    s: &Scenario,
    m: &VisionModel,
    v: &CardVerdict,
    g: Option<&Gpu>,
    (x, h): (&VisionFigures, f64),
    lang: Lang,
) -> Explanation {
    let t = |en: &'static str, zh: &'static str| if lang == Lang::Zh { zh } else { en };
    // The same terms as vision::verdict: steps = samples × epochs / (cards × batch), each a
    // batch time plus the all-reduce the backward pass cannot hide.
    let batch = f64::from(x.batch.max(1));
    let step = batch / x.samples_s.max(f64::MIN_POSITIVE);
    let exposed = g.map_or(0.0, |g| crate::domain::vision::exposed_allreduce(m, s, g, v.gpus, step));
    let steps = m.samples(s.vision.dataset) * s.vision.epochs / (batch * f64::from(v.gpus.max(1)));
    line(
        "vision_time",
        "Training time",
        "训练时间",
        format!(
            "{} samples × {} epochs ÷ ({} cards × batch {}) = {} steps × (batch time {:.4} s + exposed all-reduce {:.4} s) / {}",
            format::grouped(m.samples(s.vision.dataset), 0),
            s.vision.epochs,
            v.gpus,
            x.batch,
            format::grouped(steps, 0),
            step,
            exposed,
            crate::domain::goodput::describe(&crate::domain::goodput::from_wall(s.efficiency.goodput, v.gpus, h))
        ),
        format::hours(h, lang),
        t(
            "Li et al., PyTorch Distributed (VLDB 2020): all-reduce overlapped with backward",
            "Li 等，PyTorch Distributed（VLDB 2020）：all-reduce 与反向传播重叠",
        ),
    )
}
