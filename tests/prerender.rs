//! The static first answer written into index.html (public/prerender.html) is what the engine
//! says for the default scenario today: a catalog, price or formula change that alters the
//! default answer must regenerate it (`gpu-planner prerender > public/prerender.html`).
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::format::Lang;
use gpu_planner::domain::{plan, Catalog, Scenario};
use gpu_planner::ui::prerender::{answer, document};
// The comparison with the committed public/prerender.html is in tests/golden.rs.

#[test]
fn it_lists_the_default_rankings_top_cards_in_both_languages() {
    let r = plan(&Scenario::default(), Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let (en, zh) = (answer(Lang::En), answer(Lang::Zh));
    assert_eq!(en.matches("<tr class=").count(), r.cards.len().min(10));
    for c in r.cards.iter().take(10) {
        assert!(en.contains(&c.name), "{} missing", c.name);
    }
    // A Chinese first visit is priced in China's market (ui/prerender.rs `first_visit`).
    let china = plan(&Scenario::china_default(), Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let top = |r: &gpu_planner::domain::Report| r.cards.iter().take(10).map(|c| c.gpu.clone()).collect::<Vec<_>>();
    assert_ne!(top(&china), top(&r), "the markets rank alike: the test cannot tell them apart");
    // Named as Chinese buyers write them (catalog `name_zh`: 华为昇腾 910B3), else as in English.
    for c in china.cards.iter().take(10) {
        let name = Catalog::embedded().gpu(&c.gpu).map_or(c.name.as_str(), |g| g.name_in(true));
        assert!(zh.contains(name), "{name} missing");
    }
    assert!(zh.contains("华为昇腾"), "the Chinese first visit ranks an Ascend card by its Chinese name");
    assert!(zh.contains("显卡") && en.contains("Memory / card"));
    // Shown only by the inline script: hidden without JavaScript or when a scenario is open.
    assert!(document().starts_with("<div id=\"prerender\" hidden>"));
    assert!(!document().contains("data-testid"), "test ids belong to the live page only");
}
