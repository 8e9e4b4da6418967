//! The training framework and its memory conventions. Choosing a framework applies its own
//! switches (domain/framework.rs); editing any switch turns the choice into "custom switches".

use super::bind::{enum_get, enum_set, get, num, opts, set};
use super::fields::{CheckField, NumField, SelectField};
use super::i18n::{tr, Key, Lang};
use crate::domain::framework::{AttentionKernel, Conventions, Framework, GradDtype, StateDtype};
use crate::domain::scenario::ranges::*;
use crate::domain::Scenario;
use leptos::prelude::*;

/// Writes one convention switch and marks the framework as custom.
fn conv<V: 'static>(sc: RwSignal<Scenario>, f: fn(&mut Conventions, V)) -> Callback<V> {
    Callback::new(move |v: V| {
        sc.update(|s| {
            f(&mut s.training.conventions, v);
            s.training.framework = Framework::Custom;
        })
    })
}

/// Framework choice and the switches behind it (training tasks only).
#[component]
pub fn FrameworkForm() -> impl IntoView {
    let sc = expect_context::<RwSignal<Scenario>>();
    let lang = expect_context::<RwSignal<Lang>>();
    let frameworks = opts(
        lang,
        vec![
            (Framework::Megatron, Key::FwMegatron),
            (Framework::DeepSpeed, Key::FwDeepSpeed),
            (Framework::Fsdp, Key::FwFsdp),
            (Framework::Torchtune, Key::FwTorchtune),
            (Framework::Custom, Key::FwCustom),
        ],
    );
    let kernels = opts(
        lang,
        vec![
            (AttentionKernel::Flash2, Key::AttnFlash2),
            (AttentionKernel::Fused, Key::AttnFused),
            (AttentionKernel::Xformers, Key::AttnXformers),
        ],
    );
    let on_framework = enum_set(sc, |s, f: Framework| s.training.set_framework(f));
    // Like every switch below, choosing a kernel turns the framework into "custom switches".
    let on_kernel = enum_set(sc, |s, k: AttentionKernel| {
        s.training.conventions.attention = k;
        s.training.framework = Framework::Custom;
    });
    let c = move |f: fn(&Conventions) -> bool| Signal::derive(move || sc.with(|s| f(&s.training.conventions)));
    let training = get(sc, |s| s.task.is_training());
    view! {
        <Show when=move || training.get()>
            <SelectField label=Key::FrameworkLabel testid="framework" options=frameworks value=enum_get(sc, |s| s.training.framework) on_change=on_framework/>
            <details class="conventions" data-testid="conventions">
                <summary>{tr(lang, Key::Conventions)}</summary>
                <CheckField label=Key::Fp32Params testid="cv-fp32-params" value=c(|c| c.fp32_params) on_change=conv(sc, |c, v| c.fp32_params = v)/>
                <CheckField label=Key::GradFp32 testid="cv-grad-fp32" value=c(|c| c.grad == GradDtype::Fp32) on_change=conv(sc, |c, v| c.grad = if v { GradDtype::Fp32 } else { GradDtype::Half })/>
                <CheckField label=Key::StateBf16 testid="cv-state-bf16" value=c(|c| c.optimizer_state == StateDtype::Bf16) on_change=conv(sc, |c, v| c.optimizer_state = if v { StateDtype::Bf16 } else { StateDtype::Fp32 })/>
                <CheckField label=Key::Fp32GradPartition testid="cv-fp32-grad-part" value=c(|c| c.fp32_grad_partition) on_change=conv(sc, |c, v| c.fp32_grad_partition = v)/>
                <CheckField label=Key::Zero2FullGrads testid="cv-zero2-full" value=c(|c| c.zero2_full_grads) on_change=conv(sc, |c, v| c.zero2_full_grads = v)/>
                <CheckField label=Key::OptInBackward testid="cv-opt-bwd" value=c(|c| c.optimizer_in_backward) on_change=conv(sc, |c, v| c.optimizer_in_backward = v)/>
                <CheckField label=Key::PagedOptimizer testid="cv-paged" value=c(|c| c.paged_optimizer) on_change=conv(sc, |c, v| c.paged_optimizer = v)/>
                <CheckField label=Key::ChunkedLoss testid="cv-chunked" value=c(|c| c.chunked_loss) on_change=conv(sc, |c, v| c.chunked_loss = v)/>
                <NumField label=Key::BucketElems testid="cv-bucket" limits=TRAINING_CONVENTIONS_BUCKET_ELEMS.shown(1e-6) value=num(sc, |s| s.training.conventions.bucket_elems / 1e6) on_change=conv(sc, |c, v: f64| c.bucket_elems = v * 1e6)/>
                <NumField label=Key::PrefetchElems testid="cv-prefetch" limits=TRAINING_CONVENTIONS_PREFETCH_ELEMS.shown(1e-6) value=num(sc, |s| s.training.conventions.prefetch_elems / 1e6) on_change=conv(sc, |c, v: f64| c.prefetch_elems = v * 1e6)/>
                <NumField label=Key::GatheredLayers testid="cv-gathered" limits=TRAINING_CONVENTIONS_GATHERED_LAYERS.shown(1.0) value=num(sc, |s| s.training.conventions.gathered_layers) on_change=conv(sc, |c, v: f64| c.gathered_layers = v)/>
                <CheckField label=Key::PerModule testid="cv-per-module" value=c(|c| c.gather_per_module) on_change=conv(sc, |c, v| c.gather_per_module = v)/>
                <CheckField label=Key::Dropout testid="cv-dropout" value=c(|c| c.dropout) on_change=conv(sc, |c, v| c.dropout = v)/>
                <CheckField label=Key::SequenceParallel testid="cv-sp" value=c(|c| c.sequence_parallel) on_change=conv(sc, |c, v| c.sequence_parallel = v)/>
                <CheckField label=Key::FusedSwiglu testid="cv-fused-swiglu" value=c(|c| c.fused_swiglu) on_change=conv(sc, |c, v| c.fused_swiglu = v)/>
                <CheckField label=Key::FusedKernels testid="cv-fused-kernels" value=c(|c| c.fused_kernels) on_change=conv(sc, |c, v| c.fused_kernels = v)/>
                <CheckField label=Key::OpSac testid="cv-op-sac" value=c(|c| c.op_sac) on_change=conv(sc, |c, v| c.op_sac = v)/>
                <CheckField label=Key::OverlapGrad testid="cv-overlap" value=c(|c| c.overlap_grad_reduce) on_change=conv(sc, |c, v| c.overlap_grad_reduce = v)/>
                <CheckField label=Key::OverlapTp testid="cv-overlap-tp" value=c(|c| c.overlap_tp_comm) on_change=conv(sc, |c, v| c.overlap_tp_comm = v)/>
                <CheckField label=Key::OverlapMoe testid="cv-overlap-moe" value=c(|c| c.overlap_moe_comm) on_change=conv(sc, |c, v| c.overlap_moe_comm = v)/>
                <CheckField label=Key::DedupDispatch testid="cv-dedup-dispatch" value=c(|c| c.dedup_dispatch) on_change=conv(sc, |c, v| c.dedup_dispatch = v)/>
                <CheckField label=Key::AdapterFp32 testid="cv-adapter-fp32" value=c(|c| c.adapter_fp32) on_change=conv(sc, |c, v| c.adapter_fp32 = v)/>
                <CheckField label=Key::DoubleQuant testid="cv-dq" value=c(|c| c.double_quant) on_change=conv(sc, |c, v| c.double_quant = v)/>
                <CheckField label=Key::GroupScales testid="cv-scales" value=c(|c| c.group_scales) on_change=conv(sc, |c, v| c.group_scales = v)/>
                <CheckField label=Key::QuantEmbeddings testid="cv-quant-emb" value=c(|c| c.quantize_embeddings) on_change=conv(sc, |c, v| c.quantize_embeddings = v)/>
                <CheckField label=Key::AttentionFlops testid="cv-attn-flops" value=c(|c| c.attention_flops) on_change=conv(sc, |c, v| c.attention_flops = v)/>
                <SelectField label=Key::AttentionKernel testid="cv-attention" options=kernels value=enum_get(sc, |s| s.training.conventions.attention) on_change=on_kernel/>
                <NumField label=Key::VirtualStages testid="virtual-stages" limits=PARALLEL_VIRTUAL_STAGES.shown(1.0) value=num(sc, |s| f64::from(s.parallel.virtual_stages)) on_change=set(sc, |s, v: f64| s.parallel.virtual_stages = v as u32)/>
            </details>
        </Show>
    }
}
