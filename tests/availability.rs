//! Whether a card can be had in mainland China (catalog.json `availability`, issue 28 item 6):
//! each record dated and sourced; in the China market the cards a team there cannot get ranks
//! after those it can, and each says why; a Chinese-speaking first visitor starts in that market.
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;

use gpu_planner::domain::checklist::checklist;
use gpu_planner::domain::format::{warning, Lang};
use gpu_planner::domain::verdict::Warning;
use gpu_planner::domain::{Catalog, Scenario};

fn status(id: &str) -> (String, String) {
    let a = Catalog::embedded().china(id).unwrap_or_else(|| panic!("no China record for {id}"));
    (a.kind.clone(), a.date.clone())
}

/// The dates are the rules' own: the US export rule of 2022-10-07 (A100/H100 class); the rule of
/// 2023-10-17, which NVIDIA was told on 2023-10-23 to apply at once to the A800/H800/L40S and
/// which took effect on 2023-11-17 for the rest (RTX 4090, L40, A40, L4: NVIDIA's 8-K of
/// 2023-10-24); the H20 licence requirement NVIDIA was notified of on 2025-04-09 (its 8-K of
/// 2025-04-15). China-market parts made to stay under those limits are sold.
#[test]
fn statuses_follow_the_export_rules() {
    let c = Catalog::full();
    assert!(c.validate().is_empty(), "{:?}", c.validate());
    assert_eq!(status("h100-sxm"), ("grey".into(), "2022-10-07".into()));
    assert_eq!(status("a100-80gb-sxm4"), ("cloud".into(), "2022-10-07".into()));
    assert_eq!(status("a800-80gb-sxm4"), ("cloud".into(), "2023-10-23".into()));
    assert_eq!(status("l40s"), ("cloud".into(), "2023-10-23".into()));
    assert_eq!(status("rtx-4090"), ("cloud".into(), "2023-11-17".into()));
    assert_eq!(status("h20"), ("cloud".into(), "2025-04-09".into()));
    for sold in ["rtx-4090-d", "l20", "huawei-ascend-910b3", "cambricon-mlu590"] {
        assert_eq!(status(sold).0, "sold", "{sold}");
    }
    // Every record is sourced; a card with no record says so in its checklist, not a guess.
    assert!(c.availability.iter().all(|a| a.source.starts_with("http") && !a.notes.is_empty()));
    assert!(c.availability.len() >= 40, "{} records", c.availability.len());
}

fn supply(v: &gpu_planner::domain::verdict::CardVerdict) -> Option<String> {
    v.warnings.iter().find_map(|w| match w {
        Warning::ChinaSupply { status, .. } => Some(status.clone()),
        _ => None,
    })
}

/// In the China market every card a team there can get (sold, or rented by Chinese clouds) that
/// fits ranks before every grey-market card that fits, whatever their prices; outside it the
/// ranking ignores China and no row speaks of it.
#[test]
fn the_china_market_ranks_grey_market_cards_last_and_says_why() {
    let s = gpu_planner::ui::prerender::first_visit(Lang::Zh);
    assert_eq!(s.money.rent_market, "china_cloud");
    assert_eq!(gpu_planner::ui::prerender::first_visit(Lang::En), Scenario::default());
    let r = common::report(&s);
    let fitting: Vec<_> = r.cards.iter().filter(|v| v.fits).collect();
    let first_grey = fitting.iter().position(|v| supply(v).as_deref() == Some("grey"));
    let last_other = fitting.iter().rposition(|v| supply(v).as_deref() != Some("grey"));
    let (g, o) = (first_grey.unwrap_or_else(|| panic!("no grey card fits")), last_other.unwrap_or(0));
    assert!(o < g, "{} (obtainable) ranks after {} (grey)", fitting[o].gpu, fitting[g].gpu);
    // A grey card with a Chinese cloud price would rank first on cost alone.
    let mod48 = fitting.iter().find(|v| v.gpu == "rtx-4090-48gb-mod").unwrap_or_else(|| panic!("4090 48GB mod"));
    assert_eq!(supply(mod48).as_deref(), Some("grey"));
    assert!(mod48.cost.is_some(), "the modded 4090 has a Chinese cloud price");
    let h100 = r.cards.iter().find(|v| v.gpu == "h100-sxm").unwrap_or_else(|| panic!("h100"));
    let w =
        h100.warnings.iter().find(|w| matches!(w, Warning::ChinaSupply { .. })).unwrap_or_else(|| panic!("no word"));
    assert!(warning(w, Lang::En).contains("since 2022-10-07") && warning(w, Lang::En).contains("grey-market"));
    assert!(warning(w, Lang::Zh).contains("2022-10-07") && warning(w, Lang::Zh).contains("水货"));
    let a800 = r.cards.iter().find(|v| v.gpu == "a800-80gb-sxm4").unwrap_or_else(|| panic!("a800"));
    assert_eq!(supply(a800).as_deref(), Some("cloud"));
    // Sold cards carry no such word.
    assert!(r.cards.iter().filter(|v| v.gpu == "rtx-4090-d" || v.gpu == "l20").all(|v| supply(v).is_none()));
    let any = common::report(&Scenario::default());
    assert!(any.cards.iter().all(|v| supply(v).is_none()));
}

/// The procurement checklist says where the card stands in China in both languages.
#[test]
fn the_checklist_says_whether_china_can_get_the_card() {
    let cat = Catalog::embedded();
    let item = |id: &str| {
        let g = cat.gpu(id).unwrap_or_else(|| panic!("{id}"));
        checklist(g, cat).into_iter().find(|i| i.topic_en == "Mainland China supply").unwrap_or_else(|| panic!("{id}"))
    };
    assert!(item("h100-sxm").zh.contains("水货") && item("h100-sxm").en.contains("2022-10-07"));
    assert!(
        item("huawei-ascend-910b3").en.starts_with("sold new") && item("huawei-ascend-910b3").zh.contains("正规渠道")
    );
    assert!(item("a10").en.contains("no record"));
}
