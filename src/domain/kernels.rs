//! Measured shares of dense peak per card and operator: the GEMMs and the attention kernels a
//! training step is made of, distilled from per-operator timings (docs/research/
//! 2026-12-01-measured-gemm.md and .json hold every point, its file and commit).
//!
//! Source: ai-dynamo/aiconfigurator (Apache-2.0), commit 095f58a5 (2026-08-21); the figures are
//! used as facts, no code is copied. GEMM: `systems/data/<card>/gemm/trtllm/1.3.0rc20/
//! gemm_perf.parquet` (A100: sglang 0.5.10; RTX 5090: vllm 0.22.0 from PR #1312, locked clocks),
//! the median over the twelve (N, K) shapes of M = 4096 and 16384 tokens (N, K from 1024 to
//! 16384), measured TFLOPS over the catalog's dense peak. FP8: the per-tensor `fp8` rows, which
//! include the dynamic activation quantization a training FP8 recipe also pays. These are forward, inference-framework measurements on
//! unlocked clocks: a training step's backward GEMMs, launch gaps and framework work are the
//! [`TRAINING_SHARE`] the published runs set on top.

use super::catalog::Gpu;
use super::scenario::Precision;

/// One card's measured shares of its dense peak.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// Catalog id of the card measured.
    pub gpu: &'static str,
    /// Catalog architecture: unmeasured cards of the same one borrow these figures.
    pub architecture: &'static str,
    /// Its dense BF16 peak in catalog.json (tests/kernels.rs keeps them equal), TFLOPS.
    pub peak: f64,
    /// BF16 GEMM TFLOPS / dense BF16 peak.
    pub gemm: f64,
    /// FP8 (per-tensor, quantization included) GEMM TFLOPS / dense FP8 peak.
    pub gemm_fp8: Option<f64>,
    /// The share of its isolated 16-bit kernels' speed a training step keeps on this card (and
    /// on the cards that borrow its figures), where its own calibration rows set one; `None`:
    /// the joint [`TRAINING_SHARE`].
    pub training: Option<f64>,
}

/// The measured cards. A100: FP8 absent from the silicon. RTX 5090: GeForce BF16 peak with FP32
/// accumulation (209.5 TFLOPS); no FP8 rows. RTX PRO 6000: the Server Edition's figures against the workstation card's peak.
pub const MEASURED: [Measured; 8] = [
    Measured {
        gpu: "a100-80gb-sxm4",
        architecture: "Ampere",
        peak: 312.0,
        gemm: 0.803,
        gemm_fp8: None,
        training: Some(TRAINING_SHARE_A100),
    },
    Measured {
        gpu: "h100-sxm",
        architecture: "Hopper",
        peak: 989.4,
        gemm: 0.797,
        gemm_fp8: Some(0.508),
        training: None,
    },
    Measured {
        gpu: "h200-sxm",
        architecture: "Hopper",
        peak: 989.4,
        gemm: 0.770,
        gemm_fp8: Some(0.510),
        training: None,
    },
    Measured {
        gpu: "l40s",
        architecture: "Ada Lovelace",
        peak: 362.05,
        gemm: 0.605,
        gemm_fp8: Some(0.433),
        training: None,
    },
    Measured {
        gpu: "b200-hgx",
        architecture: "Blackwell",
        peak: 2250.0,
        gemm: 0.634,
        gemm_fp8: Some(0.451),
        training: None,
    },
    Measured {
        gpu: "b300-hgx",
        architecture: "Blackwell Ultra",
        peak: 2250.0,
        gemm: 0.710,
        gemm_fp8: Some(0.413),
        training: None,
    },
    Measured {
        gpu: "rtx-pro-6000-blackwell",
        architecture: "Blackwell",
        peak: 503.8,
        gemm: 0.790,
        gemm_fp8: Some(0.615),
        training: None,
    },
    Measured { gpu: "rtx-5090", architecture: "Blackwell", peak: 209.5, gemm: 0.93, gemm_fp8: None, training: None },
];

/// The cards the published training runs that set [`TRAINING_SHARE`] ran on (the calibration
/// rows of src/domain/accuracy.json): the reference an unmeasured stack is scaled from.
pub const REFERENCE: [&str; 2] = ["a100-80gb-sxm4", "h100-sxm"];

/// Share of the isolated kernels' speed a training step keeps: backward GEMMs (dgrad and wgrad
/// with transposed operands), launch gaps, the optimizer and framework work. 0.59 / 0.80: the
/// steady-state rows of four software stacks run their GEMMs at 0.59 of peak once their
/// elementwise time is added back (Narayanan et al. 2021 Table 1, Korthikanti et al. 2022, NeMo
/// 24.x on H100, OPT-175B — docs/research/2026-11-30-kernel-efficiency-experiment.md), on cards
/// whose isolated GEMMs measure 0.80 (the A100/H100 mean of [`MEASURED`]). The 17 NVIDIA BF16
/// calibration rows of src/domain/accuracy.json then run at a median 0.98 of their published
/// speed (docs/research/2026-12-01-operator-model.md). The H100's four BF16 calibration rows
/// (Llama 3 405B) sit at a median 0.98 of theirs at this share, inside their scatter; the A100
/// sits lower and gets its own ([`TRAINING_SHARE_A100`]).
pub const TRAINING_SHARE: f64 = 0.7375;

/// [`TRAINING_SHARE`] of the A100 and the Ampere cards that borrow its figures, set on the A100's
/// own 13 BF16/FP16 speed calibration rows (Narayanan et al. 2021, Korthikanti et al. 2022,
/// Llama 2 and BLOOM GPU-hours, OPT-175B): at the joint 0.7375 they ran at a median 0.975 of
/// their published speed, at 0.763 at 1.00; since hidden collectives slow the compute beside
/// them (comms::contended, session 39) 0.763 gives 0.983 and 0.782 gives 1.00
/// (tests/accuracy.rs recomputes it). Why a card keeps a different share: the part of a step that is not its GEMMs (launch gaps, the optimizer,
/// framework work) is a smaller slice of a slower card's step. The held-out A100 rows had shown
/// the same lean (median −15%) before this was set: docs/research/2026-12-05-session31.md.
pub const TRAINING_SHARE_A100: f64 = 0.782;

/// [`TRAINING_SHARE`] of FP8 steps, set on the six NeMo 24.x H100 FP8 calibration rows (median
/// 1.01 of their published speed, 1.00 once hidden collectives slow the compute beside them;
/// Transformer Engine fuses the activation quantization into the preceding kernel, which the
/// measured per-tensor rows pay apart, hence above BF16's share).
pub const TRAINING_SHARE_FP8: f64 = 0.85;

/// Where a card's kernel figures come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Source {
    /// Measured on this card.
    Own(&'static Measured),
    /// Borrowed from a measured card of the same architecture.
    Borrowed(&'static Measured),
    /// No measured card of its architecture: the reference cards' mean, scaled by its stack.
    Reference,
}

impl Source {
    /// The measured figures, when there are any.
    #[must_use]
    pub fn measured(&self) -> Option<&'static Measured> {
        match self {
            Self::Own(m) | Self::Borrowed(m) => Some(m),
            Self::Reference => None,
        }
    }
}

/// The figures card `g` uses: its own, else the measured card of its architecture nearest in
/// BF16 peak (log distance), else the reference.
#[must_use]
pub fn source(g: &Gpu) -> Source {
    if let Some(m) = MEASURED.iter().find(|m| m.gpu == g.id) {
        return Source::Own(m);
    }
    let same = MEASURED.iter().filter(|m| g.software == "cuda" && g.architecture.as_deref() == Some(m.architecture));
    nearest_in_peak(half_peak(g), same, |m| m.peak).map_or(Source::Reference, Source::Borrowed)
}

/// A card's 16-bit dense peak, TFLOPS (BF16, else FP16; 1 when unknown).
#[must_use]
pub fn half_peak(g: &Gpu) -> f64 {
    g.bf16_tflops.or(g.fp16_tflops).unwrap_or(1.0).max(1e-3)
}

/// The item whose peak is nearest `peak` in log distance (the larger of the two ratios, which
/// orders as |ln| does); the first of equals.
pub fn nearest_in_peak<T>(peak: f64, items: impl Iterator<Item = T>, peak_of: impl Fn(&T) -> f64) -> Option<T> {
    let far = |x: &T| (peak_of(x) / peak).max(peak / peak_of(x));
    items.min_by(|a, b| far(a).total_cmp(&far(b)))
}

/// The A100/H100 mean of [`MEASURED`]'s BF16 and FP8 shares (the A100 has no FP8), written out
/// because the search asks for them for every plan it tries; tests/kernels.rs recomputes them.
pub const REFERENCE_GEMM: f64 = (0.803 + 0.797) / 2.0;
/// See [`REFERENCE_GEMM`].
pub const REFERENCE_GEMM_FP8: f64 = 0.508;

/// Stack factor of a card without measurements, against the A100/H100 reference: CANN as CUDA
/// (MindSpeed-LLM's measured runs on 910B, the mindspeed-* calibration rows, fall within 25% at
/// the reference and 29–44% short at 0.7 of it); other stacks (ROCm, DTK, MUSA, …) × 0.7, a
/// stated assumption for less mature kernels with no calibration row.
#[must_use]
pub fn stack(g: &Gpu) -> f64 {
    match g.software.as_str() {
        "cuda" | "cann" => 1.0,
        _ => 0.7,
    }
}

/// A card of the same software stack as another (`of`) whose GEMMs were measured beside it by one
/// method: its GEMMs run at `of`'s share × the ratio of the two measured shares of peak (BF16 for
/// 16-bit math, and FP8). For the same die at another power limit the ratio is the sustained
/// clock's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sibling {
    pub gpu: &'static str,
    pub of: &'static str,
    pub bf16: f64,
    pub fp8: f64,
}

/// The MI325X is the MI300X's CDNA 3 die and peak (1,307 BF16 / 2,615 FP8 TFLOPS at 2,100 MHz)
/// at 1,000 W instead of 750 W. AMD, "Measuring Max-Achievable FLOPs – Part 2" (ROCm blogs,
/// 2025-02-28, Table 1; hipBLASLt-bench, normally distributed inputs, thermally stable, cold
/// caches): MI300X 708 TFLOPS BF16 at a median 1,207 MHz and 1,273 FP8 at 1,230 MHz; MI325X 843 at
/// 1,447 MHz and 1,519 at 1,464 MHz — ×1.19 from the sustained clock alone. (Stas Bekman's
/// ml-engineering MAMF table, another method and ROCm release, has 668.4 and 784.9 BF16: ×1.17.)
///
/// The MI355X is a CDNA 4 die (2,500 BF16 TFLOPS dense at 2,400 MHz, catalog): Stas Bekman's
/// ml-engineering "Maximum Achievable Matmul FLOPS" table (compute/accelerator/README.md, the
/// mamf-finder's best shape, mean of 100 iterations) has it at 1,565 TFLOPS BF16 (ROCm 7.0.2,
/// TunableOp off) beside the MI300X's 668.4 of 1,307.4 (ROCm 6.3, TunableOp on): 0.626 of peak
/// against 0.511, ×1.225. The table prints 2,300 as the MI355X's theory (the MI350X's rounded
/// peak); the share here is taken against the catalog's 2,500, the smaller reading. No FP8 row
/// exists for either card: FP8 is assumed to scale as BF16 (both peaks grow ×1.91 from the
/// MI300X to the MI355X). The MI350X, the same die at 2,200 MHz and 1,000 W, has no measurement and
/// stays at the reference. docs/research/2026-12-05-session31.md.
///
/// The H100 PCIe and H800 PCIe are the H100's die with 114 of its 132 SMs at 350 W: one script
/// (zzc0721/torch-performance-test-data, square `torch.mm`, 10 warm-up and 30 timed calls) measured
/// BF16 at 495.93 TFLOPS on an H100 PCIe (issue #95, bare metal), 503.83 on an H800 PCIe (#112)
/// and 797.51 on an H100 SXM (#79): 0.656 and 0.666 of their 756.5 against 0.806 of 989.4 — the
/// borrowed SXM share overstated them by a quarter. FP8 scales as BF16 here; the one PCIe FP8
/// figure (CUTLASS example 54, 690 TFLOPS, NVIDIA/cutlass #3168) against cuBLASLt's 1,290 on an
/// SXM (Azure AI-benchmarking-guide) is lower still, ×0.70 in share, across two libraries.
/// docs/research/2026-12-06-h100-pcie-gemm.md.
///
/// The H100 NVL is the full 132-SM die at 350–400 W: a cuBLAS FP16 GEMM (`cublasGemmEx`, FP32
/// accumulate, 10 warm-up and 30 timed calls, CUDA events) on a card printing "NVIDIA H100 NVL"
/// ran 461.985 TFLOPS at 8192³ (VibeGEMM's harness; 487.446 at 4096³), against the SXM's 736.19
/// at 8192² under the same protocol (zzc0721 #79, FP16 `torch.mm`, which calls cuBLAS): 0.553 of
/// its 835.5 against 0.744 of 989.4. FP16 and BF16 share one tensor-core rate on Hopper; FP8 scales
/// as BF16, as the PCIe's. docs/research/2026-12-07-h100-nvl-sibling-prereg.md.
pub const SIBLINGS: [Sibling; 5] = [
    Sibling { gpu: "mi325x", of: "mi300x", bf16: 843.0 / 708.0, fp8: 1519.0 / 1273.0 },
    Sibling { gpu: "mi355x", of: "mi300x", bf16: MI355X_MAMF, fp8: MI355X_MAMF },
    Sibling { gpu: "h100-pcie", of: "h100-sxm", bf16: H100_PCIE_MM, fp8: H100_PCIE_MM },
    Sibling { gpu: "h800-pcie", of: "h100-sxm", bf16: H800_PCIE_MM, fp8: H800_PCIE_MM },
    Sibling { gpu: "h100-nvl", of: "h100-sxm", bf16: H100_NVL_MM, fp8: H100_NVL_MM },
];

/// The H100 PCIe's measured BF16 share of peak over the H100 SXM's, one script ([`SIBLINGS`]).
pub const H100_PCIE_MM: f64 = (495.93 / 756.5) / (797.51 / 989.4);
/// The H800 PCIe's, the same script ([`SIBLINGS`]).
pub const H800_PCIE_MM: f64 = (503.83 / 756.5) / (797.51 / 989.4);

/// The H100 NVL's measured FP16 share of peak over the H100 SXM's, one protocol ([`SIBLINGS`]).
pub const H100_NVL_MM: f64 = (461.985 / 835.5) / (736.19 / 989.4);

/// The MI355X's measured BF16 share of peak over the MI300X's, one method ([`SIBLINGS`]).
pub const MI355X_MAMF: f64 = (1565.0 / 2500.0) / (668.4 / 1307.4);

/// The measured GEMM ratio of card `g` to its [`Sibling::of`] card (1 for others).
#[must_use]
pub fn sibling_ratio(g: &Gpu, fp8: bool) -> f64 {
    SIBLINGS.iter().find(|s| s.gpu == g.id).map_or(1.0, |s| if fp8 { s.fp8 } else { s.bf16 })
}

/// Isolated GEMM share of peak of card `g` at precision `p` (before [`TRAINING_SHARE`]).
#[must_use]
pub fn gemm_share(g: &Gpu, p: Precision) -> f64 {
    let fp8 = p == Precision::Fp8 && g.fp8_tflops.is_some();
    let measured = source(g).measured().and_then(|m| if fp8 { m.gemm_fp8 } else { Some(m.gemm) });
    measured.unwrap_or_else(|| if fp8 { REFERENCE_GEMM_FP8 } else { REFERENCE_GEMM } * stack(g)) * sibling_ratio(g, fp8)
}

/// [`TRAINING_SHARE`] of card `g` at precision `p` (a card without FP8 runs an FP8 scenario in
/// 16 bits; Ampere cards at [`TRAINING_SHARE_A100`]).
#[must_use]
pub fn training_share(g: &Gpu, p: Precision) -> f64 {
    if p == Precision::Fp8 && g.fp8_tflops.is_some() {
        TRAINING_SHARE_FP8
    } else {
        source(g).measured().and_then(|m| m.training).unwrap_or(TRAINING_SHARE)
    }
}
