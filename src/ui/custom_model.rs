//! The custom model's structure: every dimension, the yes/no properties, and the parts (mixture
//! of experts, latent attention, sliding window, an encoder) with a switch each and their fields shown while
//! on. Fields, limits and what a switch adds or removes come from `domain::model`, so nothing the
//! model carries is ever hidden.

use super::fields::{CheckField, NumField};
use super::i18n::{tr, Key, Lang};
use crate::domain::model::{Dim, Flag, Part};
use crate::domain::Scenario;
use leptos::prelude::*;

fn dim_label(d: Dim) -> Key {
    match d {
        Dim::Layers => Key::Layers,
        Dim::Hidden => Key::Hidden,
        Dim::Intermediate => Key::Intermediate,
        Dim::Heads => Key::Heads,
        Dim::KvHeads => Key::KvHeads,
        Dim::HeadDim => Key::HeadDim,
        Dim::Vocab => Key::Vocab,
        Dim::MaxContext => Key::MaxContext,
        Dim::Experts => Key::Experts,
        Dim::ExpertsPerToken => Key::ExpertsPerToken,
        Dim::ExpertIntermediate => Key::ExpertIntermediate,
        Dim::SharedExperts => Key::SharedExperts,
        Dim::DenseLayers => Key::DenseLayers,
        Dim::DenseIntermediate => Key::DenseIntermediate,
        Dim::RouteGroups => Key::RouteGroups,
        Dim::KvLoraRank => Key::KvLoraRank,
        Dim::QLoraRank => Key::QLoraRank,
        Dim::QkRopeHeadDim => Key::QkRopeHeadDim,
        Dim::QkNopeHeadDim => Key::QkNopeHeadDim,
        Dim::VHeadDim => Key::VHeadDim,
        Dim::Window => Key::SlidingWindow,
        Dim::WindowLayers => Key::WindowLayers,
        Dim::EncoderLayers => Key::EncoderLayers,
        Dim::EncoderSeq => Key::EncoderSeq,
    }
}

fn part_label(p: Part) -> Key {
    match p {
        Part::Base => Key::CustomModel,
        Part::Moe => Key::MoePart,
        Part::Mla => Key::MlaPart,
        Part::Window => Key::WindowPart,
        Part::Encoder => Key::EncoderPart,
    }
}

fn flag_label(f: Flag) -> Key {
    match f {
        Flag::GatedMlp => Key::GatedMlp,
        Flag::TiedEmbeddings => Key::TiedEmbeddings,
    }
}

fn dim_field(sc: RwSignal<Scenario>, d: Dim) -> AnyView {
    let i = d.info();
    let value = Signal::derive(move || sc.with(|s| d.get(&s.custom_model)));
    let on_change = Callback::new(move |v: f64| sc.update(|s| d.set(&mut s.custom_model, Some(v))));
    if i.optional {
        let on_empty = Callback::new(move |()| sc.update(|s| d.set(&mut s.custom_model, None)));
        view! { <NumField label=dim_label(d) testid=i.id limits=(i.min, i.max, i.integer) value on_change on_empty/> }
            .into_any()
    } else {
        view! { <NumField label=dim_label(d) testid=i.id limits=(i.min, i.max, i.integer) value on_change/> }.into_any()
    }
}

fn dims(sc: RwSignal<Scenario>, part: Part) -> impl IntoView {
    Dim::ALL.into_iter().filter(move |d| d.info().part == part).map(move |d| dim_field(sc, d)).collect_view()
}

/// The custom model's fields (shown while the model select says "custom").
#[component]
pub fn CustomModelForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let flags = Flag::ALL
        .into_iter()
        .map(|f| {
            view! { <CheckField label=flag_label(f) testid=f.id() value=Signal::derive(move || sc.with(|s| f.get(&s.custom_model)))
            on_change=Callback::new(move |on| sc.update(|s| f.set(&mut s.custom_model, on)))/> }
        })
        .collect_view();
    let parts = [Part::Moe, Part::Mla, Part::Window, Part::Encoder]
        .into_iter()
        .map(|p| {
            let on = Signal::derive(move || sc.with(|s| p.is_on(&s.custom_model)));
            view! {
                <div class="model-part">
                    <CheckField label=part_label(p) testid=p.id() value=on
                        on_change=Callback::new(move |v| sc.update(|s| p.switch(&mut s.custom_model, v)))/>
                    <Show when=move || on.get()>{dims(sc, p)}</Show>
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="custom-model" data-testid="custom-model">
            <p class="muted">{tr(lang, Key::CustomModelHint)}</p>
            {dims(sc, Part::Base)}
            {flags}
            {parts}
        </div>
    }
}
