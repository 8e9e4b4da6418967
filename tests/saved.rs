//! Saved scenarios as data: ids unique after saving, importing, duplicating and undoing a
//! delete; lists damaged by older imports are repaired; a delete takes one entry and can be undone.

use gpu_planner::domain::saved::{self, SaveOutcome, Saved, NAME_MAX_CHARS};
use gpu_planner::domain::scenario::Task;
use gpu_planner::domain::Scenario;

fn entry(id: u64, name: &str) -> Saved {
    Saved { id, name: name.into(), scenario: Scenario { name: name.into(), ..Scenario::default() } }
}

fn ids(list: &[Saved]) -> Vec<u64> {
    list.iter().map(|s| s.id).collect()
}

fn all_distinct(list: &[Saved]) -> bool {
    let mut v = ids(list);
    v.sort_unstable();
    v.dedup();
    v.len() == list.len()
}

fn export(list: &[Saved]) -> String {
    serde_json::to_string_pretty(list).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn importing_an_export_gives_every_entry_its_own_id() {
    let mut list = vec![
        entry(7, "alpha"),
        Saved { scenario: Scenario { task: Task::Inference, ..Scenario::default() }, ..entry(8, "beta") },
    ];
    let text = export(&list);
    let now = 1_000;
    let first = saved::import(&text, &list, now).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.len(), 2);
    list.extend(first);
    // The same file again, in the same millisecond.
    let second = saved::import(&text, &list, now).unwrap_or_else(|e| panic!("{e}"));
    list.extend(second);
    assert_eq!(list.len(), 6);
    assert!(all_distinct(&list), "{:?}", ids(&list));
    let names: Vec<&str> = list.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["alpha", "beta", "alpha (2)", "beta (2)", "alpha (3)", "beta (3)"]);
    assert_eq!(list[3].scenario.task, Task::Inference, "the scenario comes along");
    assert_eq!(list[3].scenario.name, "beta (2)");
}

#[test]
fn import_takes_a_single_scenario_and_refuses_garbage() {
    let one = serde_json::to_string(&Scenario { name: "solo".into(), ..Scenario::default() }).unwrap_or_default();
    let got = saved::import(&one, &[entry(5, "x")], 3).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((got.len(), got[0].name.as_str(), got[0].id), (1, "solo", 6));
    assert!(saved::import("not json", &[], 0).is_err());
    assert!(saved::import(r#"[{"name":"no scenario"}]"#, &[], 0).is_err());
    assert!(saved::import(r#"{"version": 99}"#, &[], 0).is_err(), "a newer schema is refused");
    assert!(saved::import(r#"{"training": {"seq_len": 0}}"#, &[], 0).is_err(), "an unusable scenario is refused");
}

#[test]
fn a_list_damaged_by_an_older_import_is_repaired() {
    let mut list = vec![entry(5, "a"), entry(5, "b"), entry(5, "c"), entry(9, "d")];
    assert_eq!(saved::make_ids_unique(&mut list, 0), 2);
    assert!(all_distinct(&list), "{:?}", ids(&list));
    assert_eq!(list[0].id, 5, "the first keeps its id");
    assert_eq!(list[3].id, 9);
}

#[test]
fn a_delete_takes_only_that_entry_and_undo_puts_it_back_in_place() {
    let mut list = vec![entry(1, "a"), entry(2, "b"), entry(3, "c")];
    let removed = saved::remove(&mut list, 2).unwrap_or_else(|| panic!("removed"));
    assert_eq!(ids(&list), [1, 3]);
    assert!(saved::remove(&mut list, 2).is_none());
    assert_eq!(saved::restore(&mut list, removed, 0), 2);
    assert_eq!(ids(&list), [1, 2, 3]);
    // An id taken meanwhile is not shared.
    let removed = saved::remove(&mut list, 3).unwrap_or_else(|| panic!("removed"));
    list.push(entry(3, "newcomer"));
    let id = saved::restore(&mut list, removed, 0);
    assert_ne!(id, 3);
    assert!(all_distinct(&list));
}

#[test]
fn a_duplicate_has_its_own_id_and_name_and_sits_after_the_original() {
    let mut list = vec![entry(10, "a"), entry(11, "b")];
    let d1 = saved::duplicate(&mut list, 10, 5).unwrap_or_else(|| panic!("dup"));
    let d2 = saved::duplicate(&mut list, 10, 5).unwrap_or_else(|| panic!("dup"));
    let d3 = saved::duplicate(&mut list, d1, 5).unwrap_or_else(|| panic!("dup"));
    assert!(all_distinct(&list), "{:?}", ids(&list));
    assert!(![d1, d2, d3].contains(&10));
    let names: Vec<&str> = list.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a", "a (3)", "a (2)", "a (4)", "b"]);
    assert!(list.iter().all(|s| s.scenario.name == s.name));
    assert!(saved::duplicate(&mut list, 999, 5).is_none());
}

/// The issue's story: a 32B plan saved, the model switched to a 70B LoRA, saved under the
/// inherited name. The 32B plan must survive; the 70B LoRA sits beside it; "replace instead"
/// puts it into the first entry; saving an unchanged scenario adds nothing.
#[test]
fn saving_never_overwrites_another_scenario_with_the_same_name() {
    let plan32 = Scenario { name: "my plan".into(), model: "qwen2.5-32b".into(), ..Scenario::default() };
    let mut list = Vec::new();
    assert_eq!(saved::save(&mut list, &plan32, 50), SaveOutcome::New(50));
    assert_eq!(saved::save(&mut list, &plan32, 60), SaveOutcome::Unchanged(50), "re-saving the same scenario");
    assert_eq!(list.len(), 1);
    let lora70 = Scenario { task: Task::Lora, model: "llama-3.1-70b".into(), ..plan32.clone() };
    let out = saved::save(&mut list, &lora70, 70);
    assert_eq!(out, SaveOutcome::Beside { id: 70, name: "my plan (2)".into(), kept: 50 });
    assert_eq!(list.len(), 2);
    assert_eq!((list[0].scenario.model.as_str(), list[0].scenario.task), ("qwen2.5-32b", Task::FullFinetune));
    assert_eq!((list[1].name.as_str(), list[1].scenario.name.as_str()), ("my plan (2)", "my plan (2)"));
    assert_eq!(list[1].scenario.task, Task::Lora);
    // Replace instead: the first entry takes the LoRA under its own name, the copy goes.
    saved::replace(&mut list, 70, 50);
    assert_eq!(list.len(), 1);
    assert_eq!((list[0].id, list[0].name.as_str(), list[0].scenario.task), (50, "my plan", Task::Lora));
    assert_eq!(list[0].scenario.name, "my plan");
    // Unknown ids change nothing.
    saved::replace(&mut list, 999, 50);
    saved::replace(&mut list, 50, 999);
    saved::replace(&mut list, 50, 50);
    assert_eq!(list.len(), 1);
    // A name over the limit is clipped on save: saving the same scenario again changes nothing.
    let long = Scenario { name: "x".repeat(NAME_MAX_CHARS + 20), ..Scenario::default() };
    let first = saved::save(&mut list, &long, 45);
    assert_eq!(saved::save(&mut list, &long, 46), SaveOutcome::Unchanged(first.id()));
    list.retain(|e| e.id != first.id());
    let id = saved::save(&mut list, &Scenario { name: "b".into(), ..Scenario::default() }, 40).id();
    assert_eq!(id, 51, "a clock behind the largest id still gives a new one");
    assert_eq!(saved::next_id(&list, 5_000), 5_000);
    assert_eq!(saved::next_id(&[entry(u64::MAX, "x"), entry(0, "y")], 0), 1);
}

#[test]
fn names_are_bounded() {
    let long = "名".repeat(500);
    assert_eq!(saved::clip_name(&long).chars().count(), NAME_MAX_CHARS);
    let mut list = vec![entry(1, "x")];
    saved::rename(&mut list, 1, &long);
    assert_eq!(list[0].name.chars().count(), NAME_MAX_CHARS);
    assert_eq!(list[0].scenario.name, list[0].name);
    let full = saved::clip_name(&long);
    let mut list = vec![entry(1, &full)];
    saved::duplicate(&mut list, 1, 0);
    assert!(list[1].name.chars().count() <= NAME_MAX_CHARS && list[1].name != list[0].name);
}
