//! The GPU catalog (`catalog.json`): cards with sourced, dense specs and dated reference prices.
//! Pure data + validation; embedded at compile time, parsed once.

use std::sync::LazyLock;

/// Where a figure comes from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Source {
    pub title: String,
    pub url: String,
    /// Date the source was read or published, `YYYY-MM` or `YYYY-MM-DD`.
    pub accessed: String,
}

/// The fast link between cards of one server.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Interconnect {
    /// `nvlink`, `nvlink-bridge`, `pcie`, `infinity-fabric`, `hccs`, `mlu-link`, `other`.
    pub kind: String,
    /// Per GPU, both directions summed, decimal GB/s.
    pub gb_s: Option<f64>,
    /// Cards sharing the fast link in one server (8 on an HGX board, 2 for a bridge, 1 for PCIe).
    pub domain: Option<u32>,
}

impl Interconnect {
    /// True when the link is a GPU-to-GPU fabric (not PCIe through the host).
    #[must_use]
    pub fn is_fast(&self) -> bool {
        !matches!(self.kind.as_str(), "pcie" | "")
    }
}

/// One card. Compute figures are dense (2:4-sparse datasheet figures halved); `None` = unknown.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Gpu {
    pub id: String,
    pub name: String,
    /// The card's name as Chinese buyers and vendors write it (华为昇腾 910B, 寒武纪思元 590), for
    /// the Chinese page; `None` where the English name is what is written in China too.
    pub name_zh: Option<String>,
    pub vendor: String,
    pub architecture: Option<String>,
    /// Launch year.
    pub year: Option<u32>,
    /// `datacenter`, `workstation` or `consumer`.
    pub segment: String,
    pub form_factor: Option<String>,
    /// `global` or `china` (China-market / export-control variant).
    pub market: String,
    pub memory_gb: Option<f64>,
    pub memory_type: Option<String>,
    pub memory_bandwidth_gb_s: Option<f64>,
    pub bf16_tflops: Option<f64>,
    pub fp16_tflops: Option<f64>,
    pub fp8_tflops: Option<f64>,
    /// Dense FP4 (NVFP4 / MXFP4) tensor rate, on cards that multiply FP4 as stored.
    pub fp4_tflops: Option<f64>,
    pub tf32_tflops: Option<f64>,
    pub fp32_tflops: Option<f64>,
    pub int8_tops: Option<f64>,
    pub tdp_w: Option<f64>,
    /// Where no card power is published: a per-card figure derived from a published server or
    /// system power (its basis in `notes`, its source in `sources`). Shown as an estimate.
    pub power_estimate_w: Option<f64>,
    pub interconnect: Interconnect,
    pub pcie_gen: Option<u32>,
    pub ecc: Option<bool>,
    /// `cuda`, `rocm`, `cann`, `neuware`, `dtk`, `musa`, `other`.
    pub software: String,
    pub notes: String,
    pub sources: Vec<Source>,
}

/// A card's power draw and how it is known.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum CardPower {
    /// The vendor's TDP / board power.
    Published(f64),
    /// Derived from a published server or system power (`Gpu::power_estimate_w`).
    Estimated(f64),
    /// Neither: power sums count the hosts only and say so.
    Unknown,
}

impl CardPower {
    /// Watts to add up (0 when unknown; the page says the sum leaves the cards out).
    #[must_use]
    pub fn watts(self) -> f64 {
        match self {
            CardPower::Published(w) | CardPower::Estimated(w) => w,
            CardPower::Unknown => 0.0,
        }
    }
}

impl Gpu {
    /// The name a page in Chinese (`zh`) shows: [`Gpu::name_zh`] where there is one.
    #[must_use]
    pub fn name_in(&self, zh: bool) -> &str {
        match &self.name_zh {
            Some(n) if zh && !n.is_empty() => n,
            _ => &self.name,
        }
    }

    /// The card's power: published TDP, else the sourced estimate, else unknown.
    #[must_use]
    pub fn power(&self) -> CardPower {
        match (self.tdp_w, self.power_estimate_w) {
            (Some(w), _) => CardPower::Published(w),
            (None, Some(w)) => CardPower::Estimated(w),
            (None, None) => CardPower::Unknown,
        }
    }

    /// Cards that share a fast link in one server (1 when PCIe only or unknown).
    #[must_use]
    pub fn nvlink_domain(&self) -> u32 {
        if self.interconnect.is_fast() {
            self.interconnect.domain.unwrap_or(1).max(1)
        } else {
            1
        }
    }
}

/// A dated reference price for one card.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Price {
    pub gpu: String,
    /// `purchase`, `rent_hourly`, `rent_monthly` or `server`.
    pub kind: String,
    pub amount: f64,
    /// `CNY` or `USD`.
    pub currency: String,
    pub region: String,
    /// Date of the observation, `YYYY-MM` or `YYYY-MM-DD`.
    pub date: String,
    pub source: String,
    pub notes: String,
    /// Who sets the price: `china_cloud`, `global_marketplace`, `hyperscaler` (rental price
    /// pages), `retail` (a shop's listing) or `press` (a news report); empty = not recorded.
    pub market: String,
    /// `new` or `used` (二手); empty = new.
    pub condition: String,
    /// Lead-time records only: weeks from order to delivery.
    pub weeks_min: Option<f64>,
    pub weeks_max: Option<f64>,
}

/// Values `Price::market` may take (empty = unknown).
pub const PRICE_MARKETS: [&str; 6] = ["", "china_cloud", "global_marketplace", "hyperscaler", "retail", "press"];

/// An observed delivery lead time for a card (`Catalog::lead_times`): a [`Price`] record with
/// `market` = `global` | `china` and `weeks_min`/`weeks_max` set, `kind` and `amount` unused.
/// Sharing the type keeps one serde instantiation for both lists (a smaller page).
pub type LeadTime = Price;

/// Whether a card can be had in mainland China (`Catalog::availability`), a [`Price`] record with
/// `market` = `china` and `kind` one of [`SUPPLY`]; `date` is when the status began (the export
/// rule's date, a launch; a year alone when the source gives no month), `source` the rule or
/// report that says so. The newest record counts.
pub type Availability = Price;

/// Statuses of an [`Availability`] record: sold new through official channels; not sold new any
/// more but rented by Chinese clouds (and sold used); only grey-market imports or used cards.
pub const SUPPLY: [&str; 3] = ["sold", "cloud", "grey"];

/// Cards, prices and lead times, as in `catalog.json`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Catalog {
    /// Date the catalog was last revised (`YYYY-MM-DD`): price ages are counted to it.
    pub updated: String,
    pub gpus: Vec<Gpu>,
    pub prices: Vec<Price>,
    pub lead_times: Vec<LeadTime>,
    pub availability: Vec<Availability>,
}

// Read and written by table (domain/read.rs): the same meaning as the derives with
// #[serde(default)].
crate::read_fields!(Source { title: text, url: text, accessed: text });
crate::read_fields!(Interconnect { kind: text, gb_s: opt_real, domain: opt_whole });
crate::read_fields!(Gpu {
    id: text,
    name: text,
    name_zh: opt_text,
    vendor: text,
    architecture: opt_text,
    year: opt_whole,
    segment: text,
    form_factor: opt_text,
    market: text,
    memory_gb: opt_real,
    memory_type: opt_text,
    memory_bandwidth_gb_s: opt_real,
    bf16_tflops: opt_real,
    fp16_tflops: opt_real,
    fp8_tflops: opt_real,
    fp4_tflops: opt_real,
    tf32_tflops: opt_real,
    fp32_tflops: opt_real,
    int8_tops: opt_real,
    tdp_w: opt_real,
    power_estimate_w: opt_real,
    interconnect: any,
    pcie_gen: opt_whole,
    ecc: opt_flag,
    software: text,
    notes: text,
    sources: any
});
crate::read_fields!(Price {
    gpu: text,
    kind: text,
    amount: real,
    currency: text,
    region: text,
    date: text,
    source: text,
    notes: text,
    market: text,
    condition: text,
    weeks_min: opt_real,
    weeks_max: opt_real
});
crate::read_fields!(Catalog { updated: text, gpus: any, prices: any, lead_times: any, availability: any });

/// `catalog.json` as written, with every note and source title (the CLI and the tests).
pub const EMBEDDED_JSON: &str = include_str!("../../catalog.json");

static EMBEDDED: LazyLock<Catalog> = LazyLock::new(|| {
    // The page's copy (build.rs, page_data.rs): the same data without the prose the page never
    // shows. tests/catalog.rs parses it and asserts validate() is empty; a fetched copy that does
    // not parse falls back to an empty catalog, which plan() reports as "no cards".
    super::json::parse(super::page_data::part(super::page_data::Part::Catalog)).unwrap_or_default()
});

static FULL: LazyLock<Catalog> = LazyLock::new(|| super::json::parse(EMBEDDED_JSON).unwrap_or_default());

impl Catalog {
    /// The catalog compiled into the page (no notes, no source titles: see build.rs).
    #[must_use]
    pub fn embedded() -> &'static Catalog {
        &EMBEDDED
    }

    /// The whole `catalog.json`, notes and source titles included.
    #[must_use]
    pub fn full() -> &'static Catalog {
        &FULL
    }

    /// Parses a catalog JSON text.
    ///
    /// # Errors
    /// Returns the serde message when the text is not a catalog.
    pub fn from_json(text: &str) -> Result<Catalog, String> {
        super::json::parse(text).map_err(|e| e.to_string())
    }

    #[must_use]
    pub fn gpu(&self, id: &str) -> Option<&Gpu> {
        self.gpus.iter().find(|g| g.id == id)
    }

    /// The card's newest status in mainland China, if the catalog records one.
    #[must_use]
    pub fn china(&self, id: &str) -> Option<&Availability> {
        self.availability.iter().filter(|a| a.gpu == id).max_by(|a, b| a.date.cmp(&b.date))
    }

    /// Every problem found in the file; empty when the catalog is sound.
    #[must_use]
    pub fn validate(&self) -> Vec<String> {
        let mut issues = Vec::new();
        let mut ids = std::collections::HashSet::new();
        for g in &self.gpus {
            if !ids.insert(g.id.as_str()) {
                issues.push(format!("duplicate gpu id `{}`", g.id));
            }
            issues.extend(validate_gpu(g).into_iter().map(|m| format!("{}: {m}", g.id)));
        }
        for (i, p) in self.prices.iter().enumerate() {
            issues.extend(validate_price(p, &ids).into_iter().map(|m| format!("price #{i} ({}): {m}", p.gpu)));
        }
        for (i, l) in self.lead_times.iter().enumerate() {
            let weeks = l.weeks_min.zip(l.weeks_max).is_some_and(|(a, b)| (0.0..=b).contains(&a) && b <= 156.0);
            let ok = ids.contains(l.gpu.as_str())
                && matches!(l.market.as_str(), "global" | "china")
                && weeks
                && valid_date(&l.date)
                && l.source.starts_with("http");
            if !ok {
                issues.push(format!(
                    "lead time #{i} ({}): needs a catalog gpu, market global|china, 0 <= weeks_min <= weeks_max <= 156, a YYYY-MM[-DD] date and an http source",
                    l.gpu
                ));
            }
        }
        for (i, a) in self.availability.iter().enumerate() {
            let ok = ids.contains(a.gpu.as_str())
                && a.market == "china"
                && SUPPLY.contains(&a.kind.as_str())
                && (valid_date(&a.date) || (a.date.len() == 4 && a.date.bytes().all(|b| b.is_ascii_digit())))
                && a.source.starts_with("http");
            if !ok {
                issues.push(format!(
                    "availability #{i} ({}): needs a catalog gpu, market china, kind one of {SUPPLY:?}, a YYYY[-MM[-DD]] date and an http source",
                    a.gpu
                ));
            }
        }
        if !valid_date(&self.updated) {
            issues.push(format!("updated `{}` is not YYYY-MM[-DD]", self.updated));
        }
        issues
    }
}

fn in_range(issues: &mut Vec<String>, field: &str, v: Option<f64>, lo: f64, hi: f64) {
    if let Some(v) = v {
        if !(lo..=hi).contains(&v) {
            issues.push(format!("{field} = {v} outside plausible {lo}..={hi}"));
        }
    }
}

fn validate_gpu(g: &Gpu) -> Vec<String> {
    let mut m = Vec::new();
    let id_ok = !g.id.is_empty() && g.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !id_ok {
        m.push("id must be lowercase kebab-case".into());
    }
    if g.name.is_empty() || g.vendor.is_empty() {
        m.push("name and vendor are required".into());
    }
    if !matches!(g.segment.as_str(), "datacenter" | "workstation" | "consumer") {
        m.push(format!("segment `{}` is not datacenter|workstation|consumer", g.segment));
    }
    if !matches!(g.market.as_str(), "global" | "china") {
        m.push(format!("market `{}` is not global|china", g.market));
    }
    if let Some(y) = g.year.filter(|y| !(2010..=2030).contains(y)) {
        m.push(format!("year {y} implausible"));
    }
    in_range(&mut m, "memory_gb", g.memory_gb, 4.0, 512.0);
    in_range(&mut m, "memory_bandwidth_gb_s", g.memory_bandwidth_gb_s, 100.0, 20_000.0);
    // Dense figures: the densest card here (B200) is ~2.25 PFLOPS BF16 and 4.5 PFLOPS FP8.
    in_range(&mut m, "bf16_tflops", g.bf16_tflops, 1.0, 5_000.0);
    in_range(&mut m, "fp16_tflops", g.fp16_tflops, 1.0, 5_000.0);
    in_range(&mut m, "fp8_tflops", g.fp8_tflops, 1.0, 10_000.0);
    in_range(&mut m, "fp4_tflops", g.fp4_tflops, 1.0, 20_000.0);
    in_range(&mut m, "tf32_tflops", g.tf32_tflops, 1.0, 2_500.0);
    in_range(&mut m, "fp32_tflops", g.fp32_tflops, 1.0, 500.0);
    in_range(&mut m, "int8_tops", g.int8_tops, 1.0, 10_000.0);
    in_range(&mut m, "tdp_w", g.tdp_w, 10.0, 2_000.0);
    in_range(&mut m, "power_estimate_w", g.power_estimate_w, 10.0, 2_000.0);
    in_range(&mut m, "interconnect.gb_s", g.interconnect.gb_s, 1.0, 3_600.0);
    if let (Some(b), Some(f)) = (g.bf16_tflops, g.fp8_tflops) {
        if f > 2.05 * b {
            m.push(format!("fp8 {f} > 2 x bf16 {b}: a sparse figure?"));
        }
    }
    // FP4 runs at 2× the dense FP8 rate (B200, RTX PRO 6000, MI355X), 3× on Blackwell Ultra,
    // 4× on GeForce (whose FP8 figure is the FP32-accumulate rate): never below FP8, never 4× over.
    if let (Some(f8), Some(f4)) = (g.fp8_tflops, g.fp4_tflops) {
        if f4 < f8 || f4 > 4.05 * f8 {
            m.push(format!("fp4 {f4} outside 1-4 x fp8 {f8}: a sparse figure?"));
        }
    }
    if g.sources.is_empty() {
        m.push("no sources".into());
    }
    for s in &g.sources {
        if !s.url.starts_with("http") || !valid_date(&s.accessed) {
            m.push(format!("source `{}` needs an http url and a YYYY-MM[-DD] date", s.title));
        }
    }
    m
}

fn validate_price(p: &Price, ids: &std::collections::HashSet<&str>) -> Vec<String> {
    let mut m = Vec::new();
    if !ids.contains(p.gpu.as_str()) {
        m.push("gpu id not in the catalog".into());
    }
    if !matches!(p.kind.as_str(), "purchase" | "rent_hourly" | "rent_monthly" | "server") {
        m.push(format!("kind `{}` invalid", p.kind));
    }
    if !(p.amount.is_finite() && p.amount > 0.0) {
        m.push(format!("amount {} must be positive", p.amount));
    }
    if !matches!(p.currency.as_str(), "CNY" | "USD") {
        m.push(format!("currency `{}` is not CNY|USD", p.currency));
    }
    if !valid_date(&p.date) {
        m.push(format!("date `{}` is not YYYY-MM[-DD]", p.date));
    }
    if !p.source.starts_with("http") {
        m.push("source must be a url".into());
    }
    if !PRICE_MARKETS.contains(&p.market.as_str()) {
        m.push(format!("market `{}` is not one of {PRICE_MARKETS:?}", p.market));
    }
    if !matches!(p.condition.as_str(), "" | "new" | "used") {
        m.push(format!("condition `{}` is not new|used", p.condition));
    }
    m
}

/// `YYYY-MM` or `YYYY-MM-DD` with a plausible month and day.
#[must_use]
pub fn valid_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let num = |t: &str, n: usize| t.len() == n && t.chars().all(|c| c.is_ascii_digit());
    match parts.as_slice() {
        [y, mo] => num(y, 4) && num(mo, 2) && (1..=12).contains(&mo.parse::<u32>().unwrap_or(0)),
        [y, mo, d] => {
            num(y, 4)
                && num(mo, 2)
                && num(d, 2)
                && (1..=12).contains(&mo.parse::<u32>().unwrap_or(0))
                && (1..=31).contains(&d.parse::<u32>().unwrap_or(0))
        }
        _ => false,
    }
}
