//! A dependency-free fuzzer for share links and plan(): random text, mutated valid links and
//! links full of absurd numbers. Every case must decode to a scenario or a clear error, and every
//! scenario that plans must give a report without NaN, infinity or negative numbers.

use super::numbers;
use gpu_planner::domain::model::presets;
use gpu_planner::domain::scenario::{ServingEngine, Task};
use gpu_planner::domain::{plan, share, Catalog, Scenario};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// xorshift64*: deterministic, good enough to spread inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const PATHS: &[&str] = &[
    "training.seq_len",
    "training.micro_batch",
    "training.global_batch",
    "training.tokens",
    "lora.rank",
    "inference.context",
    "inference.concurrent",
    "inference.output_tokens",
    "parallel.gpus",
    "parallel.tp",
    "parallel.pp",
    "parallel.zero",
    "money.cny_per_usd",
    "efficiency.mfu",
    "efficiency.decode_bandwidth",
    "ownership.pue",
    "ownership.utilisation",
    "ownership.card_price",
    "ownership.depreciation_years",
    "infra.storage_gb_s",
    "infra.fabric_gbit_per_gpu",
    "custom_model.layers",
    "custom_model.hidden",
    "custom_model.heads",
    "custom_model.kv_heads",
    "cards.min_memory_gb",
    "ownership.months",
    "inference.engine",
    "inference.step_overhead_ms",
    "inference.spec_tokens",
    "inference.spec_accept",
    "inference.max_seqs",
    "inference.max_batched_tokens",
    "inference.rate_rps",
    "inference.think_s",
    "inference.prefix_share",
    "inference.enforce_eager",
];
const ABSURD: &[&str] = &[
    "0",
    "-1",
    "1e308",
    "-1e308",
    "4294967296",
    "1e-320",
    "\"NaN\"",
    "null",
    "true",
    "[]",
    "{}",
    "\"<script>\"",
    "0.5",
    "3",
    "65536",
    "2097153",
    "\"sglang\"",
    "\"vllm_v0\"",
    "\"trtllm\"",
];

fn random_scenario(r: &mut Rng) -> Scenario {
    let models = presets();
    let mut s = Scenario {
        task: Task::ALL[r.below(5) as usize],
        model: models[r.below(models.len() as u64) as usize].id.clone(),
        ..Scenario::default()
    };
    s.training.seq_len = 1 + r.below(65_536) as u32;
    s.training.micro_batch = 1 + r.below(16) as u32;
    s.inference.concurrent = 1 + r.below(256) as u32;
    s.parallel.gpus = r.below(64) as u32;
    // The serving engine and its knobs: each engine times a step its own way (graphs, host time
    // on or off the path, launches).
    let engines = ServingEngine::NAMES;
    s.inference.engine = engines[r.below(engines.len() as u64) as usize].0;
    s.inference.step_overhead_ms = r.below(6) as f64;
    s.inference.spec_tokens = r.below(4) as u32;
    s.inference.enforce_eager = r.below(8) == 0;
    s
}

fn mutate(r: &mut Rng, link: &str) -> String {
    let mut b: Vec<u8> = link.as_bytes().to_vec();
    for _ in 0..=r.below(4) {
        let n = b.len().max(1) as u64;
        match r.below(4) {
            0 if !b.is_empty() => {
                let i = r.below(n) as usize;
                b[i] = B64[r.below(64) as usize];
            }
            1 if !b.is_empty() => {
                b.remove(r.below(n) as usize);
            }
            2 => b.insert(r.below(n) as usize, B64[r.below(64) as usize]),
            _ => b.truncate(r.below(n) as usize),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn absurd_link(r: &mut Rng) -> String {
    let mut obj = String::from("{");
    for k in 0..=r.below(4) {
        let path = PATHS[r.below(PATHS.len() as u64) as usize];
        let (outer, inner) = path.split_once('.').unwrap_or((path, ""));
        if k > 0 {
            obj.push(',');
        }
        obj.push_str(&format!("\"{outer}\":{{\"{inner}\":{}}}", ABSURD[r.below(ABSURD.len() as u64) as usize]));
    }
    obj.push('}');
    use base64::Engine as _;
    format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(obj))
}

fn random_text(r: &mut Rng) -> String {
    let len = r.below(300) as usize;
    let body: String = (0..len).map(|_| char::from(32 + r.below(95) as u8)).collect();
    if r.below(2) == 0 {
        format!("v1.{body}")
    } else {
        body
    }
}

/// Counts of one fuzzing run.
#[derive(Debug, Default)]
pub struct Stats {
    pub cases: u64,
    pub rejected: u64,
    pub planned: u64,
    pub plan_errors: u64,
    pub failures: Vec<String>,
}

/// Runs `cases` inputs from `seed`; failures (panics, bad numbers) are collected, not thrown.
pub fn run(cases: u64, seed: u64) -> Stats {
    let mut r = Rng(seed | 1);
    let mut st = Stats::default();
    let cat = Catalog::embedded();
    for _ in 0..cases {
        st.cases += 1;
        let input = match r.below(4) {
            0 => random_text(&mut r),
            1 => {
                let s = random_scenario(&mut r);
                mutate(&mut r, &share::encode(&s))
            }
            2 => absurd_link(&mut r),
            _ => share::encode(&random_scenario(&mut r)),
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| match share::decode(&input) {
            Err(e) => {
                assert!(!e.to_string().is_empty());
                Ok(None)
            }
            Ok(s) => Ok(Some(
                plan(&s, cat).map(|rep| numbers(&rep).into_iter().find(|(_, v)| !(v.is_finite() && *v >= 0.0))),
            )),
        }));
        match outcome {
            Err(_) => st.failures.push(format!("panic on {input:?}")),
            Ok(Err(())) => {}
            Ok(Ok(None)) => st.rejected += 1,
            Ok(Ok(Some(Err(_)))) => st.plan_errors += 1,
            Ok(Ok(Some(Ok(None)))) => st.planned += 1,
            Ok(Ok(Some(Ok(Some((path, v)))))) => st.failures.push(format!("{path} = {v} for {input:?}")),
        }
        if st.failures.len() >= 10 {
            break;
        }
    }
    st
}
