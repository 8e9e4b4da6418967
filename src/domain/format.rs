//! Numbers and warnings as text, in English and Chinese. Pure string formatting.

use super::error::{DecodeError, PlanError};
use super::scenario::Currency;
use super::units::GIB;
use super::verdict::Warning;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// From a BCP 47 tag such as `zh-CN` or `en-US`.
    #[must_use]
    pub fn from_tag(tag: &str) -> Lang {
        if tag.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }
    #[must_use]
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }
}

/// Groups digits by thousands: 1234567.8 → "1,234,568" (0 decimals) .
#[must_use]
pub fn grouped(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = s.split_once('.').map_or((s.as_str(), ""), |(a, b)| (a, b));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    if v < 0.0 {
        format!("-{out}")
    } else {
        out
    }
}

/// Bytes as GiB (binary, as PyTorch and nvidia-smi report), labelled.
#[must_use]
pub fn gib(bytes: f64) -> String {
    let g = bytes / GIB;
    if g >= 100.0 {
        format!("{} GiB", grouped(g, 0))
    } else {
        format!("{g:.1} GiB")
    }
}

/// A card's power as the page shows it: published, an estimate from a published server or
/// system power, or unknown (left out of the sums, which say so).
#[must_use]
pub fn card_power(p: super::catalog::CardPower, lang: Lang) -> String {
    use super::catalog::CardPower;
    match (p, lang) {
        (CardPower::Published(w), _) => format!("{} W", grouped(w, 0)),
        (CardPower::Estimated(w), Lang::En) => {
            format!("≈{} W (estimated from the published server power)", grouped(w, 0))
        }
        (CardPower::Estimated(w), Lang::Zh) => format!("约 {} W（按公开的整机功耗估算）", grouped(w, 0)),
        (CardPower::Unknown, Lang::En) => "? W (not published: the sums leave the cards out)".into(),
        (CardPower::Unknown, Lang::Zh) => "? W（未公布：合计未计入显卡）".into(),
    }
}

/// The machine a purchase is priced in, as a buyer names it.
#[must_use]
pub fn host_class(c: super::host::HostClass, lang: Lang) -> &'static str {
    use super::host::HostClass;
    match (c, lang) {
        (HostClass::Workstation, Lang::En) => "workstation",
        (HostClass::Workstation, Lang::Zh) => "工作站",
        (HostClass::PcieServer, Lang::En) => "PCIe GPU server",
        (HostClass::PcieServer, Lang::Zh) => "PCIe GPU 服务器",
        (HostClass::BoardServer, Lang::En) => "board server (HGX, OAM or module)",
        (HostClass::BoardServer, Lang::Zh) => "基板整机服务器（HGX、OAM 或模组）",
        (HostClass::Custom, Lang::En) => "server (your figures)",
        (HostClass::Custom, Lang::Zh) => "服务器（你的数字）",
    }
}

/// Money with its symbol: "¥12,340", "$1,234".
#[must_use]
pub fn money(amount: f64, c: Currency) -> String {
    let sym = match c {
        Currency::CNY => "¥",
        Currency::USD => "$",
    };
    let dec = if amount.abs() < 100.0 { 2 } else { 0 };
    format!("{sym}{}", grouped(amount, dec))
}

/// A duration in the largest sensible unit.
#[must_use]
pub fn hours(h: f64, lang: Lang) -> String {
    in_unit(h, h, lang)
}

/// Hours per unit and the unit's name for a duration of `h` hours: minutes below an hour, hours
/// below two days, days below a year, years.
fn unit(h: f64) -> (f64, &'static str, &'static str) {
    if h < 1.0 {
        (1.0 / 60.0, "min", "分钟")
    } else if h < 48.0 {
        (1.0, "h", "小时")
    } else if h < 24.0 * 365.0 {
        (24.0, "days", "天")
    } else {
        (24.0 * 365.0, "years", "年")
    }
}

/// `h` hours in the unit [`hours`] shows `like` in.
fn in_unit(h: f64, like: f64, lang: Lang) -> String {
    let (per, en, zh) = unit(like);
    match lang {
        Lang::En => format!("{} {en}", grouped(h / per, 1)),
        Lang::Zh => format!("{} {zh}", grouped(h / per, 1)),
    }
}

/// FLOPs in scientific notation: "9.38e22".
#[must_use]
pub fn flops(f: f64) -> String {
    format!("{f:.2e}").replace("e", "e+").replace("e+-", "e-")
}

/// How the shown training FLOPs are counted, for the figure's tooltip: the formula
/// `compute::training_flops` or `vision::training_flops` evaluates for this kind of job.
/// LoRA/QLoRA skip the frozen weights' gradients (4·N, not 6·N); the attention term only when
/// the scenario's convention counts it; vision jobs count 3 × the forward pass per sample.
#[must_use]
pub fn flops_formula(task: super::scenario::Task, vision: bool, attention: bool, lang: Lang) -> &'static str {
    use super::scenario::Task::{Lora, Qlora};
    let lora = matches!(task, Lora | Qlora);
    match (vision, lora, attention, lang) {
        (true, _, _, Lang::En) => "3 × forward FLOPs per sample × samples × epochs (backward ≈ 2 × forward)",
        (true, _, _, Lang::Zh) => "每个样本前向 FLOPs × 3 × 样本数 × 轮数（反向约为前向的 2 倍）",
        (false, false, true, _) => "(6·N + 12·L·h·s) × D — Kaplan 2020, PaLM App. B",
        (false, false, false, _) => "6·N × D — Kaplan 2020",
        (false, true, true, Lang::En) => "(4·N + 12·L·h·s) × D — frozen weights compute no weight gradient",
        (false, true, true, Lang::Zh) => "(4·N + 12·L·h·s) × D — 冻结的权重不计算权重梯度",
        (false, true, false, Lang::En) => "4·N × D — frozen weights compute no weight gradient",
        (false, true, false, Lang::Zh) => "4·N × D — 冻结的权重不计算权重梯度",
    }
}

/// A factor or byte count without float noise: 2 → "2", 1.2 → "1.2", 0.5625 → "0.56".
#[must_use]
pub fn short(v: f64) -> String {
    format!("{}", (v * 100.0).round() / 100.0)
}

/// The rule of thumb: "45.7 GiB – 91.3 GiB (2 B × 3–6)", or one figure when the factor is one.
#[must_use]
pub fn quick_rule(q: &super::memory::QuickRule) -> String {
    let (lo, hi) = (short(q.factor_low), short(q.factor_high));
    if lo == hi {
        format!("{} ({} B × {lo})", gib(q.low), short(q.bytes_per_param))
    } else {
        format!("{} – {} ({} B × {lo}–{hi})", gib(q.low), gib(q.high), short(q.bytes_per_param))
    }
}

/// A catalog code for a card's software stack or link as its vendor names it ("CANN", "ROCm",
/// "HCCS"); `other` and unknown codes become "Biren's own" / "Biren 自有".
#[must_use]
pub fn vendor_name(code: &str, vendor: &str, lang: Lang) -> String {
    const NAMES: &str = "cuda|CUDA|rocm|ROCm|cann|CANN|neuware|Neuware|dtk|DTK|musa|MUSA|nvlink|NVLink|hccs|HCCS|mlu-link|MLU-Link|infinity-fabric|Infinity Fabric|pcie|PCIe";
    let mut names = NAMES.split('|');
    while let (Some(c), Some(name)) = (names.next(), names.next()) {
        if c == code {
            return name.into();
        }
    }
    match lang {
        Lang::Zh => format!("{vendor} 自有"),
        Lang::En => format!("{vendor}'s own"),
    }
}

/// One warning in the user's language. Grouped so that each group's words sit together; the
/// match names every warning, so a new one cannot go unworded.
#[must_use]
pub fn warning(w: &Warning, lang: Lang) -> String {
    match w {
        Warning::ConsumerCardForTraining
        | Warning::CardPowerUnknown
        | Warning::HighPower { .. }
        | Warning::SoftwareEcosystem { .. }
        | Warning::ChinaMarketVariant
        | Warning::DomesticAccelerator
        | Warning::ChinaSupply { .. }
        | Warning::NoNativePrecision { .. }
        | Warning::UnknownCompute
        | Warning::UnknownCard { .. } => card_warning(w, lang),
        Warning::PcieTrainingBeyond8 { .. }
        | Warning::TensorParallelOverPcie { .. }
        | Warning::FabricUnknown { .. } => link_warning(w, lang),
        Warning::ServingTargetsMissed { .. }
        | Warning::LatencyTargetMissed { .. }
        | Warning::RoundedToOrder { .. }
        | Warning::CpuOffload
        | Warning::BeyondContext { .. }
        | Warning::MemoryEstimated { .. }
        | Warning::MemoryLowerBound { .. }
        | Warning::DoesNotFit { .. } => plan_warning(w, lang),
        Warning::MultiServer { .. }
        | Warning::FabricDominates { .. }
        | Warning::RackPowerOverLimit { .. }
        | Warning::OfficeRoom { .. } => site_warning(w, lang),
    }
}

/// How the cards of a plan talk: over PCIe, or over a fabric of unpublished bandwidth.
fn link_warning(w: &Warning, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match w {
        Warning::PcieTrainingBeyond8 { gpus } => {
            if zh {
                format!("{gpus} 张仅 PCIe 互联的卡做训练：梯度同步受 PCIe 带宽限制，超过 8 卡扩展性差")
            } else {
                format!("training on {gpus} PCIe-only cards: gradient all-reduce is bound by PCIe; beyond 8 cards scaling is poor")
            }
        }
        Warning::TensorParallelOverPcie { tp } => {
            if zh {
                format!("张量并行 {tp} 路超出 NVLink 域、走 PCIe：每层的 all-reduce 会明显拖慢训练、增加推理延迟")
            } else {
                format!("tensor parallel {tp} beyond the NVLink domain: per-layer all-reduces over PCIe slow training and add serving latency")
            }
        }
        Warning::FabricUnknown { kind } => {
            let link = match kind.as_str() {
                "hccs" => "HCCS",
                "infinity-fabric" => "Infinity Fabric",
                "mlu-link" => "MLU-Link",
                "nvlink" | "nvlink-bridge" => "NVLink",
                _ if zh => "卡间互联",
                _ => "card-to-card link",
            };
            if zh {
                format!("该卡的 {link} 带宽未公布：多卡通信按 PCIe 计时，多卡时间偏保守；请向厂商索取单卡互联带宽")
            } else {
                format!("this card's {link} bandwidth is not published: its multi-card communication is timed over PCIe, so multi-card times are pessimistic; ask the vendor for the per-card link bandwidth")
            }
        }
        _ => String::new(),
    }
}

/// What a card is or lacks: market, software, power, published figures.
fn card_warning(w: &Warning, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match w {
        Warning::ConsumerCardForTraining => {
            if zh {
                "消费级显卡用于生产训练：无 ECC、散热与驱动许可不适合机房长期满载".into()
            } else {
                "consumer card for production training: no ECC by default, open-air cooling and the GeForce licence are not meant for 24/7 datacenter load".into()
            }
        }
        Warning::CardPowerUnknown => {
            if zh {
                "该卡未公布功耗：供电、UPS、散热与电费只计入主机，请向厂商索取整机功耗后再定机房".into()
            } else {
                "this card's power is not published: power, UPS, cooling and electricity count the hosts only; ask the vendor for the server's power before sizing the room".into()
            }
        }
        Warning::HighPower { card_w, server_w, cards } => {
            let (card_w, server_w) = (grouped(*card_w, 0), grouped(*server_w, 0));
            match (zh, *cards > 1) {
                (true, true) => format!("单卡 {card_w} W，每台 {cards} 卡仅显卡约 {server_w} W：需机房级供电与散热"),
                (true, false) => format!("单卡 {card_w} W：需按此规划供电与散热"),
                (false, true) => format!(
                    "{card_w} W per card, {cards} cards ≈ {server_w} W per server (cards only): needs datacenter power and cooling"
                ),
                (false, false) => format!("{card_w} W card: plan power delivery and cooling for it"),
            }
        }
        Warning::SoftwareEcosystem { software, vendor } => {
            let name = vendor_name(software, vendor, lang);
            if zh {
                format!("软件栈为 {name}，生态不如 CUDA 成熟：确认框架、算子、并行库与模型的支持情况，预留适配时间")
            } else {
                format!("software stack is {name}, younger than CUDA: check framework, kernel, parallel-library and model support; allow porting time")
            }
        }
        Warning::ChinaMarketVariant => {
            if zh {
                "中国市场特供型号：互联或算力较国际版有削减，受出口管制影响".into()
            } else {
                "China-market variant: interconnect or compute cut versus the global part; subject to export controls"
                    .into()
            }
        }
        Warning::DomesticAccelerator => {
            if zh {
                "国产加速卡：经厂商或其服务器伙伴整机供货；确认交付周期、现场支持及已验证的框架与模型版本".into()
            } else {
                "Chinese-made accelerator: sold by the vendor or its server partners, usually as whole servers; confirm delivery time, on-site support and validated framework and model versions".into()
            }
        }
        Warning::ChinaSupply { status, since } => match (zh, status == "grey") {
            (true, true) => format!("自 {since} 起中国大陆无正规渠道供货：只有水货或二手，有被锁算力、翻新的风险；排在可获得的卡之后"),
            (true, false) => format!("自 {since} 起中国大陆不再销售新卡：可在国内云平台租用，或购买二手"),
            (false, true) => format!("not sold in mainland China through official channels since {since}: only grey-market imports or used cards, at the risk of locked or refurbished boards; ranked after the cards a team there can get"),
            (false, false) => format!("not sold new in mainland China since {since}: rent it from a Chinese cloud or buy it used"),
        },
        Warning::NoNativePrecision { precision } => {
            if zh {
                format!("该卡不原生支持 {precision}，按替代格式的速度估算")
            } else {
                format!("no native {precision} on this card: estimated at the fallback format's rate")
            }
        }
        Warning::UnknownCompute => {
            if zh {
                "厂商未公布该精度算力：无法估算时间".into()
            } else {
                "peak compute not published for this format: time cannot be estimated".into()
            }
        }
        Warning::UnknownCard { id } => {
            if zh {
                format!("卡库中没有显卡 `{id}`（可能来自旧链接），已略去")
            } else {
                format!("card `{id}` is not in the catalog (an old link?): left out")
            }
        }
        _ => String::new(), // the other groups' warnings (`warning` dispatches by group)
    }
}

/// What a plan or layout runs into: links, latency, rounding, memory, context.
fn plan_warning(w: &Warning, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match w {
        Warning::ServingTargetsMissed { ttft_p99_s, tpot_p99_ms } => {
            if zh {
                format!("任何张量并行宽度都达不到延迟目标：最好为首 token p99 {ttft_p99_s:.1} 秒、每 token p99 {tpot_p99_ms:.0} 毫秒")
            } else {
                format!("no tensor-parallel width meets the latency targets: best reachable p99 {ttft_p99_s:.1} s to first token, {tpot_p99_ms:.0} ms per token")
            }
        }
        Warning::LatencyTargetMissed { latency_ms, target_ms } => {
            if zh {
                format!("达不到延迟目标：第 99 百分位延迟 {latency_ms:.0} 毫秒（目标 {target_ms:.0} 毫秒）")
            } else {
                format!("misses the latency target: {latency_ms:.0} ms at the 99th percentile (target {target_ms:.0} ms)")
            }
        }
        Warning::RoundedToOrder { needed, cards, per_server, headroom } => {
            let pct = headroom * 100.0;
            let whole = cards > per_server;
            match (zh, whole) {
                (true, true) => format!("至少需要 {needed} 张卡（每卡留 {pct:.0}% 显存余量），按整台 {per_server} 卡服务器取整为 {cards} 张"),
                (true, false) => format!("至少需要 {needed} 张卡（每卡留 {pct:.0}% 显存余量），整机按 2 的幂配置取整为 {cards} 张"),
                (false, true) => format!("{needed} cards are the fewest that fit (with {pct:.0}% of each card's memory free), rounded up to {cards}: whole {per_server}-card servers"),
                (false, false) => format!("{needed} cards are the fewest that fit (with {pct:.0}% of each card's memory free), rounded up to {cards}: machines come with 1, 2, 4 or 8 cards"),
            }
        }
        Warning::CpuOffload => {
            if zh {
                "CPU 卸载：受 PCIe 带宽限制，通常慢 1.5–3 倍".into()
            } else {
                "CPU offload: bound by PCIe, typically 1.5–3x slower".into()
            }
        }
        Warning::BeyondContext { tokens, max } => {
            if zh {
                format!("序列长度 {tokens} 超过模型训练上下文 {max}")
            } else {
                format!("sequence of {tokens} tokens exceeds the model's trained context of {max}")
            }
        }
        Warning::MemoryEstimated { from, scale } => {
            if zh {
                format!("显存为估算：此模型没有公开的显存实测，激活按 {from} 的实测 × {scale:.2}（每 √参数的前向 FLOPs 之比）；请以小批量实测核对")
            } else {
                format!("memory is an estimate: no published memory figure of this model, so its activations are {from}'s measured ones × {scale:.2} (the ratio of forward FLOPs per √parameter); check with a small batch")
            }
        }
        Warning::MemoryLowerBound { from_inference } => match (zh, from_inference) {
            (true, true) => "显存为下限：此模型没有公开的训练显存实测，也没有可借用的同类数据；所示为权重、梯度和优化器状态，加上其推理实测的激活（训练还要为反向传播多存激活）。“能装下”只说明下限装得下，请以小批量实测核对".into(),
            (true, false) => "显存为下限：此模型没有公开的显存实测，也没有可借用的同类数据；所示只有模型状态（权重、梯度、优化器）和运行时开销，不含激活。“能装下”只说明下限装得下，请以小批量实测核对".into(),
            (false, true) => "memory is a lower bound: no published training memory figure of this model and none of a like model to borrow; shown are the weights, gradients and optimizer states plus the activations its inference figure measured (training keeps more for the backward pass). \"Fits\" means the lower bound fits; check with a small batch".into(),
            (false, false) => "memory is a lower bound: no published memory figure of this model and none of a like model to borrow; shown are the model states (weights, gradients, optimizer) and the runtime overhead, no activations. \"Fits\" means the lower bound fits; check with a small batch".into(),
        },
        Warning::DoesNotFit { needed_gib, capacity_gib } => {
            if zh {
                format!("放不下：每卡需 {needed_gib:.1} GiB，容量 {capacity_gib:.1} GiB")
            } else {
                format!("does not fit: needs {needed_gib:.1} GiB per card, has {capacity_gib:.1} GiB")
            }
        }

        _ => String::new(), // the other groups' warnings (`warning` dispatches by group)
    }
}

/// What the servers need around them: network, racks, rooms.
fn site_warning(w: &Warning, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match w {
        Warning::MultiServer { servers } => {
            if zh {
                format!("需要 {servers} 台服务器：服务器间需 InfiniBand/RoCE 高速网络")
            } else {
                format!("needs {servers} servers: plan InfiniBand/RoCE between them")
            }
        }
        Warning::FabricDominates { needed_gbit, fabric_gbit } => {
            if zh {
                format!("服务器间网络将主导步时：每卡需约 {needed_gbit:.0} Gb/s，当前 {fabric_gbit:.0} Gb/s")
            } else {
                format!("the network between servers would dominate step time: ~{needed_gbit:.0} Gb/s per GPU needed, {fabric_gbit:.0} Gb/s available")
            }
        }
        Warning::RackPowerOverLimit { rack_kw, limit_kw } => {
            if zh {
                format!("每机柜 {rack_kw:.1} kW，超过机位供电上限 {limit_kw:.1} kW：减少每柜服务器数或申请高功率机柜")
            } else {
                format!("{rack_kw:.1} kW per rack exceeds the {limit_kw:.1} kW rack position: fewer servers per rack or a high-power rack")
            }
        }
        Warning::OfficeRoom { server_w } => {
            if zh {
                format!("办公室/工作站环境放置约 {server_w:.0} W 的机器：普通插座回路与空调不足，夏季高温高湿下会降频甚至重启")
            } else {
                format!("~{server_w:.0} W in an office or workstation room: ordinary circuits and comfort AC are not enough; cards throttle or reboot in hot, humid summers")
            }
        }
        _ => String::new(), // the other groups' warnings (`warning` dispatches by group)
    }
}

/// A plan error in the page's language (field names and values as written).
#[must_use]
pub fn plan_error(e: &PlanError, l: Lang) -> String {
    if l == Lang::En {
        return e.to_string();
    }
    match e {
        PlanError::OutOfRange { field, value, min, max } => {
            format!("{field} 应为 {min} 到 {max} 之间的有限数，实际为 {value}")
        }
        PlanError::UnknownModel(m) => format!("未知的模型预设 `{m}`"),
        PlanError::UnknownGpu(g) => format!("未知的显卡 `{g}`"),
        PlanError::InvalidModel(e) => format!("模型无效：{e}"),
        PlanError::NoCards => "目录中没有符合筛选条件的显卡".into(),
        PlanError::UnknownChoice { field, value } => format!("{field} `{value}` 不是可选项之一"),
        PlanError::NoData { model, training, speech } => format!(
            "{model} 没有公开的{}速度实测数据：此类模型本页只按实测规划{}",
            if *training { "训练" } else { "推理" },
            if *speech { "；语言模型中的 Whisper 预设可按架构估算" } else { "" }
        ),
        PlanError::PipelineTraining { model, parts } => {
            format!("{model} 是由分别训练的模型组成的流水线：请在模型中逐个选择 {parts} 来规划训练")
        }
        PlanError::QloraNeedsLanguageModel(model) => {
            format!("QLoRA 只适用于语言模型：请为 {model} 选择 LoRA 或全参微调")
        }
        PlanError::NotLoaded(super::error::Engine::Serving) => "推理服务引擎尚未加载".into(),
        PlanError::NotLoaded(super::error::Engine::Vision) => "视觉、OCR 与语音引擎尚未加载".into(),
    }
}

/// A share-link or stored-scenario error in the page's language.
#[must_use]
pub fn decode_error(e: &DecodeError, l: Lang) -> String {
    if l == Lang::En {
        return e.to_string();
    }
    match e {
        DecodeError::Empty => "链接中没有方案".into(),
        DecodeError::TooLong(n, max) => format!("链接过长（{n} 个字符；最多 {max}）"),
        DecodeError::Version(v) => format!("不支持的链接版本 `{v}`（本页读取 v1）"),
        // The decoder's and serde's own details are English: the Chinese message stops short.
        DecodeError::Encoding(_) => "链接已损坏（不是有效的 base64）".into(),
        DecodeError::Json(_) => "链接已损坏（不是有效的方案）".into(),
        DecodeError::Invalid(_) => "链接中的方案无法规划（数值超出范围或选项无效）".into(),
        DecodeError::NewerSchema(s, max) => format!("由更新版本的页面保存（schema {s}）；本页最多读取 {max}"),
    }
}

/// Where a serving plan's decode operators come from (serving/measured.rs), in a few words.
#[must_use]
pub fn serving_tier(t: &super::tier::Tier, lang: Lang) -> String {
    use super::tier::Tier;
    match (t, lang) {
        (Tier::Measured, Lang::En) => "decode operators measured on this card".into(),
        (Tier::Measured, Lang::Zh) => "解码算子本卡实测".into(),
        (Tier::Roofline, Lang::En) => "roofline only".into(),
        (Tier::Roofline, Lang::Zh) => "仅屋顶线估算".into(),
        (other, _) => {
            let what = tier(other, lang);
            if lang == Lang::Zh {
                format!("解码算子{what}")
            } else {
                format!("decode operators {what}")
            }
        }
    }
}

/// A catalog card's name in `lang`: its Chinese name (`Gpu::name_zh`) in Chinese, else `name`,
/// the catalog name a report or plan carries (a card the user added keeps its own).
#[must_use]
pub fn card_name(id: &str, name: &str, lang: Lang) -> String {
    super::catalog::Catalog::embedded()
        .gpu(id)
        .filter(|_| lang == Lang::Zh)
        .map_or(name, |g| g.name_in(true))
        .to_string()
}

/// Where a training time's kernel efficiency comes from, in a few words (domain/tier.rs).
#[must_use]
pub fn tier(t: &super::tier::Tier, lang: Lang) -> String {
    use super::tier::Tier;
    // The card as the page's language names it (`Gpu::name_zh` on the Chinese page).
    let name = |id: &str| {
        super::catalog::Catalog::embedded()
            .gpu(id)
            .map_or_else(|| id.to_string(), |g| g.name_in(lang == Lang::Zh).into())
    };
    match (t, lang) {
        (Tier::YourMfu, Lang::En) => "your MFU".into(),
        (Tier::YourMfu, Lang::Zh) => "按你填写的 MFU".into(),
        (Tier::Calibrated { on }, Lang::En) => format!("calibrated on your {} benchmark", name(on)),
        (Tier::Calibrated { on }, Lang::Zh) => format!("按你在 {} 上的实测校准", name(on)),
        (Tier::Measured, Lang::En) => "measured on this card".into(),
        (Tier::Measured, Lang::Zh) => "本卡有公开实测".into(),
        (Tier::Borrowed { from }, Lang::En) => format!("borrowed from {}", name(from)),
        (Tier::Borrowed { from }, Lang::Zh) => format!("借用 {} 的实测", name(from)),
        (Tier::Roofline, Lang::En) => "roofline only".into(),
        (Tier::Roofline, Lang::Zh) => "仅屋顶线估算".into(),
    }
}

/// "26.1–37.0 h": the band of a time, both ends in the unit its `centre` is shown in (a time
/// of 2.2 days reads "1.8–2.9 days", not "42.8 h–2.9 days").
#[must_use]
pub fn hours_band(band: (f64, f64), centre: f64, lang: Lang) -> String {
    let (per, ..) = unit(centre);
    format!("{}–{}", grouped(band.0 / per, 1), in_unit(band.1, centre, lang))
}

/// The serving table's line on Huawei's CANN stack: the per-layer cost every forward of an Ascend
/// card pays ([`super::serving::launch::CANN_LAYER_S`]) and what it comes to for model `m`.
#[must_use]
pub fn stack_line(m: &super::model::ModelSpec, lang: Lang) -> String {
    let per_layer = super::serving::launch::CANN_LAYER_S * 1e3;
    let step = per_layer * f64::from(m.layers);
    let layers = m.layers;
    if lang == Lang::Zh {
        format!("昇腾（CANN）卡：每次前向每层另计 {per_layer:.2} 毫秒（主机下发、逐层同步与 CUDA Graph 在 NVIDIA 卡上隐藏的小算子），本模型 {layers} 层即每步 +{step:.1} 毫秒；按 vllm-ascend 教程在 4 张 Atlas 800T A2 上单并发的实测设定（Qwen3-32B 每 token 52.8–55.5 毫秒）。")
    } else {
        format!("Ascend (CANN) cards: every forward pays {per_layer:.2} ms a layer more (host dispatch, per-layer synchronisation and the small kernels a CUDA graph hides on NVIDIA cards), +{step:.1} ms a step for this model's {layers} layers; set on vllm-ascend's own runs on four Atlas 800T A2 cards, one request at a time (Qwen3-32B at 52.8–55.5 ms a token).")
    }
}

/// The serving table's line on speculative decoding when it is on: drafted tokens, acceptance,
/// the tokens a step gains and a draft pass's cost (serving/speculative.rs); `None` when off.
#[must_use]
pub fn speculative_line(s: &super::Scenario, m: &super::model::ModelSpec, lang: Lang) -> Option<String> {
    use super::serving::speculative::{draft_cost, tokens_per_step};
    let i = &s.inference;
    if i.spec_tokens == 0 {
        return None;
    }
    let gain = tokens_per_step(i.spec_tokens, i.spec_accept);
    let (k, accept, cost) = (i.spec_tokens, i.spec_accept * 100.0, draft_cost(m) * 100.0);
    Some(if lang == Lang::Zh {
        format!(
            "投机解码：每步草稿 {k} 个 token，接受率 {accept:.0}% → 每个请求每步平均得到 {gain:.2} 个 token；每次草稿前向约为一步的 {cost:.1}%（一层 + 输出头），验证时每个请求计算 {} 个 token（Leviathan 等 2023）。",
            k + 1
        )
    } else {
        format!(
            "Speculative decoding: {k} drafted tokens per step at {accept:.0}% acceptance → {gain:.2} tokens per request per step; each draft pass costs about {cost:.1}% of a step (one layer + the output head) and the check computes {} tokens per request (Leviathan et al. 2023).",
            k + 1
        )
    })
}

/// The line under the serving table on how sure its figures are: how far the engine landed from
/// published serving runs it never saw, per kind of figure (serving::SERVING_P90, held to the
/// accuracy table by tests/accuracy.rs). Cost per million tokens and the replica count follow
/// throughput and the rate a replica carries within the targets.
#[must_use]
pub fn serving_accuracy_line(lang: Lang) -> String {
    let [(_, ttft, n_ttft), (_, tpot, n_tpot), (_, rate, n_rate)] = super::serving::SERVING_P90;
    let pct = |x: f64| (x * 100.0).round();
    match lang {
        Lang::En => format!(
            "How sure: against published serving runs never used to tune it, 9 in 10 of the engine's \
             first-token times came within ±{}% ({n_ttft} runs), times per output token within ±{}% \
             ({n_tpot}), throughput and the rate a replica carries within latency limits — and so \
             replicas and cost per million tokens — within ±{}% ({n_rate}).",
            pct(ttft),
            pct(tpot),
            pct(rate)
        ),
        Lang::Zh => format!(
            "可信度：对照从未用于调参的公开推理基准，九成首 token 时间误差在 ±{}% 以内（{n_ttft} 组），\
             每输出 token 时间 ±{}%（{n_tpot} 组），吞吐与单副本在延迟上限内承载的请求率（及副本数、\
             每百万 token 成本）±{}%（{n_rate} 组）。",
            pct(ttft),
            pct(tpot),
            pct(rate)
        ),
    }
}

/// The serving table's line on the engine's eager prompt steps (serving/launch.rs): which steps
/// run without CUDA graphs and the launch time they last at least.
#[must_use]
pub fn launch_line(s: &super::Scenario, m: &super::model::ModelSpec, lang: Lang) -> String {
    use super::scenario::ServingEngine;
    use super::serving::launch::{eager_forward_s, graph_tokens};
    let i = &s.inference;
    let ms = eager_forward_s(m) * 1e3;
    let chunk = f64::from(i.max_batched_tokens.max(16));
    let up_to = graph_tokens(m, s, chunk, 1, 1);
    let layers = m.layers;
    let zh = lang == Lang::Zh;
    // The engine's policy is graph_tokens's; the line only says it: none captured, or up to a size.
    let which = match (i.enforce_eager, up_to > 0.0, zh) {
        (true, _, true) => "每个步骤（含解码，--enforce-eager）都".to_string(),
        (true, _, false) => "every step, decoding too (--enforce-eager), runs".to_string(),
        (false, false, false) => "every step that carries a prompt runs".to_string(),
        (false, false, true) => "每个含预填充的步骤都".to_string(),
        (false, true, false) => format!("a step that carries a prompt and more than {up_to:.0} tokens runs"),
        (false, true, true) => format!("含预填充且超过 {up_to:.0} 个 token 的步骤"),
    };
    let name = match i.engine {
        ServingEngine::Vllm => "vLLM V1",
        ServingEngine::Sglang => "SGLang ≤ 0.5.9",
        ServingEngine::SglangGraphs => "SGLang 2026-03+",
        ServingEngine::Trtllm => "TensorRT-LLM",
        ServingEngine::VllmV0 => "vLLM V0",
    };
    // vLLM V0's Python host time per running request (serving::V0_HOST_PER_SEQ_S), said once;
    // an engine whose overlap scheduler hides the fixed step time (serving::hides_host) says so.
    let us = super::serving::V0_HOST_PER_SEQ_S * 1e6;
    let fixed = i.step_overhead_ms;
    let host = if i.engine == ServingEngine::VllmV0 {
        if zh {
            format!("每一步还要在 Python 主机端为每个运行中的请求花 {us:.0} 微秒（调度、输入准备、采样、输出处理；Vidur 实测）。")
        } else {
            format!(" Every step also spends {us:.0} µs of Python host time per running request (scheduling, inputs, sampling, outputs; measured by Vidur).")
        }
    } else if super::serving::hides_host(i.engine) {
        if zh {
            format!("重叠调度器在 GPU 计算上一步时准备下一步：每步固定的 {fixed:.1} 毫秒主机时间被隐藏，步骤取两者中较长者（LMSYS SGLang v0.4 博客）。")
        } else {
            format!(" Its overlap scheduler prepares each step while the GPU runs the one before: the {fixed:.1} ms of fixed host time a step is hidden, a step lasting the longer of the two (LMSYS, SGLang v0.4).")
        }
    } else {
        String::new()
    };
    if zh {
        format!("{name}：{which}不走 CUDA Graph：CPU 逐个发射内核，这样的步骤至少 {ms:.1} 毫秒（{layers} 层的发射时间；SGLang PR #12160、sfllm PR #46 实测）。{host}")
    } else {
        format!(
            "{name}: {which} without CUDA graphs: the CPU launches each kernel, so such a step lasts at least {ms:.1} ms ({layers} layers' launches; measured in SGLang PR #12160 and sfllm PR #46).{host}"
        )
    }
}
