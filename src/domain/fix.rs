//! "Cheapest fix": when the user's plan does not fit or misses the deadline, the changes that
//! would make it work, each checked by planning the changed scenario, cheapest first.

use super::catalog::Catalog;
use super::report::report as plan;
use super::scenario::{KvPrecision, Offload, Recompute, Scenario, Task, WeightQuant};
use super::search;
use super::verdict::{focus, CardVerdict};
use serde::Serialize;

/// One change that fixes the plan, with its effect.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fix {
    pub en: String,
    pub zh: String,
    pub gpu: String,
    pub gpus: u32,
    pub hours: Option<f64>,
    /// Rental cost of the run (training) or per million tokens (inference).
    pub cost: Option<f64>,
    /// The changed scenario: applying it reproduces the figures above.
    pub scenario: Scenario,
}

/// Whether a verdict is a working plan: fits, meets the deadline when there is one, and when
/// serving meets the latency targets at the load.
#[must_use]
pub fn works(s: &Scenario, v: &CardVerdict) -> bool {
    let deadline = s.search.deadline_days.map(|d| d * 24.0);
    v.fits && deadline.is_none_or(|d| v.hours.is_some_and(|h| h <= d)) && v.serving.as_ref().is_none_or(|c| c.meets)
}

fn try_fix(
    base: &Scenario,
    catalog: &Catalog,
    gpu: &str,
    en: String,
    zh: String,
    change: impl FnOnce(&mut Scenario),
) -> Option<Fix> {
    let mut s = base.clone();
    change(&mut s);
    s.ownership.gpu = gpu.to_string();
    let r = plan(&s, catalog).ok()?;
    let v = r.cards.iter().find(|c| c.gpu == gpu)?;
    works(&s, v).then(|| Fix { en, zh, gpu: gpu.to_string(), gpus: v.gpus, hours: v.hours, cost: v.cost, scenario: s })
}

/// The fixes for the scenario's focus card (empty when its plan already works).
#[must_use]
pub fn fixes(s: &Scenario, catalog: &Catalog) -> Vec<Fix> {
    let Ok(r) = plan(s, catalog) else { return Vec::new() };
    let Some(v) = focus(s, &r.cards) else { return Vec::new() };
    if works(s, v) {
        return Vec::new();
    }
    let g = v.gpu.clone();
    let mut out = Vec::new();
    // More of the same card.
    let mut n = v.gpus.max(1);
    while n < s.search.max_gpus {
        n = (n * 2).min(s.search.max_gpus);
        let f = try_fix(s, catalog, &g, format!("use {n} cards"), format!("增加到 {n} 张卡"), |x| {
            x.parallel.gpus = n;
            x.parallel.auto = true;
        });
        if let Some(f) = f {
            out.push(f);
            break;
        }
    }
    let same_count = |x: &mut Scenario| x.parallel.gpus = v.gpus;
    if super::vision::model(&s.model).is_some() {
        // A vision job: a smaller batch per card (memory), or another card.
        let half = (s.vision.batch / 2).max(1);
        if half < s.vision.batch {
            out.extend(try_fix(
                s,
                catalog,
                &g,
                format!("batch {half} per card"),
                format!("每卡批大小减为 {half}"),
                |x| {
                    same_count(x);
                    x.vision.batch = half;
                },
            ));
        }
        if s.task.is_training() {
            out.extend(another_card(s, catalog, &g));
        }
        sort(&mut out);
        return out;
    }
    // Memory layouts of training (serving picks its own replica shape).
    if s.task.is_training() {
        out.extend(try_fix(s, catalog, &g, "ZeRO stage 3".into(), "使用 ZeRO-3".into(), |x| {
            same_count(x);
            x.parallel.auto = false;
            x.parallel.zero = 3;
        }));
        out.extend(try_fix(s, catalog, &g, "full activation recompute".into(), "全部激活重计算".into(), |x| {
            same_count(x);
            x.parallel.auto = false;
            x.parallel.recompute = Recompute::Full;
        }));
        out.extend(try_fix(
            s,
            catalog,
            &g,
            "offload optimizer states to CPU".into(),
            "优化器状态卸载到 CPU".into(),
            |x| {
                same_count(x);
                x.parallel.offload = Offload::Optimizer;
            },
        ));
    }
    match s.task {
        Task::Inference => {
            for (q, en, zh) in [
                (WeightQuant::Fp8, "FP8 weights", "FP8 权重量化"),
                (WeightQuant::Int8, "INT8 weights", "INT8 权重量化"),
                (WeightQuant::Int4, "INT4 weights (GPTQ/AWQ)", "INT4 权重量化（GPTQ/AWQ）"),
            ] {
                if s.weight_quant != q {
                    out.extend(try_fix(s, catalog, &g, en.into(), zh.into(), |x| x.weight_quant = q));
                }
            }
            if s.inference.kv != KvPrecision::Fp8 {
                out.extend(try_fix(s, catalog, &g, "FP8 KV cache".into(), "KV 缓存用 FP8".into(), |x| {
                    x.inference.kv = KvPrecision::Fp8;
                }));
            }
            let half = (s.inference.context / 2).max(1);
            out.extend(try_fix(
                s,
                catalog,
                &g,
                format!("prompts of {half} tokens"),
                format!("输入缩短为 {half} token"),
                |x| {
                    x.inference.context = half;
                    x.inference.context_p90 = x.inference.context_p90.map(|p| (p / 2).max(half));
                },
            ));
            out.extend(another_serving_card(s, catalog, &g));
        }
        Task::Pretrain | Task::FullFinetune => {
            out.extend(try_fix(
                s,
                catalog,
                &g,
                "LoRA instead of full fine-tuning".into(),
                "用 LoRA 代替全参数微调".into(),
                |x| x.task = Task::Lora,
            ));
            out.extend(try_fix(s, catalog, &g, "QLoRA (4-bit base)".into(), "QLoRA（4 比特基座）".into(), |x| {
                x.task = Task::Qlora
            }));
        }
        Task::Lora => {
            out.extend(try_fix(s, catalog, &g, "QLoRA (4-bit base)".into(), "QLoRA（4 比特基座）".into(), |x| {
                x.task = Task::Qlora
            }))
        }
        Task::Qlora => {}
    }
    if s.task.is_training() {
        let half = (s.training.seq_len / 2).max(1);
        out.extend(try_fix(
            s,
            catalog,
            &g,
            format!("sequence length {half}"),
            format!("序列长度减半为 {half}"),
            |x| x.training.seq_len = half,
        ));
        if s.training.micro_batch > 1 {
            out.extend(try_fix(s, catalog, &g, "micro-batch 1".into(), "微批大小设为 1".into(), |x| {
                x.training.micro_batch = 1
            }));
        }
        out.extend(another_card(s, catalog, &g));
    } else {
        let half = (s.inference.concurrent / 2).max(1);
        if half < s.inference.concurrent {
            out.extend(try_fix(
                s,
                catalog,
                &g,
                format!("{half} concurrent requests"),
                format!("并发请求减为 {half}"),
                |x| x.inference.concurrent = half,
            ));
        }
    }
    sort(&mut out);
    out
}

/// Cheapest first, then fastest.
fn sort(out: &mut Vec<Fix>) {
    super::units::sort_stable_by(out, |a, b| {
        a.cost
            .unwrap_or(f64::INFINITY)
            .total_cmp(&b.cost.unwrap_or(f64::INFINITY))
            .then(a.hours.unwrap_or(f64::INFINITY).total_cmp(&b.hours.unwrap_or(f64::INFINITY)))
    });
}

/// "`cards` × `name` instead": the scenario on card `id`, with `change` applied.
fn instead(
    s: &Scenario,
    catalog: &Catalog,
    (id, name, cards): (&str, &str, u32),
    change: impl FnOnce(&mut Scenario),
) -> Option<Fix> {
    try_fix(s, catalog, id, format!("{name} × {cards} instead"), format!("改用 {name} × {cards}"), change)
}

/// Another card: the cheapest feasible plan the search finds on a different card.
fn another_card(s: &Scenario, catalog: &Catalog, g: &str) -> Option<Fix> {
    let mut anywhere = s.clone();
    anywhere.cards.only.clear();
    let found = search::search(&anywhere, catalog).ok()?;
    let c = found.per_card.iter().find(|c| c.gpu != g)?;
    let cards = c.layout.gpus();
    instead(s, catalog, (&c.gpu, &c.name, cards), |x| {
        x.parallel.gpus = cards;
        x.parallel.auto = true;
        x.cards.only.clear();
    })
}

/// Another card for serving: the cheapest in the whole ranking whose serving plan meets the
/// targets (the search does not plan serving; the ranking does).
fn another_serving_card(s: &Scenario, catalog: &Catalog, g: &str) -> Option<Fix> {
    let mut anywhere = s.clone();
    anywhere.cards.only.clear();
    let all = plan(&anywhere, catalog).ok()?.cards;
    let o = all.iter().find(|c| c.gpu != g && c.serving.as_ref().is_some_and(|c| c.meets))?;
    instead(s, catalog, (&o.gpu, &o.name, o.gpus), |x| x.cards.only.clear())
}
