//! LoRA's step speed-up over full fine-tuning. LoRA skips the frozen weights' gradients (2N of
//! the 6N FLOPs per token) but not the attention scores' backward, which has no weights.
//! Measured ratios on the same hardware and layout (docs/research/2026-12-01-goodput-and-lora-speed.md):
//! NeMo 24.12 performance summary, Llama 2 7B on 8 H100, FP8, TP1 PP1, GBS 32, packed 4096:
//! SFT 16,891 and LoRA 24,824 tokens/s/GPU (1.47×); Hu et al. 2021 footnote 5, GPT-3 175B on
//! V100: 32.5 and 43.1 tokens/s/GPU (1.33×).
#![cfg(not(target_arch = "wasm32"))] // host only

mod common;
use gpu_planner::domain::accuracy::{cases, scenario, table_of};
use gpu_planner::domain::compute::training_flops;
use gpu_planner::domain::model::preset;
use gpu_planner::domain::scenario::Task;
use gpu_planner::domain::Catalog;

/// FlashAttention-2 (Dao 2023, §3.1): the backward of the score matmuls costs about twice the
/// forward's 4·s·(heads·d) per token and layer whatever is trained, so LoRA's attention term is
/// full fine-tuning's 12·L·h·s; only the dense 6N drops to 4N.
#[test]
fn lora_keeps_the_attention_backward() {
    let m = preset("llama-3.1-8b").expect("preset");
    let (s, tokens) = (8192, 1e6);
    let lora = training_flops(m, Task::Lora, s, tokens, true);
    let full = training_flops(m, Task::FullFinetune, s, tokens, true);
    let n = m.params().active;
    common::assert_close(full - lora, 2.0 * n * tokens, 1e-9);
    let attention = 12.0 * f64::from(m.layers) * f64::from(m.heads * m.head_dim()) * f64::from(s) * tokens;
    common::assert_close(lora - 4.0 * n * tokens, attention, 1e-9);
}

/// The NeMo SFT row of the accuracy table, run again as LoRA at the same layout: the speed-up
/// lies between the two published ratios, within 10% of each.
#[test]
fn lora_speed_up_lies_between_the_published_ratios() {
    let sft = cases().iter().find(|c| c.id == "nemo-llama2-7b-sft-8xh100-fp8-tokps").expect("row").clone();
    let mut lora = sft.clone();
    lora.scenario["task"] = serde_json::json!("lora");
    assert_eq!(scenario(&lora).expect("scenario").task, Task::Lora);
    let rows = table_of(&[sft, lora], Catalog::embedded());
    let ratio = rows[1].ours.expect("lora") / rows[0].ours.expect("sft");
    for published in [24_824.0 / 16_891.0, 43.1 / 32.5] {
        assert!((ratio / published - 1.0).abs() < 0.10, "ratio {ratio} vs published {published}");
    }
    assert!(ratio < 24_824.0 / 16_891.0 && ratio > 43.1 / 32.5 * 0.98, "{ratio}");
}

/// LoRA reduces only its adapters' gradients over the data-parallel ranks (Hu et al. 2021: the
/// frozen weights have none): on the same 8-card layout its all-reduce carries the adapters'
/// share of full fine-tuning's bytes, r·(d_in + d_out) per adapted matrix (memory::lora_params).
#[test]
fn lora_reduces_only_its_adapters_gradients() {
    use gpu_planner::domain::compute::mfu;
    use gpu_planner::domain::memory::{lora_params, Layout};
    use gpu_planner::domain::Scenario;
    let mut s = Scenario { task: Task::FullFinetune, model: "llama-3.1-8b".into(), ..Scenario::default() };
    s.training.seq_len = 4096;
    let m = s.model_spec().expect("model").clone();
    let g = Catalog::embedded().gpu("h100-sxm").cloned().expect("h100");
    let l = Layout { dp: 8, zero: 1, ..Layout::single() };
    let full = mfu(&m, &s, &g, &l).expect("mfu").comm.dp_s;
    s.task = Task::Lora;
    let lora = mfu(&m, &s, &g, &l).expect("mfu").comm.dp_s;
    let share = lora_params(&m, s.lora.rank, s.lora.targets) / m.params().total;
    assert!(share > 0.0 && share < 0.01, "{share}");
    common::assert_close(lora, full * share, 1e-9);
}
