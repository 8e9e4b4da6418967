//! The procurement checklist for one card, in both languages, filled in from its catalog entry.

use super::catalog::{Availability, Catalog, Gpu};
use super::format::{vendor_name, warning, Lang};
use super::verdict::Warning;
use super::warnings::{domestic, modified};
use serde::Serialize;

/// One item to check before paying for hardware.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckItem {
    pub topic_en: &'static str,
    pub topic_zh: &'static str,
    pub en: String,
    pub zh: String,
}

fn item(topic_en: &'static str, topic_zh: &'static str, en: String, zh: String) -> CheckItem {
    CheckItem { topic_en, topic_zh, en, zh }
}

fn or_unknown(v: Option<&str>) -> &str {
    v.unwrap_or("?")
}

/// What to verify before buying `g`: the hardware, then how it is bought.
#[must_use]
pub fn checklist(g: &Gpu, catalog: &Catalog) -> Vec<CheckItem> {
    let mut out = hardware(g);
    purchase(g, &mut out);
    out.push(china(catalog.china(&g.id)));
    out
}

/// Whether the card can be had in mainland China, from the catalog's dated, sourced record.
fn china(a: Option<&Availability>) -> CheckItem {
    let (en, zh) = match a {
        None => (
            "no record in this catalog: ask the seller how it was imported".to_string(),
            "本卡库未记录：向卖方确认进口渠道".to_string(),
        ),
        Some(a) if a.kind == "sold" => (
            format!("sold new through official channels (since {})", a.date),
            format!("正规渠道有新卡销售（自 {} 起）", a.date),
        ),
        Some(a) => {
            let w = Warning::ChinaSupply { status: a.kind.clone(), since: a.date.clone() };
            (warning(&w, Lang::En), warning(&w, Lang::Zh))
        }
    };
    item("Mainland China supply", "中国大陆供货", en, zh)
}

/// Architecture, memory, interconnect, power and ECC.
fn hardware(g: &Gpu) -> Vec<CheckItem> {
    let arch = or_unknown(g.architecture.as_deref());
    let year = g.year.map_or("?".to_string(), |y| y.to_string());
    let mem_type = or_unknown(g.memory_type.as_deref());
    let hbm = mem_type.to_ascii_uppercase().starts_with("HBM");
    let mem = g.memory_gb.map_or("?".into(), |m| format!("{m} GB"));
    let bw = g.memory_bandwidth_gb_s.map_or("?".into(), |b| format!("{b} GB/s"));
    let link_gb = g.interconnect.gb_s.map_or("?".into(), |b| format!("{b} GB/s"));
    let mut out = vec![
        item(
            "Architecture",
            "架构代际",
            format!("{arch} ({year}): check driver/CUDA support horizon and FP8/BF16 support for your framework."),
            format!("{arch}（{year}）：确认驱动/框架支持年限，以及 FP8/BF16 支持情况。"),
        ),
        item(
            "Memory",
            "显存",
            format!(
                "{mem} {mem_type}, {bw}. {}",
                if hbm {
                    "HBM: the bandwidth large-model training and high-batch serving need."
                } else {
                    "GDDR: fine for inference, LoRA and small models; bandwidth and capacity limit large-model training."
                }
            ),
            format!(
                "{mem} {mem_type}，{bw}。{}",
                if hbm {
                    "HBM：大模型训练与高并发推理所需的带宽。"
                } else {
                    "GDDR：适合推理、LoRA 和小模型；带宽与容量限制大模型训练。"
                }
            ),
        ),
    ];
    let (link_en, link_zh) = match g.interconnect.kind.as_str() {
        "nvlink" => (format!("NVLink/NVSwitch {link_gb} per GPU in a {}-card domain: buy the HGX/OAM board platform, not loose cards.", g.nvlink_domain()), format!("NVLink/NVSwitch 每卡 {link_gb}，{} 卡互联域：需整机（HGX 基板）采购，不能单买卡。", g.nvlink_domain())),
        "nvlink-bridge" => (format!("NVLink bridge {link_gb} pairs 2 cards only; other traffic goes over PCIe. Check the bridge is included and the slot spacing matches."), format!("NVLink 桥接 {link_gb} 只连接 2 张卡，其余走 PCIe。确认包含桥接器且插槽间距匹配。")),
        "pcie" => ("PCIe only: no GPU-to-GPU fabric; tensor parallelism and multi-card training are bounded by PCIe (check PCIe switch topology and P2P support).".into(), "仅 PCIe：无卡间高速互联；张量并行与多卡训练受 PCIe 限制（确认 PCIe 交换拓扑与 P2P 支持）。".into()),
        other => {
            let (en, zh) = (vendor_name(other, &g.vendor, Lang::En), vendor_name(other, &g.vendor, Lang::Zh));
            (format!("{en} fabric, {link_gb}: confirm the server platform and the collective-communication library that drives it."), format!("{zh} 互联，{link_gb}：确认服务器平台及驱动它的集合通信库。"))
        }
    };
    out.push(item("Interconnect", "互联", link_en, link_zh));
    let (tdp, tdp_zh) =
        (super::format::card_power(g.power(), Lang::En), super::format::card_power(g.power(), Lang::Zh));
    let consumer = g.segment == "consumer";
    out.push(item(
        "Power and cooling",
        "供电与散热",
        format!("{tdp} per card. {}", if consumer { "Consumer cards use 12V-2x6/12VHPWR or 8-pin plugs: check PSU connectors and cable seating; open-air coolers need front-to-back airflow." } else { "Check the server PSU rating (N+1), rack power per position and cooling; 700 W-class cards need datacenter airflow or liquid cooling." }),
        format!("单卡 {tdp_zh}。{}", if consumer { "消费级卡使用 12V-2x6/12VHPWR 或 8-pin 供电：检查电源接口与插紧；开放式散热需前后风道。" } else { "确认服务器电源额定（N+1）、机柜单位供电与散热；700 W 级显卡需要机房级风冷或液冷。" }),
    ));
    let ecc = match g.ecc {
        Some(true) => {
            ("ECC available: enable it for long training runs.".to_string(), "支持 ECC：长时间训练请开启。".to_string())
        }
        Some(false) => (
            "No ECC: silent memory errors can corrupt long runs; checkpoint often.".into(),
            "不支持 ECC：静默显存错误可能破坏长时间训练；请频繁保存检查点。".into(),
        ),
        None => ("ECC not published: ask the vendor.".into(), "未公布 ECC 信息：向厂商确认。".into()),
    };
    out.push(item("ECC", "ECC", ecc.0, ecc.1));
    out
}

/// Warranty, used cards, supply or export controls, and the software stack.
fn purchase(g: &Gpu, out: &mut Vec<CheckItem>) {
    out.push(item(
        "Warranty and serial",
        "保修与序列号",
        "Buy through an authorised channel; check every serial number with the vendor, the warranty start date and who services it (grey-market and refurbished cards are common).".into(),
        "通过授权渠道购买；逐一向厂商核验序列号、保修起始日期及售后方（翻新卡、水货常见）。".into(),
    ));
    let (fail, resale) = (super::cost::USED_FAILURE_PER_YEAR * 100.0, super::cost::USED_RESIDUAL_FACTOR * 100.0);
    out.push(item(
        "Used cards",
        "二手卡",
        format!("If used (二手): ask what it ran before (mining, training), load-test it and its memory (DCGM diag level 3, gpu-burn) before paying, check the warranty transfers. Rent or buy adds {fail:.0}% of its price a year for failures and takes {resale:.0}% of the usual resale."),
        format!("如买二手：询问此前用途（挖矿、训练），付款前做满载与显存测试（DCGM 3 级诊断、gpu-burn），确认保修可转移。租用还是购买为二手卡每年加计卡价 {fail:.0}% 的故障费用，残值按常规的 {resale:.0}%。"),
    ));
    if domestic(g) {
        let w = Warning::DomesticAccelerator;
        out.push(item("Supply", "供货", warning(&w, Lang::En), warning(&w, Lang::Zh)));
    } else if g.market == "china" || g.vendor == "NVIDIA" || g.vendor == "AMD" {
        // A modified board is made from a global part: the global rule applies.
        let china = g.market == "china" && !modified(g);
        out.push(item(
            "Export controls",
            "出口管制",
            if china {
                "China-market part: check the current US export rules before buying or moving it.".into()
            } else {
                "US export controls restrict this part for China: check the current rules and the seller's licence."
                    .into()
            },
            if china {
                "中国市场特供型号：互联或算力有削减。购买或转运前确认最新出口管制规定。".into()
            } else {
                "美国出口管制限制该型号对华销售：确认最新规定及卖方资质。".into()
            },
        ));
    }
    if g.software != "cuda" {
        out.push(item(
            "Software stack",
            "软件栈",
            format!("{}: check that your framework version, kernels (flash attention, fused optimizers), parallel library and inference engine run on it; budget porting time.", vendor_name(&g.software, &g.vendor, Lang::En) + " stack"),
            format!("{}：确认框架版本、算子（flash attention、融合优化器）、并行库与推理引擎可用；预留迁移适配时间。", vendor_name(&g.software, &g.vendor, Lang::Zh) + " 软件栈"),
        ));
    }
}
