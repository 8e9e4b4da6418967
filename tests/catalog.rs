//! catalog.json is sound: parses, ids unique, units plausible, every card sourced, every price dated.

use gpu_planner::domain::catalog::{valid_date, Catalog, EMBEDDED_JSON};

fn catalog() -> Catalog {
    match Catalog::from_json(EMBEDDED_JSON) {
        Ok(c) => c,
        Err(e) => panic!("catalog.json does not parse: {e}"),
    }
}

#[test]
fn catalog_parses_and_validates_clean() {
    let issues = catalog().validate();
    assert!(issues.is_empty(), "catalog.json problems:\n{}", issues.join("\n"));
}

/// The page's copy differs from the file only in what no page code reads (notes, spec sources,
/// INT8 rate, price region, the source of a card's China status).
#[test]
fn embedded_catalog_is_the_parsed_file_without_what_the_page_never_reads() {
    let mut c = catalog();
    assert_eq!(Catalog::full(), &c);
    for g in &mut c.gpus {
        g.notes.clear();
        g.sources.clear();
        g.int8_tops = None;
    }
    c.prices.iter_mut().for_each(|p| {
        p.notes.clear();
        p.region.clear();
    });
    c.lead_times.iter_mut().for_each(|l| l.notes.clear());
    c.availability.iter_mut().for_each(|a| {
        a.notes.clear();
        a.region.clear();
        a.source.clear();
    });
    assert_eq!(Catalog::embedded(), &c);
}

#[test]
fn catalog_has_at_least_40_cards_across_segments_and_vendors() {
    let c = catalog();
    assert!(c.gpus.len() >= 40, "only {} cards", c.gpus.len());
    for seg in ["datacenter", "workstation", "consumer"] {
        assert!(c.gpus.iter().any(|g| g.segment == seg), "no {seg} card");
    }
    for vendor in ["NVIDIA", "AMD", "Huawei", "Cambricon", "Hygon", "Moore Threads", "Biren", "Enflame"] {
        assert!(c.gpus.iter().any(|g| g.vendor == vendor), "no {vendor} card");
    }
    assert!(c.gpus.iter().any(|g| g.vendor.starts_with("Iluvatar")), "no Iluvatar card");
}

#[test]
fn required_cards_are_present() {
    let c = catalog();
    for id in [
        "b200-hgx",
        "h200-sxm",
        "h100-sxm",
        "h100-pcie",
        "h100-nvl",
        "h800-sxm",
        "h20",
        "a100-40gb-sxm4",
        "a100-80gb-sxm4",
        "a100-80gb-pcie",
        "a800-80gb-sxm4",
        "l40s",
        "l40",
        "l20",
        "l4",
        "a10",
        "a40",
        "a30",
        "v100-sxm2-32gb",
        "rtx-6000-ada",
        "rtx-a6000",
        "rtx-5090",
        "rtx-4090",
        "rtx-4090-d",
        "rtx-3090",
        "mi300x",
        "mi325x",
        "mi250x",
        "huawei-ascend-910b3",
        "huawei-ascend-910c",
        "cambricon-mlu370-x8",
        "cambricon-mlu590",
    ] {
        assert!(c.gpu(id).is_some(), "missing {id}");
    }
}

/// Dense figures from the datasheets (sparse ÷ 2), not the 2:4 "with sparsity" ones.
#[test]
fn compute_figures_are_dense() {
    let c = catalog();
    let bf16 = |id: &str| c.gpu(id).and_then(|g| g.bf16_tflops).unwrap_or(f64::NAN);
    // H100 SXM datasheet: 1,979 TFLOPS BF16 with sparsity → 989.4 dense.
    assert!((bf16("h100-sxm") - 989.4).abs() < 1.0);
    // A100 datasheet: 312 TFLOPS BF16 dense (624 with sparsity).
    assert!((bf16("a100-80gb-sxm4") - 312.0).abs() < 1.0);
    // RTX 4090 (Ada whitepaper, App. A): 165.2 TFLOPS FP16/BF16 with FP32 accumulate, dense.
    assert!((bf16("rtx-4090") - 165.2).abs() < 0.5);
    // MI300X (AMD datasheet): 1307.4 TFLOPS BF16 dense.
    assert!((bf16("mi300x") - 1307.4).abs() < 1.0);
}

#[test]
fn every_price_is_dated_sourced_and_points_at_a_card() {
    let c = catalog();
    assert!(c.prices.len() >= 20);
    for p in &c.prices {
        assert!(valid_date(&p.date), "{p:?}");
        assert!(p.source.starts_with("http"), "{p:?}");
        assert!(c.gpu(&p.gpu).is_some(), "{p:?}");
    }
}

#[test]
fn validation_catches_bad_records() {
    let mut c = catalog();
    let mut dup = c.gpus[0].clone();
    dup.sources.clear();
    dup.bf16_tflops = Some(99_999.0);
    c.gpus.push(dup);
    c.prices[0].date = "last year".into();
    c.prices[1].market = "ebay".into();
    c.prices[2].condition = "refurbished".into();
    c.lead_times[0].weeks_max = Some(-1.0);
    let issues = c.validate().join("\n");
    assert!(issues.contains("market `ebay`"), "{issues}");
    assert!(issues.contains("condition `refurbished`"), "{issues}");
    assert!(issues.contains("lead time #0"), "{issues}");
    assert!(issues.contains("duplicate gpu id"), "{issues}");
    assert!(issues.contains("no sources"), "{issues}");
    assert!(issues.contains("bf16_tflops"), "{issues}");
    assert!(issues.contains("date"), "{issues}");
}

/// The records' market and condition are read (many records carry them).
#[test]
fn prices_carry_their_market_and_condition() {
    let c = catalog();
    for m in ["global_marketplace", "hyperscaler", "retail", "press"] {
        assert!(c.prices.iter().any(|p| p.market == m), "no {m} price");
    }
    assert!(c.prices.iter().any(|p| p.condition == "used"));
    assert!(c.prices.iter().any(|p| p.condition == "new"));
}

#[test]
fn lead_times_are_dated_sourced_and_point_at_a_card() {
    let c = catalog();
    assert!(c.lead_times.len() >= 5);
    for l in &c.lead_times {
        assert!(valid_date(&l.date) && l.source.starts_with("http") && c.gpu(&l.gpu).is_some(), "{l:?}");
        assert!(l.weeks_min <= l.weeks_max, "{l:?}");
    }
}

/// Every card without both a purchase and a rental price in catalog.json, with what is missing
/// and the date it was last searched for. Each stays here until a dated, sourced price is added;
/// the page shows such a card as "no public price" with a field for the user's own quote.
const PRICE_GAPS: &[(&str, &str)] = &[
    ("a100-80gb-pcie", "no public price found (2026-11-30): purchase"),
    ("a10", "no public price found (2026-12-03): purchase"),
    ("rtx-4090-d", "no public price found (2026-11-30): rental"),
    ("mi325x", "no public price found (2026-11-30): purchase"),
    ("b300-hgx", "no public price found (2026-11-30): per card (whole-server price only)"),
    ("rtx-pro-6000-blackwell-max-q", "no public price found (2026-11-30): rental"),
    ("rtx-pro-6000d", "no public price found (2026-11-30): rental"),
    ("rtx-5090-d", "no public price found (2026-11-30): rental"),
    ("rtx-5090-d-v2", "no public price found (2026-11-30): rental"),
    ("rtx-4090-d-48gb-mod", "no public price found (2026-11-30): rental"),
    // Only a whole-server quote with no card count, and an undated regional survey, were found.
    ("huawei-ascend-910c", "no public price found (2026-11-30): rental"),
    ("cambricon-mlu590", "no public price found (2026-11-30): rental"),
    ("mi210", "no public price found (2026-12-03): rental"),
    ("v100-pcie-32gb", "no public price found (2026-12-03): rental (a Chinese cloud rents the V100S, another card)"),
    ("iluvatar-bi-v100", "no public price found (2026-12-03): purchase"),
    ("huawei-ascend-910b2", "no public price found (2026-12-03): purchase"),
    // No price of any kind (docs/research/2026-12-03-prices-*.json say what was tried).
    ("mi250x", "no public price found (2026-12-04): rental"),
    ("cambricon-mlu370-x8", "no public price found (2026-12-03): any"),
    ("hygon-dcu-z100", "no public price found (2026-12-03): any"),
    (
        "hygon-dcu-k100-ai",
        "no public price found (2026-12-03): any (a university purchase names the K100 64GB, not the K100 AI)",
    ),
    ("biren-br100", "no public price found (2026-12-03): any"),
    ("biren-br104", "no public price found (2026-12-03): any"),
    ("enflame-cloudblazer-t20", "no public price found (2026-12-03): any"),
    ("enflame-cloudblazer-i20", "no public price found (2026-12-03): any"),
    ("h800-pcie", "no public price found (2026-12-03): any (cloud listings do not say PCIe or SXM)"),
    ("huawei-ascend-910b1", "no public price found (2026-12-04): purchase"),
    ("huawei-ascend-910b4", "no public price found (2026-12-03): any"),
    ("huawei-ascend-910", "no public price found (2026-12-04): purchase"),
    ("kunlunxin-p800", "no public price found (2026-12-03): any"),
];

/// Every card in the catalog, priced or not: a purchase and a rental price, or a line above that
/// says which is missing and when it was searched for. A card is allowed no price at all only on
/// that list, and at most 13 such cards (23 before the 2026-12-03 search).
#[test]
fn every_card_has_a_purchase_and_a_rental_price_or_says_why_not() {
    let c = catalog();
    let has = |id: &str, kinds: &[&str]| c.prices.iter().any(|p| p.gpu == id && kinds.contains(&p.kind.as_str()));
    let mut missing = Vec::new();
    for g in &c.gpus {
        let both = has(&g.id, &["purchase"]) && has(&g.id, &["rent_hourly", "rent_monthly"]);
        let allowed = PRICE_GAPS.iter().find(|(id, _)| *id == g.id);
        if !both && allowed.is_none() {
            missing.push(g.id.clone());
        }
        if let Some((id, why)) = allowed {
            let searched = why.strip_prefix("no public price found (").and_then(|r| r.get(..10)).unwrap_or("");
            assert!(gpu_planner::domain::catalog::valid_date(searched), "{id}: {why}");
            assert!(!both, "{id} is listed as missing a price but now has both: drop it from the list");
        }
    }
    assert!(missing.is_empty(), "cards without a purchase and a rental price, and not listed: {missing:?}");
    let unpriced = c.gpus.iter().filter(|g| !c.prices.iter().any(|p| p.gpu == g.id)).count();
    assert!(unpriced <= 10, "{unpriced} cards without any price");
    assert!(PRICE_GAPS.iter().all(|(id, _)| c.gpu(id).is_some()), "a listed card left the catalog");
}

/// A China-availability record is refused for each of its fields on its own: an unknown card, a
/// market other than china, a status outside sold|cloud|grey, a date that is not YYYY[-MM[-DD]]
/// and a source that is not a link; a good record passes, a year alone included.
#[test]
fn availability_records_are_checked_field_by_field() {
    let c = catalog();
    let good = c.availability.iter().find(|a| a.gpu == "h100-sxm").cloned().unwrap_or_else(|| panic!("h100"));
    let bad = |edit: &dyn Fn(&mut gpu_planner::domain::catalog::Availability)| {
        let mut x = c.clone();
        let mut a = good.clone();
        edit(&mut a);
        x.availability = vec![a];
        x.validate().iter().any(|i| i.starts_with("availability #0"))
    };
    assert!(!bad(&|_| {}));
    assert!(!bad(&|a| a.date = "2023".into()));
    assert!(bad(&|a| a.gpu = "h999".into()));
    assert!(bad(&|a| a.market = "global".into()));
    assert!(bad(&|a| a.kind = "maybe".into()));
    assert!(bad(&|a| a.date = "soon".into()));
    assert!(bad(&|a| a.date = "20x3".into()));
    assert!(bad(&|a| a.source = "a friend".into()));
}

/// The cards our users in Beijing and Chengdu name (issue 28) each have a per-card rental price in
/// yuan from a Chinese cloud, or are listed here with the date of the search that found none (the
/// page then says "no public price" for them in the China market). A price added later fails the
/// list until the card leaves it.
#[test]
fn the_china_teams_cards_have_a_yuan_rental_or_a_dated_gap() {
    const NO_YUAN_RENTAL: &[(&str, &str)] = &[(
        "a10",
        "no public price found (2026-12-04): Alibaba Cloud gn7i (one A10) figures seen only undated or unsourced",
    )];
    let c = catalog();
    let named = [
        "l40s",
        "a10",
        "l4",
        "l20",
        "h800-sxm",
        "h20",
        "a800-80gb-sxm4",
        "a800-80gb-pcie",
        "huawei-ascend-910b3",
        "rtx-4090",
        "rtx-6000-ada",
    ];
    for id in named {
        let priced = c
            .prices
            .iter()
            .any(|p| p.gpu == id && p.currency == "CNY" && p.kind.starts_with("rent_") && p.market == "china_cloud");
        let gap = NO_YUAN_RENTAL.iter().find(|(g, _)| *g == id);
        assert!(priced || gap.is_some(), "{id}: no CNY rental from a Chinese cloud and not listed");
        assert!(!(priced && gap.is_some()), "{id} has a CNY rental now: drop it from the list");
        if let Some((_, why)) = gap {
            let searched = why.strip_prefix("no public price found (").and_then(|r| r.get(..10)).unwrap_or("");
            assert!(gpu_planner::domain::catalog::valid_date(searched), "{id}: {why}");
        }
    }
}

/// Every card made in China carries the name Chinese buyers and vendors write (华为昇腾,
/// 寒武纪思元, 海光, 摩尔线程, 壁仞, 天数智芯天垓, 燧原云燧, 昆仑芯), the Chinese page shows it, and
/// it names the same product: every model designation in it (a word with a digit: 910B3,
/// MLU370-X8, S4000, 64GB) is in the English name too. Other cards keep one name.
#[test]
fn chinese_cards_carry_their_chinese_names_for_the_same_product() {
    const CHINESE_VENDORS: [&str; 8] =
        ["Huawei", "Cambricon", "Hygon", "Moore Threads", "Biren", "Iluvatar CoreX", "Enflame", "Kunlunxin"];
    let c = catalog();
    let mut named = 0;
    for g in &c.gpus {
        let chinese = CHINESE_VENDORS.contains(&g.vendor.as_str());
        match (&g.name_zh, chinese) {
            (Some(zh), true) => {
                named += 1;
                assert!(zh.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)), "{}: {zh}", g.id);
                let designations = zh
                    .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '-'))
                    .filter(|w| w.chars().any(|ch| ch.is_ascii_digit()) && w.chars().count() > 2);
                for d in designations {
                    assert!(g.name.contains(d), "{}: {d} of {zh} is not in {}", g.id, g.name);
                }
                assert_eq!(g.name_in(true), zh.as_str());
                assert_eq!(g.name_in(false), g.name);
            }
            (None, true) => panic!("{} ({}) has no Chinese name", g.id, g.vendor),
            (Some(zh), false) => panic!("{} is not made in China but has a Chinese name {zh}", g.id),
            (None, false) => assert_eq!(g.name_in(true), g.name),
        }
    }
    assert!(named >= 17, "{named}");
}
