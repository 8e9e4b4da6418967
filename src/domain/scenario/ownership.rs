//! Owning versus renting, the infrastructure around the cards, and the auto-plan's limits.

use super::sections::Currency;

/// Owning versus renting: the hidden costs of owning and the rental alternatives.
/// Amounts are in `currency` (converted to the scenario currency in the report).
#[derive(Debug, Clone, PartialEq)]
pub struct Ownership {
    /// Card to buy; empty = the best-ranked fitting card with a purchase price.
    pub gpu: String,
    /// Cards to buy; 0 = the plan's count for that card.
    pub cards: u32,
    pub currency: Currency,
    /// Price per card; `None` = newest catalog purchase price.
    pub card_price: Option<f64>,
    /// The machine the cards are priced in: "" = by the card and count (a workstation for 1–4
    /// PCIe cards, a PCIe server, the card's board server), `workstation`, `pcie_server`,
    /// `board_server`, or `custom` (the host figures below). domain/host.rs.
    pub profile: String,
    /// Custom profile: cards per host; 0 = `parallel.gpus_per_server`.
    pub cards_per_host: u32,
    /// Host per server without GPUs: chassis, CPUs, RAM, storage, NICs, PSU (custom profile).
    pub server_price: f64,
    /// Share of switches and cabling per server.
    pub network_per_server: f64,
    /// Host power per server (CPUs, RAM, NICs, fans), W.
    pub host_watts: f64,
    /// Site preset the electricity price and PUE came from (`beijing`, `chengdu`, `us`, `custom`).
    pub site: String,
    pub electricity_per_kwh: f64,
    pub pue: f64,
    /// Rack space / colocation per server per month.
    pub rack_per_month: f64,
    pub ops_salary_per_year: f64,
    /// Share of one engineer's time spent running these servers.
    pub ops_share: f64,
    /// Maintenance and spares per year, share of the hardware price.
    pub maintenance_per_year: f64,
    pub depreciation_years: f64,
    /// Resale value at the end of depreciation, share of the hardware price.
    pub residual: f64,
    /// Yearly discount rate for the present-value view (0 = straight-line).
    pub discount_rate: f64,
    /// Share of the year the owned cards are busy.
    pub utilisation: f64,
    /// On-demand price per card-hour; `None` = your quote in `money.overrides`, else the catalog.
    pub rent_hourly: Option<f64>,
    /// Monthly commitment per card; `None` = not compared.
    pub rent_monthly: Option<f64>,
    /// Yearly commitment per card; `None` = not compared.
    pub rent_yearly: Option<f64>,
    /// Months shown on the cumulative chart.
    pub months: u32,
    /// GPU-hours needed in each month (hybrid plan: own the base load, rent the peaks).
    pub demand: Vec<f64>,
    /// Budget for the budget filter; `None` = off.
    pub budget: Option<f64>,
    /// Weeks from order to delivery; `None` = the catalog's newest observation for the card,
    /// else `cost::DEFAULT_LEAD_WEEKS`.
    pub lead_weeks: Option<f64>,
}

impl Default for Ownership {
    /// Beijing site preset (`sites.rs`), 3-year straight-line depreciation to 20% resale, 60%
    /// utilisation. Host ¥150k and 1.5 kW per server, network ¥30k per server, rack ¥6k per
    /// server-month, 10% of a ¥400k engineer, 3% maintenance: stated assumptions, all editable.
    fn default() -> Self {
        Self {
            gpu: String::new(),
            cards: 0,
            currency: Currency::CNY,
            card_price: None,
            profile: String::new(),
            cards_per_host: 0,
            server_price: 150_000.0,
            network_per_server: 30_000.0,
            host_watts: 1_500.0,
            site: "beijing".into(),
            electricity_per_kwh: 0.62, // sites.rs: Beijing preset
            pue: 1.35,
            rack_per_month: 6_000.0,
            ops_salary_per_year: 400_000.0,
            ops_share: 0.1,
            maintenance_per_year: 0.03,
            depreciation_years: 3.0,
            residual: 0.2,
            discount_rate: 0.0,
            utilisation: 0.6,
            rent_hourly: None,
            rent_monthly: None,
            rent_yearly: None,
            months: 48,
            // Empty: the hybrid plan needs the user's own profile (a made-up one was once shown
            // as if it were theirs).
            demand: Vec::new(),
            budget: None,
            lead_weeks: None,
        }
    }
}

/// Most months a demand profile may list (ten years).
pub const DEMAND_MONTHS: usize = 120;
/// Largest GPU-hours one month may need.
pub const DEMAND_MAX: f64 = 1e9;

/// Why a typed demand profile was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemandError {
    /// A value is not a number from 0 to [`DEMAND_MAX`].
    BadNumber,
    /// More than [`DEMAND_MONTHS`] values.
    TooManyMonths,
}

impl Ownership {
    /// The monthly GPU-hour demand as typed: numbers separated by commas (ASCII or the
    /// full-width "，") or spaces, each read as `units::parse_decimal` reads a field (a decimal
    /// comma is not a separator here), from 0 to [`DEMAND_MAX`], at most [`DEMAND_MONTHS`].
    /// Empty text is an empty profile (no hybrid plan).
    ///
    /// # Errors
    /// [`DemandError`] naming the first problem.
    pub fn parse_demand(text: &str) -> Result<Vec<f64>, DemandError> {
        let values = text
            .split([',', '，', ' '])
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| {
                crate::domain::units::parse_decimal(t)
                    .filter(|v| v.is_finite() && (0.0..=DEMAND_MAX).contains(v))
                    .ok_or(DemandError::BadNumber)
            })
            .collect::<Result<Vec<f64>, _>>()?;
        if values.len() > DEMAND_MONTHS {
            return Err(DemandError::TooManyMonths);
        }
        Ok(values)
    }

    /// The seeds' figures as a preset: "an A100 80G card at ¥70–100k, a 4-card A100 server at
    /// ¥250–300k". The server figure only adds up as a complete server (4 × ¥70k alone is ¥280k),
    /// so the preset buys that bundle at its midpoint: 4 cards at ¥275,000 / 4 = ¥68,750 each with
    /// the host included (server price 0), ¥10,000 of network, 4 cards per server.
    #[must_use]
    pub fn seed_a100_server() -> Self {
        Self {
            gpu: "a100-80gb-sxm4".into(),
            cards: 4,
            currency: Currency::CNY,
            card_price: Some(68_750.0),
            profile: "custom".into(),
            cards_per_host: 4,
            server_price: 0.0,
            network_per_server: 10_000.0,
            ..Self::default()
        }
    }
}

/// Storage, network between servers, power and cooling around the cards.
#[derive(Debug, Clone, PartialEq)]
pub struct Infra {
    /// Hours between checkpoint saves.
    pub checkpoint_every_hours: f64,
    /// Full checkpoints kept on disk.
    pub checkpoints_kept: u32,
    /// Write bandwidth of the checkpoint storage, GB/s (decimal).
    pub storage_gb_s: f64,
    /// Bytes per token of the tokenized dataset (int32 ids for vocabularies above 65,535).
    pub dataset_bytes_per_token: f64,
    /// Owned storage price per TB, in `ownership.currency`.
    pub storage_price_per_tb: f64,
    /// Rented storage per TB-month, in `ownership.currency`.
    pub storage_rent_per_tb_month: f64,
    /// Inter-server bandwidth per GPU, Gb/s (25, 100, 200, 400 Ethernet or InfiniBand).
    pub fabric_gbit_per_gpu: f64,
    /// Servers per rack.
    pub servers_per_rack: u32,
    /// Power a rack position may draw, kW (many Chinese IDC racks are 4–8 kW).
    pub rack_kw_limit: f64,
    /// Where the servers stand: `datacenter` or `office`.
    pub room: String,
}

impl Default for Infra {
    /// Stated assumptions, all editable: a checkpoint every 2 h, 3 kept, 2 GB/s storage, int32
    /// tokens, ¥1,500 per TB owned (enterprise NVMe) and ¥120 per TB-month rented, 200 Gb/s per GPU,
    /// 2 servers per rack within 12 kW, in a data centre.
    fn default() -> Self {
        Self {
            checkpoint_every_hours: 2.0,
            checkpoints_kept: 3,
            storage_gb_s: 2.0,
            dataset_bytes_per_token: 4.0,
            storage_price_per_tb: 1_500.0,
            storage_rent_per_tb_month: 120.0,
            fabric_gbit_per_gpu: 200.0,
            servers_per_rack: 2,
            rack_kw_limit: 12.0,
            room: "datacenter".into(),
        }
    }
}

/// Auto-plan: search every card and layout for the cheapest or fastest way to run the workload.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Search {
    /// Finish the training within this many days; `None` = no deadline.
    pub deadline_days: Option<f64>,
    /// Spend at most this much (scenario currency) renting; `None` = no limit.
    pub budget: Option<f64>,
    /// Largest card count to consider; 0 = from the task and model (`search::card_limit`).
    pub max_gpus: u32,
}

crate::read_fields!(Ownership {
    gpu: text,
    cards: whole,
    currency: any,
    card_price: opt_real,
    profile: text,
    cards_per_host: whole,
    server_price: real,
    network_per_server: real,
    host_watts: real,
    site: text,
    electricity_per_kwh: real,
    pue: real,
    rack_per_month: real,
    ops_salary_per_year: real,
    ops_share: real,
    maintenance_per_year: real,
    depreciation_years: real,
    residual: real,
    discount_rate: real,
    utilisation: real,
    rent_hourly: opt_real,
    rent_monthly: opt_real,
    rent_yearly: opt_real,
    months: whole,
    demand: reals,
    budget: opt_real,
    lead_weeks: opt_real,
});

// Deserialize by table (domain/read.rs): the same meaning as a derive with #[serde(default)].
crate::read_fields!(Infra {
    checkpoint_every_hours: real,
    checkpoints_kept: whole,
    storage_gb_s: real,
    dataset_bytes_per_token: real,
    storage_price_per_tb: real,
    storage_rent_per_tb_month: real,
    fabric_gbit_per_gpu: real,
    servers_per_rack: whole,
    rack_kw_limit: real,
    room: text
});
crate::read_fields!(Search { deadline_days: opt_real, budget: opt_real, max_gpus: whole });
