//! The report on screen: headline figures, the sortable card ranking (the top ten until asked
//! for all), and under a clicked card its memory chart and "how this was computed".

use super::i18n::{tr, Key, Lang};
use crate::domain::explain::explain;
use crate::domain::format;
use crate::domain::verdict::CardVerdict;
use crate::domain::{Catalog, Report, Scenario};
use leptos::{html::Canvas, prelude::*};

/// Sortable columns of the ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Col {
    Rank,
    Card,
    Cards,
    Memory,
    Time,
    Cost,
}

fn cmp(col: Col, a: &CardVerdict, b: &CardVerdict) -> std::cmp::Ordering {
    let opt = |x: Option<f64>| x.unwrap_or(f64::INFINITY);
    match col {
        Col::Rank => std::cmp::Ordering::Equal,
        Col::Card => a.name.cmp(&b.name),
        Col::Cards => a.gpus.cmp(&b.gpus),
        Col::Memory => a.memory_use().total_cmp(&b.memory_use()),
        Col::Time => {
            let t = |v: &CardVerdict| v.hours.or(v.throughput.map(|t| -t.decode_tokens_s));
            opt(t(a)).total_cmp(&opt(t(b)))
        }
        Col::Cost => opt(a.cost).total_cmp(&opt(b.cost)),
    }
}

/// Params, memory, rule of thumb, FLOPs.
#[component]
pub fn Summary(report: Signal<Option<Report>>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let sc = expect_context::<RwSignal<crate::domain::Scenario>>();
    move || {
        let l = lang.get();
        report.get().map(|r| {
            let q = r.quick_rule;
            let formula = sc.with(|s| {
                let vision = crate::domain::vision::model(&s.model).is_some();
                format::flops_formula(s.task, vision, s.training.conventions.attention_flops, l)
            });
            view! {
                <section class="summary" aria-live="polite" data-testid="summary">
                    <p>{Key::Params.text(l)} ": " <b data-testid="params">{if r.params >= 1e9 { format!("{:.2} B", r.params / 1e9) } else { format!("{:.1} M", r.params / 1e6) }}</b>
                        {(r.active_params < r.params).then(|| format!(" ({} {:.1} B)", Key::Active.text(l), r.active_params / 1e9))}</p>
                    <p>{Key::MemorySingle.text(l)} ": " <b data-testid="memory-total">{format::gib(r.memory_single.total)}</b></p>
                    {(q.bytes_per_param > 0.0).then(|| view! { <p>{Key::QuickRule.text(l)} ": " {format::quick_rule(&q)}</p> })}
                    {r.training_flops.map(|f| view! { <p title=formula data-testid="flops">{Key::Flops.text(l)} ": " {format::flops(f)}</p> })}
                    {r.warnings.iter().map(|w| view! { <p class="warn">{format::warning(w, l)}</p> }).collect_view()}
                    {(!r.unknown_specs.is_empty()).then(|| view! { <p class="muted">{Key::UnknownSpecs.text(l)} ": " {unknown_names(&r.unknown_specs, l)}</p> })}
                </section>
            }
        })
    }
}

/// The cards left out for a missing figure, by the names the page's language uses (the report
/// lists their catalog names).
fn unknown_names(names: &[String], l: Lang) -> String {
    let catalog = crate::domain::Catalog::embedded();
    let shown = |n: &String| {
        catalog.gpus.iter().find(|g| &g.name == n).map_or_else(|| n.clone(), |g| g.name_in(l == Lang::Zh).to_string())
    };
    names.iter().map(shown).collect::<Vec<_>>().join(", ")
}

/// How many cards the ranking lists until "show all" (the answer is the top; fewer rows also
/// render sooner).
pub(crate) const TOP: usize = 10;

/// The card ranking: click a header to sort, click a card to open its details under it.
#[component]
pub fn Ranking(report: Signal<Option<Report>>, selected: RwSignal<Option<String>>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let sort = RwSignal::new((Col::Rank, true));
    let all = RwSignal::new(false);
    // Serving is ranked by throughput, training by time: the column says which.
    let serving = move || report.with(|r| r.as_ref().is_some_and(|r| !r.task.is_training()));
    let vision = move || report.with(|r| r.as_ref().is_some_and(|r| r.cards.iter().any(|c| c.vision.is_some())));
    let header = move |col: Col, key: Key| {
        let arrow = move || match sort.get() {
            (c, true) if c == col => " ▲",
            (c, false) if c == col => " ▼",
            _ => "",
        };
        let aria = move || match sort.get() {
            (c, true) if c == col => "ascending",
            (c, false) if c == col => "descending",
            _ => "none",
        };
        view! { <th aria-sort=aria><button type="button" class="sort" data-testid=format!("sort-{col:?}")
        on:click=move |_| sort.update(|(c, asc)| { if *c == col { *asc = !*asc } else { *c = col; *asc = true } })>
        {move || match (col == Col::Time, serving(), vision()) {
            (true, true, true) => Key::VisionThroughput,
            (true, true, false) => Key::ThroughputLabel,
            _ => key,
        }.text(lang.get())}{arrow}</button></th> }
    };
    // Keyed rows: a row's DOM is built once per card and its cells update in place, so typing
    // does not rebuild the table; only the order changes when the ranking does. The open card
    // stays listed below the top ten.
    let order = move || {
        let mut cards = report.with(|r| r.as_ref().map(|r| r.cards.clone()).unwrap_or_default());
        let (col, asc) = sort.get();
        crate::domain::units::sort_stable_by(&mut cards, |a, b| if asc { cmp(col, a, b) } else { cmp(col, b, a) });
        let (all, open) = (all.get(), selected.get());
        cards
            .into_iter()
            .enumerate()
            .filter(|(i, c)| all || *i < TOP || open.as_ref() == Some(&c.gpu))
            .map(|(_, c)| c.plan.gpu)
            .collect::<Vec<_>>()
    };
    let count = move || report.with(|r| r.as_ref().map_or(0, |r| r.cards.len()));
    let rows = move || {
        view! { <For each=order key=|id| id.clone() children=move |id| view! { <Row id report selected/> }/> }
    };
    // No report (the scenario cannot be planned): the table is hidden, not left empty under
    // the new model's name (hidden rather than unmounted: a conditional view of the whole table
    // costs kilobytes of wasm).
    let planned = Memo::new(move |_| report.with(Option::is_some));
    view! {
        <div class="table-wrap" hidden=move || !planned.get()>
            <table class="ranking cards" data-testid="ranking">
                <thead><tr>
                    {header(Col::Card, Key::Card)}<th>{tr(lang, Key::Fits)}</th>{header(Col::Cards, Key::Cards)}
                    <th>{tr(lang, Key::Layout)}</th>{header(Col::Memory, Key::MemoryPerCard)}
                    {header(Col::Time, Key::Time)}{header(Col::Cost, Key::Cost)}<th>{tr(lang, Key::Warnings)}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <button type="button" class="link more" data-testid="show-all" hidden=move || count() <= TOP on:click=move |_| all.update(|a| *a = !*a)>
            {move || if all.get() { Key::ShowTop.text(lang.get()).to_string() } else { Key::ShowAll.text(lang.get()).replace("{n}", &count().to_string()) }}
        </button>
    }
}

/// A ranking row's texts, in the page language.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RowText {
    pub(crate) name: String,
    pub(crate) fits: bool,
    pub(crate) cards: String,
    pub(crate) layout: String,
    pub(crate) pct: f64,
    pub(crate) memory: String,
    pub(crate) time: String,
    pub(crate) cost: String,
    /// Where the rental price comes from (date, or "price from …, report") and its url.
    pub(crate) price: String,
    pub(crate) source: String,
    pub(crate) warnings: String,
}

/// The layout's recompute as the row says it: block recompute of some layers names the count
/// (the figures beside it are computed with it), the other settings their name.
fn recompute_text(c: &CardVerdict, s: &Scenario, l: Lang) -> String {
    use crate::domain::scenario::Recompute;
    let n = s.parallel.partial_recompute();
    if c.layout.recompute == Recompute::Full && n > 0 {
        Key::RecLayers.text(l).replace("{n}", &n.to_string())
    } else {
        Key::from(c.layout.recompute).text(l).to_string()
    }
}

pub(crate) fn row_text(c: &CardVerdict, l: Lang, s: &Scenario, training: bool) -> RowText {
    let cur = s.money.currency;
    // Vision jobs: the measured speed per card (and serving latency) instead of an MFU.
    // Speech in audio units: seconds of audio per second (× real time), cost per audio hour.
    let speech = crate::domain::vision::model(&s.model).is_some_and(crate::domain::vision::VisionModel::is_speech);
    let ips = c.vision.as_ref().map(|x| {
        let lat = x.latency_ms.map(|ms| format!(" · {} ms", format::grouped(ms, 0))).unwrap_or_default();
        let (rate, unit) = if speech {
            (x.samples_s * crate::domain::vision::VisionModel::CLIP_S, Key::RealTime)
        } else {
            (x.samples_s, Key::ImagesPerS)
        };
        format!("{} {}{lat}", format::grouped(rate, if rate < 10.0 { 2 } else { 0 }), unit.text(l))
    });
    let time = match (c.hours, c.throughput, &ips) {
        (Some(h), _, Some(ips)) => format!("{} · {ips}", format::hours(h, l)),
        (Some(h), _, None) => {
            let band = c.hours_band.map(|b| format!(" ({})", format::hours_band(b, h, l))).unwrap_or_default();
            let tier = c.tier.as_ref().map(|t| format!(" · {}", format::tier(t, l))).unwrap_or_default();
            format!("{}{band} · {} {:.0}%{tier}", format::hours(h, l), Key::MfuShort.text(l), c.mfu * 100.0)
        }
        (None, Some(t), _) => format!("{} tok/s", format::grouped(t.decode_tokens_s, 0)),
        (None, None, Some(ips)) => ips.clone(),
        _ => "—".into(),
    };
    let per = match (c.vision.is_some(), speech) {
        (true, true) => Key::PerAudioHour,
        (true, false) => Key::PerMImages,
        _ => Key::CostPerMTok,
    };
    // A card that fits but has no price in the chosen market: say so and where a quote goes.
    let none = if c.fits && c.hours.is_some() { Key::NoPublicPrice.text(l).to_string() } else { "—".to_string() };
    let cost = c.cost.map_or(none, |v| {
        if c.hours.is_none() {
            format!("{} {}", format::money(v, cur), per.text(l))
        } else {
            format::money(v, cur)
        }
    });
    let (price, source) = c.cost.and(c.price.as_ref()).map_or_else(Default::default, |q| {
        let note = super::ownership::price_note(q, l);
        let note = if q.flagged() { format!("{note} · {}", Key::RankedAfter.text(l)) } else { note };
        (note, q.source.clone())
    });
    let servers = if c.servers > 1 { format!(" ({} {})", c.servers, Key::Servers.text(l)) } else { String::new() };
    // Training's notation; vision and serving rows write their own.
    let parallel = || {
        format!(
            "TP{}·PP{}·DP{}{}{}",
            c.layout.tp,
            c.layout.pp,
            c.layout.dp,
            match c.layout.ep {
                0 | 1 => String::new(),
                ep if c.layout.folds_experts() => format!("·EP{ep} ({})", Key::EpFolded.text(l)),
                ep => format!("·EP{ep}"),
            },
            if c.layout.cp > 1 { format!("·CP{}", c.layout.cp) } else { String::new() },
        )
    };
    RowText {
        name: super::i18n::card_name(&c.gpu, &c.name, l),
        fits: c.fits,
        cards: format!("{}{servers}", c.gpus),
        // Serving has no ZeRO stage or recompute: the layout says only how the model is split.
        layout: if let Some(x) = &c.vision {
            format!("DP{} · {} {}", c.layout.dp, Key::BatchPerCard.text(l), x.batch)
        } else if training {
            format!("{} · ZeRO-{} · {}", parallel(), c.layout.zero, recompute_text(c, s, l))
        } else if let Some(x) = &c.serving {
            // Replicas, as the serving table writes them: "TP1·EP16 × 2 = 32".
            super::serving::shape(x)
        } else {
            parallel()
        },
        pct: (c.memory_use() * 100.0).min(100.0),
        memory: format!("{} / {}", format::gib(c.memory.total), format::gib(c.capacity)),
        time,
        cost,
        price,
        source,
        warnings: c.warnings.iter().map(|w| format::warning(w, l)).collect::<Vec<_>>().join("\n"),
    }
}

/// One ranking row; its cells follow the report for this card.
#[component]
fn Row(id: String, report: Signal<Option<Report>>, selected: RwSignal<Option<String>>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let sc = expect_context::<RwSignal<Scenario>>();
    let key = id.clone();
    let text = Memo::new(move |_| {
        let l = lang.get();
        report.with(|r| {
            let r = r.as_ref()?;
            sc.with(|s| r.cards.iter().find(|c| c.gpu == key).map(|c| row_text(c, l, s, r.task.is_training())))
        })
    });
    let t = move |f: fn(&RowText) -> String| move || text.with(|x| x.as_ref().map(f).unwrap_or_default());
    let fits = move || text.with(|x| x.as_ref().is_some_and(|x| x.fits));
    let mine = id.clone();
    let open = Memo::new(move |_| selected.with(|s| s.as_ref() == Some(&mine)));
    // A second click folds the details.
    let mine = id.clone();
    let toggle = move |_| selected.set((!open.get_untracked()).then(|| mine.clone()));
    view! {
        <tr data-testid=format!("card-{id}") class:fits=fits class:nofit=move || !fits() class:selected=open>
            <td><button type="button" class="link" aria-expanded=move || open.get().to_string() on:click=toggle>{t(|x| x.name.clone())}</button></td>
            <td>{move || if fits() { Key::Yes.text(lang.get()) } else { Key::No.text(lang.get()) }}</td>
            <td>{t(|x| x.cards.clone())}</td>
            <td class="mono">{t(|x| x.layout.clone())}</td>
            <td><div class="bar" title=move || text.with(|x| x.as_ref().map(|x| format!("{:.0}%", x.pct)).unwrap_or_default())>
                    <div class="fill" class:over=move || !fits() style=move || text.with(|x| format!("width:{:.1}%", x.as_ref().map_or(0.0, |x| x.pct)))></div></div>
                <small>{t(|x| x.memory.clone())}</small></td>
            <td>{t(|x| x.time.clone())}</td>
            <td>{t(|x| x.cost.clone())}<br/><small><a target="_blank" href=move || text.with(|x| x.as_ref().map(|x| x.source.clone()).filter(|s| !s.is_empty()))>{t(|x| x.price.clone())}</a></small></td>
            <td class="warn">{t(|x| x.warnings.clone())}</td>
        </tr>
        {move || open.get().then(|| view! {
            <tr class="detail-row"><td colspan="8">
                // What the columns folded away on a narrower screen say.
                <p class="fold">{t(|x| format!("{} · {}\n{}", x.layout, x.memory, x.warnings))}</p>
                {detail(id.clone(), report)}
            </td></tr>
        })}
    }
}

/// The open card's details: downloaded the first time a card is opened (web/lazy.rs).
#[cfg(feature = "split")]
fn detail(id: String, report: Signal<Option<Report>>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let attempt = RwSignal::new(0_u32);
    move || {
        attempt.track();
        let id = id.clone();
        Suspend::new(async move {
            card_detail(id, report)
                .await
                .unwrap_or_else(|crate::web::lazy::Unloaded| super::fields::unloaded(lang, attempt))
        })
    }
}

#[cfg(not(feature = "split"))]
fn detail(id: String, report: Signal<Option<Report>>) -> impl IntoView {
    card_detail(id, report).unwrap_or_else(|crate::web::lazy::Unloaded| ().into_any())
}

/// An open card: memory chart on a canvas and every figure's derivation.
#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(card_detail, wasm_split_path = ::leptos::wasm_split, fallible))]
fn card_detail(id: String, report: Signal<Option<Report>>) -> Result<AnyView, crate::web::lazy::Unloaded> {
    let lang = expect_context::<RwSignal<Lang>>();
    let sc = expect_context::<RwSignal<Scenario>>();
    let verdict = Memo::new(move |_| report.with(|r| r.as_ref()?.cards.iter().find(|c| c.gpu == id).cloned()));
    let canvas = NodeRef::<Canvas>::new();
    Effect::new(move |_| {
        let (Some(v), Some(el)) = (verdict.get(), canvas.get()) else { return };
        let l = lang.get();
        let cap = format!("{} {}", Key::Capacity.text(l), format::gib(v.capacity));
        let labels = [
            Key::Weights,
            Key::Gradients,
            Key::Optimizer,
            Key::Master,
            Key::Activations,
            Key::Logits,
            Key::KvCache,
            Key::Buffers,
            Key::Overhead,
        ]
        .map(|k| k.text(l));
        let all = [
            labels[0],
            labels[1],
            labels[2],
            labels[3],
            labels[4],
            labels[5],
            labels[6],
            labels[7],
            labels[8],
            cap.as_str(),
        ];
        if let Err(e) = crate::web::canvas::draw_memory(el, &v.memory, v.capacity, &all) {
            leptos::logging::warn!("memory chart: {e}");
        }
    });
    Ok(view! {
        <section class="detail">
            <h3>{move || format!("{} — {}", Key::MemoryChart.text(lang.get()), verdict.get().map(|v| super::i18n::card_name(&v.plan.gpu, &v.plan.name, lang.get())).unwrap_or_default())}</h3>
            <canvas node_ref=canvas data-testid="memory-chart" width="900" height="220" role="img"
                aria-label=tr(lang, Key::MemoryChart)></canvas>
            <h3>{tr(lang, Key::HowComputed)}</h3>
            <div data-testid="explain">{move || {
                let l = lang.get();
                let v = verdict.get()?;
                Some(sc.with(|s| explain(s, Catalog::embedded(), &v, l)).into_iter().map(|e| view! {
                    <details class="explain"><summary><b>{e.label(l)}</b> " = " {e.result.clone()}</summary>
                        <p class="mono">{e.formula.clone()}</p><p class="muted">{Key::Source.text(l)} ": " {e.source}</p></details>
                }).collect_view())
            }}</div>
        </section>
    }
    .into_any())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::scenario::{CardFilter, Parallel, Task, Training};

    /// A folded expert-parallel layout (EP 32 over TP 2 × DP 16, Megatron-Bridge's Qwen3-235B
    /// on 256 H100s) says so in the row, in both languages; an unfolded one writes plain EP.
    #[test]
    fn a_folded_expert_layout_says_so_in_the_row() {
        let mut s = Scenario {
            task: Task::Pretrain,
            model: "qwen3-235b-a22b".into(),
            training: Training { seq_len: 4096, micro_batch: 1, global_batch: 8192, ..Training::default() },
            parallel: Parallel { auto: false, gpus: 256, tp: 2, pp: 8, ep: 32, zero: 1, ..Parallel::default() },
            cards: CardFilter { only: vec!["h100-sxm".into()], ..CardFilter::default() },
            ..Scenario::default()
        };
        let row = |s: &Scenario, l: Lang| {
            let r = crate::domain::report(s, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
            row_text(&r.cards[0], l, s, true).layout
        };
        assert!(row(&s, Lang::En).starts_with("TP2·PP8·DP16·EP32 (folded over TP×DP, whole experts) · ZeRO-1"));
        assert!(row(&s, Lang::Zh).contains("·EP32 (跨 TP×DP 折叠，专家不切分)"));
        s.parallel.ep = 8;
        assert!(row(&s, Lang::En).starts_with("TP2·PP8·DP16·EP8 · ZeRO-1"), "{}", row(&s, Lang::En));
    }
}
