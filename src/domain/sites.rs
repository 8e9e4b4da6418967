//! Site presets for owning hardware: electricity price and PUE, each with its source and date,
//! or marked as an assumption where no public figure was found. All editable in the page.

use super::scenario::Currency;

/// One figure of a preset and where it comes from (`None` = our stated assumption).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sourced {
    pub value: f64,
    pub source: Option<&'static str>,
    pub note: &'static str,
}

/// A site preset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Site {
    pub id: &'static str,
    pub name_en: &'static str,
    pub name_zh: &'static str,
    pub currency: Currency,
    /// Price per kWh in `currency`.
    pub electricity: Sourced,
    pub pue: Sourced,
    pub date: &'static str,
}

pub const SITES: [Site; 3] = [
    Site {
        id: "beijing",
        name_en: "Beijing",
        name_zh: "北京",
        currency: Currency::CNY,
        electricity: Sourced {
            value: 0.62,
            source: Some("https://china-briefing.com/news/china-electricity-prices-industrial-consumers"),
            note: "China's average industrial tariff ≈ US$0.088/kWh (2024, China Briefing) × 7.1; no Beijing-specific data-centre tariff found — enter yours",
        },
        pue: Sourced {
            value: 1.35,
            source: Some("https://dzswgf.mofcom.gov.cn/news/phone/43/2024/11/m-1732168742056.html"),
            note: "《北京市存量数据中心优化工作方案(2024—2027年)》: average PUE below 1.35 by 2027; penalty tariff above 1.35 from 2026",
        },
        date: "2024-11",
    },
    Site {
        id: "chengdu",
        name_en: "Chengdu (Sichuan)",
        name_zh: "成都（四川）",
        currency: Currency::CNY,
        electricity: Sourced {
            value: 0.34,
            source: Some("https://economy.china.com/news/11173316/20190802/36739340_1.html"),
            note: "preferential hydropower price for big-data firms in Ya'an, Sichuan (2019–2023, 第一财经); optimistic for a Chengdu city site",
        },
        pue: Sourced {
            value: 1.3,
            source: None,
            note: "assumption: a modern Sichuan hall (one Deyang project is designed for < 1.2; the national 2025 target is an average below 1.5)",
        },
        date: "2019-02",
    },
    Site {
        id: "us",
        name_en: "Generic US site",
        name_zh: "美国（通用）",
        currency: Currency::USD,
        electricity: Sourced {
            value: 0.0806,
            source: Some("https://www.statista.com/statistics/190680/us-industrial-consumer-price-estimates-for-retail-electricity-since-1970/"),
            note: "EIA average US industrial price 2023: 8.06 ¢/kWh",
        },
        pue: Sourced {
            value: 1.58,
            source: Some("https://intelligence.uptimeinstitute.com/resource/large-data-centers-are-mostly-more-efficient-analysis-confirms"),
            note: "Uptime Institute global survey 2023: average PUE 1.58",
        },
        date: "2023",
    },
];

/// A preset by id.
#[must_use]
pub fn site(id: &str) -> Option<&'static Site> {
    SITES.iter().find(|s| s.id == id)
}

impl super::scenario::Ownership {
    /// Takes the electricity price (converted into this section's currency) and PUE of a site preset.
    pub fn apply_site(&mut self, site: &Site, cny_per_usd: f64) {
        let price = match (site.currency, self.currency) {
            (Currency::USD, Currency::CNY) => site.electricity.value * cny_per_usd,
            (Currency::CNY, Currency::USD) => site.electricity.value / cny_per_usd,
            _ => site.electricity.value,
        };
        self.electricity_per_kwh = (price * 10_000.0).round() / 10_000.0;
        self.pue = site.pue.value;
        self.site = site.id.to_string();
    }
}
