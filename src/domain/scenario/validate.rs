//! Every number of a scenario finite and in a sane range, with the field named in the error.

use super::ranges::*;
use super::Scenario;
use crate::domain::error::PlanError;

fn check(r: Range, value: f64) -> Result<(), PlanError> {
    if r.contains(value) {
        Ok(())
    } else {
        Err(PlanError::OutOfRange { field: r.field, value, min: r.min, max: r.max })
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
            check(VISION_RESOLUTION, f64::from(v.resolution))?;
            check(VISION_BATCH, f64::from(v.batch))?;
            check(VISION_DATASET, v.dataset)?;
            check(VISION_EPOCHS, v.epochs)?;
            check(VISION_RATE, v.rate)?;
            check(VISION_LATENCY_MS, v.latency_ms)?;
            return check(VISION_STEPS, f64::from(v.steps));
        }
        self.model_spec().map(|_| ())
    }

    /// Training, adapters and serving.
    fn check_workload(&self) -> Result<(), PlanError> {
        let t = &self.training;
        check(TRAINING_SEQ_LEN, f64::from(t.seq_len))?;
        check(TRAINING_MICRO_BATCH, f64::from(t.micro_batch))?;
        check(TRAINING_GLOBAL_BATCH, f64::from(t.global_batch))?;
        check(TRAINING_TOKENS, t.tokens)?;
        check(LORA_RANK, f64::from(self.lora.rank))?;
        let c = &t.conventions;
        check(TRAINING_CONVENTIONS_BUCKET_ELEMS, c.bucket_elems)?;
        check(TRAINING_CONVENTIONS_PREFETCH_ELEMS, c.prefetch_elems)?;
        check(TRAINING_CONVENTIONS_GATHERED_LAYERS, c.gathered_layers)?;
        let i = &self.inference;
        check(INFERENCE_CONTEXT, f64::from(i.context))?;
        check(INFERENCE_OUTPUT_TOKENS, f64::from(i.output_tokens))?;
        if let Some(p90) = i.output_p90 {
            check(INFERENCE_OUTPUT_P90.from(f64::from(i.output_tokens)), f64::from(p90))?;
        }
        if let Some(p90) = i.context_p90 {
            check(INFERENCE_CONTEXT_P90.from(f64::from(i.context)), f64::from(p90))?;
        }
        check(INFERENCE_CONCURRENT, f64::from(i.concurrent))?;
        if let Some(r) = i.rate_rps {
            check(INFERENCE_RATE_RPS, r)?;
        }
        check(INFERENCE_THINK_S, i.think_s)?;
        check(INFERENCE_PREFIX_SHARE, i.prefix_share)?;
        check(INFERENCE_TTFT_P50_S, i.ttft_p50_s)?;
        check(INFERENCE_TTFT_P99_S, i.ttft_p99_s)?;
        check(INFERENCE_TPOT_P50_MS, i.tpot_p50_ms)?;
        check(INFERENCE_TPOT_P99_MS, i.tpot_p99_ms)?;
        check(INFERENCE_MEM_UTIL, i.mem_util)?;
        check(INFERENCE_TP, f64::from(i.tp))?;
        check(INFERENCE_EP, f64::from(i.ep))?;
        check(INFERENCE_MAX_BATCHED_TOKENS, f64::from(i.max_batched_tokens))?;
        check(INFERENCE_STEP_OVERHEAD_MS, i.step_overhead_ms)?;
        check(INFERENCE_MAX_SEQS, f64::from(i.max_seqs))?;
        check(INFERENCE_SPEC_TOKENS, f64::from(i.spec_tokens))?;
        check(INFERENCE_SPEC_ACCEPT, i.spec_accept)?;
        Ok(())
    }

    /// Parallel layout, card filter, prices and efficiencies.
    fn check_layout_and_money(&self) -> Result<(), PlanError> {
        let p = &self.parallel;
        check(PARALLEL_GPUS, f64::from(p.gpus))?;
        check(PARALLEL_TP, f64::from(p.tp))?;
        check(PARALLEL_PP, f64::from(p.pp))?;
        check(PARALLEL_ZERO, f64::from(p.zero))?;
        check(PARALLEL_GPUS_PER_SERVER, f64::from(p.gpus_per_server))?;
        check(PARALLEL_VIRTUAL_STAGES, f64::from(p.virtual_stages))?;
        check(PARALLEL_EP, f64::from(p.ep))?;
        check(PARALLEL_CP, f64::from(p.cp))?;
        check(PARALLEL_MEMORY_HEADROOM, p.memory_headroom)?;
        check(PARALLEL_RECOMPUTE_LAYERS, f64::from(p.recompute_layers))?;
        check(CARDS_MIN_MEMORY_GB, self.cards.min_memory_gb)?;
        check(MONEY_CNY_PER_USD, self.money.cny_per_usd)?;
        for o in &self.money.overrides {
            check(MONEY_OVERRIDES_RENT_HOURLY, o.rent_hourly)?;
        }
        if !super::RENT_MARKETS.contains(&self.money.rent_market.as_str()) {
            return Err(PlanError::UnknownChoice { field: "money.rent_market", value: self.money.rent_market.clone() });
        }
        let e = &self.efficiency;
        if let Some(m) = e.mfu {
            check(EFFICIENCY_MFU, m)?;
        }
        if let Some(g) = e.goodput {
            check(EFFICIENCY_GOODPUT, g)?;
        }
        check(EFFICIENCY_DECODE_BANDWIDTH, e.decode_bandwidth)?;
        check(EFFICIENCY_PREFILL_MFU, e.prefill_mfu)?;
        check(EFFICIENCY_RUNTIME_GIB, e.runtime_gib)?;
        check(EFFICIENCY_FRAGMENTATION, e.fragmentation)?;
        check(EFFICIENCY_KERNEL_SCALE, e.kernel_scale)?;
        if let Some(b) = &e.benchmark {
            check(EFFICIENCY_BENCHMARK_TOKENS_PER_S_GPU, b.tokens_per_s_gpu)?;
        }
        Ok(())
    }

    /// What owning costs, and the demand profile.
    fn check_ownership(&self) -> Result<(), PlanError> {
        let o = &self.ownership;
        for (r, v) in [
            (OWNERSHIP_SERVER_PRICE, o.server_price),
            (OWNERSHIP_NETWORK_PER_SERVER, o.network_per_server),
            (OWNERSHIP_HOST_WATTS, o.host_watts),
            (OWNERSHIP_ELECTRICITY_PER_KWH, o.electricity_per_kwh),
            (OWNERSHIP_PUE, o.pue),
            (OWNERSHIP_RACK_PER_MONTH, o.rack_per_month),
            (OWNERSHIP_OPS_SALARY_PER_YEAR, o.ops_salary_per_year),
            (OWNERSHIP_OPS_SHARE, o.ops_share),
            (OWNERSHIP_MAINTENANCE_PER_YEAR, o.maintenance_per_year),
            (OWNERSHIP_DEPRECIATION_YEARS, o.depreciation_years),
            (OWNERSHIP_RESIDUAL, o.residual),
            (OWNERSHIP_DISCOUNT_RATE, o.discount_rate),
            (OWNERSHIP_UTILISATION, o.utilisation),
            (OWNERSHIP_MONTHS, f64::from(o.months)),
            (OWNERSHIP_CARDS, f64::from(o.cards)),
            (OWNERSHIP_CARDS_PER_HOST, f64::from(o.cards_per_host)),
        ] {
            check(r, v)?;
        }
        for (r, v) in [
            (OWNERSHIP_CARD_PRICE, o.card_price),
            (OWNERSHIP_RENT_HOURLY, o.rent_hourly),
            (OWNERSHIP_RENT_MONTHLY, o.rent_monthly),
            (OWNERSHIP_RENT_YEARLY, o.rent_yearly),
            (OWNERSHIP_BUDGET, o.budget),
        ] {
            if let Some(v) = v {
                check(r, v)?;
            }
        }
        if let Some(w) = o.lead_weeks {
            check(OWNERSHIP_LEAD_WEEKS, w)?;
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
            check(OWNERSHIP_DEMAND, *v)?;
        }
        Ok(())
    }

    /// Storage, network, racks and the auto-plan's limits.
    fn check_site(&self) -> Result<(), PlanError> {
        let i = &self.infra;
        for (r, v) in [
            (INFRA_CHECKPOINT_EVERY_HOURS, i.checkpoint_every_hours),
            (INFRA_CHECKPOINTS_KEPT, f64::from(i.checkpoints_kept)),
            (INFRA_STORAGE_GB_S, i.storage_gb_s),
            (INFRA_DATASET_BYTES_PER_TOKEN, i.dataset_bytes_per_token),
            (INFRA_STORAGE_PRICE_PER_TB, i.storage_price_per_tb),
            (INFRA_STORAGE_RENT_PER_TB_MONTH, i.storage_rent_per_tb_month),
            (INFRA_FABRIC_GBIT_PER_GPU, i.fabric_gbit_per_gpu),
            (INFRA_SERVERS_PER_RACK, f64::from(i.servers_per_rack)),
            (INFRA_RACK_KW_LIMIT, i.rack_kw_limit),
        ] {
            check(r, v)?;
        }
        check(SEARCH_MAX_GPUS, f64::from(self.search.max_gpus))?;
        if let Some(d) = self.search.deadline_days {
            check(SEARCH_DEADLINE_DAYS, d)?;
        }
        if let Some(b) = self.search.budget {
            check(SEARCH_BUDGET, b)?;
        }
        Ok(())
    }
}
