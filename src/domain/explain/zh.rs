//! The formulas' words in Chinese.

/// The words of the formulas in Chinese, longest phrases first; numbers and symbols stay. The
/// English formulas are written once above and translated here, so the two never drift apart
/// (tests/wording.rs checks that no English word is left).
const ZH_WORDS: &str = concat!(
    " cards in | 张卡，|",
    " B per parameter of this GPU's | B / 每参数，本卡 |",
    " (weights + gradients + optimizer + master + buffers)|（权重 + 梯度 + 优化器 + 主权重 + 缓冲区）|",
    "(norms and GEMM inputs whole, the rest / tp |(层归一化与矩阵乘输入不切分，其余 / tp |",
    "full recompute keeps each layer's input |全部重算只保留每层输入 |",
    " layers at s=| 层，s=|",
    "; + the encoder's |；+ 编码器 |",
    " and each decoder layer's cross-attention over them |，以及每个解码器层对其的交叉注意力 |",
    ", the gathered 16-bit layer(s) included|，含聚合中的 16 位层|",
    " + one layer's working set | + 一层的工作集 |",
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
    " in flight| 个在途微批|",
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
    " on these cards, checkpoints every | 出现一次故障（按本方案卡数），检查点间隔 |",
    " (one failure per |（平均每 |",
    ": 9 of 10 held-out published runs of this kind lie within ±|：同类留出验证的公开实测中 9/10 落在引擎结果的 ±|",
    "% of the engine|% 以内|",
    " (yours)|（你填写的）|",
    ") / goodput |) / 有效训练占比 |",
    "/ goodput |/ 有效训练占比 |",
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

pub(super) fn zh_words(s: &str) -> String {
    // One string "en|zh|en|zh|…" rather than a table of pairs: no pointers to ship.
    let mut words = ZH_WORDS.split('|');
    let mut s = s.to_string();
    while let (Some(en), Some(zh)) = (words.next(), words.next()) {
        s = s.replace(en, zh);
    }
    s
}
