//! Memory terms held to their published definitions, from memory.rs mutants that survived the
//! rest of the suite.
#![cfg(not(target_arch = "wasm32"))] // host only

use gpu_planner::domain::framework::StateDtype;
use gpu_planner::domain::memory::optimizer_bytes;
use gpu_planner::domain::model::preset;
use gpu_planner::domain::scenario::Optimizer;

/// 8-bit AdamW (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization", §2): both
/// moments in 8 bits, quantized in blocks of 2,048 values, each block with one fp32 absmax:
/// 2 × (1 + 4/2048) = 2.00390625 bytes per parameter.
#[test]
fn eight_bit_adam_keeps_one_fp32_scale_per_2048_values() {
    let m = preset("llama-3.1-8b").unwrap_or_else(|| panic!("preset"));
    let got = optimizer_bytes(Optimizer::AdamW8bit, m, StateDtype::Fp32);
    assert!((got - 2.003_906_25).abs() < 1e-12, "{got}");
}

/// Adafactor without momentum (Shazeer & Stern 2018, §3): the second moment of an n × m matrix
/// is kept as its row and column sums, n + m fp32 values instead of n·m. For Llama 3.1 8B's
/// MLP matrices (4,096 × 14,336): 4 · (4,096 + 14,336) bytes per 4,096 · 14,336 parameters.
#[test]
fn adafactor_keeps_row_and_column_sums() {
    let m = preset("llama-3.1-8b").unwrap_or_else(|| panic!("preset"));
    let got = optimizer_bytes(Optimizer::Adafactor, m, StateDtype::Fp32);
    let want = 4.0 * (4096.0 + 14336.0) / (4096.0 * 14336.0);
    assert!((got / want - 1.0).abs() < 1e-12, "{got} vs {want}");
    // Full AdamW at fp32 for comparison: two moments, 8 bytes.
    assert!((optimizer_bytes(Optimizer::AdamW, m, StateDtype::Fp32) - 8.0).abs() < 1e-12);
}
