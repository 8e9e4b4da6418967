//! What a purchase needs around the cards, by the class of machine the cards go in: a tower
//! workstation for one to four PCIe cards, a PCIe GPU server, or a server built on the card's
//! own board (HGX, OAM, Ascend modules). One GeForce card in an office does not come with a
//! ¥150k server, ¥30k of network, a rack and a tenth of an engineer.

use crate::domain::catalog::Gpu;
use crate::domain::scenario::Scenario;

/// The class of machine a purchase is priced as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostClass {
    /// A tower for 1–4 PCIe cards under a desk or in an office.
    Workstation,
    /// A 4–8 card PCIe GPU server in a rack.
    PcieServer,
    /// A server built on the card's board (HGX/SXM, OAM, Ascend/Huawei modules).
    BoardServer,
    /// The figures typed in the ownership form.
    Custom,
}

impl HostClass {
    /// The code a scenario stores (`ownership.profile`): "" is automatic.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            HostClass::Workstation => "workstation",
            HostClass::PcieServer => "pcie_server",
            HostClass::BoardServer => "board_server",
            HostClass::Custom => "custom",
        }
    }

    #[must_use]
    pub fn from_code(code: &str) -> Option<Self> {
        [HostClass::Workstation, HostClass::PcieServer, HostClass::BoardServer, HostClass::Custom]
            .into_iter()
            .find(|c| c.code() == code)
    }
}

/// The host around the cards: one per `cards_per_host` cards, amounts in the scenario currency.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Host {
    pub class: HostClass,
    pub cards_per_host: u32,
    /// Per host without cards: chassis, CPUs, RAM, storage, NICs, PSU.
    pub price: f64,
    /// Switches and cabling per host.
    pub network: f64,
    pub rack_per_month: f64,
    /// Share of one engineer's year.
    pub ops_share: f64,
    pub watts: f64,
}

/// CNY amounts of the three preset classes: stated assumptions, shown on the page, which the
/// user replaces with "my figures". No retailer or vendor price for a GPU-less host of any class
/// was found (searched 2026-12-02); the figures and their cross-checks:
/// - workstation: a 4-slot tower host (Threadripper or Xeon W board, 128–256 GB, 1,600–2,000 W
///   PSU) ¥18,000, the middle of the ¥10–25k that practitioners quote; published build lists put
///   such a host at ~$1,300 (EPYC 7252, ROMED8-2T, 1,600 W) to ~$10,000 (Threadripper Pro 7975WX,
///   512 GB). In an office: no rack, no network beyond the office's, no engineer share; 350 W for
///   CPUs, RAM, disks and fans (an EPYC 7763 alone is rated 280 W);
/// - PCIe server: a 4U 8-slot PCIe GPU server without cards ¥80,000, ¥10,000 of network, ¥3,000 a
///   month of rack, 5% of an engineer, 1,200 W (no public barebone price found);
/// - board server: the ownership form's HGX-class defaults (¥150,000 host, ¥30,000 network,
///   ¥6,000 a month, 10%, 1,500 W); SemiAnalysis's bill of materials for a DGX H100 (May 2023)
///   puts everything but the GPUs at $32,010 (≈ ¥230,000), so this is the low side.
const WORKSTATION: (f64, f64, f64, f64, f64) = (18_000.0, 0.0, 0.0, 0.0, 350.0);
const PCIE_SERVER: (f64, f64, f64, f64, f64) = (80_000.0, 10_000.0, 3_000.0, 0.05, 1_200.0);
const BOARD_SERVER: (f64, f64, f64, f64, f64) = (150_000.0, 30_000.0, 6_000.0, 0.1, 1_500.0);

/// Whether a card goes on its own board (SXM, OAM, a module) rather than in a PCIe slot.
#[must_use]
pub fn board_card(g: &Gpu) -> bool {
    let f = g.form_factor.as_deref().unwrap_or("").to_ascii_lowercase();
    ["sxm", "oam", "module", "mezzanine", "superchip", "nvl"].iter().any(|k| f.contains(k))
}

/// The class a purchase of `cards` of `g` is priced as when the profile is automatic: a board card
/// needs its board server; up to four PCIe cards fit a workstation; more go in a PCIe server.
#[must_use]
pub fn auto_class(g: &Gpu, cards: u32) -> HostClass {
    if board_card(g) {
        HostClass::BoardServer
    } else if cards <= 4 {
        HostClass::Workstation
    } else {
        HostClass::PcieServer
    }
}

/// Switches the purchase to "my own figures", starting from `h` (in the scenario currency; the
/// form's figures are in the ownership currency).
pub fn use_as_custom(s: &mut Scenario, h: &Host) {
    let back = 1.0 / crate::domain::pricing::convert(s, 1.0, s.ownership.currency.code());
    let o = &mut s.ownership;
    (o.server_price, o.network_per_server, o.rack_per_month) =
        (h.price * back, h.network * back, h.rack_per_month * back);
    (o.ops_share, o.host_watts, o.cards_per_host) = (h.ops_share, h.watts, h.cards_per_host);
    o.profile = HostClass::Custom.code().into();
}

/// The host a purchase of `cards` of `g` is priced with under the scenario's profile.
#[must_use]
pub fn host(s: &Scenario, g: &Gpu, cards: u32) -> Host {
    let o = &s.ownership;
    let class = HostClass::from_code(&o.profile).unwrap_or_else(|| auto_class(g, cards));
    let conv = |v: f64, from: &str| crate::domain::pricing::convert(s, v, from);
    let preset = |(price, network, rack, ops, watts): (f64, f64, f64, f64, f64), per: u32| Host {
        class,
        cards_per_host: per,
        price: conv(price, "CNY"),
        network: conv(network, "CNY"),
        rack_per_month: conv(rack, "CNY"),
        ops_share: ops,
        watts,
    };
    match class {
        HostClass::Workstation => preset(WORKSTATION, 4),
        HostClass::PcieServer => preset(PCIE_SERVER, 8),
        HostClass::BoardServer => preset(BOARD_SERVER, g.nvlink_domain().clamp(4, 8)),
        HostClass::Custom => {
            let cur = o.currency.code();
            Host {
                class,
                cards_per_host: if o.cards_per_host > 0 { o.cards_per_host } else { s.parallel.gpus_per_server.max(1) },
                price: conv(o.server_price, cur),
                network: conv(o.network_per_server, cur),
                rack_per_month: conv(o.rack_per_month, cur),
                ops_share: o.ops_share,
                watts: o.host_watts,
            }
        }
    }
}
