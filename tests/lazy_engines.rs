//! The page's own build (feature `split`) downloads the serving and the vision engines the first
//! time a scenario needs them (domain/error.rs `Engine`, src/web/lazy.rs): until then such a plan
//! says which engine it waits for instead of planning without it, and a language-model training
//! plan never waits. The other builds have both built in (every other test). Run by
//! scripts/test.sh with `--features split`.

use gpu_planner::domain::error::Engine;
use gpu_planner::domain::format::{plan_error, Lang};
use gpu_planner::domain::PlanError;

/// While an engine downloads, the page says which one, in either language (ui/app.rs shows it).
#[test]
fn a_waiting_plan_says_which_engine_in_both_languages() {
    let said = |e, l| plan_error(&PlanError::NotLoaded(e), l);
    assert_eq!(said(Engine::Serving, Lang::En), "the serving engine is not loaded yet");
    assert_eq!(said(Engine::Vision, Lang::En), "the vision, OCR and speech engine is not loaded yet");
    assert_eq!(said(Engine::Serving, Lang::Zh), "推理服务引擎尚未加载");
    assert_eq!(said(Engine::Vision, Lang::Zh), "视觉、OCR 与语音引擎尚未加载");
}

/// One test: an engine is installed once per process.
#[cfg(feature = "split")]
#[test]
fn a_plan_waits_for_the_engine_it_needs_and_a_training_plan_for_none() {
    use gpu_planner::domain::report::loaded;
    use gpu_planner::domain::scenario::Task;
    use gpu_planner::domain::{report, search, Catalog, Scenario};
    let cat = Catalog::embedded();
    let inference = Scenario { task: Task::Inference, ..Scenario::default() };
    let vision = Scenario { model: "resnet50".into(), ..Scenario::default() };
    assert!(!loaded(Engine::Serving) && !loaded(Engine::Vision));
    assert_eq!(report(&inference, cat).err(), Some(PlanError::NotLoaded(Engine::Serving)));
    assert_eq!(report(&vision, cat).err(), Some(PlanError::NotLoaded(Engine::Vision)));
    assert_eq!(search::search(&vision, cat).err(), Some(PlanError::NotLoaded(Engine::Vision)));
    let training = report(&Scenario::default(), cat).unwrap_or_else(|e| panic!("{e}"));
    assert!(!training.cards.is_empty() && training.cards.iter().all(|c| c.serving.is_none()));

    gpu_planner::domain::serving::install(gpu_planner::domain::serving::Entry::BUILT_IN);
    let served = report(&inference, cat).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        served.cards.iter().filter(|c| c.serving.is_some()).count() >= 10,
        "every fitting card gets a serving plan"
    );
    assert_eq!(
        report(&vision, cat).err(),
        Some(PlanError::NotLoaded(Engine::Vision)),
        "one engine does not bring the other"
    );

    gpu_planner::domain::report::install_vision(gpu_planner::domain::report::vision_report);
    search::install_vision(search::search_vision);
    let seen = report(&vision, cat).unwrap_or_else(|e| panic!("{e}"));
    assert!(seen.cards.iter().any(|c| c.hours.is_some()), "a vision training plan has times");
    assert!(!search::search(&vision, cat).unwrap_or_else(|e| panic!("{e}")).per_card.is_empty());
}
