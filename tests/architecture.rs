//! The domain's modules import each other in one direction only (DESIGN.md §1: each report stage
//! reads the stages before it, never after): no import circles in src/domain.
#![cfg(not(target_arch = "wasm32"))] // host only: reads the source tree

use std::collections::{BTreeMap, BTreeSet};

/// Sibling modules a domain module names (`super::x` in `domain/m.rs`; `super::super::x` or
/// `crate::domain::x` in its sub-modules `domain/m/*.rs`).
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/domain");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let names = |text: &str, prefix: &str| -> Vec<String> {
        text.match_indices(prefix)
            .map(|(i, _)| {
                text[i + prefix.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .filter(|n| !n.is_empty() && n.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
            .collect()
    };
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir}: {e}")).flatten() {
        let path = entry.path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()).map(str::to_string) else { continue };
        let deps = graph.entry(stem.clone()).or_default();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            deps.extend(names(&text, "super::").into_iter().filter(|n| n != "super"));
            deps.extend(names(&text, "crate::domain::"));
        } else if path.is_dir() {
            for sub in std::fs::read_dir(&path).into_iter().flatten().flatten() {
                let text = std::fs::read_to_string(sub.path()).unwrap_or_default();
                deps.extend(names(&text, "super::super::"));
                deps.extend(names(&text, "crate::domain::"));
            }
        }
        deps.remove(&stem);
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| modules.contains(d));
    }
    graph
}

#[test]
fn no_import_circles_in_the_domain() {
    let graph = imports();
    assert!(graph.len() > 20, "{graph:?}");
    // Depth-first search for a back edge; report the circle it closes.
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(2) => return None,
            Some(1) => {
                let from = path.iter().position(|x| x == m).unwrap_or(0);
                let mut circle = path[from..].to_vec();
                circle.push(m.to_string());
                return Some(circle);
            }
            _ => {}
        }
        state.insert(m.to_string(), 1);
        path.push(m.to_string());
        for d in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(d, graph, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if let Some(circle) = visit(m, &graph, &mut state, &mut Vec::new()) {
            panic!("import circle in src/domain: {}", circle.join(" → "));
        }
    }
}

/// The report is assembled in stages: plan never reads the later stages.
#[test]
fn the_plan_stage_reads_no_later_stage() {
    let graph = imports();
    let plan = &graph["plan"];
    for later in ["cost", "infra", "warnings", "report", "explain", "checklist"] {
        assert!(!plan.contains(later), "plan imports {later}");
    }
}

/// A card in the report is the plan stage's record as that stage returned it, with the owned
/// cost and the warnings computed from that record: no stage writes into another's record
/// (report.rs once filled in `own_cost` and `warnings` of the plan's record after the fact, so a
/// record read before then said "no warnings": not obtainable in China read as obtainable).
#[test]
fn a_reported_card_is_its_plan_with_the_later_stages_parts() {
    use gpu_planner::domain::{calibrate, cost, plan, vision, warnings, Catalog, Scenario};
    let catalog = Catalog::embedded();
    let llm = Scenario::china_default();
    let yolo = Scenario { model: "yolov8m".into(), ..llm.clone() };
    for s in [llm, yolo] {
        let r = gpu_planner::domain::report(&s, catalog).unwrap_or_else(|e| panic!("{e}"));
        let s = calibrate::calibrated(&s, catalog).into_owned();
        assert!(r.cards.len() > 20, "{}", r.cards.len());
        assert!(r.cards.iter().any(|c| c.china_supply().is_some()), "some card is not sold new in China");
        for c in &r.cards {
            let g = catalog.gpu(&c.gpu).unwrap_or_else(|| panic!("{}", c.gpu));
            let planned = match vision::model(&s.model) {
                Some(m) => vision::verdict(m, &s, g, catalog),
                None => {
                    let m = s.model_spec().unwrap_or_else(|e| panic!("{e}"));
                    plan::verdict(m, &s, g, catalog, &plan::Totals::default())
                }
            };
            assert_eq!(planned.as_ref(), Some(&c.plan), "{}", c.gpu);
            assert_eq!(c.own_cost, cost::own_cost_of_run(&s, catalog, g, &c.plan), "{}", c.gpu);
            assert_eq!(c.warnings, warnings::card_warnings(&s, catalog, g, &c.plan), "{}", c.gpu);
        }
    }
}
