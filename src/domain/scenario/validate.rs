//! Every number of a scenario finite and in a sane range, with the field named in the error.

use super::Scenario;
use crate::domain::error::PlanError;

fn check(field: &'static str, value: f64, min: f64, max: f64) -> Result<(), PlanError> {
    if value.is_finite() && (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(PlanError::OutOfRange { field, value, min, max })
    }
}

impl Scenario {
    /// Checks every number is finite and in a sane range.
    ///
    /// # Errors
    /// The first out-of-range field, with its value.
    pub fn validate(&self) -> Result<(), PlanError> {
        self.check_workload()?;
        self.check_layout_and_money()?;
        self.check_ownership()?;
        self.check_site()?;
        if crate::domain::vision_data::model(&self.model).is_some() {
            let v = &self.vision;
            check("vision.resolution", f64::from(v.resolution), 0.0, 8192.0)?;
            check("vision.batch", f64::from(v.batch), 1.0, 4096.0)?;
            check("vision.dataset", v.dataset, 1.0, 1e12)?;
            check("vision.epochs", v.epochs, 0.01, 100_000.0)?;
            check("vision.rate", v.rate, 0.001, 1e7)?;
            check("vision.latency_ms", v.latency_ms, 0.1, 3_600_000.0)?;
            return check("vision.steps", f64::from(v.steps), 0.0, 1000.0);
        }
        self.model_spec().map(|_| ())
    }

    /// Training, adapters and serving.
    fn check_workload(&self) -> Result<(), PlanError> {
        let t = &self.training;
        check("training.seq_len", f64::from(t.seq_len), 1.0, 2_097_152.0)?;
        check("training.micro_batch", f64::from(t.micro_batch), 1.0, 65_536.0)?;
        check("training.global_batch", f64::from(t.global_batch), 1.0, 1e7)?;
        check("training.tokens", t.tokens, 1.0, 1e15)?;
        check("lora.rank", f64::from(self.lora.rank), 1.0, 65_536.0)?;
        let c = &t.conventions;
        check("training.conventions.bucket_elems", c.bucket_elems, 0.0, 1e11)?;
        check("training.conventions.prefetch_elems", c.prefetch_elems, 0.0, 1e11)?;
        check("training.conventions.gathered_layers", c.gathered_layers, 0.0, 64.0)?;
        let i = &self.inference;
        check("inference.context", f64::from(i.context), 1.0, 2_097_152.0)?;
        check("inference.output_tokens", f64::from(i.output_tokens), 0.0, 2_097_152.0)?;
        if let Some(p90) = i.output_p90 {
            check("inference.output_p90", f64::from(p90), f64::from(i.output_tokens), 2_097_152.0)?;
        }
        if let Some(p90) = i.context_p90 {
            check("inference.context_p90", f64::from(p90), f64::from(i.context), 2_097_152.0)?;
        }
        check("inference.concurrent", f64::from(i.concurrent), 1.0, 100_000.0)?;
        if let Some(r) = i.rate_rps {
            check("inference.rate_rps", r, 0.001, 1e6)?;
        }
        check("inference.think_s", i.think_s, 0.0, 86_400.0)?;
        check("inference.prefix_share", i.prefix_share, 0.0, 0.99)?;
        check("inference.ttft_p50_s", i.ttft_p50_s, 0.001, 3_600.0)?;
        check("inference.ttft_p99_s", i.ttft_p99_s, 0.001, 3_600.0)?;
        check("inference.tpot_p50_ms", i.tpot_p50_ms, 0.1, 60_000.0)?;
        check("inference.tpot_p99_ms", i.tpot_p99_ms, 0.1, 60_000.0)?;
        check("inference.mem_util", i.mem_util, 0.1, 1.0)?;
        check("inference.tp", f64::from(i.tp), 0.0, 64.0)?;
        check("inference.ep", f64::from(i.ep), 0.0, 1_024.0)?;
        check("inference.max_batched_tokens", f64::from(i.max_batched_tokens), 16.0, 1_048_576.0)?;
        check("inference.step_overhead_ms", i.step_overhead_ms, 0.0, 1_000.0)?;
        check("inference.max_seqs", f64::from(i.max_seqs), 0.0, 1_048_576.0)?;
        Ok(())
    }

    /// Parallel layout, card filter, prices and efficiencies.
    fn check_layout_and_money(&self) -> Result<(), PlanError> {
        let p = &self.parallel;
        check("parallel.gpus", f64::from(p.gpus), 0.0, 100_000.0)?;
        check("parallel.tp", f64::from(p.tp), 1.0, 64.0)?;
        check("parallel.pp", f64::from(p.pp), 1.0, 1_000.0)?;
        check("parallel.zero", f64::from(p.zero), 0.0, 3.0)?;
        check("parallel.gpus_per_server", f64::from(p.gpus_per_server), 1.0, 64.0)?;
        check("parallel.virtual_stages", f64::from(p.virtual_stages), 1.0, 64.0)?;
        check("parallel.ep", f64::from(p.ep), 1.0, 1_024.0)?;
        check("parallel.cp", f64::from(p.cp), 1.0, 64.0)?;
        check("parallel.memory_headroom", p.memory_headroom, 0.0, 0.5)?;
        check("parallel.recompute_layers", f64::from(p.recompute_layers), 0.0, 1_000.0)?;
        check("cards.min_memory_gb", self.cards.min_memory_gb, 0.0, 10_000.0)?;
        check("money.cny_per_usd", self.money.cny_per_usd, 0.01, 1_000.0)?;
        for o in &self.money.overrides {
            check("money.overrides.rent_hourly", o.rent_hourly, 0.0, 1e6)?;
        }
        if !super::RENT_MARKETS.contains(&self.money.rent_market.as_str()) {
            return Err(PlanError::UnknownChoice { field: "money.rent_market", value: self.money.rent_market.clone() });
        }
        let e = &self.efficiency;
        if let Some(m) = e.mfu {
            check("efficiency.mfu", m, 0.01, 1.0)?;
        }
        if let Some(g) = e.goodput {
            check("efficiency.goodput", g, 0.05, 1.0)?;
        }
        check("efficiency.decode_bandwidth", e.decode_bandwidth, 0.01, 1.0)?;
        check("efficiency.prefill_mfu", e.prefill_mfu, 0.01, 1.0)?;
        check("efficiency.runtime_gib", e.runtime_gib, 0.0, 1_000.0)?;
        check("efficiency.fragmentation", e.fragmentation, 0.0, 1.0)?;
        check("efficiency.kernel_scale", e.kernel_scale, 0.05, 20.0)?;
        if let Some(b) = &e.benchmark {
            check("efficiency.benchmark.tokens_per_s_gpu", b.tokens_per_s_gpu, 1e-3, 1e9)?;
        }
        Ok(())
    }

    /// What owning costs, and the demand profile.
    fn check_ownership(&self) -> Result<(), PlanError> {
        let o = &self.ownership;
        for (field, v, lo, hi) in [
            ("ownership.server_price", o.server_price, 0.0, 1e9),
            ("ownership.network_per_server", o.network_per_server, 0.0, 1e9),
            ("ownership.host_watts", o.host_watts, 0.0, 100_000.0),
            ("ownership.electricity_per_kwh", o.electricity_per_kwh, 0.0, 100.0),
            ("ownership.pue", o.pue, 1.0, 5.0),
            ("ownership.rack_per_month", o.rack_per_month, 0.0, 1e8),
            ("ownership.ops_salary_per_year", o.ops_salary_per_year, 0.0, 1e9),
            ("ownership.ops_share", o.ops_share, 0.0, 100.0),
            ("ownership.maintenance_per_year", o.maintenance_per_year, 0.0, 1.0),
            ("ownership.depreciation_years", o.depreciation_years, 0.5, 20.0),
            ("ownership.residual", o.residual, 0.0, 1.0),
            ("ownership.discount_rate", o.discount_rate, 0.0, 1.0),
            ("ownership.utilisation", o.utilisation, 0.001, 1.0),
            ("ownership.months", f64::from(o.months), 1.0, 240.0),
            ("ownership.cards", f64::from(o.cards), 0.0, 100_000.0),
        ] {
            check(field, v, lo, hi)?;
        }
        for (field, v) in [
            ("ownership.card_price", o.card_price),
            ("ownership.rent_hourly", o.rent_hourly),
            ("ownership.rent_monthly", o.rent_monthly),
            ("ownership.rent_yearly", o.rent_yearly),
            ("ownership.budget", o.budget),
        ] {
            if let Some(v) = v {
                check(field, v, 0.0, 1e12)?;
            }
        }
        if let Some(w) = o.lead_weeks {
            check("ownership.lead_weeks", w, 0.0, 156.0)?;
        }
        if o.demand.len() > super::ownership::DEMAND_MONTHS {
            return Err(PlanError::OutOfRange {
                field: "ownership.demand (months)",
                value: o.demand.len() as f64,
                min: 0.0,
                max: super::ownership::DEMAND_MONTHS as f64,
            });
        }
        for v in &o.demand {
            check("ownership.demand", *v, 0.0, super::ownership::DEMAND_MAX)?;
        }
        Ok(())
    }

    /// Storage, network, racks and the auto-plan's limits.
    fn check_site(&self) -> Result<(), PlanError> {
        let i = &self.infra;
        for (field, v, lo, hi) in [
            ("infra.checkpoint_every_hours", i.checkpoint_every_hours, 0.01, 10_000.0),
            ("infra.checkpoints_kept", f64::from(i.checkpoints_kept), 0.0, 1_000.0),
            ("infra.storage_gb_s", i.storage_gb_s, 0.001, 10_000.0),
            ("infra.dataset_bytes_per_token", i.dataset_bytes_per_token, 0.0, 64.0),
            ("infra.storage_price_per_tb", i.storage_price_per_tb, 0.0, 1e7),
            ("infra.storage_rent_per_tb_month", i.storage_rent_per_tb_month, 0.0, 1e6),
            ("infra.fabric_gbit_per_gpu", i.fabric_gbit_per_gpu, 1.0, 10_000.0),
            ("infra.servers_per_rack", f64::from(i.servers_per_rack), 1.0, 64.0),
            ("infra.rack_kw_limit", i.rack_kw_limit, 0.5, 500.0),
        ] {
            check(field, v, lo, hi)?;
        }
        check("search.max_gpus", f64::from(self.search.max_gpus), 0.0, 100_000.0)?;
        if let Some(d) = self.search.deadline_days {
            check("search.deadline_days", d, 0.001, 100_000.0)?;
        }
        if let Some(b) = self.search.budget {
            check("search.budget", b, 0.0, 1e12)?;
        }
        Ok(())
    }
}
