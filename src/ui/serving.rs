//! Serving capacity: the load and latency-target inputs, and per card the replicas, latency,
//! throughput and cost per million tokens (domain/serving.rs), with the trade-off chart of the
//! card in focus.

use super::bind::{enum_get, enum_set, get, set};
use super::fields::{num_row, CheckField, Num, NumField, NumFields, SelectField};
use super::i18n::{card_name, tr, Key, Lang};
use crate::chart::TradeoffLabels;
use crate::domain::format;
use crate::domain::scenario::ranges::*;
use crate::domain::serving::Capacity;
use crate::domain::{verdict, Catalog, Report, Scenario};
use crate::web::lazy::Unloaded;
use leptos::html::Canvas;
use leptos::prelude::*;

/// Load, targets and engine settings (shown for the inference task).
#[component]
pub fn ServingForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let rate = Signal::derive(move || sc.with(|s| s.inference.rate_rps));
    let engines = Signal::derive(move || {
        let l = lang.get();
        [
            ("vllm", Key::EngineVllm),
            ("sglang", Key::EngineSglang),
            ("sglang_graphs", Key::EngineSglangGraphs),
            ("trtllm", Key::EngineTrtllm),
            ("vllm_v0", Key::EngineVllmV0),
        ]
        .map(|(v, k)| (v.to_string(), k.text(l).to_string()))
        .to_vec()
    });
    view! {
        <details class="fold-group" data-testid="serving-form"><summary>{tr(lang, Key::LoadTargets)}</summary>
            <SelectField label=Key::ServingEngineLabel testid="engine" options=engines
                value=enum_get(sc, |s| s.inference.engine) on_change=enum_set(sc, |s, v| s.inference.engine = v)/>
            <CheckField label=Key::EnforceEager testid="enforce-eager" value=get(sc, |s| s.inference.enforce_eager)
                on_change=set(sc, |s, v| s.inference.enforce_eager = v)/>
            <NumField label=Key::RateRps testid="rate" limits=INFERENCE_RATE_RPS.shown(1.0) value=rate
                on_change=set(sc, |s, v: f64| s.inference.rate_rps = Some(v))
                on_empty=Callback::new(move |()| sc.update(|s| s.inference.rate_rps = None))/>
            <NumFields rows=SERVING_FIELDS/>
        </details>
    }
}

/// The lines under the serving table on the engine: its eager prompt steps, speculative decoding
/// when it is on, what Ascend's stack adds to every step, and how sure its figures are.
#[component]
fn EngineLines() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    view! {
        {move || {
            let l = lang.get();
            sc.with(|s| s.model_spec().ok().and_then(|m| format::speculative_line(s, m, l)))
                .map(|t| view! { <p class="muted" data-testid="spec-line">{t}</p> })
        }}
        {move || {
            let l = lang.get();
            sc.with(|s| s.model_spec().ok().map(|m| format::launch_line(s, m, l)))
                .map(|t| view! { <p class="muted" data-testid="launch-line">{t}</p> })
        }}
        {move || {
            let l = lang.get();
            sc.with(|s| s.model_spec().ok().map(|m| format::stack_line(m, l)))
                .map(|t| view! { <p class="muted" data-testid="stack-line">{t}</p> })
        }}
        {move || view! { <p class="muted" data-testid="serving-accuracy">{format::serving_accuracy_line(lang.get())}</p> }}
    }
}

fn ms(s: f64) -> String {
    format!("{:.0}", s * 1e3)
}

/// What one replica sustains (a simulated lower bound, hence "≥").
fn sustained(rps: f64) -> String {
    if rps >= 10.0 {
        format!("≥ {rps:.0}")
    } else {
        format!("≥ {rps:.2}")
    }
}

/// "TP4 × 3 = 12", or with expert parallelism "TP1·EP16 × 2 = 32".
pub(crate) fn shape(c: &crate::domain::serving::Capacity) -> String {
    let ep = if c.ep > c.tp { format!("·EP{}", c.ep) } else { String::new() };
    format!("TP{}{ep} × {} = {}", c.tp, c.replicas, c.cards)
}

/// The card in focus, its name and serving plan.
type Focus = Option<(String, String, Option<Capacity>)>;

/// Draws the throughput/latency trade-off of the card in focus, with its plan marked, whenever
/// the focus, the scenario or the language changes.
fn draw_focus(sc: RwSignal<Scenario>, lang: RwSignal<Lang>, focus: Memo<Focus>, canvas: NodeRef<Canvas>) {
    Effect::new(move |_| {
        let (Some((id, name, plan)), Some(el), l) = (focus.get(), canvas.get(), lang.get()) else { return };
        let curves = sc.with(|s| {
            let (Ok(m), Some(g)) = (s.model_spec(), s.gpu(Catalog::embedded(), &id)) else { return Vec::new() };
            crate::domain::serving::entry().map(|e| (e.tradeoffs)(m, s, g)).unwrap_or_default()
        });
        let target = sc.with(|s| 1e3 / s.inference.tpot_p50_ms);
        let title = format!("{} · {name}", Key::TradeoffTitle.text(l));
        let plan_label = plan.as_ref().map(|c| format!("{}: {}", Key::ThisPlan.text(l), shape(c))).unwrap_or_default();
        let labels = TradeoffLabels {
            title: &title,
            x: Key::TokensPerUser.text(l),
            y: Key::TokensPerCard.text(l),
            tp: "TP",
            target: Key::TpotTarget.text(l),
            batch: Key::BatchPrefix.text(l),
            plan: &plan_label,
        };
        let operating = plan.map(|c| (c.tokens_s_user, c.tokens_s_gpu));
        if let Err(e) = crate::web::canvas::draw_tradeoff(el, &curves, target, operating, &labels) {
            leptos::logging::warn!("trade-off chart: {e}");
        }
    });
}

/// The serving section of an inference scenario, downloaded with the serving engine
/// (web/lazy.rs): a fine-tuning visit never loads its code.
#[component]
pub fn ServingSection(report: Signal<Option<Report>>, selected: RwSignal<Option<String>>) -> impl IntoView {
    let lang = expect_context::<RwSignal<Lang>>();
    let serving = move || report.with(|r| r.as_ref().is_some_and(|r| !r.task.is_training()));
    let attempt = RwSignal::new(0_u32);
    let built = move || {
        attempt.track();
        lazy_view(report, selected, lang, attempt)
    };
    view! { <Show when=serving>{built}</Show> }
}

#[cfg(feature = "split")]
fn lazy_view(
    report: Signal<Option<Report>>,
    selected: RwSignal<Option<String>>,
    lang: RwSignal<Lang>,
    attempt: RwSignal<u32>,
) -> impl IntoView {
    Suspend::new(async move {
        serving_view(report, selected).await.unwrap_or_else(|Unloaded| super::fields::unloaded(lang, attempt))
    })
}

#[cfg(not(feature = "split"))]
fn lazy_view(
    report: Signal<Option<Report>>,
    selected: RwSignal<Option<String>>,
    _: RwSignal<Lang>,
    _: RwSignal<u32>,
) -> impl IntoView {
    serving_view(report, selected).unwrap_or_else(|Unloaded| ().into_any())
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(serving, wasm_split_path = ::leptos::wasm_split, fallible))]
fn serving_view(report: Signal<Option<Report>>, selected: RwSignal<Option<String>>) -> Result<AnyView, Unloaded> {
    Ok(view! { <ServingView report selected/> }.into_any())
}

/// Per card: replicas × TP, latency p50/p99, tokens/s and cost per million tokens; and the
/// throughput/latency trade-off of the card in focus: the one clicked (in the ranking or in this
/// table), else the purchase card, else the best.
#[component]
fn ServingView(report: Signal<Option<Report>>, selected: RwSignal<Option<String>>) -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let serving = move || report.with(|r| r.as_ref().is_some_and(|r| !r.task.is_training()));
    let canvas = NodeRef::<Canvas>::new();
    let focus = Memo::new(move |_| {
        report.with(|r| {
            let r = r.as_ref()?;
            let clicked =
                selected.with(|id| r.cards.iter().find(|c| Some(&c.gpu) == id.as_ref() && c.serving.is_some()));
            clicked
                .or_else(|| sc.with(|s| verdict::focus(s, &r.cards)))
                .map(|v| (v.gpu.clone(), v.name.clone(), v.serving.clone()))
        })
    });
    draw_focus(sc, lang, focus, canvas);
    let rows = move || {
        let l = lang.get();
        let cur = sc.with(|s| s.money.currency);
        report.with(|r| {
            r.as_ref()
                .map(|r| {
                    r.cards
                        .iter()
                        .filter_map(|v| v.serving.clone().map(|c| (card_name(&v.gpu, &v.name, l), v.gpu.clone(), v.cost, v.own_cost, c)))
                        .take(10)
                        .map(|(name, id, cost, own, c)| {
                            let lat = &c.latency;
                            let near = c.near_saturation;
                            let near_text = if near { Key::NearSaturation.text(l) } else { "" };
                            let sustains = format!(
                                "{}{} {} {}",
                                if near { "⚠ " } else { "" },
                                Key::Sustains.text(l),
                                sustained(c.sustained_rps),
                                Key::ReqS.text(l)
                            );
                            let money = |v: Option<f64>| v.map_or("—".to_string(), |v| format::money(v, cur));
                            view! {
                                <tr data-testid=format!("serve-{id}") class:nofit=!c.meets>
                                    <td><button type="button" class="link" data-testid=format!("serve-pick-{id}")
                                        on:click={let id = id.clone(); move |_| selected.set(Some(id.clone()))}>{name}</button>
                                        <br/><small class="muted" data-testid=format!("serve-tier-{id}")>{format::serving_tier(&c.tier, l)}</small></td>
                                    <td><span class="mono">{shape(&c)}</span><br/><small class="sustains" class:near=near title=near_text>{sustains}</small></td>
                                    <td>{format!("{:.2} / {:.2}", lat.ttft_p50_s, lat.ttft_p99_s)}</td>
                                    <td>{format!("{} / {}", ms(lat.tpot_p50_s), ms(lat.tpot_p99_s))}</td>
                                    <td>{format::grouped(c.tokens_s, 0)}<br/><small>{format!("{} / {}", format::grouped(c.tokens_s_gpu, 0), Key::PerCard.text(l))}</small></td>
                                    <td>{format!("{:.1}", c.tokens_s_user)}</td>
                                    <td>{money(cost)}</td>
                                    <td>{money(own)}</td>
                                    <td>{if c.meets { Key::Yes.text(l) } else { Key::TargetsMissed.text(l) }}</td>
                                </tr>
                            }
                        })
                        .collect_view()
                })
                .unwrap_or_default()
        })
    };
    view! {
        <Show when=serving>
            <section class="group serving" id="serving" data-testid="serving">
                <h2>{tr(lang, Key::ServingTitle)}</h2>
                <p class="muted">{tr(lang, Key::ServingHint)}</p>
                <EngineLines/>
                <div class="table-wrap"><table class="cards">
                    <thead><tr>
                        <th>{tr(lang, Key::Card)}</th><th>{tr(lang, Key::Replicas)}</th><th>{tr(lang, Key::TtftCol)}</th>
                        <th>{tr(lang, Key::TpotCol)}</th><th>{tr(lang, Key::TokensS)}</th><th>{tr(lang, Key::TokensPerUser)}</th>
                        <th>{tr(lang, Key::CostPerMRent)}</th><th>{tr(lang, Key::CostPerMOwn)}</th><th>{tr(lang, Key::MeetsTargets)}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table></div>
                <canvas node_ref=canvas width="900" height="420" data-testid="tradeoff-chart" role="img" aria-label=move || format!("{} · {}", Key::TradeoffTitle.text(lang.get()), focus.with(|f| f.as_ref().map(|f| f.1.clone()).unwrap_or_default()))></canvas>
            </section>
        </Show>
    }
}

/// Plain numeric inputs of this form, rendered by one loop (fields.rs `NumFields`).
const SERVING_FIELDS: &[Num] = &[
    num_row(
        Key::ThinkS,
        "think",
        INFERENCE_THINK_S.shown(1.0),
        |s| s.inference.think_s,
        |s, v| s.inference.think_s = v,
    ),
    num_row(
        Key::PrefixShare,
        "prefix",
        INFERENCE_PREFIX_SHARE.shown(100.0),
        |s| s.inference.prefix_share * 100.0,
        |s, v| s.inference.prefix_share = v / 100.0,
    ),
    num_row(
        Key::TtftP50,
        "ttft50",
        INFERENCE_TTFT_P50_S.shown(1.0),
        |s| s.inference.ttft_p50_s,
        |s, v| s.inference.ttft_p50_s = v,
    ),
    num_row(
        Key::TtftP99,
        "ttft99",
        INFERENCE_TTFT_P99_S.shown(1.0),
        |s| s.inference.ttft_p99_s,
        |s, v| s.inference.ttft_p99_s = v,
    ),
    num_row(
        Key::TpotP50,
        "tpot50",
        INFERENCE_TPOT_P50_MS.shown(1.0),
        |s| s.inference.tpot_p50_ms,
        |s, v| s.inference.tpot_p50_ms = v,
    ),
    num_row(
        Key::TpotP99,
        "tpot99",
        INFERENCE_TPOT_P99_MS.shown(1.0),
        |s| s.inference.tpot_p99_ms,
        |s, v| s.inference.tpot_p99_ms = v,
    ),
    num_row(
        Key::MemUtil,
        "memutil",
        INFERENCE_MEM_UTIL.shown(100.0),
        |s| s.inference.mem_util * 100.0,
        |s, v| s.inference.mem_util = v / 100.0,
    ),
    num_row(
        Key::ServeTp,
        "serve-tp",
        INFERENCE_TP.shown(1.0),
        |s| f64::from(s.inference.tp),
        |s, v| s.inference.tp = v as u32,
    ),
    num_row(
        Key::ServeEp,
        "serve-ep",
        INFERENCE_EP.shown(1.0),
        |s| f64::from(s.inference.ep),
        |s, v| s.inference.ep = v as u32,
    ),
    num_row(
        Key::MaxBatched,
        "mbt",
        INFERENCE_MAX_BATCHED_TOKENS.shown(1.0),
        |s| f64::from(s.inference.max_batched_tokens),
        |s, v| s.inference.max_batched_tokens = v as u32,
    ),
    num_row(
        Key::MaxSeqs,
        "max-seqs",
        INFERENCE_MAX_SEQS.shown(1.0),
        |s| f64::from(s.inference.max_seqs),
        |s, v| s.inference.max_seqs = v as u32,
    ),
    num_row(
        Key::StepOverhead,
        "overhead",
        INFERENCE_STEP_OVERHEAD_MS.shown(1.0),
        |s| s.inference.step_overhead_ms,
        |s, v| s.inference.step_overhead_ms = v,
    ),
    num_row(
        Key::SpecTokens,
        "spec-tokens",
        INFERENCE_SPEC_TOKENS.shown(1.0),
        |s| f64::from(s.inference.spec_tokens),
        |s, v| s.inference.spec_tokens = v as u32,
    ),
    Num {
        disabled: |s| s.inference.spec_tokens == 0,
        ..num_row(
            Key::SpecAccept,
            "spec-accept",
            INFERENCE_SPEC_ACCEPT.shown(100.0),
            |s| s.inference.spec_accept * 100.0,
            |s, v| s.inference.spec_accept = v / 100.0,
        )
    },
];
