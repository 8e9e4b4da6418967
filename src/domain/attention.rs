//! The attention kernel's own speed in a training step. FlashAttention-2 runs at a share of
//! peak that depends on the card, the head dimension and the sequence length, and on an H100
//! (whose FA2 is the Ampere kernel run unchanged) at about half the A100's share: pricing the
//! scores as GEMMs, as the MFU convention counts them, overstates it on an A100 and understates
//! it on an H100. Hopper-native kernels (Transformer Engine's cuDNN fused attention, FA3) run
//! near the GEMMs' share: their causal forward + backward is not published
//! (docs/research/2026-12-05-attention-kernel-efficiency.md), so they keep the GEMM pricing.
//! xformers' memory-efficient kernel (Llama 1 and 2) runs at about half FA2's speed on an A100.

use super::catalog::Gpu;

/// Sequence lengths of the published FA2 benchmark (16k tokens per run, hidden 2048, FP16).
pub const SEQ: [f64; 6] = [512.0, 1024.0, 2048.0, 4096.0, 8192.0, 16384.0];

/// FlashAttention-2's published forward + backward throughput on one card, causal, TFLOPs/s
/// under the benchmark's own count (forward 4·b·s²·heads·d halved for the causal mask, backward
/// 2.5× the forward: `benchmarks/benchmark_flash_attention.py`), at [`SEQ`], head dimension 64
/// and 128.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fa2 {
    pub gpu: &'static str,
    pub architecture: &'static str,
    /// The dense 16-bit peak the shares are taken against, TFLOPS.
    pub peak: f64,
    pub hd64: [f64; 6],
    pub hd128: [f64; 6],
    /// xformers' memory-efficient attention in the same figures (A100 only).
    pub xformers: Option<([f64; 6], [f64; 6])>,
}

/// Dao-AILab/flash-attention README figures `assets/flash2_a100_fwd_bwd_benchmark.png` and
/// `assets/flash2_h100_fwd_bwd_benchmark.png` (FA2 paper, Dao 2023, Figs. 4 and 7), panels
/// "With causal mask, head dimension 64 / 128" (FlashAttention-2 and xformers bars).
pub const FA2: [Fa2; 2] = [
    Fa2 {
        gpu: "a100-80gb-sxm4",
        architecture: "Ampere",
        peak: 312.0,
        hd64: [88.0, 119.0, 140.0, 156.0, 165.0, 171.0],
        hd128: [99.0, 133.0, 155.0, 173.0, 182.0, 189.0],
        xformers: Some(([51.0, 60.0, 66.0, 68.0, 69.0, 67.0], [58.0, 72.0, 82.0, 87.0, 91.0, 92.0])),
    },
    Fa2 {
        gpu: "h100-sxm",
        architecture: "Hopper",
        peak: 989.4,
        hd64: [141.0, 192.0, 232.0, 257.0, 273.0, 284.0],
        hd128: [163.0, 221.0, 265.0, 294.0, 308.0, 328.0],
        xformers: None,
    },
];

/// FLOPs per token of a causal FlashAttention forward + backward, per unit of layers ×
/// (heads · head dimension) × sequence length, under the benchmark's count: 3.5 × 4·s²/2 per
/// sequence of s tokens = 7·s per token and attention width.
pub const FA_FLOPS: f64 = 7.0;

/// The FA2 figures card `g` uses: its own, else those of the measured card of its architecture
/// (as a share of peak: an assumption for the smaller dies). `None` for other architectures and
/// software stacks, which keep the GEMM pricing.
#[must_use]
pub fn fa2_of(g: &Gpu) -> Option<&'static Fa2> {
    if g.software != "cuda" {
        return None;
    }
    FA2.iter()
        .find(|f| f.gpu == g.id)
        .or_else(|| FA2.iter().find(|f| g.architecture.as_deref() == Some(f.architecture)))
}

/// FA2's forward + backward share of dense 16-bit peak on `f`'s card at head dimension `head_dim`
/// and `seq` tokens: interpolated in ln(seq) between the published lengths (the end values
/// beyond them) and linearly in the head dimension between 64 and 128 (the nearer table
/// outside).
#[must_use]
pub fn fa2_share(f: &Fa2, head_dim: u32, seq: f64) -> f64 {
    share_of(f, (&f.hd64, &f.hd128), head_dim, seq)
}

/// [`fa2_share`] for xformers' kernel, where the figures have it.
#[must_use]
pub fn xformers_share(f: &Fa2, head_dim: u32, seq: f64) -> Option<f64> {
    f.xformers.as_ref().map(|(a, b)| share_of(f, (a, b), head_dim, seq))
}

fn share_of(f: &Fa2, (hd64, hd128): (&[f64; 6], &[f64; 6]), head_dim: u32, seq: f64) -> f64 {
    let at = |row: &[f64; 6]| {
        let x = seq.clamp(SEQ[0], SEQ[5]);
        let i = SEQ.windows(2).position(|w| x <= w[1]).unwrap_or(4);
        let t = (x / SEQ[i]).ln() / (SEQ[i + 1] / SEQ[i]).ln();
        (row[i] + t * (row[i + 1] - row[i])) / f.peak
    };
    let w = ((f64::from(head_dim) - 64.0) / 64.0).clamp(0.0, 1.0);
    at(hd64) * (1.0 - w) + at(hd128) * w
}
