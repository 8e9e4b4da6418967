//! Every UI string in English and Chinese. A key without both texts does not compile.

pub use crate::domain::format::Lang;

macro_rules! strings {
    ($($key:ident => $en:literal, $zh:literal;)*) => {
        /// A UI string.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Key { $($key),* }
        impl Key {
            pub const ALL: &'static [Key] = &[$(Key::$key),*];
            /// The text in `lang`.
            #[must_use]
            pub fn text(self, lang: Lang) -> &'static str {
                match (self, lang) {
                    $((Key::$key, Lang::En) => $en, (Key::$key, Lang::Zh) => $zh,)*
                }
            }
        }
    };
}

strings! {
    Title => "GPU Planner", "GPU 选型规划";
    Tagline => "Which cards fit your workload, how many, how long, what it costs.", "哪些卡放得下你的任务、要几张、跑多久、花多少钱。";
    Task => "Task", "任务";
    Pretrain => "Pre-training", "预训练";
    FullFinetune => "Full fine-tune", "全参数微调";
    Lora => "LoRA", "LoRA";
    Qlora => "QLoRA", "QLoRA";
    Inference => "Inference", "推理";
    Model => "Model", "模型";
    SeqLen => "Sequence length", "序列长度";
    Tokens => "Training tokens", "训练 token 数";
    Params => "Parameters", "参数量";
    MemorySingle => "Memory on one card (no parallelism)", "单卡显存（不并行）";
    QuickRule => "Rule of thumb (params × bytes × factor)", "经验公式（参数 × 字节 × 系数）";
    Flops => "Training FLOPs", "训练计算量 FLOPs";
    Card => "Card", "显卡";
    Fits => "Fits", "放得下";
    Yes => "yes", "是";
    No => "no", "否";
    Cards => "Cards", "卡数";
    Layout => "Layout", "并行方式";
    MemoryPerCard => "Memory / card", "每卡显存";
    Time => "Time", "时间";
    Cost => "Cost (rent)", "成本（租用）";
    Throughput => "Decode tokens/s", "生成 tokens/s";
    Warnings => "Warnings", "提醒";
    Language => "中文", "English";
    InvalidNumber => "enter a whole number between {min} and {max}", "请输入 {min} 到 {max} 之间的整数";
    LinkDamaged => "The share link could not be read", "分享链接无法读取";
    Unknown => "unknown", "未知";
    Weights => "weights", "权重";
    Gradients => "gradients", "梯度";
    Optimizer => "optimizer", "优化器状态";
    Master => "master weights", "主权重";
    Activations => "activations", "激活";
    Logits => "logits", "logits";
    KvCache => "KV cache", "KV 缓存";
    Overhead => "overhead", "运行时开销";
    Capacity => "capacity", "容量";
}
