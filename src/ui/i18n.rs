//! Every UI string in English and Chinese. A key without both texts does not compile.

pub use crate::domain::format::{card_name, Lang};

macro_rules! strings {
    ($($key:ident => $en:literal, $zh:literal;)*) => {
        /// A UI string.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Key { $($key),* }
        /// Every text in key order, English then Chinese, each ended by a NUL: one string rather
        /// than a match or a table of pointers (~3 KB less wasm, measured gzip).
        const TEXTS: &str = concat!($($en, "\0", $zh, "\0",)*);
        impl Key {
            pub const ALL: &'static [Key] = &[$(Key::$key),*];
            /// The text in `lang`.
            #[must_use]
            pub fn text(self, lang: Lang) -> &'static str {
                static SPLIT: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
                let texts = SPLIT.get_or_init(|| TEXTS.split('\0').collect());
                texts[self as usize * 2 + usize::from(lang == Lang::Zh)]
            }
        }
    };
}

strings! {
    Title => "GPU Planner", "GPU 选型规划";
    Tagline => "Which cards fit your workload, how many, how long, what it costs. Runs in your browser; nothing is sent anywhere.", "哪些卡放得下你的任务、要几张、跑多久、花多少钱。全部在浏览器内计算，不上传任何数据。";
    Language => "中文", "English";
    Workload => "Workload", "任务负载";
    Task => "Task", "任务";
    Pretrain => "Pre-training", "预训练";
    FullFinetune => "Full fine-tune", "全参数微调";
    Lora => "LoRA", "LoRA";
    Qlora => "QLoRA (4-bit base)", "QLoRA（4 比特基座）";
    Inference => "Inference", "推理";
    TaskScope => "Language models, and vision, OCR, speech and diffusion models (pick one below: their speeds are published measurements).", "支持语言模型，以及视觉、OCR、语音与扩散模型（在下方选择：其速度来自公开实测）。";
    Resolution => "Image size (pixels, 0 = model default)", "图像尺寸（像素，0 = 模型默认）";
    BatchPerCard => "Batch per card", "每卡批大小";
    VisionDataset => "Dataset (images; speech: hours of audio)", "数据集（图片张数；语音：音频小时数）";
    Epochs => "Epochs", "训练轮数（epoch）";
    VisionRate => "Requests per second", "每秒请求数";
    LatencyTarget => "Latency target (ms)", "延迟目标（毫秒）";
    Steps => "Sampling steps (0 = model default)", "采样步数（0 = 模型默认）";
    MemoryFormatLabel => "Memory format (CNN)", "内存布局（CNN）";
    FormatAsMeasured => "as each measurement ran", "按各实测数据原样";
    FormatNchw => "NCHW (PyTorch's default)", "NCHW（PyTorch 默认）";
    FormatNhwc => "NHWC (channels_last, as NVIDIA's examples)", "NHWC（channels_last，NVIDIA 示例所用）";
    EngineLabel => "Framework / engine", "框架 / 推理引擎";
    EagerAttention => "Eager attention (scores materialised, as SAM's own code runs)", "非融合（eager）注意力：显式生成注意力分数，SAM 官方代码即如此";
    CardsUsed => "Cards (0 = one to train; as many as the load needs to serve)", "卡数（0 = 训练用 1 张；推理按负载自动）";
    PerMImages => "per M images", "每百万张";
    PerAudioHour => "per hour of audio", "每小时音频";
    RealTime => "× real time per card", "倍实时·每卡";
    SpeechRate => "Requests per second (30-second clips)", "每秒请求数（30 秒音频）";
    ImagesPerS => "img/s per card", "张/秒·每卡";
    Detection => "Object detection (YOLO)", "目标检测（YOLO）";
    Classification => "Image classification", "图像分类";
    Segmentation => "Segmentation (SAM)", "图像分割（SAM）";
    Ocr => "OCR (PP-OCR)", "文字识别 OCR（PP-OCR）";
    Diffusion => "Image generation (diffusion)", "图像生成（扩散模型）";
    Speech => "Speech recognition (Whisper)", "语音识别（Whisper）";
    Model => "Model", "模型";
    CustomModel => "Custom dimensions…", "自定义结构…";
    Layers => "Layers", "层数";
    Hidden => "Hidden size", "隐藏维度";
    Intermediate => "MLP size", "MLP 维度";
    Heads => "Attention heads", "注意力头数";
    KvHeads => "KV heads (GQA/MQA)", "KV 头数（GQA/MQA）";
    Vocab => "Vocabulary", "词表大小";
    HeadDim => "Head dimension (empty: hidden ÷ heads)", "每头维度（留空：隐藏维度 ÷ 头数）";
    MaxContext => "Longest context (tokens, 0: unknown)", "最长上下文（token，0：未知）";
    GatedMlp => "Gated MLP (SwiGLU, 3 matrices)", "门控 MLP（SwiGLU，3 个矩阵）";
    TiedEmbeddings => "Output head shares the embedding", "输出层与词嵌入共享权重";
    MoePart => "Mixture of experts (MoE)", "混合专家（MoE）";
    Experts => "Routed experts", "路由专家数";
    ExpertsPerToken => "Experts per token (top-k)", "每 token 激活专家数（top-k）";
    ExpertIntermediate => "Expert MLP size", "专家 MLP 维度";
    SharedExperts => "Shared experts", "共享专家数";
    DenseLayers => "Leading dense layers", "前置稠密层数";
    DenseIntermediate => "Dense layers' MLP size (empty: MLP size)", "稠密层 MLP 维度（留空：同 MLP 维度）";
    RouteGroups => "Expert groups a token may reach (topk_group; empty: no limit)", "每个 token 可路由的专家组数（topk_group；留空：不限）";
    MlaPart => "Multi-head latent attention (MLA)", "多头潜在注意力（MLA）";
    KvLoraRank => "KV latent rank", "KV 压缩维度";
    QLoraRank => "Query low rank (empty: none)", "Query 压缩维度（留空：不压缩）";
    QkRopeHeadDim => "RoPE key dimension per head", "每头 RoPE 键维度";
    QkNopeHeadDim => "Non-RoPE key dimension per head", "每头非 RoPE 键维度";
    VHeadDim => "Value dimension per head", "每头值维度";
    WindowPart => "Sliding-window attention", "滑动窗口注意力";
    SlidingWindow => "Window (tokens)", "窗口长度（token）";
    EncoderPart => "Encoder–decoder (T5, Whisper)", "编码器–解码器（T5、Whisper）";
    EncoderLayers => "Encoder layers (layers above: the decoder's)", "编码器层数（上面的层数为解码器）";
    EncoderSeq => "Encoder input positions per sample (tokens; Whisper: 1500 frames)", "每个样本的编码器输入长度（token；Whisper：1500 帧）";
    WindowLayers => "Layers with the window (%, empty: all)", "使用窗口的层占比（%，留空：全部）";
    CustomModelHint => "Every part of the structure is shown; switch off what your model does not have.", "结构的每一部分都列在这里；模型没有的部分请关掉。";
    Precision => "Precision", "精度";
    WeightQuant => "Weight quantization", "权重量化";
    QuantNone => "none (as precision)", "不量化（同精度）";
    SeqLen => "Sequence length", "序列长度";
    MicroBatch => "Micro-batch", "微批大小";
    GlobalBatch => "Global batch (sequences)", "全局批大小（序列数）";
    Tokens => "Training tokens (billions)", "训练 token 数（十亿）";
    OptimizerLabel => "Optimizer", "优化器";
    MasterWeights => "fp32 master weights", "fp32 主权重";
    LoraRank => "LoRA rank", "LoRA 秩";
    LoraTargets => "LoRA targets", "LoRA 目标层";
    TargetsAttention => "attention (q,k,v,o)", "注意力（q,k,v,o）";
    TargetsAll => "all linear layers", "全部线性层";
    Context => "Prompt tokens", "输入 token 数";
    ContextP90 => "Prompt tokens, p90 (empty: all the same length)", "输入 token 数 p90（留空：全部等长）";
    OutputP90 => "Output tokens, p90 (empty: all the same length)", "输出 token 数 p90（留空：全部等长）";
    OutputTokens => "Output tokens", "输出 token 数";
    Concurrent => "Concurrent users", "并发用户数";
    KvPrecision => "KV-cache precision", "KV 缓存精度";
    Parallelism => "Parallelism", "并行";
    Auto => "Choose layout automatically", "自动选择并行方式";
    Gpus => "Cards (0 = fewest that fit)", "卡数（0 = 放得下的最少卡数）";
    GpusPerServer => "Cards per server", "每台服务器卡数";
    Tp => "Tensor parallel", "张量并行 TP";
    Pp => "Pipeline parallel", "流水线并行 PP";
    Zero => "ZeRO stage", "ZeRO 阶段";
    RecomputeLabel => "Activation recompute", "激活重计算";
    RecNone => "no recompute", "不重算";
    RecSelective => "selective recompute", "选择性重算";
    RecFull => "full recompute", "全部重算";
    RecLayers => "recompute {n} layers per stage", "每阶段重算 {n} 层";
    OffloadLabel => "CPU offload", "CPU 卸载";
    OffNone => "none", "不卸载";
    OffOptimizer => "optimizer", "优化器";
    OffParams => "optimizer + weights", "优化器 + 权重";
    CardsToConsider => "Cards to consider", "候选显卡";
    Segment => "Segment", "类别";
    Datacenter => "datacenter", "数据中心";
    Workstation => "workstation", "工作站";
    Consumer => "consumer", "消费级";
    Vendor => "Vendor", "厂商";
    MinMemory => "Min memory (GB)", "最小显存（GB）";
    InterconnectLabel => "Interconnect", "互联";
    Any => "any", "不限";
    FastLink => "NVLink-class fabric", "NVLink 类高速互联";
    PcieOnly => "PCIe only", "仅 PCIe";
    AddCustomCard => "Add a custom card", "添加自定义显卡";
    CardName => "Name", "名称";
    MemoryGb => "Memory (GB)", "显存（GB）";
    Bf16Tflops => "BF16 dense TFLOPS", "BF16 稠密 TFLOPS";
    BandwidthGbs => "Bandwidth (GB/s)", "带宽（GB/s）";
    TdpW => "TDP (W)", "功耗（W）";
    Add => "Add", "添加";
    Remove => "Remove", "删除";
    Money => "Money", "费用";
    Currency => "Currency", "币种";
    CnyPerUsd => "CNY per USD", "美元兑人民币汇率";
    PriceOverride => "Your hourly price per card", "你的每卡每小时报价";
    Efficiency => "Your measured MFU (%, empty = predicted)", "实测 MFU（%，留空 = 用预测值）";
    Params => "Parameters", "参数量";
    Active => "active", "激活";
    MemorySingle => "Memory on one card (no parallelism)", "单卡显存（不并行）";
    QuickRule => "Rule of thumb (params × bytes × factor)", "经验公式（参数 × 字节 × 系数）";
    Flops => "Training FLOPs", "训练计算量 FLOPs";
    Card => "Card", "显卡";
    Fits => "Fits", "放得下";
    Yes => "yes", "是";
    No => "no", "否";
    Cards => "Cards", "卡数";
    Servers => "servers", "台服务器";
    Layout => "Layout", "并行方式";
    MemoryPerCard => "Memory / card", "每卡显存";
    Time => "Time", "时间";
    ThroughputLabel => "Throughput (decode tokens/s)", "吞吐量（生成 tokens/s）";
    VisionThroughput => "Throughput · latency", "吞吐量 · 延迟";
    Cost => "Cost (rent)", "成本（租用）";
    CostPerMTok => "per M tokens", "每百万 token";
    Warnings => "Warnings", "提醒";
    HowComputed => "How this was computed", "计算过程";
    Source => "Source", "来源";
    MemoryChart => "Memory per card", "每卡显存构成";
    InvalidNumber => "enter a number between {min} and {max}", "请输入 {min} 到 {max} 之间的数";
    TooManyMonths => "at most {n} months", "最多 {n} 个月";
    InvalidInteger => "enter a whole number between {min} and {max}", "请输入 {min} 到 {max} 之间的整数";
    LinkDamaged => "The share link could not be read; showing your saved scenario instead", "分享链接无法读取，已显示你保存的方案";
    PlanFailed => "Cannot plan this scenario; showing the last valid result", "此方案无法计算，显示上一次的有效结果";
    ServingLoading => "Loading the serving engine…", "正在加载推理服务引擎…";
    ServingUnloaded => "The serving engine could not be downloaded (is the connection down?).", "推理服务引擎未能下载（网络是否已断开？）。";
    VisionLoading => "Loading the vision, OCR and speech engine…", "正在加载视觉、OCR 与语音引擎…";
    VisionUnloaded => "The vision, OCR and speech engine could not be downloaded (is the connection down?).", "视觉、OCR 与语音引擎未能下载（网络是否已断开？）。";
    PartUnloaded => "This part of the page could not be downloaded (is the connection down?).", "页面的这一部分未能下载（网络是否已断开？）。";
    TryAgain => "Try again", "重试";
    StorageProblem => "Saved scenarios are unavailable", "无法使用已保存的方案";
    StoreUnavailable => "local storage is not available (private mode or a sandboxed frame)", "本地存储不可用（隐私模式或沙盒框架）";
    StoreFull => "local storage is full or blocked", "本地存储已满或被阻止";
    StoreDamaged => "the saved text is damaged or not usable", "保存的内容已损坏或无法使用";
    StoreNewer => "saved by a newer version of the page", "由更新版本的页面保存";
    StoreSkipped => "{n} saved scenario(s) could not be read and are hidden", "{n} 个已保存方案无法读取，已隐藏";
    UnknownSpecs => "Left out (memory size not published)", "未列出（显存容量未公开）";
    Weights => "weights", "权重";
    Gradients => "gradients", "梯度";
    Optimizer => "optimizer", "优化器状态";
    Master => "master weights", "主权重";
    Activations => "activations", "激活";
    Logits => "logits", "logits";
    KvCache => "KV cache", "KV 缓存";
    Overhead => "overhead", "运行时开销";
    Buffers => "framework buffers", "框架缓冲区";
    FrameworkLabel => "Training framework", "训练框架";
    FwMegatron => "Megatron-LM", "Megatron-LM";
    FwDeepSpeed => "DeepSpeed (ZeRO)", "DeepSpeed（ZeRO）";
    FwFsdp => "PyTorch FSDP / HF Trainer / accelerate", "PyTorch FSDP / HF Trainer / accelerate";
    FwTorchtune => "torchtune", "torchtune";
    FwCustom => "Custom switches", "自定义开关";
    Conventions => "How the framework counts memory", "框架的显存口径";
    GradFp32 => "fp32 gradient accumulation", "fp32 梯度累加";
    StateBf16 => "bf16 optimizer states", "bf16 优化器状态";
    Fp32Params => "fp32 parameters under autocast (AMP)", "AMP 下参数保持 fp32";
    Fp32GradPartition => "fp32 copy of the gradient partition (DeepSpeed)", "梯度分片的 fp32 副本（DeepSpeed）";
    Zero2FullGrads => "ZeRO-2 holds full 16-bit gradients", "ZeRO-2 保留完整 16 位梯度";
    OptInBackward => "optimizer step fused into the backward pass", "优化器步骤融合进反向传播";
    PagedOptimizer => "paged optimizer (states in unified memory)", "分页优化器（状态放在统一内存）";
    ChunkedLoss => "chunked cross-entropy", "分块交叉熵";
    BucketElems => "gradient bucket (million elements)", "梯度桶（百万元素）";
    PrefetchElems => "ZeRO-3 prefetch (million elements)", "ZeRO-3 预取（百万元素）";
    GatheredLayers => "layers gathered at once (ZeRO-3/FSDP)", "同时聚合的层数（ZeRO-3/FSDP）";
    PerModule => "gather per module, not per block", "按模块聚合（而非按整层）";
    Dropout => "dropout masks stored", "保存 dropout 掩码";
    SequenceParallel => "sequence parallelism with TP", "张量并行时启用序列并行";
    BenchmarkCard => "Your benchmark: card (calibrates every card)", "你的实测：卡型（用于校准所有卡）";
    BenchmarkNone => "none", "无";
    BenchmarkSpeed => "Your benchmark: tokens/s per card at this workload", "你的实测：本任务每卡 tokens/s";
    OverlapMoe => "MoE all-to-all under compute (DualPipe, 1F1B A2A overlap)", "MoE 全对全通信与计算重叠（DualPipe、1F1B A2A 重叠）";
    DedupDispatch => "MoE dispatch once per node (DeepEP; group-limited routing)", "MoE 分发每节点只发一次（DeepEP；按组限路由）";
    EpFolded => "folded over TP×DP, whole experts", "跨 TP×DP 折叠，专家不切分";
    FusedSwiglu => "fused SwiGLU (saves only [gate, up])", "融合 SwiGLU（只保存 [gate, up]）";
    FusedKernels => "fused RMSNorm, RoPE and SwiGLU kernels (Megatron/TE, torch.compile); off: eager PyTorch", "融合 RMSNorm、RoPE、SwiGLU 算子（Megatron/TE、torch.compile）；关闭：PyTorch 逐算子执行（未融合）";
    OpSac => "selective recompute is torchtitan's op-level policy (keeps every second matmul output)", "选择性重算采用 torchtitan 算子级策略（每隔一个矩阵乘保存输出）";
    AttentionKernel => "attention kernel (with flash attention)", "注意力算子（开启 flash attention 时）";
    AttnFlash2 => "FlashAttention-2 (PyTorch SDPA, flash-attn 2)", "FlashAttention-2（PyTorch SDPA、flash-attn 2）";
    AttnFused => "Hopper fused kernel (Transformer Engine cuDNN, FlashAttention-3)", "Hopper 融合算子（Transformer Engine cuDNN、FlashAttention-3）";
    AttnXformers => "xformers memory-efficient attention", "xformers 省显存注意力";
    OverlapGrad => "overlap gradient communication with backward", "梯度通信与反向计算重叠";
    LoadTargets => "Load and latency targets", "负载与延迟目标";
    ServingEngineLabel => "Serving engine (sets which prompt steps run without CUDA graphs)", "推理引擎（决定哪些预填充步骤不走 CUDA Graph）";
    EnforceEager => "No CUDA graphs at all (--enforce-eager)", "完全关闭 CUDA Graph（--enforce-eager）";
    EngineVllm => "vLLM V1 (graphs up to 512 tokens)", "vLLM V1（512 token 以内走 Graph）";
    EngineSglang => "SGLang ≤ 0.5.9 (prefill eager)", "SGLang ≤ 0.5.9（预填充不走 Graph）";
    EngineSglangGraphs => "SGLang from March 2026 (prefill graphs)", "SGLang 2026 年 3 月后（预填充走 Graph）";
    EngineTrtllm => "TensorRT-LLM, PyTorch backend (context eager)", "TensorRT-LLM PyTorch 后端（上下文阶段不走 Graph）";
    EngineVllmV0 => "vLLM V0, before 0.6 (prefill eager, host time per request)", "vLLM V0（0.6 之前；预填充不走 Graph，每个请求有主机开销）";
    RateRps => "Requests per second (empty: from the users)", "每秒请求数（留空：按用户数）";
    ThinkS => "User think time between requests (s)", "用户两次请求间的思考时间（秒）";
    PrefixShare => "Prompt tokens from a prefix cache (%)", "命中前缀缓存的输入 token（%）";
    TtftP50 => "Time to first token, p50 target (s)", "首 token 延迟 p50 目标（秒）";
    TtftP99 => "Time to first token, p99 target (s)", "首 token 延迟 p99 目标（秒）";
    TpotP50 => "Time per output token, p50 target (ms)", "每输出 token 时间 p50 目标（毫秒）";
    TpotP99 => "Time per output token, p99 target (ms)", "每输出 token 时间 p99 目标（毫秒）";
    MemUtil => "Card memory the engine may use (%)", "推理引擎可用显存比例（%）";
    ServeTp => "Tensor-parallel cards per replica (0: cheapest)", "每副本张量并行卡数（0：自动取最省）";
    ServeEp => "MoE: cards the experts spread over (EP; 0: cheapest)", "MoE：专家分布的卡数（EP；0：自动取最省）";
    MaxBatched => "Max tokens per engine step (prefill chunk)", "每步最多处理 token 数（预填充分块）";
    StepOverhead => "Fixed time per engine step (ms)", "每步固定开销（毫秒）";
    SpecTokens => "Speculative decoding: drafted tokens per step (MTP / EAGLE; 0 = off)", "投机解码：每步草稿 token 数（MTP / EAGLE；0 = 关闭）";
    SpecAccept => "Speculative decoding: acceptance rate per drafted token (%)", "投机解码：每个草稿 token 的接受率（%）";
    MaxSeqs => "Max requests running at once (0 = engine default: 1,024 on cards of 70 GB+ except A100, else 256)", "同时运行的最大请求数（0 = 引擎默认：70 GB 以上且非 A100 的卡 1,024，其余 256）";
    Sustains => "sustains", "可承受";
    ReqS => "req/s", "请求/秒";
    NearSaturation => "near saturation: over 80% of what a replica sustains, latency climbs steeply", "接近饱和：超过单副本可承受速率的 80%，延迟将陡增";
    ServingTitle => "Serving capacity", "服务容量";
    ServingHint => "Continuous batching with chunked prefill: replicas and cards to meet the targets at the load. TTFT and TPOT percentiles come from a step-by-step simulation of the scheduler (vLLM V1's rules, seeded; 300 requests when they are all alike or the plan misses the targets, else 1,000; SGLang and TensorRT-LLM form each step while the one before it runs).", "连续批处理 + 分块预填充：满足负载与延迟目标所需的副本数与卡数。TTFT 与 TPOT 分位数来自逐步模拟调度器（按 vLLM V1 规则，固定种子；请求完全相同或方案达不到目标时 300 个，否则 1,000 个；SGLang 与 TensorRT-LLM 在上一步运行时即组好下一步）。";
    Replicas => "TP × replicas = cards", "TP × 副本 = 卡数";
    TtftCol => "TTFT p50 / p99 (s)", "首 token p50 / p99（秒）";
    TpotCol => "TPOT p50 / p99 (ms)", "每 token p50 / p99（毫秒）";
    TokensS => "Output tokens/s", "输出 token/秒";
    PerCard => "card", "卡";
    TokensPerUser => "tokens/s per user", "每用户 token/秒";
    TokensPerCard => "output tokens/s per card", "每卡输出 token/秒";
    TpotTarget => "TPOT p50 target", "每 token 时间 p50 目标";
    ThisPlan => "this plan", "当前方案";
    FromLink => "Opened from a link", "通过链接打开";
    LinkAnswer => "The answer as the link was sent — updating…", "链接发送时的结果——正在更新…";
    MemoryHeadroom => "Memory kept free per card (%)", "每卡预留显存（%）";
    PageSections => "Page sections", "页面导航";
    Answer => "Answer", "结果";
    Infrastructure => "Infrastructure", "基础设施";
    AccuracyNav => "Accuracy", "准确度";
    AutoPlanNav => "Auto-plan", "自动规划";
    BatchPrefix => "b=", "批=";
    TradeoffTitle => "Throughput against speed per user", "吞吐与单用户速度的权衡";
    CostPerMRent => "per M tokens (rent)", "每百万 token（租用）";
    CostPerMOwn => "per M tokens (own, 24/7)", "每百万 token（自有，全天）";
    MeetsTargets => "Meets targets", "达到目标";
    TargetsMissed => "no: no TP width meets the targets", "否：任何张量并行宽度都达不到目标";
    PasteConfig => "Paste config.json", "粘贴 config.json";
    PasteConfigHint => "A Hugging Face config.json fills the custom model (MoE, MLA, sliding window, nested text_config, quantization_config). Paste model.safetensors.index.json afterwards to cross-check the parameter count. You can also drop the file on the box.", "Hugging Face 的 config.json 会填入自定义模型（MoE、MLA、滑动窗口、嵌套 text_config、quantization_config）。之后再粘贴 model.safetensors.index.json 可核对参数量。也可以把文件拖到框里。";
    ReadConfig => "Read", "读取";
    ChooseFile => "Choose a file", "选择文件";
    ConfigRead => "Read {name}: {params} B parameters; it is now the custom model.", "已读取 {name}：{params} B 参数，已设为自定义模型。";
    ConfigVision => " Vision tower {params} B not included.", " 视觉编码器 {params} B 未计入。";
    ConfigDerived => "derived ({n})", "另有 {n} 项为推导值（说明见英文界面）";
    ConfigFailed => "Could not read the config", "无法读取 config";
    IndexAgrees => "The index's total size agrees with the model's parameter count (within 2%).", "索引的总大小与模型参数量一致（误差 2% 以内）。";
    IndexDiffers => "The model's parameter count differs from the index's total size by {pct}%: check the dimensions or the weight format.", "模型参数量与索引总大小相差 {pct}%：请检查维度或权重格式。";
    OverlapTp => "overlap tensor-parallel communication with GEMMs (Megatron-Core tp_comm_overlap)", "张量并行通信与矩阵乘重叠（Megatron-Core tp_comm_overlap）";
    AdapterFp32 => "LoRA adapters in fp32", "LoRA 适配器用 fp32";
    DoubleQuant => "QLoRA double quantization", "QLoRA 双重量化";
    GroupScales => "group scales on quantized weights", "量化权重带分组缩放";
    QuantEmbeddings => "quantize embeddings too", "嵌入层也量化";
    AttentionFlops => "count attention FLOPs as model FLOPs", "注意力计算计入模型 FLOPs";
    VirtualStages => "virtual pipeline stages (interleaved)", "虚拟流水线阶段（交错调度）";
    RecomputeLayers => "layers recomputed per pipeline stage (0 = all)", "每个流水线阶段重算的层数（0 = 全部）";
    Ep => "Expert parallel (MoE)", "专家并行（MoE）";
    Cp => "Context parallel (long sequences)", "上下文并行（长序列）";
    TargetsQv => "q and v only", "仅 q 和 v";
    MfuShort => "MFU", "MFU";
    Goodput => "Goodput (% of wall time training; empty = from the run's length and card count)", "有效训练时间占比（%；留空 = 按训练时长和卡数估算故障重启与检查点）";
    Accuracy => "How accurate is it?", "准确度如何？";
    AccuracyIntro => "Published reference numbers recomputed by this page from the published inputs. A row counts as within tolerance when the error is inside the stated band; rows the model cannot express yet stay in the table with the reason.", "用公开资料中的输入重新计算的公开参考数值。误差在所列容差内即为符合；模型暂时无法表达的情形仍列在表中，并注明原因。";
    AccuracyCase => "Case", "案例";
    Published => "Published", "公开值";
    Ours => "This page", "本页";
    ErrorLabel => "Error", "误差";
    Tolerance => "Tolerance", "容差";
    Within => "Within", "符合";
    NotExpressible => "not expressible yet", "暂无法表达";
    AccuracyScore => "within tolerance", "在容差内";
    CasesInAll => "cases in all", "个案例";
    LackingFeature => "need a feature the engine lacks (misses)", "需引擎尚缺的功能（计为未命中）";
    AccuracyTable => "open the table with every case and its source", "查看全部案例及来源";
    Capacity => "capacity", "容量";
    Scenarios => "Scenarios", "方案";
    ScenarioName => "Scenario name", "方案名称";
    Save => "Save", "保存";
    SavedNew => "Saved as “{name}”.", "已保存为“{name}”。";
    SavedSame => "“{name}” is saved already, unchanged.", "“{name}”已保存，没有改动。";
    SavedBeside => "Saved as “{name}”: “{old}” holds another scenario and is kept.", "已另存为“{name}”：同名的“{old}”是另一个方案，已保留。";
    ReplaceInstead => "Replace “{old}” instead", "改为覆盖“{old}”";
    Duplicate => "Duplicate", "复制";
    Rename => "Rename", "重命名";
    Load => "Open", "打开";
    Delete => "Delete", "删除";
    Deleted => "Deleted “{name}”.", "已删除“{name}”。";
    Undo => "Undo", "撤销";
    Compare => "Compare", "对比";
    CompareHint => "Tick two or three saved scenarios to compare them", "勾选两到三个已保存方案进行对比";
    Export => "Export JSON", "导出 JSON";
    Import => "Import JSON", "导入 JSON";
    CopyLink => "Copy share link", "复制分享链接";
    Copied => "Link copied", "链接已复制";
    CopyManually => "Copy this link:", "请手动复制此链接：";
    ImportFailed => "Import failed", "导入失败";
    Imported => "Imported {n} scenario(s); they are listed below.", "已导入 {n} 个方案，见下方列表。";
    BestCard => "Best card", "首选显卡";
    RentVsBuy => "Rent or buy", "租用还是购买";
    SeedPreset => "Load the seed preset: 4-card A100 80G server, ¥275k", "载入示例：4 卡 A100 80G 整机 27.5 万元";
    CardToBuy => "Card to buy", "购买的显卡";
    Profile => "Machine the cards go in", "显卡所装的机器";
    ProfileAuto => "by the card and count", "按显卡与数量自动选择";
    ProfileCustom => "my own figures", "我自己的数字";
    ProfileLine => "{class} for {card}: host {host}, network {net}, rack {rack} a month, engineer {ops}, {w} W, up to {per} cards each (stated assumptions; choose “my own figures” to change them).", "{card} 按{class}计：主机 {host}，网络 {net}，机柜每月 {rack}，运维 {ops}，{w} W，每台最多 {per} 张卡（明示假设；选“我自己的数字”可修改）。";
    Nothing => "none", "无";
    CardsPerHost => "Cards per machine", "每台机器的卡数";
    BestFitting => "best fitting card with a price", "有报价的最佳可用卡";
    CardsToBuy => "Cards to buy (0 = plan's count)", "购买卡数（0 = 方案卡数）";
    OwnCurrency => "Currency of the amounts below", "以下金额的币种";
    CardPrice => "Price per card (empty = catalog)", "单卡价格（留空 = 目录价）";
    ServerPrice => "Server without GPUs, per server", "服务器（不含 GPU）每台";
    NetworkPerServer => "Network share per server", "网络分摊每台";
    HostWatts => "Host power per server (W)", "整机非 GPU 功耗（W）";
    Site => "Site", "地点";
    CustomSite => "custom", "自定义";
    Electricity => "Electricity per kWh", "电价（每千瓦时）";
    Pue => "PUE", "PUE";
    RackPerMonth => "Rack / colocation per server-month", "机柜托管每台每月";
    OpsSalary => "Ops engineer salary per year", "运维工程师年薪";
    OpsShare => "Share of that engineer (%)", "运维人力占比（%）";
    Maintenance => "Maintenance per year (% of hardware)", "年维护费（占硬件 %）";
    Depreciation => "Depreciation (years)", "折旧年限（年）";
    Residual => "Resale value at the end (%)", "期末残值（%）";
    Discount => "Discount rate per year (%)", "年折现率（%）";
    Utilisation => "Utilisation (% of hours busy)", "利用率（忙碌小时占比 %）";
    RentHourly => "On-demand per card-hour (empty = catalog)", "按需每卡每小时（留空 = 目录价）";
    RentMonthly => "Monthly commitment per card", "包月每卡";
    RentYearly => "Yearly commitment per card", "包年每卡";
    Months => "Months to show", "显示月数";
    Demand => "Monthly demand, GPU-hours (comma-separated)", "每月需求 GPU 小时（逗号分隔）";
    Budget => "Budget (empty = off)", "预算（留空 = 不筛选）";
    Hardware => "Hardware up front", "一次性硬件投入";
    AnnualFixed => "Fixed cost per year", "每年固定成本";
    PowerPerHour => "Power per hour, all cards busy", "满载每小时电费";
    OwnPerGpuHour => "Owned cost per card-hour", "自有每卡每小时成本";
    RentPerGpuHour => "Rented per card-hour", "租用每卡每小时";
    BreakevenHours => "Buying beats on-demand above", "购买优于按需租用的年使用时长";
    BreakevenMonth => "Cash breakeven vs on-demand", "相对按需租用的回本月份";
    Never => "never", "不会";
    HoursPerYear => "h / year", "小时/年";
    MonthN => "months", "个月";
    HybridBest => "Hybrid: own this many cards, rent the peaks", "混合方案：自有卡数，高峰租用";
    PerYear => "per year", "每年";
    CumulativeTitle => "Cumulative cost", "累计成本";
    AnnualTitle => "Annual cost against use", "年成本与使用时长";
    MonthsAxis => "months", "月";
    HoursAxis => "busy hours per year", "每年忙碌小时";
    OwnCash => "own (cash)", "购买（现金）";
    OwnNet => "own, net of resale", "购买（扣除残值）";
    OnDemand => "rent on demand", "按需租用";
    MonthlyRent => "rent monthly", "包月租用";
    YearlyRent => "rent yearly", "包年租用";
    BreakevenMark => "breakeven", "平衡点";
    NoPrice => "No purchase price for the chosen card: enter one to compare owning and renting.", "所选显卡没有购买价格：请输入价格以比较购买与租用。";
    BudgetFits => "Within budget", "预算内可行";
    Buy => "buy", "购买";
    RentFor => "rent for", "可租用";
    OwnCostRun => "Cost (own)", "成本（自有）";
    Beyond => "Beyond the card: storage, network, power", "显卡之外：存储、网络、供电";
    CkptEvery => "Checkpoint every (hours)", "检查点间隔（小时）";
    CkptKept => "Checkpoints kept", "保留检查点数";
    StorageGbs => "Storage write bandwidth (GB/s)", "存储写入带宽（GB/s）";
    BytesPerToken => "Dataset bytes per token", "数据集每 token 字节数";
    StoragePrice => "Storage price per TB (owned)", "存储每 TB 价格（自有）";
    StorageRent => "Storage rent per TB-month", "存储租用每 TB 每月";
    Fabric => "Network per GPU between servers (Gb/s)", "服务器间每卡网络（Gb/s）";
    ServersPerRack => "Servers per rack", "每机柜服务器数";
    RackKw => "Rack power limit (kW)", "机柜供电上限（kW）";
    Room => "Room", "机房环境";
    RoomDc => "data centre", "数据中心";
    RoomOffice => "office / workstation room", "办公室 / 工作站";
    CkptWeights => "Checkpoint, weights only", "检查点（仅权重）";
    CkptFull => "Checkpoint, resumable (with optimizer)", "检查点（含优化器，可续训）";
    Dataset => "Tokenized dataset", "分词后数据集";
    StorageTotal => "Storage to provision", "需准备的存储";
    CkptWrite => "Time to write one checkpoint", "写一次检查点耗时";
    CkptShare => "Share of the run spent saving", "保存占训练时间比例";
    NetNeeded => "Inter-server bandwidth needed per GPU", "每卡所需服务器间带宽";
    NetNone => "single server: no inter-server traffic", "单台服务器：无服务器间通信";
    ServerPower => "Power per server", "每台服务器功耗";
    RackPower => "Power per rack", "每机柜功耗";
    ItLoad => "IT load (all servers)", "IT 负载（全部服务器）";
    Psu => "PSU capacity per server (×1.25)", "每台电源容量（×1.25）";
    Ups => "UPS", "UPS";
    Heat => "Heat to remove", "需排出热量";
    FacilityPower => "Facility power (× PUE)", "机房总功耗（× PUE）";
    Checklist => "Procurement checklist", "采购检查清单";
    ToBuy => "to buy", "购买";
    PerMonthRented => "per month rented", "每月租用";
    Host => "host", "主机";
    Print => "Print", "打印";
    AutoPlan => "Auto-plan: every card and layout", "自动规划：遍历所有显卡与并行方式";
    Deadline => "Deadline (days, empty = none)", "截止时间（天，留空 = 不限）";
    SearchBudget => "Budget for the run (empty = none)", "本次训练预算（留空 = 不限）";
    MaxGpus => "Most cards to consider (0 = from the task and model)", "最多考虑卡数（0 = 按任务与模型）";
    MaxGpusAuto => "Trying up to {n} cards: twice the cards that finish the run in a day, or 8 × the 80 GB cards the model needs unsplit.", "最多尝试 {n} 张卡：一天内跑完所需卡数的两倍，或模型不切分时所需 80 GB 卡数的 8 倍，取较大者。";
    YourPlan => "Your plan", "你的方案";
    ShortNoFit => "does not fit: needs {need} per card, has {cap}", "放不下：每卡需 {need}，容量 {cap}";
    ShortDeadline => "takes {h}, the deadline is {d}", "需要 {h}，截止时间为 {d}";
    ShortNoSpeed => "its speed is unknown, so the deadline cannot be checked", "速度未知，无法检查截止时间";
    ShortTargets => "misses the latency targets at this load", "在此负载下达不到延迟目标";
    Searched => "configurations searched", "种配置已搜索";
    FitCount => "fit", "放得下";
    Feasible => "meet deadline and budget", "满足截止时间与预算";
    SearchMs => "ms", "毫秒";
    Cheapest => "Cheapest plans", "最省钱方案";
    Fastest => "Fastest plans", "最快方案";
    PerCardBest => "Best plan per card", "每种卡的最佳方案";
    ParetoTitle => "Time vs cost (Pareto front)", "时间与成本（帕累托前沿）";
    DaysAxis => "days", "天";
    Plans => "plans", "方案";
    Front => "Pareto front", "帕累托前沿";
    Apply => "Apply", "采用";
    Fixes => "Cheapest fixes for your plan", "让方案可行的最省钱改法";
    NoFeasible => "No configuration meets the deadline and budget.", "没有配置能满足截止时间与预算。";
    TrainingOnly => "Auto-plan schedules training runs; choose a training task.", "自动规划用于训练任务；请选择训练任务。";
    // Market prices, used cards, lead time, buying rules (issue 14).
    RentMarket => "Rental market", "租用市场";
    MarketAny => "any", "不限";
    MarketChinaCloud => "China GPU clouds", "国内 GPU 云";
    MarketGlobal => "global marketplaces", "海外算力市场";
    MarketHyperscaler => "hyperscalers", "大型公有云";
    MarketMine => "my quotes only", "仅我的报价";
    Condition => "Cards bought", "购买成色";
    CondNew => "new", "全新";
    CondUsed => "used", "二手";
    PriceFrom => "price from", "价格来自";
    PressReport => "report", "新闻报道";
    RankedAfter => "ranked after current prices", "排在近期价格之后";
    NoPublicPrice => "no public price: add your quote under Money", "无公开价格：请在“费用”中填写你的报价";
    MyQuote => "your quote", "你的报价";
    LeadWeeks => "Lead time, weeks (empty = data)", "交付周期，周（留空 = 数据）";
    LeadTime => "Lead time", "交付周期";
    Weeks => "weeks", "周";
    Assumed => "assumed", "假设";
    Bridge => "Rent until delivery", "到货前租用";
    RentFirst => "The deadline falls before delivery: rent first.", "截止时间早于到货：先租用。";
    NoRentPrice => "no rental price known", "无租用价格";
    BuyWhen => "Buy when:", "适合购买：";
    RuleHours => "busy > ~4,000 h a year (rule of thumb: no rental price to compare); yours:", "年忙碌 > 约 4,000 小时（经验法则：没有租用价格可比）；你的：";
    RuleRetrain => "buying also suits a model retrained ≥ 3 times a week", "同一模型每周重训 ≥ 3 次时也适合购买";
    BuyAbove => "Buying beats on-demand renting above {h}; yours: {yours}", "年忙碌超过 {h} 时购买比按需租用便宜；你的：{yours}";
    BuyNever => "At these prices on-demand renting stays cheaper at any use; yours: {yours}", "按当前价格，无论用多少，按需租用都更便宜；你的：{yours}";
    HybridNeedsDemand => "Enter a monthly demand profile to see how many cards to own and how many to rent at the peaks.", "填写每月需求，即可看到自有多少卡、高峰租用多少。";
    IdleWarning => "Below ~30% use: cards that sit idle.", "利用率低于约 30%：卡会闲置。";
    // Answer first (issue 13): the ranking's top ten, the wiki iframe's link to the full page.
    ShowAll => "Show all {n} cards", "显示全部 {n} 张卡";
    ShowTop => "Show the top 10 only", "只显示前 10 名";
    OpenFull => "Open the full page ↗", "打开完整页面 ↗";
    Footer => "Formulas: ZeRO (Rajbhandari 2019), Korthikanti 2022, Kaplan 2020, PaLM 2022, QLoRA 2023. Specs: vendor datasheets, dense figures. GiB = 2³⁰ bytes. Every card and price with its sources and dates:", "公式：ZeRO（Rajbhandari 2019）、Korthikanti 2022、Kaplan 2020、PaLM 2022、QLoRA 2023。规格：厂商数据手册，稠密算力。GiB = 2³⁰ 字节。每张卡和每个价格的来源与日期：";
}

/// The text of `key` in the page language, as a view child that follows a language switch.
/// Every call returns the same closure type, so the text-rendering code is compiled once rather
/// than once per label (measured: smaller wasm than a `move || key.text(…)` at each use).
pub fn tr(lang: leptos::prelude::RwSignal<Lang>, key: Key) -> impl Fn() -> &'static str + Copy + Send + Sync {
    use leptos::prelude::Get;
    move || key.text(lang.get())
}

impl From<crate::web::storage::StoreError> for Key {
    fn from(e: crate::web::storage::StoreError) -> Key {
        use crate::web::storage::StoreError as E;
        match e {
            E::Unavailable => Key::StoreUnavailable,
            E::Full => Key::StoreFull,
            E::Damaged => Key::StoreDamaged,
            E::Newer => Key::StoreNewer,
        }
    }
}

/// The task's words (the task picker, the comparison).
impl From<crate::domain::scenario::Task> for Key {
    fn from(t: crate::domain::scenario::Task) -> Self {
        use crate::domain::scenario::Task;
        match t {
            Task::Pretrain => Key::Pretrain,
            Task::FullFinetune => Key::FullFinetune,
            Task::Lora => Key::Lora,
            Task::Qlora => Key::Qlora,
            Task::Inference => Key::Inference,
        }
    }
}

/// The recompute mode's words (the ranking, the auto-plan rows).
impl From<crate::domain::scenario::Recompute> for Key {
    fn from(r: crate::domain::scenario::Recompute) -> Self {
        use crate::domain::scenario::Recompute;
        match r {
            Recompute::None => Key::RecNone,
            Recompute::Selective => Key::RecSelective,
            Recompute::Full => Key::RecFull,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_distinct_nonempty_texts_in_both_languages() {
        for k in Key::ALL {
            assert!(!k.text(Lang::En).is_empty() && !k.text(Lang::Zh).is_empty(), "{k:?}");
        }
        // The one-string store hands each key its own pair, first to last.
        assert_eq!((Key::Title.text(Lang::En), Key::Title.text(Lang::Zh)), ("GPU Planner", "GPU 选型规划"));
        assert_eq!(Key::MemoryPerCard.text(Lang::Zh), "每卡显存");
        assert!(Key::Footer.text(Lang::Zh).ends_with("来源与日期："));
    }
}
