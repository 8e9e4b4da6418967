//! Browser tests (headless Chromium via wasm-bindgen-test): typing changes the result; invalid
//! input shows a message and keeps the last result; save + reload restores; a share link opens
//! with the same numbers; language switch; the chart canvas is drawn; the embedded view renders.
#![cfg(target_arch = "wasm32")]

use gpu_planner::domain::scenario::Task;
use gpu_planner::domain::{format, plan, share, Catalog, Scenario};
use gpu_planner::ui::App;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn find(id: &str) -> Option<web_sys::Element> {
    document().query_selector(&format!("[data-testid='{id}']")).ok().flatten()
}

fn by_testid(id: &str) -> web_sys::Element {
    find(id).unwrap_or_else(|| panic!("no element with data-testid={id}"))
}

/// Whether the element (or a section around it) is hidden.
fn hidden(id: &str) -> bool {
    by_testid(id).closest("[hidden]").ok().flatten().is_some()
}

fn text(id: &str) -> String {
    by_testid(id).text_content().unwrap_or_default()
}

fn fire(el: &web_sys::Element, kind: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict(kind, &init).unwrap_or_else(|_| panic!("event"));
    let _ = el.dispatch_event(&ev);
}

fn type_into(id: &str, value: &str) {
    let input: web_sys::HtmlInputElement = by_testid(id).unchecked_into();
    input.set_value(value);
    fire(&input, "input");
}

fn click(id: &str) {
    by_testid(id).unchecked_ref::<web_sys::HtmlElement>().click();
}

fn set_query(q: &str) {
    // A page of an earlier test may have a share query waiting to be written after its paint:
    // written now, it cannot land on this test's address later.
    gpu_planner::web::url::flush();
    let _ = window().history().map(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(q)));
}

fn clear_storage() {
    if let Ok(Some(st)) = window().local_storage() {
        let _ = st.clear();
    }
}

/// Mounts the page and returns at once: only what renders first (the answer) is there.
async fn mount_now() -> leptos::mount::UnmountHandle<impl Mountable> {
    let container = document().create_element("div").unwrap_or_else(|_| panic!("div"));
    let _ = document().body().map(|b| b.append_child(&container));
    let handle = leptos::mount::mount_to(container.unchecked_into(), App);
    leptos::task::tick().await;
    handle
}

/// Waits for the next two animation frames (the lower panels mount after the first paint).
async fn frames() {
    for _ in 0..2 {
        let p = js_sys::Promise::new(&mut |resolve, _| {
            let _ = window().request_animation_frame(&resolve);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    }
    leptos::task::tick().await;
}

/// Mounts the page and waits until every panel is there.
async fn mount() -> leptos::mount::UnmountHandle<impl Mountable> {
    let handle = mount_now().await;
    frames().await;
    handle
}

async fn fresh() -> leptos::mount::UnmountHandle<impl Mountable> {
    clear_storage();
    set_query("?");
    mount().await
}

/// The page's address once the share query of the last change is written (after the next paint,
/// src/web/url.rs `replace`).
async fn address() -> String {
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().request_animation_frame(&resolve);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(frame).await;
    let task = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback(&resolve);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(task).await;
    window().location().search().unwrap_or_default()
}

async fn settle() {
    leptos::task::tick().await;
    leptos::task::tick().await;
}

#[wasm_bindgen_test]
async fn page_shows_the_default_report() {
    let _h = fresh().await;
    let r = plan(&Scenario::default(), Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(text("memory-total"), format::gib(r.memory_single.total));
    assert_eq!(rows(), r.cards.len().min(10), "the top ten first");
    click("show-all");
    settle().await;
    assert_eq!(rows(), r.cards.len());
}

/// The model picker groups the presets by family, in the order of models.json.
#[wasm_bindgen_test]
async fn the_model_picker_groups_presets_by_family() {
    let _h = fresh().await;
    let presets = gpu_planner::domain::model::presets();
    let picker = by_testid("model");
    for family in ["Llama", "Qwen", "DeepSeek", "gpt-oss"] {
        let want = presets.iter().filter(|m| m.family == family).count();
        let got = picker
            .query_selector_all(&format!("optgroup[label='{family}'] option"))
            .unwrap_or_else(|_| panic!("query"))
            .length() as usize;
        assert!(want > 0 && got == want, "{family}: {got} options, {want} presets");
    }
    // "Custom" stays outside the groups.
    assert!(picker.query_selector(":scope > option[value=custom]").ok().flatten().is_some());
}

fn rows() -> usize {
    by_testid("ranking").query_selector_all("tbody tr").map(|l| l.length()).unwrap_or(0) as usize
}

/// Opens the details of the first card in the ranking (a click on its name); returns its id.
fn open_first_card() -> String {
    let row = by_testid("ranking").query_selector("tbody tr").ok().flatten().unwrap_or_else(|| panic!("a row"));
    let name: web_sys::HtmlElement =
        row.query_selector("button.link").ok().flatten().unwrap_or_else(|| panic!("card name")).unchecked_into();
    name.click();
    row.get_attribute("data-testid").unwrap_or_default().trim_start_matches("card-").to_string()
}

/// The answer (summary and ranking) is there as soon as the page mounts; the heavy lower panels
/// follow after the first paint.
#[wasm_bindgen_test]
async fn the_answer_renders_first_and_the_lower_panels_after_it() {
    clear_storage();
    set_query("?");
    let _h = mount_now().await;
    assert!(find("summary").is_some() && find("ranking").is_some(), "the answer is on the first frame");
    let lower = ["rvb", "autoplan", "infra", "checklist", "scenarios", "task"];
    for id in lower {
        assert!(find(id).is_none(), "{id} waits until the answer is painted");
    }
    frames().await;
    for id in lower {
        assert!(find(id).is_some(), "{id} follows");
    }
}

/// Clicking a card opens its details in a row right under it; the share link carries that card
/// (`&card=`), and reopening the link opens them again, even for a card below the top ten. An
/// old link without the card opens none; a second click folds them.
#[wasm_bindgen_test]
async fn the_share_link_carries_the_open_card() {
    let h = fresh().await;
    assert!(find("memory-chart").is_none(), "no details until a card is clicked");
    let id = open_first_card();
    settle().await;
    let search = address().await;
    assert!(search.contains(&format!("card={id}")) && search.contains("s=v1."), "{search}");
    assert!(share::decode(&search).is_ok(), "the scenario still decodes beside the card");
    drop(h);
    let h = mount().await; // reopen the same address
    let under = |id: &str| {
        by_testid(&format!("card-{id}"))
            .next_element_sibling()
            .and_then(|tr| tr.query_selector("[data-testid='memory-chart']").ok().flatten())
            .is_some()
    };
    assert!(under(&id), "details open under {id}");
    open_first_card();
    settle().await;
    assert!(find("memory-chart").is_none(), "a second click folds the details");
    assert!(!address().await.contains("card="));
    drop(h);
    set_query("?s=v1.e30");
    let h = mount().await;
    assert!(find("memory-chart").is_none(), "an old link opens no details");
    drop(h);
    let r = plan(&Scenario::default(), Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let last = r.cards.last().map(|c| c.gpu.clone()).unwrap_or_default();
    set_query(&format!("?s=v1.e30&card={last}"));
    let _h = mount().await;
    assert!(under(&last), "a card below the top ten is listed with its details open");
}

#[wasm_bindgen_test]
async fn typing_changes_the_result_and_bad_input_keeps_it() {
    let _h = fresh().await;
    let before = text("memory-total");
    type_into("seq", "16384");
    settle().await;
    let longer = text("memory-total");
    assert_ne!(before, longer, "memory must grow with the sequence");
    type_into("seq", "-3");
    settle().await;
    assert!(text("seq-error").contains("2,097,152"), "{}", text("seq-error"));
    assert_eq!(text("memory-total"), longer, "invalid input keeps the last good result");
    type_into("seq", "abc");
    settle().await;
    assert_eq!(text("memory-total"), longer);
    // A half-typed decimal is not rewritten under the caret.
    type_into("tokens", "1.");
    settle().await;
    let tokens: web_sys::HtmlInputElement = by_testid("tokens").unchecked_into();
    assert_eq!(tokens.value(), "1.");
}

#[wasm_bindgen_test]
async fn saved_scenario_survives_a_reload() {
    let h = fresh().await;
    type_into("sc-name", "our 70B LoRA");
    settle().await;
    click("sc-save");
    type_into("seq", "8192");
    settle().await;
    let shown = text("memory-total");
    drop(h);
    set_query("?");
    let _h2 = mount().await; // "reload": a new app reading local storage
    assert_eq!(text("memory-total"), shown);
    assert!(text("saved-list").contains("our 70B LoRA"));
}

#[wasm_bindgen_test]
async fn a_share_link_opens_with_the_same_numbers() {
    clear_storage();
    let s = Scenario {
        task: Task::Inference,
        model: "qwen2.5-72b".into(),
        name: "Chengdu chat 72B".into(),
        ..Scenario::default()
    };
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    set_query(&format!("?s={}", share::encode(&s)));
    let h = mount().await;
    assert_eq!(text("memory-total"), format::gib(r.memory_single.total));
    let first = &r.cards[0];
    assert!(text(&format!("card-{}", first.gpu)).contains(&format::gib(first.memory.total)));
    // The recipient sees the scenario's name above the answer (issue 29 item 13) ...
    assert_eq!(text("link-name"), "Opened from a link «Chengdu chat 72B»");
    drop(h);
    // ... and the card the sender had open; a page opened without a link says nothing.
    let card = &r.cards[1];
    set_query(&format!("?s={}&card={}", share::encode(&s), card.gpu));
    let h = mount().await;
    assert_eq!(text("link-name"), format!("Opened from a link «Chengdu chat 72B» · Card: {}", card.name));
    drop(h);
    set_query("?");
    let _h = mount().await;
    assert!(find("link-name").is_none());
}

#[wasm_bindgen_test]
async fn a_damaged_link_shows_a_message_and_keeps_saved_work() {
    clear_storage();
    if let Ok(Some(st)) = window().local_storage() {
        let _ = st.set_item("gpu-planner/scenarios/v1", r#"[{"id":1,"name":"kept","scenario":{}}, {"broken":true}]"#);
    }
    set_query("?s=v1.%%%");
    let _h = mount().await;
    assert!(find("link-error").is_some());
    assert!(find("ranking").is_some());
    assert!(text("saved-list").contains("kept"));
    assert!(text("storage-error").contains('1'), "the unreadable entry is reported");
    // In Chinese the reason is Chinese too.
    click("lang");
    settle().await;
    let zh = text("link-error");
    assert!(english_words(&zh).is_empty(), "{zh}");
    click("lang");
    settle().await;
}

#[wasm_bindgen_test]
async fn language_switch_translates_the_page() {
    let _h = fresh().await;
    click("lang");
    settle().await;
    let zh = document().body().and_then(|b| b.text_content()).unwrap_or_default();
    click("lang");
    settle().await;
    let en = document().body().and_then(|b| b.text_content()).unwrap_or_default();
    assert_ne!(zh.contains("每卡显存"), en.contains("每卡显存"));
}

#[wasm_bindgen_test]
async fn the_memory_chart_is_drawn() {
    let _h = fresh().await;
    open_first_card();
    settle().await;
    let canvas: web_sys::HtmlCanvasElement = by_testid("memory-chart").unchecked_into();
    let ctx: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d").ok().flatten().unwrap_or_else(|| panic!("2d")).unchecked_into();
    let data = ctx
        .get_image_data(0.0, 0.0, f64::from(canvas.width()), f64::from(canvas.height()))
        .unwrap_or_else(|_| panic!("pixels"));
    let px = data.data().0;
    let coloured = px.chunks(4).filter(|p| p[3] > 0 && !(p[0] > 240 && p[1] > 240 && p[2] > 240)).count();
    assert!(coloured > 2000, "only {coloured} non-white pixels");
}

#[wasm_bindgen_test]
async fn the_embedded_view_renders_without_header() {
    clear_storage();
    set_query("?embed=1");
    let _h = mount().await;
    assert!(document().query_selector(".app.embed header").ok().flatten().is_none());
    assert!(find("ranking").is_some());
    assert!(find("scenarios").is_none());
}

fn non_white_pixels(testid: &str) -> usize {
    let canvas: web_sys::HtmlCanvasElement = by_testid(testid).unchecked_into();
    let ctx: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d").ok().flatten().unwrap_or_else(|| panic!("2d")).unchecked_into();
    let data = ctx
        .get_image_data(0.0, 0.0, f64::from(canvas.width()), f64::from(canvas.height()))
        .unwrap_or_else(|_| panic!("pixels"));
    data.data().0.chunks(4).filter(|p| p[3] > 0 && !(p[0] > 240 && p[1] > 240 && p[2] > 240)).count()
}

#[wasm_bindgen_test]
async fn rent_vs_buy_charts_draw_and_electricity_moves_the_breakeven() {
    clear_storage();
    let s = Scenario {
        ownership: gpu_planner::domain::scenario::Ownership {
            rent_hourly: Some(12.0),
            ..gpu_planner::domain::scenario::Ownership::seed_a100_server()
        },
        ..Scenario::default()
    };
    set_query(&format!("?s={}", share::encode(&s)));
    let _h = mount().await;
    settle().await;
    assert!(non_white_pixels("chart-cumulative") > 2000);
    assert!(non_white_pixels("chart-annual") > 2000);
    let before = text("rvb-figures");
    type_into("own-kwh", "3.5");
    settle().await;
    let after = text("rvb-figures");
    assert_ne!(before, after, "electricity price changes the figures");
    let expected = plan(
        &{
            let mut t = s.clone();
            t.ownership.electricity_per_kwh = 3.5;
            t.ownership.site = "custom".into();
            t
        },
        Catalog::embedded(),
    )
    .ok()
    .and_then(|r| r.rent_vs_buy)
    .and_then(|r| r.breakeven_hours)
    .unwrap_or(f64::NAN);
    assert!(after.contains(&format::grouped(expected, 0)), "breakeven {expected} in {after}");
    // The verdict line names the same breakeven, not a rule of thumb beside it.
    let rule = text("rvb-rules");
    assert!(
        rule.starts_with(&format!("Buying beats on-demand renting above {} h / year", format::grouped(expected, 0))),
        "{rule}"
    );
    // Rent at ¥1 per card-hour: renting is cheaper at any use, and the line says so with ✗.
    type_into("own-rent-h", "1");
    settle().await;
    let rule = text("rvb-rules");
    assert!(rule.starts_with("At these prices on-demand renting stays cheaper") && rule.contains('✗'), "{rule}");
    assert!(text("rvb-figures").contains("Enter a monthly demand profile"), "no made-up hybrid");
    // A demand profile: a bad value or too many months says why and keeps the last good one.
    type_into("own-demand", "100, x");
    settle().await;
    assert!(text("own-demand-error").contains("1,000,000,000"), "{}", text("own-demand-error"));
    type_into("own-demand", &vec!["10"; 121].join(","));
    settle().await;
    assert_eq!(text("own-demand-error"), "at most 120 months");
    assert!(text("rvb-figures").contains("Enter a monthly demand profile"), "nothing read yet");
    type_into("own-demand", "100，2000 300");
    settle().await;
    assert!(find("own-demand-error").is_none(), "the error goes with a good profile");
    assert!(!text("rvb-figures").contains("Enter a monthly demand profile"), "{}", text("rvb-figures"));
}

#[wasm_bindgen_test]
async fn infra_and_checklist_follow_the_plan() {
    let _h = fresh().await;
    settle().await;
    assert!(text("infra").contains("BTU/h"));
    let items = by_testid("checklist").query_selector_all("li").map(|l| l.length()).unwrap_or(0);
    assert!(items >= 5, "{items} checklist items");
    let sel: web_sys::HtmlSelectElement = by_testid("room").unchecked_into();
    sel.set_value("office");
    fire(&sel, "change");
    settle().await;
    let s = Scenario {
        infra: gpu_planner::domain::scenario::Infra { room: "office".into(), ..Default::default() },
        ..Scenario::default()
    };
    let expected = plan(&s, Catalog::embedded()).ok().and_then(|r| r.infra).map(|i| i.warnings.len()).unwrap_or(0);
    let shown = by_testid("infra").query_selector_all("p.warn").map(|l| l.length()).unwrap_or(0) as usize;
    assert!(expected >= 1, "an office room with a ~3 kW server is flagged");
    assert_eq!(shown, expected);
}

async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// The auto-plan searches 200 ms after the last edit; a panel unmounted in between (closing the
/// page's view, a test's teardown) must not touch its disposed state: that panicked, and a
/// panic shows the page's error screen (web/panic.rs) in place of the answer.
#[wasm_bindgen_test]
async fn an_edit_just_before_the_page_unmounts_does_not_panic() {
    gpu_planner::web::panic::install();
    if let Some(old) = find("panic") {
        old.remove();
    }
    let h = fresh().await;
    sleep(50).await;
    type_into("seq", "8192");
    settle().await;
    drop(h);
    sleep(400).await;
    assert!(find("panic").is_none(), "{}", find("panic").and_then(|p| p.text_content()).unwrap_or_default());
}

#[wasm_bindgen_test]
async fn auto_plan_searches_draws_the_front_and_applies_a_fix() {
    clear_storage();
    // 70B full fine-tune forced onto 2 × RTX 4090: does not fit, so fixes are offered.
    let s = Scenario {
        model: "llama-3.1-70b".into(),
        parallel: gpu_planner::domain::scenario::Parallel { gpus: 2, ..Default::default() },
        cards: gpu_planner::domain::scenario::CardFilter { only: vec!["rtx-4090".into()], ..Default::default() },
        search: gpu_planner::domain::scenario::Search { max_gpus: 256, ..Default::default() },
        ..Scenario::default()
    };
    set_query(&format!("?s={}", share::encode(&s)));
    let _h = mount().await;
    sleep(400).await;
    settle().await;
    assert!(text("search-summary").contains("configurations searched"), "{}", text("search-summary"));
    assert!(non_white_pixels("chart-pareto") > 1000);
    // The fixes say what the current plan is and why it fails.
    let current = text("current-plan");
    assert!(
        current.starts_with("Your plan: 2 × NVIDIA GeForce RTX 4090") && current.contains("does not fit: needs"),
        "{current}"
    );
    // The three lists share one column layout: card, cards, layout, time, rent, own.
    for id in ["per-card", "cheapest", "fastest"] {
        let heads: Vec<String> = all(&format!("[data-testid='{id}'] thead th"))
            .iter()
            .map(|h| h.text_content().unwrap_or_default())
            .collect();
        assert_eq!(heads, ["Card", "Cards", "Layout", "Time", "Cost (rent)", "Cost (own)"], "{id}");
    }
    assert!(find("max-gpus-auto").is_none(), "a typed limit needs no explanation");
    let fix_button: web_sys::HtmlElement =
        by_testid("fixes").query_selector("button").ok().flatten().unwrap_or_else(|| panic!("a fix")).unchecked_into();
    fix_button.click();
    settle().await;
    sleep(400).await;
    settle().await;
    assert!(find("fixes").is_none(), "after applying the cheapest fix the plan works");
    assert!(find("current-plan").is_none());
}

/// Without a typed limit the auto-plan says how many cards it tries and why; serving shows no
/// empty Pareto chart.
#[wasm_bindgen_test]
async fn the_auto_plan_limit_is_explained_and_serving_draws_no_empty_chart() {
    let _h = fresh().await;
    sleep(400).await;
    settle().await;
    let s = Scenario::default();
    let hint = text("max-gpus-auto");
    let n = gpu_planner::domain::search::card_limit(&s);
    assert!(hint.contains(&format!("up to {n} cards")), "{hint}");
    assert!(n < 1024, "{n}");
    choose("task", "inference");
    settle().await;
    assert!(find("max-gpus-auto").is_none());
    let chart: web_sys::HtmlElement = by_testid("chart-pareto").unchecked_into();
    assert!(chart.hidden(), "no Pareto chart for serving");
}

fn choose(id: &str, value: &str) {
    let sel: web_sys::HtmlSelectElement = by_testid(id).unchecked_into();
    sel.set_value(value);
    fire(&sel, "change");
}

fn tick(el: &web_sys::Element, on: bool) {
    let input: &web_sys::HtmlInputElement = el.unchecked_ref();
    input.set_checked(on);
    fire(input, "change");
}

fn all_in(el: &web_sys::Element, selector: &str) -> Vec<String> {
    let list = el.query_selector_all(selector).unwrap_or_else(|_| panic!("selector {selector}"));
    (0..list.length()).filter_map(|i| list.item(i)).map(|n| n.text_content().unwrap_or_default()).collect()
}

fn all(selector: &str) -> Vec<web_sys::Element> {
    let list = document().query_selector_all(selector).unwrap_or_else(|_| panic!("selector {selector}"));
    (0..list.length()).filter_map(|i| list.item(i)).map(JsCast::unchecked_into).collect()
}

/// Pasting a config.json makes it the custom model (the summary follows, pre-quantised FP8
/// weights set the weight format); a bad one says which field and keeps the model in use.
#[wasm_bindgen_test]
async fn a_pasted_config_becomes_the_custom_model_and_a_bad_one_says_why() {
    let _h = fresh().await;
    let config = include_str!("configs/qwen3-30b-a3b-fp8.json");
    let expected =
        gpu_planner::domain::config::read_config(config).unwrap_or_else(|e| panic!("{e}")).model.computed_params();
    type_into("config-text", config);
    click("config-read");
    settle().await;
    assert_eq!(by_testid("model").unchecked_ref::<web_sys::HtmlSelectElement>().value(), "custom");
    assert_eq!(by_testid("quant").unchecked_ref::<web_sys::HtmlSelectElement>().value(), "fp8");
    assert_eq!(text("params"), format!("{:.2} B", expected.total / 1e9));
    assert!(text("config-status").contains(&format!("{:.2} B", expected.total / 1e9)), "{}", text("config-status"));
    assert!(find("m-moe").is_some(), "the custom form shows the structure read");
    type_into("config-text", r#"{"num_hidden_layers": 32, "hidden_size": 4096}"#);
    click("config-read");
    settle().await;
    let status = by_testid("config-status");
    assert!(status.class_name().contains("error"), "{}", status.class_name());
    assert!(
        text("config-status").contains("intermediate_size") || text("config-status").contains("num_attention_heads"),
        "{}",
        text("config-status")
    );
    assert_eq!(text("params"), format!("{:.2} B", expected.total / 1e9), "the model in use is kept");
    click("lang");
    settle().await;
    click("config-read");
    settle().await;
    assert!(text("config-status").starts_with("无法读取 config"), "{}", text("config-status"));
    click("lang");
    settle().await;
}

/// An encoder–decoder config (Whisper large-v3) becomes a custom model with its encoder part on,
/// 1,500 positions into the encoder; the share link carries the encoder; the preset of the same
/// model gives the same parameter count.
#[wasm_bindgen_test]
async fn a_pasted_whisper_config_keeps_its_encoder() {
    let _h = fresh().await;
    let config = include_str!("configs/whisper-large-v3.json");
    let expected =
        gpu_planner::domain::config::read_config(config).unwrap_or_else(|e| panic!("{e}")).model.computed_params();
    type_into("config-text", config);
    click("config-read");
    settle().await;
    assert_eq!(by_testid("model").unchecked_ref::<web_sys::HtmlSelectElement>().value(), "custom");
    assert_eq!(text("params"), format!("{:.2} B", expected.total / 1e9));
    let on = by_testid("m-encoder").unchecked_ref::<web_sys::HtmlInputElement>().checked();
    assert!(on, "the encoder part is switched on");
    assert_eq!(by_testid("m-enc-seq").unchecked_ref::<web_sys::HtmlInputElement>().value(), "1500");
    let link = linked().await;
    assert_eq!(link.custom_model.encoder.map(|e| (e.layers, e.seq)), Some((32, 1500)));
    choose("model", "whisper-large-v3");
    settle().await;
    assert_eq!(text("params"), "1.55 B");
}

/// Serving: the load and the targets go in, and per card the replicas, latency, tokens/s and
/// cost per million tokens come out, with the trade-off chart drawn; a tighter target never
/// needs fewer cards; the share link carries the load.
#[wasm_bindgen_test]
async fn serving_capacity_answers_the_load_with_replicas_latency_and_cost() {
    let _h = fresh().await;
    choose("task", "inference");
    settle().await;
    choose("model", "qwen2.5-72b");
    type_into("conc", "100");
    frames().await;
    let mut s = Scenario {
        task: gpu_planner::domain::scenario::Task::Inference,
        model: "qwen2.5-72b".into(),
        ..Scenario::default()
    };
    s.inference.concurrent = 100;
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let first = r.cards.iter().find(|v| v.serving.is_some()).unwrap_or_else(|| panic!("a serving plan"));
    let c = first.serving.clone().unwrap_or_else(|| panic!("plan"));
    let row = text(&format!("serve-{}", first.gpu));
    assert!(row.contains(&format!("TP{} × {} = {}", c.tp, c.replicas, c.cards)), "{row}");
    // What one replica sustains (the simulated closed loop), shown as a lower bound.
    assert!(c.sustained_rps > 0.0 && row.contains(&format!("sustains ≥ {:.2} req/s", c.sustained_rps)), "{row}");
    assert!(non_white_pixels("tradeoff-chart") > 500, "the trade-off chart is drawn");
    // The chart follows the card clicked in the serving table, not the purchase card (issue 29
    // item 11); the click also opens that card in the share link.
    let label = || by_testid("tradeoff-chart").get_attribute("aria-label").unwrap_or_default();
    let focus = gpu_planner::domain::verdict::focus(&s, &r.cards).unwrap_or_else(|| panic!("a focus card"));
    assert!(label().ends_with(&format!("· {}", focus.name)), "{}", label());
    let other = r
        .cards
        .iter()
        .find(|v| v.serving.is_some() && v.gpu != focus.gpu)
        .unwrap_or_else(|| panic!("a second serving card"));
    click(&format!("serve-pick-{}", other.gpu));
    frames().await;
    assert!(label().ends_with(&format!("· {}", other.name)), "{}", label());
    assert!(address().await.contains(&format!("card={}", other.gpu)));
    type_into("tpot50", "20");
    type_into("tpot99", "30");
    frames().await;
    s.inference.tpot_p50_ms = 20.0;
    s.inference.tpot_p99_ms = 30.0;
    let t = serving_on(&s, &first.gpu);
    assert!(t.cards >= c.cards);
    assert!(text(&format!("serve-{}", first.gpu)).contains(&format!("= {}", t.cards)));
    let link = linked().await;
    assert_eq!((link.inference.concurrent, link.inference.tpot_p50_ms), (100, 20.0));
    // A p90 prompt length goes into the scenario and the link; emptying the box removes it.
    type_into("ctx-p90", "8192");
    frames().await;
    let link = linked().await;
    assert_eq!(link.inference.context_p90, Some(8192));
    type_into("ctx-p90", "");
    frames().await;
    let link = linked().await;
    assert_eq!(link.inference.context_p90, None);
    type_into("out-p90", "2048");
    frames().await;
    let link = linked().await;
    assert_eq!(link.inference.output_p90, Some(2048));
    // The engine's sequence cap goes into the scenario and the link.
    type_into("max-seqs", "64");
    frames().await;
    let link = linked().await;
    assert_eq!(link.inference.max_seqs, 64);
    click("lang");
    settle().await;
    assert!(text("serving").contains("服务容量"));
    click("lang");
    settle().await;
}

/// The first card with a serving plan in `s`'s report, and that plan.
fn first_serving(s: &Scenario) -> (String, gpu_planner::domain::serving::Capacity) {
    let r = plan(s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    r.cards
        .iter()
        .find_map(|v| v.serving.clone().map(|c| (v.gpu.clone(), c)))
        .unwrap_or_else(|| panic!("a serving plan"))
}

/// Card `id`'s serving plan in `s`'s report.
fn serving_on(s: &Scenario, id: &str) -> gpu_planner::domain::serving::Capacity {
    let r = plan(s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    r.cards.iter().find(|v| v.gpu == id).and_then(|v| v.serving.clone()).unwrap_or_else(|| panic!("a plan on {id}"))
}

/// Speculative decoding from the serving form: the acceptance box is greyed out until a draft
/// length is typed; then both go into the scenario and the link, the serving table's line says
/// what a step gains, and the first card's time per token is the engine's with the draft.
#[wasm_bindgen_test]
async fn a_draft_length_speeds_up_decoding_and_travels_in_the_link() {
    let _h = fresh().await;
    choose("task", "inference");
    settle().await;
    let accept = || by_testid("spec-accept").unchecked_ref::<web_sys::HtmlInputElement>().disabled();
    assert!(accept(), "no draft, no acceptance rate to type");
    assert!(find("spec-line").is_none());
    type_into("spec-tokens", "3");
    frames().await;
    assert!(!accept());
    type_into("spec-accept", "70");
    frames().await;
    let link = linked().await;
    assert_eq!((link.inference.spec_tokens, link.inference.spec_accept), (3, 0.7));
    // 1 + 0.7 + 0.49 + 0.343 = 2.533 tokens a step.
    assert!(text("spec-line").contains("2.53 tokens"), "{}", text("spec-line"));
    let (id, c) = first_serving(&link);
    let mut off = link.clone();
    off.inference.spec_tokens = 0;
    let p = serving_on(&off, &id);
    assert!(c.latency.tpot_p50_s < 0.8 * p.latency.tpot_p50_s, "{} vs {}", c.latency.tpot_p50_s, p.latency.tpot_p50_s);
    let row = text(&format!("serve-{id}"));
    assert!(row.contains(&format!("{:.1}", c.tokens_s_user)), "{row}");
    click("lang");
    settle().await;
    assert!(text("spec-line").contains("投机解码"), "{}", text("spec-line"));
    click("lang");
    settle().await;
}

/// The serving engine from the serving form: it goes into the scenario and the link, the line
/// under the serving table names its graph rule and launch time (en/zh), and an eager engine's
/// first token is no earlier than vLLM's graph-replayed one for the same short prompt.
#[wasm_bindgen_test]
async fn the_serving_engine_sets_the_eager_prompt_steps_and_travels_in_the_link() {
    let _h = fresh().await;
    choose("task", "inference");
    settle().await;
    type_into("ctx", "256");
    frames().await;
    assert!(text("launch-line").starts_with("vLLM V1"), "{}", text("launch-line"));
    let vllm = linked().await;
    choose("engine", "trtllm");
    frames().await;
    let link = linked().await;
    assert_eq!(link.inference.engine, gpu_planner::domain::scenario::ServingEngine::Trtllm);
    assert!(text("launch-line").starts_with("TensorRT-LLM: every step"), "{}", text("launch-line"));
    // On an H100 a 7B model's 256-token prompt computes in a few ms, less than the launches.
    let (eager, graphs) = (serving_on(&link, "h100-sxm"), serving_on(&vllm, "h100-sxm"));
    assert!(
        eager.latency.ttft_p50_s > graphs.latency.ttft_p50_s,
        "{} vs {}",
        eager.latency.ttft_p50_s,
        graphs.latency.ttft_p50_s
    );
    // The table shows the eager engine's first token.
    let (first, c) = first_serving(&link);
    let row = text(&format!("serve-{first}"));
    assert!(row.contains(&format!("{:.2} / ", c.latency.ttft_p50_s)), "{row}");
    // Under the card's name: where its decode operators come from.
    assert_eq!(text(&format!("serve-tier-{first}")), format::serving_tier(&c.tier, format::Lang::En));
    // Graphs off for every step: the flag goes into the link and the line says so.
    click("enforce-eager");
    frames().await;
    assert!(linked().await.inference.enforce_eager);
    assert!(text("launch-line").contains("decoding too (--enforce-eager)"), "{}", text("launch-line"));
    click("lang");
    settle().await;
    assert!(text("launch-line").contains("不走 CUDA Graph"), "{}", text("launch-line"));
    assert!(text("serving-accuracy").starts_with("可信度"), "{}", text("serving-accuracy"));
    assert!(text("stack-line").starts_with("昇腾（CANN）卡"), "{}", text("stack-line"));
    click("lang");
    settle().await;
    // Under the table, how sure its figures are: the held-out serving rows' p90 by kind of figure.
    let (_, first_token, runs) = gpu_planner::domain::serving::SERVING_P90[0];
    let sure = text("serving-accuracy");
    assert!(text("stack-line").contains("ms a layer more"), "{}", text("stack-line"));
    assert!(sure.contains(&format!("±{:.0}% ({runs} runs)", first_token * 100.0)), "{sure}");
}

/// A MoE model served with its experts spread over two servers (expert parallelism): the width
/// goes into the scenario and the link, and both tables show the replica as TP·EP × replicas.
#[wasm_bindgen_test]
async fn an_expert_parallel_width_shapes_moe_replicas() {
    let _h = fresh().await;
    choose("task", "inference");
    settle().await;
    choose("model", "deepseek-v3");
    type_into("serve-ep", "16");
    frames().await;
    let link = linked().await;
    assert_eq!(link.inference.ep, 16);
    let r = plan(&link, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let (id, c) = r
        .cards
        .iter()
        .find_map(|v| v.serving.clone().filter(|c| c.ep == 16).map(|c| (v.gpu.clone(), c)))
        .unwrap_or_else(|| panic!("a card serves DeepSeek-V3 with EP16"));
    let row = text(&format!("serve-{id}"));
    let shape = format!("TP{}·EP16 × {} = {}", c.tp, c.replicas, c.cards);
    assert!(row.contains(&shape), "{row}");
    // The ranking writes the replica the same way, not in training's TP·PP·DP notation.
    let ranked = text(&format!("card-{id}"));
    assert!(ranked.contains(&shape) && !ranked.contains("·PP"), "{ranked}");
}

/// A config.json dropped on the paste box is read like a pasted one.
#[wasm_bindgen_test]
async fn a_config_dropped_on_the_box_becomes_the_custom_model() {
    let _h = fresh().await;
    let config = include_str!("configs/llama-3.1-8b.json");
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(config));
    let file = web_sys::File::new_with_str_sequence(&parts, "config.json").unwrap_or_else(|_| panic!("file"));
    let dt = web_sys::DataTransfer::new().unwrap_or_else(|_| panic!("data transfer"));
    let _ = dt.items().add_with_file(&file);
    let init = web_sys::DragEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_data_transfer(Some(&dt));
    let ev = web_sys::DragEvent::new_with_event_init_dict("drop", &init).unwrap_or_else(|_| panic!("drop event"));
    let _ = by_testid("config-text").dispatch_event(&ev);
    sleep(150).await;
    settle().await;
    assert_eq!(by_testid("model").unchecked_ref::<web_sys::HtmlSelectElement>().value(), "custom");
    let expected =
        gpu_planner::domain::config::read_config(config).unwrap_or_else(|e| panic!("{e}")).model.computed_params();
    assert_eq!(text("params"), format!("{:.2} B", expected.total / 1e9));
}

/// Hands `text` to the import input as a chosen file and waits for it to be read.
async fn import_file(text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let file = web_sys::File::new_with_str_sequence(&parts, "export.json").unwrap_or_else(|_| panic!("file"));
    let dt = web_sys::DataTransfer::new().unwrap_or_else(|_| panic!("data transfer"));
    let _ = dt.items().add_with_file(&file);
    let input: web_sys::HtmlInputElement = by_testid("sc-import").unchecked_into();
    let before = all("[data-testid='saved-list'] li").len();
    input.set_files(dt.files().as_ref());
    fire(&input, "change");
    // The file is read asynchronously: wait (up to 5 s, a loaded machine is slow) until the list
    // grows, rather than a fixed pause that a busy CI machine can outrun.
    for _ in 0..100 {
        sleep(50).await;
        settle().await;
        if all("[data-testid='saved-list'] li").len() > before {
            break;
        }
    }
}

#[wasm_bindgen_test]
async fn imported_scenarios_get_their_own_ids_and_a_delete_can_be_undone() {
    let _h = fresh().await;
    let alpha = Scenario { name: "alpha".into(), ..Scenario::default() };
    let beta = Scenario { name: "beta".into(), task: Task::Inference, ..Scenario::default() };
    // An export of two saved scenarios, imported twice: the same ids arrive twice over.
    let export = serde_json::json!([
        { "id": 7, "name": "alpha", "scenario": alpha },
        { "id": 8, "name": "beta", "scenario": beta },
    ])
    .to_string();
    import_file(&export).await;
    import_file(&export).await;
    let rows = all("[data-testid='saved-list'] li");
    assert_eq!(rows.len(), 4, "{}", text("saved-list"));
    let boxes = all("[data-testid='saved-list'] li input[type='checkbox']");
    tick(&boxes[0], true);
    settle().await;
    let checked = |b: &web_sys::Element| b.unchecked_ref::<web_sys::HtmlInputElement>().checked();
    assert_eq!(all("[data-testid='saved-list'] li input[type='checkbox']").iter().filter(|b| checked(b)).count(), 1);
    let boxes = all("[data-testid='saved-list'] li input[type='checkbox']");
    tick(&boxes[1], true);
    settle().await;
    assert_eq!(by_testid("compare").query_selector_all("thead th").map(|l| l.length()).unwrap_or(0), 3);
    // Delete the first one: only it goes, and an undo link brings it back.
    let delete: web_sys::HtmlElement = all("[data-testid='saved-list'] li button:last-of-type")
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a delete button"))
        .unchecked_into();
    delete.click();
    settle().await;
    assert_eq!(all("[data-testid='saved-list'] li").len(), 3, "{}", text("saved-list"));
    click("sc-undo");
    settle().await;
    assert_eq!(all("[data-testid='saved-list'] li").len(), 4, "{}", text("saved-list"));
    assert!(text("saved-list").starts_with("alpha"), "restored in place: {}", text("saved-list"));
}

#[wasm_bindgen_test]
async fn a_custom_card_added_after_a_removal_is_ranked() {
    let _h = fresh().await;
    for name in ["Card A", "Card B"] {
        type_into("cc-name", name);
        click("cc-add");
        settle().await;
    }
    let remove_first: web_sys::HtmlElement =
        all("details.custom-card li button").into_iter().next().unwrap_or_else(|| panic!("remove")).unchecked_into();
    remove_first.click();
    settle().await;
    type_into("cc-name", "Card C");
    click("cc-add");
    settle().await;
    click("show-all"); // custom cards without a price rank below the top ten
    settle().await;
    let ranking = text("ranking");
    assert!(!ranking.contains("Card A"), "{ranking}");
    assert!(ranking.contains("Card B") && ranking.contains("Card C"), "both custom cards are ranked: {ranking}");
}

#[wasm_bindgen_test]
async fn a_custom_model_shows_the_structure_it_copied_and_keeps_none_hidden() {
    let _h = fresh().await;
    choose("model", "deepseek-v3");
    settle().await;
    choose("model", "custom");
    settle().await;
    // DeepSeek-V3's MoE and MLA come along, in plain sight.
    let moe = by_testid("m-moe");
    assert!(moe.unchecked_ref::<web_sys::HtmlInputElement>().checked());
    assert_eq!(by_testid("m-experts").unchecked_ref::<web_sys::HtmlInputElement>().value(), "256");
    let mla = by_testid("m-mla");
    assert!(mla.unchecked_ref::<web_sys::HtmlInputElement>().checked());
    // A dense 24B (Mistral-Small-24B's shape): switch the structure off and type the dimensions.
    tick(&moe, false);
    tick(&mla, false);
    settle().await;
    assert!(find("m-experts").is_none() && find("m-kv-rank").is_none(), "no field of a switched-off part is left");
    for (id, v) in [("m-layers", "40"), ("m-hidden", "5120"), ("m-ffn", "32768"), ("m-heads", "32"), ("m-kv", "8")] {
        type_into(id, v);
    }
    type_into("m-head-dim", "128");
    type_into("m-vocab", "131072");
    settle().await;
    let dense = gpu_planner::domain::ModelSpec {
        layers: 40,
        hidden: 5120,
        intermediate: 32768,
        heads: 32,
        kv_heads: 8,
        head_dim: Some(128),
        vocab: 131_072,
        ..Default::default()
    };
    let expected = dense.computed_params().total;
    assert!((expected / 1e9 - 23.57).abs() < 0.01, "{expected}");
    assert_eq!(text("params"), format!("{:.2} B", expected / 1e9));
}

/// A card with a purchase price but no rental price: the breakeven says the rental price is
/// missing, never "never".
#[wasm_bindgen_test]
async fn without_a_rental_price_the_breakeven_says_so_instead_of_never() {
    clear_storage();
    // Whichever card the catalog prices for purchase only (the largest such, so it fits).
    let c = Catalog::embedded();
    let has = |id: &str, kinds: &[&str]| c.prices.iter().any(|p| p.gpu == id && kinds.contains(&p.kind.as_str()));
    let id = c
        .gpus
        .iter()
        .filter(|g| has(&g.id, &["purchase"]) && !has(&g.id, &["rent_hourly", "rent_monthly"]))
        .filter(|g| g.bf16_tflops.is_some())
        .max_by(|a, b| a.memory_gb.unwrap_or(0.0).total_cmp(&b.memory_gb.unwrap_or(0.0)))
        .map(|g| g.id.clone())
        .unwrap_or_else(|| panic!("no card has a purchase price without a rental price"));
    let s = Scenario {
        cards: gpu_planner::domain::scenario::CardFilter { only: vec![id.clone()], ..Default::default() },
        ownership: gpu_planner::domain::scenario::Ownership { gpu: id, ..Default::default() },
        ..Scenario::default()
    };
    set_query(&format!("?s={}", share::encode(&s)));
    let _h = mount().await;
    settle().await;
    let shown = text("rvb-figures");
    assert!(!shown.contains("never") && !shown.contains("不会"), "{shown}");
    assert!(shown.contains("no rental price known") || shown.contains("无租用价格"), "{shown}");
}

#[wasm_bindgen_test]
async fn switching_the_market_changes_a_rows_cost_and_shows_its_source_and_date() {
    clear_storage();
    let s = Scenario {
        cards: gpu_planner::domain::scenario::CardFilter { only: vec!["l40s".into()], ..Default::default() },
        ..Scenario::default()
    };
    set_query(&format!("?s={}", share::encode(&s)));
    let _h = mount().await;
    settle().await;
    let before = text("card-l40s");
    choose("market", "hyperscaler");
    settle().await;
    let after = text("card-l40s");
    assert_ne!(before, after, "the market changes the row");
    let mut t = s.clone();
    t.money.rent_market = "hyperscaler".into();
    let c = plan(&t, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}")).cards.remove(0);
    let cost = format::money(c.cost.unwrap_or(f64::NAN), t.money.currency);
    assert!(after.contains(&cost), "{cost} in {after}");
    // The hyperscaler price is more than 12 months old at the catalog's date: said beside it.
    assert!(after.contains("price from 2025-08") || after.contains("价格来自 2025-08"), "date and flag: {after}");
    let href = by_testid("card-l40s")
        .query_selector("a[href]")
        .ok()
        .flatten()
        .and_then(|a| a.get_attribute("href"))
        .unwrap_or_default();
    assert!(href.contains("modal.com"), "the price's source: {href}");
}

/// Choosing a training framework changes the memory and names the framework in "how this was
/// computed"; editing one switch turns the choice into custom switches (the fused-kernel switch
/// changes the time and the explanation); the accuracy section
/// lists its cases when opened; the framework travels in the share link.
#[wasm_bindgen_test]
async fn the_framework_choice_changes_the_numbers_and_travels_in_the_link() {
    let _h = fresh().await;
    open_first_card();
    settle().await;
    let total = || text("memory-total");
    choose("framework", "deep_speed");
    settle().await;
    let deepspeed = total();
    choose("framework", "torchtune");
    settle().await;
    assert_ne!(total(), deepspeed, "torchtune's pure-bf16 states are smaller");
    assert!(text("explain").contains("torchtune"), "the explanation names the framework");
    let search = address().await;
    let s = share::decode(&search).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.training.framework, gpu_planner::domain::framework::Framework::Torchtune);
    // torchtune runs eager PyTorch: its norms, rotary embedding and SwiGLU cost time until the
    // fused-kernel switch (torch.compile) is ticked, and the switch travels in the link.
    let eager = text("explain");
    assert!(eager.contains("eager PyTorch kernels"), "{eager}");
    tick(&by_testid("cv-fused-kernels"), true);
    settle().await;
    let fused = text("explain");
    assert!(!fused.contains("eager PyTorch kernels") && fused != eager, "{fused}");
    let search = address().await;
    assert!(share::decode(&search).unwrap_or_else(|e| panic!("{e}")).training.conventions.fused_kernels);
    // The MoE dispatcher switch (DeepEP's once-per-node sends) travels in the link too.
    tick(&by_testid("cv-dedup-dispatch"), true);
    settle().await;
    let search = address().await;
    assert!(share::decode(&search).unwrap_or_else(|e| panic!("{e}")).training.conventions.dedup_dispatch);
    tick(&by_testid("cv-dropout"), true);
    settle().await;
    let sel: web_sys::HtmlSelectElement = by_testid("framework").unchecked_into();
    assert_eq!(sel.value(), "custom");
    let (within, counted, _) = gpu_planner::domain::accuracy::SCORE; // within, all rows
    assert!(text("accuracy-score").starts_with(&format!("{within} / {counted}")), "{}", text("accuracy-score"));
    assert_eq!(by_testid("accuracy-link").get_attribute("href").as_deref(), Some("accuracy.html"));
}

/// Lowercase English words (three letters or more) in Chinese text; identifiers, file names and
/// units written with digits, dots, underscores or hyphens are not words, and card names are names.
fn english_words(s: &str) -> Vec<String> {
    const ALLOWED: &[&str] =
        &["token", "tokens", "tok", "logits", "torchtune", "ffn", "flash", "attention", "min", "pin"];
    // Links (a price's or lead time's source) are addresses, not words.
    let mut s: String = s.split_whitespace().filter(|w| !w.contains("://")).collect::<Vec<_>>().join(" ");
    for g in &Catalog::embedded().gpus {
        s = s.replace(&g.name, " ");
    }
    let mut out: Vec<String> = s
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_lowercase()) && !ALLOWED.contains(w))
        .map(str::to_string)
        .collect();
    out.sort();
    out.dedup();
    out
}

async fn to_zh() {
    let zh =
        || document().document_element().and_then(|e| e.get_attribute("lang")).is_some_and(|l| l.starts_with("zh"));
    if !zh() {
        click("lang");
        settle().await;
    }
    assert!(zh(), "the page switched to Chinese");
}

/// The Chinese page says things as a person would: card names in the summary (never catalog
/// ids), what the page covers under the task select, no English words in the results. Serving
/// (below) is ranked by throughput, not time, and its layout carries no training terms.
#[wasm_bindgen_test]
async fn the_chinese_page_names_cards_and_says_what_it_covers() {
    let _h = fresh().await;
    to_zh().await;
    open_first_card();
    settle().await;
    let summary = text("summary");
    for g in Catalog::embedded().gpus.iter().filter(|g| g.id.contains('-')) {
        assert!(!summary.contains(&g.id), "catalog id {} in the summary: {summary}", g.id);
    }
    // Cards left out are named, in the names Chinese buyers use (catalog `name_zh`).
    assert!(summary.contains("寒武纪思元 590"), "cards left out are named: {summary}");
    let ascend = text("card-huawei-ascend-910b3");
    assert!(ascend.contains("华为昇腾 910B3"), "the ranking names the card in Chinese: {ascend}");
    // So do the card pickers (your benchmark's card, your price quotes).
    for picker in ["bench-gpu", "ov-card"] {
        let options = by_testid(picker).text_content().unwrap_or_default();
        assert!(options.contains("华为昇腾 910B3") && options.contains("NVIDIA H100"), "{picker}: {options}");
    }
    let scope = text("task-scope");
    assert!(scope.contains("语言模型") && scope.contains("语音"), "{scope}");
    for id in ["summary", "ranking", "explain", "rvb", "infra", "checklist"] {
        let words = english_words(&text(id));
        assert!(words.is_empty(), "English words in the Chinese {id}: {words:?}");
    }
}

#[wasm_bindgen_test]
async fn serving_is_ranked_by_throughput_with_no_training_terms() {
    let _h = fresh().await;
    to_zh().await;
    choose("task", "inference");
    settle().await;
    open_first_card();
    settle().await;
    let head = text("sort-Time");
    assert!(head.contains("吞吐量") && !head.contains("时间"), "serving is ranked by throughput: {head}");
    let ranking = text("ranking");
    assert!(!ranking.contains("ZeRO") && !ranking.contains("重算"), "serving layout has no training terms: {ranking}");
    for id in ["summary", "ranking", "explain"] {
        let words = english_words(&text(id));
        assert!(words.is_empty(), "English words in the Chinese serving {id}: {words:?}");
    }
    click("lang");
    settle().await;
    assert!(text("sort-Time").contains("Throughput"), "{}", text("sort-Time"));
}

/// A CV team picks "object detection (YOLO)", sets 1280-pixel images, batch 16 and 100k images ×
/// 100 epochs, and reads which cards fit, the time and the cost; then serving: images/s and
/// latency per card. The language-model inputs are out of the way; the link carries the job.
#[wasm_bindgen_test]
async fn a_vision_job_gets_fit_time_cost_and_serving_speed() {
    let _h = fresh().await;
    choose("model", "yolov8x");
    settle().await;
    let groups: Vec<String> =
        all("[data-testid=model] optgroup").iter().filter_map(|g| g.get_attribute("label")).collect();
    assert!(groups.iter().any(|g| g.contains("YOLO")), "{groups:?}");
    type_into("v-res", "1280");
    type_into("v-batch", "16");
    type_into("v-dataset", "100000");
    type_into("v-epochs", "100");
    frames().await;
    let mut s = Scenario { model: "yolov8x".into(), ..Scenario::default() };
    s.vision.resolution = 1280;
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let first = &r.cards[0];
    assert!(first.fits && first.hours.is_some() && first.cost.is_some());
    let row = text(&format!("card-{}", first.gpu));
    let hours = format::hours(first.hours.unwrap_or(0.0), format::Lang::En);
    assert!(row.contains(&hours) && row.contains("img/s"), "{row} lacks {hours}");
    // The sequence-length field and the parallel layout panel are hidden for a vision job; the
    // procurement checklist follows the best card; the auto-plan searches card counts.
    assert!(hidden("seq"), "LLM fields hidden");
    sleep(400).await;
    assert!(text("checklist").contains(&first.name), "checklist for {}", first.name);
    assert!(find("search-summary").is_some() && find("per-card").is_some(), "{}", text("autoplan"));
    choose("task", "inference");
    type_into("v-rate", "200");
    type_into("v-latency", "100");
    frames().await;
    s.task = Task::Inference;
    s.vision.rate = 200.0;
    s.vision.latency_ms = 100.0;
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let top = r.cards[0].gpu.clone();
    let row = text(&format!("card-{top}"));
    assert!(row.contains("img/s") && row.contains(" ms") && row.contains("per M images"), "{row}");
    let link = linked().await;
    assert_eq!((link.model.as_str(), link.vision.resolution, link.vision.rate), ("yolov8x", 1280, 200.0));
    click("lang");
    settle().await;
    assert!(text(&format!("card-{top}")).contains("张/秒"));
    click("lang");
    settle().await;
}

/// A team training ResNet-50 in PyTorch's default NCHW says so: every card's time follows the
/// slower format (NVIDIA's figures ran NHWC), the link keeps the choice, and the select is out of
/// the way for a model with no measured pair (YOLO).
#[wasm_bindgen_test]
async fn a_cnn_jobs_memory_format_changes_its_time_and_travels_in_the_link() {
    let _h = fresh().await;
    choose("model", "yolov8x");
    settle().await;
    assert!(hidden("v-format"), "no pair for YOLO: hidden");
    choose("model", "resnet50");
    settle().await;
    assert!(!hidden("v-format"), "shown for ResNet-50");
    let mut s = Scenario { model: "resnet50".into(), ..Scenario::default() };
    let before = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    choose("v-format", "nchw");
    frames().await;
    s.vision.memory_format = Some(gpu_planner::domain::vision::MemoryFormat::Nchw);
    let after = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    // The first ranked card on the page whose speed was carried from an NHWC figure.
    let card = after
        .cards
        .iter()
        .find(|c| {
            c.vision.as_ref().is_some_and(|v| v.basis.layout.is_some()) && find(&format!("card-{}", c.gpu)).is_some()
        })
        .expect("a shown card carried across formats");
    let was = before.cards.iter().find(|c| c.gpu == card.gpu).and_then(|c| c.hours).unwrap_or(0.0);
    let hours = card.hours.unwrap_or(0.0);
    assert!(hours > was * 1.3, "NCHW is slower on {}: {was} h -> {hours} h", card.gpu);
    row_shows_hours(&card.gpu, hours);
    assert_eq!(linked().await.vision.memory_format, s.vision.memory_format);
    let field = label_in_zh("v-format").await;
    assert!(field.contains("内存布局") && field.contains("NCHW（PyTorch 默认）"), "{field}");
}

/// A team serving SAM with its own (eager) code says so: the memory on the page becomes the
/// eager scores' size the engine computes, the link keeps the choice, and the box is out of the
/// way for a model without global attention (YOLO) and for training.
#[wasm_bindgen_test]
async fn serving_sam_with_eager_attention_sizes_its_scores_and_travels_in_the_link() {
    let _h = fresh().await;
    choose("model", "yolov8x");
    choose("task", "inference");
    settle().await;
    assert!(hidden("v-eager"), "YOLO: hidden");
    choose("model", "sam-vit-h-encoder");
    settle().await;
    assert!(!hidden("v-eager"), "SAM serving: shown");
    let fused = text("memory-total");
    tick(&by_testid("v-eager"), true);
    frames().await;
    let mut s = linked().await;
    assert!(!s.training.flash_attention, "the link says eager");
    let r = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(text("memory-total"), format::gib(r.memory_single.total));
    assert_ne!(text("memory-total"), fused, "eager changes the memory shown");
    s.training.flash_attention = true;
    let was = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(fused, format::gib(was.memory_single.total));
    let field = label_in_zh("v-eager").await;
    assert!(field.contains("注意力"), "{field}");
    choose("task", "pretrain");
    settle().await;
    assert!(hidden("v-eager"), "training: hidden");
}

/// The card's row on the page shows `hours` as the page words them in English.
fn row_shows_hours(gpu: &str, hours: f64) {
    let row = text(&format!("card-{gpu}"));
    let shown = format::hours(hours, format::Lang::En);
    assert!(row.contains(&shown), "{row} lacks {shown}");
}

/// The address bar is written after the paint, with the last of the changes made before it: the
/// answer on screen does not wait for `history.replaceState` (src/web/url.rs).
#[wasm_bindgen_test]
async fn the_address_follows_the_last_change_after_the_paint() {
    let _h = fresh().await;
    type_into("seq", "8192");
    settle().await;
    let first = address().await;
    assert_eq!(share::decode(&first).map(|s| s.training.seq_len).ok(), Some(8192), "{first}");
    type_into("seq", "12288");
    type_into("seq", "16384");
    settle().await;
    // Before the paint the address still holds the link written last.
    assert_eq!(window().location().search().unwrap_or_default(), first, "written before the paint");
    let last = address().await;
    assert_eq!(share::decode(&last).map(|s| s.training.seq_len).ok(), Some(16384), "{last}");
}

/// The scenario the page's address holds now (its share link).
async fn linked() -> Scenario {
    gpu_planner::domain::share::decode(&address().await).unwrap_or_else(|e| panic!("{e}"))
}

/// The label of the field `testid` as the Chinese page words it (switched there and back).
async fn label_in_zh(testid: &str) -> String {
    to_zh().await;
    let field = by_testid(testid).closest("label").ok().flatten().and_then(|l| l.text_content()).unwrap_or_default();
    click("lang");
    settle().await;
    field
}

/// A team training ResNet-50 in PyTorch says so: cards whose nearest figure was NVIDIA's
/// TensorFlow + XLA one take a PyTorch row instead, the row shows the new time, the link keeps
/// the choice, and the select is out of the way where the model was measured on one engine only.
#[wasm_bindgen_test]
async fn a_vision_jobs_engine_picks_its_rows_and_travels_in_the_link() {
    use gpu_planner::domain::vision::{self, Engine};
    let _h = fresh().await;
    choose("model", "yolov8x");
    settle().await;
    let yolo = vision::model("yolov8x").expect("yolov8x");
    let task = Scenario::default().task;
    assert!(vision::engines(yolo, task).len() < 2, "one engine for YOLOv8x");
    assert!(hidden("v-engine"), "hidden for YOLOv8x");
    choose("model", "resnet50");
    settle().await;
    assert!(!hidden("v-engine"), "shown for ResNet-50");
    let mut s = Scenario { model: "resnet50".into(), ..Scenario::default() };
    let before = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    choose("v-engine", "pytorch");
    frames().await;
    s.vision.engine = Some(Engine::Pytorch);
    let after = plan(&s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let engine = |c: &gpu_planner::domain::CardVerdict| c.vision.as_ref().and_then(|v| v.basis.engine);
    // A shown card whose figure moved from TensorFlow to PyTorch.
    let card = after
        .cards
        .iter()
        .filter(|c| engine(c) == Some(Engine::Pytorch) && find(&format!("card-{}", c.gpu)).is_some())
        .find(|c| before.cards.iter().any(|b| b.gpu == c.gpu && engine(b) == Some(Engine::Tensorflow)))
        .expect("a shown card that moved to a PyTorch row");
    let was = before.cards.iter().find(|c| c.gpu == card.gpu).and_then(|c| c.hours).unwrap_or(0.0);
    let hours = card.hours.unwrap_or(0.0);
    assert!((hours - was).abs() > 0.01 * was, "{}: {was} h -> {hours} h", card.gpu);
    row_shows_hours(&card.gpu, hours);
    assert_eq!(linked().await.vision.engine, Some(Engine::Pytorch));
    let field = label_in_zh("v-engine").await;
    assert!(field.contains("框架") && field.contains("TensorFlow"), "{field}");
}

/// The Beijing team's first step: measure on one card, then see every card re-predicted from
/// that measurement, each time marked as calibrated on it.
#[wasm_bindgen_test]
async fn a_typed_benchmark_recalibrates_every_card() {
    let _h = fresh().await;
    let cell = |id: &str| {
        document()
            .query_selector(&format!("[data-testid=card-{id}] td:nth-child(6)"))
            .ok()
            .flatten()
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    // Two ranked cards with a training time: the benchmark goes on the second, the first follows.
    let ids: Vec<String> = all("tr[data-testid^=card-]")
        .iter()
        .filter_map(|e| e.get_attribute("data-testid"))
        .map(|t| t.trim_start_matches("card-").to_string())
        .filter(|id| cell(id).contains(" h") || cell(id).contains("day"))
        .take(2)
        .collect();
    assert_eq!(ids.len(), 2, "two timed rows");
    let (other, bench) = (&ids[0], &ids[1]);
    let before = cell(other);
    assert!(!before.contains("calibrated"), "{before}");
    let name = Catalog::embedded().gpu(bench).map(|g| g.name.clone()).unwrap_or_default();
    choose("bench-gpu", bench);
    type_into("bench-tokens", "300");
    settle().await;
    let after = cell(other);
    assert_ne!(before, after, "{other}'s time follows the {bench} measurement");
    assert!(after.contains(&format!("calibrated on your {name}")), "{after}");
    assert!(cell(bench).contains(&format!("calibrated on your {name}")), "{}", cell(bench));
    let s = share::decode(&address().await).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.efficiency.benchmark.map(|b| b.gpu).as_deref(), Some(bench.as_str()), "the link keeps it");
    type_into("bench-tokens", "");
    settle().await;
    assert_eq!(cell(other), before, "clearing the speed removes the calibration");
}

/// Every element id on the page is unique (a label's `for` must find its own field): with the
/// serving panel open beside the money fields, the CNY-per-USD field and the request rate once
/// shared `f-rate`.
#[wasm_bindgen_test]
async fn every_id_on_the_page_is_unique() {
    let _h = fresh().await;
    choose("task", "inference");
    settle().await;
    frames().await;
    let ids: Vec<String> = all("[id]").iter().map(web_sys::Element::id).collect();
    assert!(ids.iter().any(|i| i == "f-rate"), "the request-rate field is on the page: {ids:?}");
    let mut seen: Vec<&String> = Vec::new();
    for id in &ids {
        assert!(!seen.contains(&id), "id `{id}` appears twice");
        seen.push(id);
    }
}

/// An embedded view neither shows nor overwrites the reader's own work: it opens its link (or
/// the default), keeps storage as it was when its inputs change, and so never reports a storage
/// problem in the wiki page.
#[wasm_bindgen_test]
async fn the_embedded_view_leaves_the_readers_saved_work_alone() {
    clear_storage();
    let mine = Scenario { model: "llama-3.1-70b".into(), ..Scenario::default() };
    gpu_planner::web::storage::save(&mine).unwrap_or_else(|e| panic!("{e:?}"));
    let stored = || {
        window()
            .local_storage()
            .ok()
            .flatten()
            .and_then(|st| st.get_item(gpu_planner::web::storage::CURRENT_KEY).ok().flatten())
    };
    let before = stored();
    set_query("?embed=1");
    let _h = mount().await;
    type_into("seq", "2048");
    frames().await;
    assert_eq!(stored(), before, "the embedded view wrote the reader's working scenario");
    assert!(find("storage-status").is_none());
    let model: web_sys::HtmlSelectElement = by_testid("model").unchecked_into();
    assert_eq!(model.value(), Scenario::default().model, "the embedded view opened the reader's own scenario");
}

/// The data-loss story of the page-defects issue: save a 32B plan, switch to a 70B LoRA under
/// the inherited name, save again. Both plans are kept (the second as "my plan (2)", said so),
/// and "replace instead" puts the LoRA into the first entry on request.
#[wasm_bindgen_test]
async fn saving_under_a_taken_name_keeps_both_and_replaces_only_on_request() {
    let _h = fresh().await;
    choose("model", "qwen2.5-32b");
    type_into("sc-name", "my plan");
    settle().await;
    click("sc-save");
    settle().await;
    assert!(text("sc-saved").contains("“my plan”"), "{}", text("sc-saved"));
    choose("model", "llama-3.1-70b");
    choose("task", "lora");
    settle().await;
    click("sc-save");
    frames().await;
    let rows = all("[data-testid='saved-list'] li");
    assert_eq!(rows.len(), 2, "{}", text("saved-list"));
    assert!(text("sc-saved").contains("my plan (2)"), "{}", text("sc-saved"));
    let stored: Vec<gpu_planner::domain::saved::Saved> =
        gpu_planner::web::storage::load_saved().map(|(l, _)| l).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(stored[0].scenario.model, "qwen2.5-32b", "the 32B plan was overwritten");
    assert_eq!((stored[1].name.as_str(), stored[1].scenario.task), ("my plan (2)", Task::Lora));
    click("sc-replace");
    frames().await;
    let stored: Vec<gpu_planner::domain::saved::Saved> =
        gpu_planner::web::storage::load_saved().map(|(l, _)| l).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(stored.len(), 1);
    assert_eq!((stored[0].name.as_str(), stored[0].scenario.model.as_str()), ("my plan", "llama-3.1-70b"));
    let name: web_sys::HtmlInputElement = by_testid("sc-name").unchecked_into();
    assert_eq!(name.value(), "my plan");
}

/// A new scenario has no name of its own: the page shows and saves it as its model and task in
/// the reader's language (the Chinese page once offered "Qwen2.5-7B full fine-tune"), and a
/// second unnamed plan is filed under its own model, not as a copy of the first's name.
#[wasm_bindgen_test]
async fn an_unnamed_scenario_is_saved_under_its_model_and_task_in_the_page_language() {
    let _h = fresh().await;
    click("lang");
    settle().await;
    let name: web_sys::HtmlInputElement = by_testid("sc-name").unchecked_into();
    assert_eq!((name.value().as_str(), name.placeholder().as_str()), ("", "Qwen2.5 7B 全参数微调"));
    click("sc-save");
    settle().await;
    choose("model", "llama-3.1-70b");
    choose("task", "lora");
    settle().await;
    assert!(name.placeholder().ends_with(" LoRA") && name.placeholder().contains("70B"), "{}", name.placeholder());
    click("sc-save");
    frames().await;
    let stored: Vec<gpu_planner::domain::saved::Saved> =
        gpu_planner::web::storage::load_saved().map(|(l, _)| l).unwrap_or_else(|e| panic!("{e:?}"));
    let names: Vec<&str> = stored.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(names[0], "Qwen2.5 7B 全参数微调");
    assert_eq!(names[1], name.placeholder(), "{names:?}");
    click("lang");
}

/// A model the page cannot plan for the task shows why and no figures: the previous model's
/// table once stayed on screen under the new model's name. Picking a plannable model brings the
/// answer back.
#[wasm_bindgen_test]
async fn a_refused_plan_leaves_no_stale_table() {
    let _h = fresh().await;
    frames().await;
    assert!(find("ranking").is_some() && find("summary").is_some());
    choose("model", "sdxl");
    choose("task", "qlora");
    frames().await;
    let e = text("plan-error");
    assert!(e.contains("QLoRA") && e.contains("Stable Diffusion XL"), "{e}");
    let shown = |id: &str| find(id).is_some_and(|t| t.closest("[hidden]").ok().flatten().is_none());
    assert!(!shown("ranking"), "no table of the previous model");
    assert!(find("summary").is_none(), "no summary of the previous model");
    choose("model", "qwen2.5-7b");
    frames().await;
    assert!(find("plan-error").is_none());
    assert!(shown("ranking") && find("summary").is_some());
}

/// Opening a saved scenario after picking other values by hand shows the opened scenario's task
/// and model in their selects (they once kept the hand-picked ones beside the opened results).
#[wasm_bindgen_test]
async fn opening_a_saved_scenario_updates_every_select() {
    let _h = fresh().await;
    choose("task", "pretrain");
    choose("model", "qwen2.5-32b");
    choose("precision", "fp8");
    type_into("sc-name", "pretrain 32B");
    settle().await;
    click("sc-save");
    settle().await;
    choose("task", "lora");
    choose("model", "llama-3.1-70b");
    choose("precision", "bf16");
    settle().await;
    click("sc-open");
    frames().await;
    let value = |id: &str| by_testid(id).unchecked_ref::<web_sys::HtmlSelectElement>().value();
    assert_eq!(value("task"), "pretrain");
    assert_eq!(value("model"), "qwen2.5-32b");
    assert_eq!(value("precision"), "fp8");
    // Qwen2.5-32B has 32.5 B parameters (its model card), Llama 3.1 70B 70.6 B.
    assert!(text("params").starts_with("32."), "{}", text("params"));
}

/// The comparison shows each scenario's own chosen card (its purchase card, not the cost-first
/// one), its task and what buying it costs; an import says how many scenarios it added.
#[wasm_bindgen_test]
async fn compare_shows_the_chosen_card_task_and_purchase_and_import_confirms() {
    let _h = fresh().await;
    let mut chosen = Scenario { name: "on A100".into(), ..Scenario::default() };
    chosen.ownership.gpu = "a100-80gb-sxm4".into();
    let serve = Scenario {
        name: "serve 72B".into(),
        task: Task::Inference,
        model: "qwen2.5-72b".into(),
        ..Scenario::default()
    };
    let export = serde_json::json!([
        { "id": 1, "name": "on A100", "scenario": chosen },
        { "id": 2, "name": "serve 72B", "scenario": serve },
    ])
    .to_string();
    import_file(&export).await;
    assert!(text("sc-imported").contains("Imported 2 scenario"), "{}", text("sc-imported"));
    for b in all("[data-testid='saved-list'] li input[type='checkbox']") {
        tick(&b, true);
    }
    settle().await;
    let table = text("compare");
    let r = plan(&chosen, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
    let h100 = r.cards.iter().find(|c| c.gpu == "a100-80gb-sxm4").unwrap_or_else(|| panic!("a100"));
    let row = |head: &str| -> Vec<String> {
        all("[data-testid='compare'] tbody tr")
            .into_iter()
            .find(|r| r.query_selector("th").ok().flatten().and_then(|h| h.text_content()).as_deref() == Some(head))
            .map(|r| all_in(&r, "td"))
            .unwrap_or_default()
    };
    assert_eq!(
        row("Card").first().cloned(),
        Some(format!("{} × {}", h100.name, h100.gpus)),
        "the chosen card: {table}"
    );
    assert!(table.contains("Full fine-tune"), "the task row: {table}");
    assert!(table.contains("Inference") && table.contains("Output tokens/s"), "serving: {table}");
    assert!(table.contains("Hardware up front"), "{table}");
}

/// "预算只有5万内，但想跑7B模型微调": on a fresh page a 7B LoRA with a ¥50,000 budget lists a
/// one-card RTX 4090 workstation to buy; the purchase is priced as a workstation and says so;
/// "my own figures" opens the host fields at the figures used.
#[wasm_bindgen_test]
async fn fifty_thousand_yuan_buys_a_workstation_on_the_page() {
    let _h = fresh().await;
    choose("task", "lora");
    choose("model", "qwen2.5-7b");
    type_into("own-budget", "50000");
    frames().await;
    let budget = text("budget");
    assert!(budget.contains("GeForce RTX 4090 24GB × 1: buy ¥"), "{budget}");
    // The direct answer: a purchase, a rental and a mix, each with its figures.
    let answer = text("budget-answer");
    assert!(
        answer.contains("Buy: NVIDIA GeForce") && answer.contains("runs for ¥50,000") && answer.contains("Mix: buy"),
        "{answer}"
    );
    choose("own-gpu", "rtx-4090");
    frames().await;
    let line = text("own-host");
    assert!(
        line.starts_with("workstation for NVIDIA GeForce RTX 4090 24GB: host ¥18,000, network none, rack none"),
        "{line}"
    );
    let server: web_sys::HtmlElement = by_testid("own-server").unchecked_into();
    assert!(server.closest("div").ok().flatten().is_some_and(|d| d.has_attribute("hidden")), "host fields hidden");
    choose("own-profile", "custom");
    frames().await;
    let field: web_sys::HtmlInputElement = by_testid("own-server").unchecked_into();
    assert_eq!(field.value().replace(',', ""), "18000");
    assert!(field.closest("div[hidden]").ok().flatten().is_none(), "host fields shown");
}

/// The page index (issue 29 item 10): every link names a section that is on the page once the
/// lower panels have mounted; serving appears for inference only; the embedded view has no
/// scenarios link (it has no scenarios panel).
#[wasm_bindgen_test]
async fn the_page_index_links_every_section() {
    let targets = || -> Vec<String> {
        let links = by_testid("page-index").query_selector_all("a").unwrap_or_else(|_| panic!("links"));
        (0..links.length())
            .filter_map(|i| links.item(i))
            .filter_map(|a| a.unchecked_into::<web_sys::Element>().get_attribute("href"))
            .collect()
    };
    let h = fresh().await;
    frames().await;
    settle().await;
    let t = targets();
    assert_eq!(t, ["#answer", "#autoplan", "#rent-buy", "#infra", "#accuracy", "#scenarios"]);
    for href in &t {
        assert!(document().get_element_by_id(&href[1..]).is_some(), "{href} is not on the page");
    }
    choose("task", "inference");
    frames().await;
    settle().await;
    assert!(targets().contains(&"#serving".to_string()) && document().get_element_by_id("serving").is_some());
    drop(h);
    set_query("?embed=1");
    let _h = mount().await;
    frames().await;
    assert!(!targets().contains(&"#scenarios".to_string()), "{:?}", targets());
}

/// Block recompute of some layers, typed under the manual layout: the field appears only with
/// full recompute, the row says how many layers it recomputes (not "full recompute"), and the
/// memory per card is more than with every layer recomputed.
#[wasm_bindgen_test]
async fn recomputing_some_layers_is_named_in_the_row_and_keeps_more_memory() {
    let _h = fresh().await;
    choose("model", "llama-3.1-8b");
    choose("task", "pretrain");
    tick(&by_testid("auto"), false);
    choose("recompute", "full");
    settle().await;
    // The first card of the ranking (its memory and layout are the plan's).
    let row = || {
        document()
            .query_selector("[data-testid=ranking] tbody tr")
            .ok()
            .flatten()
            .and_then(|r| r.text_content())
            .unwrap_or_default()
    };
    let all = row();
    assert!(all.contains("full recompute"), "{all}");
    type_into("recompute-layers", "8");
    settle().await;
    let some = row();
    assert!(some.contains("recompute 8 layers per stage") && !some.contains("full recompute"), "{some}");
    let gib = |s: &str| {
        let at = s.find(" GiB /").unwrap_or(0);
        s[..at].rsplit(|c: char| !(c.is_ascii_digit() || c == '.')).next().and_then(|x| x.parse::<f64>().ok())
    };
    assert!(gib(&some) > gib(&all), "{some} vs {all}");
    choose("recompute", "selective");
    settle().await;
    assert!(find("recompute-layers").is_none(), "the field belongs to full recompute");
}

/// The serving simulation's `ln`, `round` and `powf` (domain/serving/bound.rs) call the `libm`
/// crate in wasm so that the page's serving chunk holds them; std's versions there are the
/// toolchain's compiler-builtins copy of the same libm. Their answers must be std's to the bit, or
/// the page's serving figures would drift from before: checked over 200,000 arguments spread
/// over 40 orders of magnitude, the probabilities the random draws take, and the special values.
#[wasm_bindgen_test]
fn serving_float_calls_in_wasm_are_std_to_the_bit() {
    use gpu_planner::domain::serving::bound;
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut args = vec![0.0, -0.0, 0.5, -0.5, 1.5, 2.5, 1.0, f64::MIN_POSITIVE, f64::MAX, f64::INFINITY, f64::NAN];
    for _ in 0..100_000 {
        let u = next();
        args.push(u);
        args.push(10f64.powf(next() * 40.0 - 20.0) * if next() < 0.3 { -1.0 } else { 1.0 });
    }
    let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
    for &a in &args {
        assert!(same(bound::ln(a), a.ln()), "ln {a}");
        assert!(same(bound::round(a), a.round()), "round {a}");
        let y = a.abs().min(300.0);
        assert!(same(bound::powf(0.999, y), 0.999f64.powf(y)), "powf 0.999^{y}");
    }
}
