use gpu_planner::domain::{plan, Catalog, Scenario};
fn main() {
    let cat = Catalog::embedded();
    let s = Scenario::default();
    for _ in 0..3000 {
        std::hint::black_box(plan(std::hint::black_box(&s), cat).map(|r| r.cards.len()).unwrap_or(0));
    }
}
