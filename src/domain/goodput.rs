//! Whole-run goodput: the share of a training run's wall time spent in training steps, lost to
//! failures (the work since the last checkpoint, and the restart) and to checkpoint writes.
//! It depends on the run's scale and length: a few cards for a few hours rarely fail, a
//! 16,384-GPU job fails every few hours. Checkpoints follow Young's optimal interval,
//! τ = √(2·δ·M) for a blocking write of δ and a mean time to failure M (Young 1974, "A first
//! order approximation to the optimum checkpoint interval", CACM 17(9)); each failure then costs
//! τ/2 of lost work plus the restart R, and each checkpoint δ.

/// Unexpected interruptions per GPU-hour: 419 in a 54-day snapshot of Llama 3 405B pre-training
/// on 16,384 H100s (Dubey et al. 2024, §3.3.4 and Table 5), ≈ 1.97e-5 — a job of N cards fails
/// every 1 / (N × this) hours (3.1 h at 16,384 cards, 5.8 years on one card).
pub const FAILURES_PER_GPU_HOUR: f64 = 419.0 / (16_384.0 * 54.0 * 24.0);

/// Seconds a checkpoint write stalls training, with asynchronous checkpointing (the practice of
/// large runs): PyTorch DCP `async_save` "6 – 14 seconds for 7B-13B model sizes" (PyTorch blog,
/// "Reducing Model Checkpointing Times by Over 10x", 2024-06-12); MegaScale's GPU-to-host stage
/// "several seconds" (Jiang et al. 2024, §4.4); Kokolis et al. 2024 (arXiv 2410.21680): "under
/// a minute O(10s), achievable with asynchronous checkpoint writing strategies".
pub const CHECKPOINT_S: f64 = 10.0;

/// Seconds from a failure to training again (detection, rescheduling, reloading, warm-up):
/// Kokolis et al. 2024 give a restart overhead u0 ≈ 5–20 min on Meta's RSC clusters; ByteRobust
/// (arXiv 2509.16293): failover "often more than 10 minutes" at 10,000 GPUs. 10 minutes.
pub const RESTART_S: f64 = 600.0;

/// How a run's goodput came about, for "how this was computed".
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Goodput {
    /// Share of wall time in training steps.
    pub share: f64,
    /// The job's mean time between failures, hours (`None` when the user stated the share).
    pub mttf_h: Option<f64>,
    /// Hours between checkpoints (Young's interval, at most the run).
    pub interval_h: Option<f64>,
}

/// A cluster's failure rate and a framework's checkpoint stall and restart time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reliability {
    pub failures_per_gpu_hour: f64,
    pub checkpoint_s: f64,
    pub restart_s: f64,
}

/// The figures above.
pub const TYPICAL: Reliability =
    Reliability { failures_per_gpu_hour: FAILURES_PER_GPU_HOUR, checkpoint_s: CHECKPOINT_S, restart_s: RESTART_S };

/// The goodput of a run of `steady_h` hours of training steps on `gpus` cards, or the user's
/// `stated` share.
#[must_use]
pub fn of(stated: Option<f64>, gpus: u32, steady_h: f64) -> Goodput {
    match stated {
        Some(share) => Goodput { share, mttf_h: None, interval_h: None },
        None => of_cluster(&TYPICAL, gpus, steady_h),
    }
}

/// [`of`] for a cluster with its own reliability figures.
#[must_use]
pub fn of_cluster(r: &Reliability, gpus: u32, steady_h: f64) -> Goodput {
    let mttf = 1.0 / (f64::from(gpus.max(1)) * r.failures_per_gpu_hour);
    let (delta, restart) = (r.checkpoint_s / 3600.0, r.restart_s / 3600.0);
    let steady = steady_h.max(0.0);
    let young = (2.0 * delta * mttf).sqrt();
    // Expected lost hours per training hour: checkpoint writes, and per failure the half
    // interval of lost work and the restart. A run shorter than Young's interval writes no
    // checkpoint on the way and a failure loses half of it on average.
    let (interval, loss) = if steady <= young {
        (steady, (steady / 2.0 + restart) / mttf)
    } else {
        (young, delta / young + (young / 2.0 + restart) / mttf)
    };
    Goodput { share: (1.0 / (1.0 + loss)).clamp(0.05, 1.0), mttf_h: Some(mttf), interval_h: Some(interval) }
}

/// Wall-clock hours of `steady_h` hours of training steps: steady / goodput.
#[must_use]
pub fn wall_hours(stated: Option<f64>, gpus: u32, steady_h: f64) -> f64 {
    steady_h / of(stated, gpus, steady_h).share
}

/// The goodput behind `wall_h` wall-clock hours on `gpus` cards (for the explanation, which has
/// the wall time): a few fixed-point steps of steady = wall × share.
#[must_use]
pub fn from_wall(stated: Option<f64>, gpus: u32, wall_h: f64) -> Goodput {
    let mut g = of(stated, gpus, wall_h);
    for _ in 0..4 {
        g = of(stated, gpus, wall_h * g.share);
    }
    g
}

/// "goodput 91% (one failure per 3.1 h on these cards, checkpoints every 19 min)", or the
/// stated share.
#[must_use]
pub fn describe(g: &Goodput) -> String {
    match (g.mttf_h, g.interval_h) {
        (Some(m), Some(i)) => format!(
            "goodput {:.0}% (one failure per {} on these cards, checkpoints every {})",
            g.share * 100.0,
            span(m),
            span(i)
        ),
        _ => format!("goodput {:.0}% (yours)", g.share * 100.0),
    }
}

fn span(h: f64) -> String {
    if h < 1.0 {
        format!("{:.0} min", h * 60.0)
    } else if h < 48.0 {
        format!("{h:.1} h")
    } else {
        format!("{:.0} d", h / 24.0)
    }
}
