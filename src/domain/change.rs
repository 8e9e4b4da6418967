//! One edit of a scenario that a fix proposes: the same value applies the edit and renders its
//! label, so "ZeRO stage 3" cannot apply stage 2 nor "sequence length 4096" apply 2048.

use super::format::Lang;
use super::scenario::{KvPrecision, Offload, Recompute, Scenario, Task, WeightQuant};

/// An edit of a scenario. The card counts a fix keeps are part of the edit (`keep`), so the
/// changed plan runs on the cards its label names.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// `n` cards of the same model, laid out by the planner.
    Cards(u32),
    /// A vision job's batch per card, on `keep` cards.
    VisionBatch { batch: u32, keep: u32 },
    /// ZeRO stage 3 on `keep` cards, the layout fixed by hand.
    Zero3 { keep: u32 },
    /// Full activation recompute of every layer on `keep` cards.
    FullRecompute { keep: u32 },
    /// Optimizer states offloaded to CPU memory on `keep` cards.
    OffloadOptimizer { keep: u32 },
    /// Quantised weights for serving.
    Weights(WeightQuant),
    /// An FP8 KV cache.
    KvFp8,
    /// Prompts of `n` tokens (the p90 halved with them, never below `n`).
    Prompts(u32),
    /// LoRA instead of full training.
    Lora,
    /// QLoRA (a 4-bit base) instead of full training or LoRA.
    Qlora,
    /// Training sequences of `n` tokens.
    SeqLen(u32),
    /// Micro-batch 1.
    MicroBatchOne,
    /// At most `n` requests in flight.
    Concurrent(u32),
    /// `cards` × another card (`name`), any card allowed; `count` sets the card count and lets
    /// the planner lay them out (training), or leaves the count to the serving plan.
    Card { id: String, name: String, cards: u32, count: bool },
}

impl Change {
    /// Applies the edit to `s`.
    pub fn apply(&self, s: &mut Scenario) {
        match self {
            Self::Cards(n) => {
                s.parallel.gpus = *n;
                s.parallel.auto = true;
            }
            Self::VisionBatch { batch, keep } => {
                s.parallel.gpus = *keep;
                s.vision.batch = *batch;
            }
            Self::Zero3 { keep } => {
                s.parallel.gpus = *keep;
                s.parallel.auto = false;
                s.parallel.zero = 3;
            }
            Self::FullRecompute { keep } => {
                s.parallel.gpus = *keep;
                s.parallel.auto = false;
                s.parallel.recompute = Recompute::Full;
                // Every layer: a partial setting left over from the manual layout would not be "full".
                s.parallel.recompute_layers = 0;
            }
            Self::OffloadOptimizer { keep } => {
                s.parallel.gpus = *keep;
                s.parallel.offload = Offload::Optimizer;
            }
            Self::Weights(q) => s.weight_quant = *q,
            Self::KvFp8 => s.inference.kv = KvPrecision::Fp8,
            Self::Prompts(n) => {
                s.inference.context = *n;
                s.inference.context_p90 = s.inference.context_p90.map(|p| (p / 2).max(*n));
            }
            Self::Lora => s.task = Task::Lora,
            Self::Qlora => s.task = Task::Qlora,
            Self::SeqLen(n) => s.training.seq_len = *n,
            Self::MicroBatchOne => s.training.micro_batch = 1,
            Self::Concurrent(n) => s.inference.concurrent = *n,
            Self::Card { id, cards, count, .. } => {
                if *count {
                    s.parallel.gpus = *cards;
                    s.parallel.auto = true;
                }
                s.cards.only.clear();
                s.ownership.gpu.clone_from(id);
            }
        }
    }

    /// The edit as the fixes list says it.
    #[must_use]
    pub fn label(&self, l: Lang) -> String {
        let zh = l == Lang::Zh;
        match self {
            Self::Cards(n) if zh => format!("增加到 {n} 张卡"),
            Self::Cards(n) => format!("use {n} cards"),
            Self::VisionBatch { batch, .. } if zh => format!("每卡批大小减为 {batch}"),
            Self::VisionBatch { batch, .. } => format!("batch {batch} per card"),
            Self::Zero3 { .. } => if zh { "使用 ZeRO-3" } else { "ZeRO stage 3" }.into(),
            Self::FullRecompute { .. } => if zh { "全部激活重计算" } else { "full activation recompute" }.into(),
            Self::OffloadOptimizer { .. } => {
                if zh { "优化器状态卸载到 CPU" } else { "offload optimizer states to CPU" }.into()
            }
            Self::Weights(q) => weights_label(*q, zh).into(),
            Self::KvFp8 => if zh { "KV 缓存用 FP8" } else { "FP8 KV cache" }.into(),
            Self::Prompts(n) if zh => format!("输入缩短为 {n} token"),
            Self::Prompts(n) => format!("prompts of {n} tokens"),
            Self::Qlora => if zh { "QLoRA（4 比特基座）" } else { "QLoRA (4-bit base)" }.into(),
            Self::Lora => if zh { "用 LoRA 代替全参数微调" } else { "LoRA instead of full fine-tuning" }.into(),
            Self::SeqLen(n) if zh => format!("序列长度减半为 {n}"),
            Self::SeqLen(n) => format!("sequence length {n}"),
            Self::MicroBatchOne => if zh { "微批大小设为 1" } else { "micro-batch 1" }.into(),
            Self::Concurrent(n) if zh => format!("并发请求减为 {n}"),
            Self::Concurrent(n) => format!("{n} concurrent request{}", if *n == 1 { "" } else { "s" }),
            Self::Card { name, cards, .. } if zh => format!("改用 {name} × {cards}"),
            Self::Card { name, cards, .. } => format!("{name} × {cards} instead"),
        }
    }
}

fn weights_label(q: WeightQuant, zh: bool) -> &'static str {
    match (q, zh) {
        (WeightQuant::Fp8, false) => "FP8 weights",
        (WeightQuant::Fp8, true) => "FP8 权重量化",
        (WeightQuant::Int8, false) => "INT8 weights",
        (WeightQuant::Int8, true) => "INT8 权重量化",
        (WeightQuant::Int4, false) => "INT4 weights (GPTQ/AWQ)",
        (WeightQuant::Int4, true) => "INT4 权重量化（GPTQ/AWQ）",
        (WeightQuant::Nf4, false) => "NF4 weights",
        (WeightQuant::Nf4, true) => "NF4 权重量化",
        (WeightQuant::Nvfp4, false) => "NVFP4 weights",
        (WeightQuant::Nvfp4, true) => "NVFP4 权重量化",
        (WeightQuant::Mxfp4, false) => "MXFP4 weights",
        (WeightQuant::Mxfp4, true) => "MXFP4 权重量化",
        (WeightQuant::None, false) => "unquantised weights",
        (WeightQuant::None, true) => "不量化权重",
    }
}
