//! How fast a MoE layer's expert GEMMs run against the dense GEMMs a card's share of peak is set
//! from (kernels.rs), measured per expert shape and rows per expert.
//!
//! Source: ai-dynamo/aiconfigurator (Apache-2.0), commit 095f58a5 (2026-08-21),
//! `systems/data/h100_sxm/moe/trtllm/1.3.0rc20/moe_perf.parquet`: one forward of a whole MoE
//! block on an H100 SXM in a CUDA graph (top-k routing, permute, grouped gate+up GEMM, SwiGLU,
//! grouped down GEMM, un-permute with the weighted sum; TensorRT-LLM's CUTLASS grouped GEMM),
//! BF16, one GPU holding every expert (`moe_tp_size` = `moe_ep_size` = 1), balanced routing.
//! Each point is the block's FLOPs (2·3·tokens·top-k·hidden·inter) over its latency and the
//! 989 TFLOPS dense peak, divided by 0.7794, the same engine's median share of its dense BF16
//! GEMMs with m, n, k ≥ 4096 (`gemm/trtllm/1.3.0rc20/gemm_perf.parquet`). The figures are used as
//! facts, no code is copied; docs/research/2026-12-05-moe-ops.md reads the collector, and
//! docs/research/2026-12-05-moe-block-ratio.json holds every point with its latency.
//!
//! What the table shows: with few rows per expert the block is bound by reading the experts'
//! weights (the ratio grows with the rows, about 0.0035 per row on an H100: arithmetic intensity
//! equals the rows, against a 989 TFLOPS / 3.35 TB/s ridge); with many rows it levels off at a
//! ceiling set by the experts' width: 0.45–0.60 for 512–768-wide experts, 0.8–0.9 for 1,536–3,072,
//! the dense share for 8,192 and wider.

/// One measured expert shape: hidden size, expert intermediate size, and the block's speed
/// relative to the dense GEMM median at each number of rows (token-expert pairs) per expert.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    pub hidden: u32,
    pub inter: u32,
    /// (rows per expert, ratio), rows ascending.
    pub points: &'static [(f64, f64)],
}

/// The shapes of the source file whose experts and top-k are powers of two, so that the
/// power-of-two token counts give power-of-two rows per expert (the 160-expert, 10- and
/// 22-of-512 and 6-of-128 shapes are left out: their rows fall between tiles, and the ratio
/// alternates from one token count to the next), from 32 rows up; the 128-expert top-1 shape
/// too, measured only to 128 rows with the same experts as the 16-expert one.
pub const SHAPES: [Shape; 11] = [
    Shape {
        hidden: 2048,
        inter: 512,
        points: &[(32.0, 0.10), (64.0, 0.18), (128.0, 0.28), (256.0, 0.38), (512.0, 0.45)],
    },
    Shape {
        hidden: 2048,
        inter: 768,
        points: &[(32.0, 0.10), (64.0, 0.18), (128.0, 0.31), (256.0, 0.47), (512.0, 0.55), (1024.0, 0.60)],
    },
    Shape {
        hidden: 2816,
        inter: 704,
        points: &[(32.0, 0.10), (64.0, 0.18), (128.0, 0.31), (256.0, 0.46), (512.0, 0.53), (1024.0, 0.57)],
    },
    Shape {
        hidden: 3072,
        inter: 1024,
        points: &[(32.0, 0.11), (64.0, 0.21), (128.0, 0.35), (256.0, 0.55), (512.0, 0.66)],
    },
    Shape {
        hidden: 4096,
        inter: 1536,
        points: &[(32.0, 0.12), (64.0, 0.22), (128.0, 0.38), (256.0, 0.63), (512.0, 0.78), (1024.0, 0.82)],
    },
    Shape {
        hidden: 4096,
        inter: 2048,
        points: &[(32.0, 0.12), (64.0, 0.22), (128.0, 0.40), (256.0, 0.67), (512.0, 0.81)],
    },
    Shape {
        hidden: 6144,
        inter: 2048,
        points: &[(32.0, 0.11), (64.0, 0.21), (128.0, 0.39), (256.0, 0.67), (512.0, 0.85)],
    },
    Shape {
        hidden: 6144,
        inter: 3072,
        points: &[(32.0, 0.11), (64.0, 0.21), (128.0, 0.40), (256.0, 0.72), (512.0, 0.92)],
    },
    Shape {
        hidden: 5120,
        inter: 8192,
        points: &[(32.0, 0.12), (64.0, 0.23), (128.0, 0.44), (256.0, 0.76), (512.0, 1.00), (1024.0, 1.03)],
    },
    Shape {
        hidden: 4096,
        inter: 14336,
        points: &[
            (32.0, 0.12),
            (64.0, 0.22),
            (128.0, 0.41),
            (256.0, 0.72),
            (512.0, 0.99),
            (1024.0, 1.03),
            (4096.0, 1.04),
        ],
    },
    Shape {
        hidden: 6144,
        inter: 16384,
        points: &[
            (32.0, 0.12),
            (64.0, 0.22),
            (128.0, 0.43),
            (256.0, 0.78),
            (512.0, 1.06),
            (1024.0, 1.07),
            (4096.0, 1.06),
        ],
    },
];

/// The measured shape nearest an expert of `inter` columns per rank in a model of `hidden`:
/// nearest in width (log distance), then in hidden size.
#[must_use]
pub fn nearest(hidden: f64, inter: f64) -> &'static Shape {
    // The larger of the two ratios orders as |ln| does, without a logarithm per shape.
    let far = |s: &Shape| {
        let d = |a: f64, b: f64| (a.max(1.0) / b).max(b / a.max(1.0));
        (d(inter, f64::from(s.inter)), d(hidden, f64::from(s.hidden)))
    };
    SHAPES
        .iter()
        .min_by(|a, b| {
            let (fa, fb) = (far(a), far(b));
            fa.0.total_cmp(&fb.0).then(fa.1.total_cmp(&fb.1))
        })
        .unwrap_or(&SHAPES[0])
}

/// The expert GEMMs' speed relative to the dense GEMMs at `rows` token-expert pairs per expert:
/// the nearest shape's curve, interpolated in log rows, held at its ends outside them, and at
/// most 1 (the wide shapes' 1.03–1.07 is the gap between two medians, not a faster kernel).
#[must_use]
pub fn ratio(hidden: f64, inter: f64, rows: f64) -> f64 {
    ratio_on(nearest(hidden, inter), rows)
}

/// [`ratio`] on a shape already chosen.
#[must_use]
pub fn ratio_on(shape: &Shape, rows: f64) -> f64 {
    let p = shape.points;
    let (Some(&first), Some(&last)) = (p.first(), p.last()) else { return 1.0 };
    // Between the ends (NaN rows take the first point), the point after `rows` is 1..len−1.
    let r = if rows.is_nan() || rows <= first.0 {
        first.1
    } else if rows >= last.0 {
        last.1
    } else {
        let i = p.partition_point(|&(m, _)| m <= rows);
        let ((m0, r0), (m1, r1)) = (p[i - 1], p[i]);
        r0 + (r1 - r0) * (rows / m0).ln() / (m1 / m0).ln()
    };
    r.min(1.0)
}
