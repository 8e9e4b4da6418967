#!/usr/bin/env python3
"""Builds src/domain/accuracy.json from docs/accuracy-refs.json (the sourced reference rows with
their quotes) and the per-case settings below: which engine metric reproduces the figure, under
which framework, scenario and layout. Run after editing either; the Rust side only reads the JSON."""
import json, pathlib

root = pathlib.Path(__file__).resolve().parent.parent
refs = {r["id"]: r for r in json.load(open(root / "docs/accuracy-refs.json"))}

def gpt(layers, hidden, heads, vocab=51200, params=None, ffn=None):
    m = {"layers": layers, "hidden": hidden, "heads": heads, "kv_heads": heads, "intermediate": ffn or 4 * hidden,
         "vocab": vocab, "gated_mlp": False, "tied_embeddings": True, "max_context": 2048}
    if params: m["params_b"] = params
    return m

def custom(m, **kw):
    d = {"model": "custom", "custom_model": {"id": "custom", "name": "Custom", **m}}
    d.update(kw); return d

def psi(b):  # a model known only by its parameter count
    return custom({"params_b": b})

def L(tp=1, pp=1, dp=1, zero=0, rec="none", off="none"):
    return {"tp": tp, "pp": pp, "dp": dp, "zero": zero, "recompute": rec, "offload": off, "ep": 1, "cp": 1}

def tr(**kw): return {"training": kw}

def merge(*ds):
    out = {}
    for d in ds:
        for k, v in d.items():
            if isinstance(v, dict) and isinstance(out.get(k), dict): out[k] = {**out[k], **v}
            else: out[k] = v
    return out

T5_3B = {"params_b": 2.851, "layers": 24, "hidden": 1024, "heads": 32, "kv_heads": 32, "head_dim": 128,
         "intermediate": 16384, "vocab": 32128, "gated_mlp": False, "tied_embeddings": True}
T0_3B = {"params_b": 2.783, "layers": 24, "hidden": 2048, "heads": 32, "kv_heads": 32, "head_dim": 64,
         "intermediate": 5120, "vocab": 32128, "gated_mlp": True, "tied_embeddings": False}
GPT3 = gpt(96, 12288, 96, params=175)
A100, H100 = "a100-80gb-sxm4", "h100-sxm"
def card(c): return {"cards": {"only": [c]}}

C = []
def case(rid, metric, framework, scenario, layout=None, tol=None, unit=None, published=None, note="", nx=None, also="", **extra):
    r = refs[rid]
    C.append({"id": rid, "metric": metric, "published": published if published is not None else r["published"]["value"],
              "unit": unit or r["published"]["unit"], "tolerance": tol if tol is not None else r["tolerance"],
              "source": r["source"]["title"], "url": r["source"]["url"], "inputs": r["quote"][:400],
              "framework": framework, "scenario": scenario, "layout": layout, "note": ((note or r.get("notes", "")[:300]) + " " + also).strip(),
              "not_expressible": nx, "util": 0.0, "profile_tokens": 0.0, "capacity_gib": None, "bound": None, **extra})

# ZeRO paper, Figure 1 / Table 1: its own 2 + 2 + 12 accounting ("custom" switches).
pre16 = {"task": "pretrain", "precision": "fp16"}
for rid, b, dp, z in [("zero-paper-7.5b-dp1-baseline", 7.5, 1, 0), ("zero-paper-7.5b-pos-dp64", 7.5, 64, 1),
                      ("zero-paper-7.5b-posg-dp64", 7.5, 64, 2), ("zero-paper-7.5b-posgp-dp64", 7.5, 64, 3),
                      ("zero-paper-128b-posg-dp16", 128, 16, 2), ("zero-paper-128b-posgp-dp64", 128, 64, 3),
                      ("zero-paper-1t-pos-dp1024", 1000, 1024, 1), ("zero-paper-1t-posgp-dp1024", 1000, 1024, 3)]:
    case(rid, "model_states_gb", "custom", merge(psi(b), pre16), L(dp=dp, zero=z), tol=0.02)

# Korthikanti et al. 2022: selective recompute saving (Megatron: dropout on, GELU MLP).
case("korthikanti-gpt3-selective-saving", "activation_saving_pct", "megatron",
     merge(custom(GPT3), pre16, tr(seq_len=2048, micro_batch=1)), tol=0.03)
case("korthikanti-mtnlg-selective-saving", "activation_saving_pct", "megatron",
     merge(custom(gpt(105, 20480, 128, params=530)), pre16, tr(seq_len=2048, micro_batch=1)), tol=0.03)

# Korthikanti et al. 2022, Table 5: MFU with selective recompute + sequence parallelism on A100.
bf = {"task": "pretrain", "precision": "bf16"}
# Before FlashAttention (Dao et al., May 2022) softmax and dropout read and write the a·s² scores:
# the engine's elementwise time (compute.rs) counts them when flash attention is off.
NF_K = "Flash attention off: Megatron-LM's 2022 runs used its fused scale-mask-softmax kernel over the full a·s² scores (FlashAttention, Dao et al., appeared after)."
NF_N = "Flash attention off: Megatron-LM in 2021 predates FlashAttention (Dao et al. 2022); its softmax reads and writes the a·s² scores."
NF_B = "Flash attention off: Megatron-DeepSpeed's 2022 BLOOM run used fused softmax kernels over the full scores (BigScience 2022, §3.4.3), before FlashAttention."
NF_O = "Flash attention off: Metaseq in 2021–22 (Zhang et al. 2022) predates FlashAttention."
case("korthikanti-22b-mfu", "mfu_pct", "megatron", merge(custom(gpt(48, 6144, 64, params=22)), bf, card(A100),
     tr(seq_len=2048, micro_batch=4, global_batch=4, flash_attention=False)), L(tp=8, rec="selective"), tol=0.15, also=NF_K)
case("korthikanti-175b-mfu", "mfu_pct", "megatron", merge(custom(GPT3), bf, card(A100),
     tr(seq_len=2048, micro_batch=1, global_batch=64, flash_attention=False)), L(tp=8, pp=8, rec="selective"), tol=0.15,
     note="Interleaved 1F1B (3 model chunks per stage) shrinks the bubble 3x; the engine models plain 1F1B.", also=NF_K)
case("korthikanti-530b-2240gpu-mfu", "mfu_pct", "megatron", merge(custom(gpt(105, 20480, 128, params=530)), bf, card(A100),
     tr(seq_len=2048, micro_batch=1, global_batch=2240, flash_attention=False)), L(tp=8, pp=35, dp=8, rec="selective"), tol=0.15,
     note="Interleaved schedule; data-parallel all-reduce not overlapped in the paper's runs.", also=NF_K)
case("korthikanti-1t-mfu", "mfu_pct", "megatron", merge(custom(gpt(128, 25600, 160, params=1000)), bf, card(A100),
     tr(seq_len=2048, micro_batch=1, global_batch=512, flash_attention=False)), L(tp=8, pp=64, rec="selective"), tol=0.15, also=NF_K)

# Narayanan et al. 2021, Table 1: TFLOP/s per A100 counting recomputation (full recompute).
fp = {"task": "pretrain", "precision": "fp16"}
for rid, m, gb, lay in [
    ("narayanan-1.7b-32gpu-tflops", gpt(24, 2304, 24, params=1.7), 512, L(dp=32, rec="full")),
    ("narayanan-7.5b-128gpu-tflops", gpt(36, 4096, 32, params=7.5), 512, L(tp=4, dp=32, rec="full")),
    ("narayanan-145.6b-1536gpu-tflops", gpt(80, 12288, 96, params=145.6), 2304, L(tp=8, pp=8, dp=24, rec="full")),
    ("narayanan-1t-3072gpu-tflops", gpt(128, 25600, 160, params=1008), 3072, L(tp=8, pp=64, dp=6, rec="full"))]:
    case(rid, "hw_tflops", "megatron", merge(custom(m), fp, card(A100),
         tr(seq_len=2048, micro_batch=1, global_batch=gb, flash_attention=False)), lay, tol=0.15, also=NF_N)

# Training reports: GPU-hours.
case("llama2-7b-gpu-hours", "gpu_hours", "fsdp", merge({"model": "llama-2-7b"}, bf, card(A100),
     tr(seq_len=4096, global_batch=1024, tokens=2e12)), tol=0.25,
     note="Layout and GPU count not published: the fewest cards that fit (no communication loss).")
case("llama2-13b-gpu-hours", "gpu_hours", "fsdp", merge(custom({"layers": 40, "hidden": 5120, "heads": 40, "kv_heads": 40,
     "intermediate": 13824, "vocab": 32000, "gated_mlp": True, "params_b": 13.0}), bf, card(A100),
     tr(seq_len=4096, global_batch=1024, tokens=2e12)), tol=0.25)
case("llama2-70b-gpu-hours", "gpu_hours", "fsdp", merge({"model": "llama-2-70b"}, bf, card(A100),
     tr(seq_len=4096, global_batch=1024, tokens=2e12)), tol=0.25)
for rid, mid in [("llama31-8b-gpu-hours", "llama-3.1-8b"), ("llama31-70b-gpu-hours", "llama-3.1-70b")]:
    case(rid, "gpu_hours", "fsdp", merge({"model": mid}, bf, card(H100), tr(seq_len=8192, global_batch=2048, tokens=15e12)),
         tol=0.3, nx="The hours cover the whole program (8K, 128K stage, annealing) with no layout or GPU count.")
case("llama31-405b-gpu-hours", "gpu_hours", "megatron", merge({"model": "llama-3.1-405b"}, bf, card(H100),
     tr(seq_len=8192, global_batch=2048, tokens=15.6e12), {"parallel": {"gpus": 8192}}), tol=0.3,
     note="8,192 GPUs (Dubey et al. 2024, Table 4) with the planner's own layout; 15.6T tokens.")
LLAMA3_PP = "The number of virtual pipeline stages (Dubey et al. 2024, §3.3.2) is not published; it decides the bubble."
case("llama3-405b-8k-8192gpu-mfu", "mfu_pct", "megatron", merge({"model": "llama-3.1-405b"}, bf, card(H100),
     tr(seq_len=8192, global_batch=2048, micro_batch=1)), L(tp=8, pp=16, dp=64, zero=1), tol=0.15, nx=LLAMA3_PP)
case("llama3-405b-8k-16384gpu-mfu", "mfu_pct", "megatron", merge({"model": "llama-3.1-405b"}, bf, card(H100),
     tr(seq_len=8192, global_batch=2048, micro_batch=1)), L(tp=8, pp=16, dp=128, zero=1), tol=0.15, nx=LLAMA3_PP)
case("llama3-405b-128k-cp16-mfu", "mfu_pct", "megatron", merge({"model": "llama-3.1-405b"}, bf, card(H100),
     tr(seq_len=131072, global_batch=128, micro_batch=1)), dict(L(tp=8, pp=16, dp=4, zero=1), cp=16), tol=0.15,
     nx="The published degrees (TP8, CP16, PP16, DP4) multiply to 8,192 GPUs, not the 16,384 stated; and the interleaved schedule's virtual stages are not published.")
case("deepseek-v3-pretrain-gpu-hours", "gpu_hours", "megatron", merge({"model": "deepseek-v3", "task": "pretrain",
     "precision": "fp8"}, card("h800-sxm"), tr(seq_len=4096, global_batch=15360, tokens=14.8e12)),
     dict(L(pp=16, dp=128, zero=1), ep=64), tol=0.25,
     nx="DualPipe's communication overlap (conventions.overlap_moe_comm), node-limited routing and FP8 dispatch are modelled, but not its "
        "bidirectional schedule's memory, its recomputed RMSNorm/MLA up-projections or its FP8 activation caching (§3.2–3.3): with 1F1B the "
        "first stage does not fit.")
case("bloom-176b-gpu-hours", "gpu_hours", "megatron", merge(custom(gpt(70, 14336, 112, vocab=250680, params=176.247)),
     bf, card(A100), tr(seq_len=2048, global_batch=2048, micro_batch=2, tokens=366e9, flash_attention=False)), L(tp=4, pp=12, dp=8, zero=1, rec="full"), tol=0.25,
     note="384 A100s as TP4 x PP12 x DP8 with ZeRO-1 (BLOOM paper); micro-batch 2 and --checkpoint-activations (full recompute) from the run's "
          "launch script, github.com/bigscience-workshop/bigscience/blob/e726b15982fa088fb6d9a4c869c19c3d4dbc84a7/train/tr11-176B-ml/tr11-176B-ml.slurm; hours include restarts.", also=NF_B)
case("opt-175b-992xa100-tflops", "hw_tflops", "fsdp", merge(custom(GPT3), fp, card(A100),
     tr(seq_len=2048, global_batch=992, micro_batch=1, flash_attention=False)), L(tp=8, dp=124, zero=3), tol=0.2,
     note="FSDP with Megatron TP 8 (degree from the OPT logbook); 147 is an 'up to' figure.", also=NF_O)

# Framework estimators.
ds16 = {"task": "full_finetune", "precision": "fp16"}
case("deepspeed-est-zero2-t5-3b-8gpu", "model_states_gib", "deep_speed", merge(custom(T5_3B), ds16), L(dp=8, zero=2), tol=0.02)
case("deepspeed-est-zero2-t5-3b-8gpu-offload", "model_states_gib", "deep_speed", merge(custom(T5_3B), ds16),
     L(dp=8, zero=2, off="optimizer"), tol=0.02)
case("deepspeed-est-zero3-t5-3b-8gpu", "model_states_gib", "deep_speed", merge(custom(T5_3B), ds16), L(dp=8, zero=3), tol=0.02)
case("deepspeed-est-zero3-t5-3b-8gpu-offload-opt", "model_states_gib", "deep_speed", merge(custom(T5_3B), ds16),
     L(dp=8, zero=3, off="optimizer"), tol=0.02)
case("hf-deepspeed-est-zero3-t0-3b-1gpu", "model_states_gib", "deep_speed", merge(custom(T0_3B), ds16), L(zero=3), tol=0.02)
case("hf-deepspeed-est-zero3-t0-3b-1gpu-offload-opt", "model_states_gib", "deep_speed", merge(custom(T0_3B), ds16),
     L(zero=3, off="optimizer"), tol=0.02)
case("accelerate-est-llama2-7b-fp16-train", "model_states_gib", "fsdp", merge({"model": "llama-2-7b"}, ds16), tol=0.05,
     nx="accelerate's 'Training using Adam' column is 4x the load size at the chosen dtype, a rule of thumb rather than a framework's accounting (fp16 load: 8 B/param).")
case("accelerate-est-idefics-80b-fp16-train", "model_states_gib", "fsdp", merge(psi(80), ds16), tol=0.05,
     nx="Same 4x-load-size rule of thumb as the row above.")

# Fine-tuning recipes' measured peaks (torchtune: pure bf16, optimizer in backward).
tt = {"precision": "bf16"}
case("torchtune-llama31-8b-full-4090-peak", "allocated_gib", "torchtune", merge({"model": "llama-3.1-8b", "task": "full_finetune"},
     tt, card("rtx-4090"), tr(seq_len=2048, micro_batch=2, global_batch=2, optimizer="adam_w8bit")), L(rec="full"), tol=0.2,
     note="The recipe's PagedAdamW8bit keeps its states in CUDA unified memory, outside the allocator's peak.",
     scenario_conventions={"paged_optimizer": True})
case("torchtune-llama31-8b-lora-4090-peak", "allocated_gib", "torchtune", merge({"model": "llama-3.1-8b", "task": "lora",
     "lora": {"rank": 8, "targets": "all_linear"}}, tt, card("rtx-4090"), tr(seq_len=2048, micro_batch=2, global_batch=2)),
     L(rec="full"), tol=0.2)
case("torchtune-llama31-8b-qlora-4090-peak", "allocated_gib", "torchtune", merge({"model": "llama-3.1-8b", "task": "qlora",
     "lora": {"rank": 8, "targets": "all_linear"}}, tt, card("rtx-4090"), tr(seq_len=2048, micro_batch=2, global_batch=2)),
     L(rec="full"), tol=0.2)
case("torchtune-llama31-70b-lora-8xa100-peak", "allocated_gib", "torchtune", merge({"model": "llama-3.1-70b", "task": "lora",
     "lora": {"rank": 16, "targets": "all_linear"}}, tt, card(A100), tr(seq_len=2048, micro_batch=2, global_batch=16)),
     L(dp=8, zero=3, rec="full"), tol=0.2)
case("torchtune-llama31-405b-qlora-8xa100-peak", "allocated_gib", "torchtune", merge({"model": "llama-3.1-405b", "task": "qlora",
     "lora": {"rank": 16, "targets": "all_linear"}}, tt, card(A100), tr(seq_len=2048, micro_batch=2, global_batch=16)),
     L(dp=8, zero=3, rec="full"), tol=0.2)
LLAMA32_3B = {"layers": 28, "hidden": 3072, "heads": 24, "kv_heads": 8, "head_dim": 128, "intermediate": 8192,
              "vocab": 128256, "tied_embeddings": True, "gated_mlp": True, "params_b": 3.21}
case("torchtune-llama32-3b-full-ac-a100-peak", "allocated_gib", "torchtune", merge(custom(LLAMA32_3B), {"task": "full_finetune"},
     tt, card(A100), tr(seq_len=4096, micro_batch=2, global_batch=2)), L(rec="full"), tol=0.2,
     note="Not fused: the recipe's optimizer step runs after the backward (optimizer_in_backward off).",
     scenario_conventions={"optimizer_in_backward": False})
case("torchtune-llama32-3b-qlora-a100-peak", "allocated_gib", "torchtune", merge(custom(LLAMA32_3B), {"task": "qlora",
     "lora": {"rank": 8, "targets": "all_linear"}}, tt, card(A100), tr(seq_len=4096, micro_batch=2, global_batch=2)),
     L(rec="full"), tol=0.2, nx="Activation offloading to the CPU is not modelled.")
case("qlora-paper-65b-full-16bit-780gb", "model_states_gb", "deep_speed", merge({"model": "llama-65b"}, ds16), tol=0.15, bound="lower",
     note="'>780GB' is a lower bound for regular 16-bit fine-tuning; the engine's DeepSpeed accounting is compared.")
case("qlora-paper-65b-qlora-48gb", "total_gb", "fsdp", merge({"model": "llama-65b", "task": "qlora", "precision": "bf16",
     "lora": {"rank": 64, "targets": "all_linear"}}, card("rtx-a6000"), tr(seq_len=512, micro_batch=1, global_batch=16)),
     L(rec="full"), tol=0.0001, bound="upper", unit="GB",
     note="An upper bound: QLoRA (NF4, double quantization, paged optimizer, gradient checkpointing, LoRA r=64 on all linear layers as in the paper's setup) at a short sequence.",
     scenario_conventions={"paged_optimizer": True})
case("lora-paper-gpt3-full-1.2tb", "total_gb", "deep_speed", merge(custom(gpt(96, 12288, 96, vocab=50257, params=175)), ds16), tol=0.3,
     nx="1.2 TB is ~6.9 B/param: the paper does not say how it counted (it cannot be mixed-precision AdamW's 16 B/param).")
case("lora-paper-gpt3-lora-350gb", "model_states_gb", "deep_speed", merge(custom(gpt(96, 12288, 96, vocab=50257, params=175)),
     {"task": "lora", "precision": "fp16", "lora": {"rank": 4, "targets": "qv"}}), tol=0.1,
     note="350 GB = the 16-bit frozen weights plus the tiny r=4 adapters; activations not included in the statement.")

# KV cache per token and per sequence (configs).
for rid, mid in [("isca-deepseek-v3-mla-kv-per-token", "deepseek-v3"), ("isca-qwen25-72b-kv-per-token", "qwen2.5-72b"),
                 ("isca-llama31-405b-kv-per-token", "llama-3.1-405b")]:
    case(rid, "kv_bytes_per_token", "deep_speed", {"model": mid, "task": "inference"}, tol=0.01)
for rid, mid in [("hf-blog-llama31-8b-kv-128k", "llama-3.1-8b"), ("hf-blog-llama31-70b-kv-128k", "llama-3.1-70b")]:
    case(rid, "kv_gib", "deep_speed", {"model": mid, "task": "inference", "inference": {"context": 128000}}, tol=0.03)

# Serving engines' start-up logs: KV pool after weights and the profiled prefill.
case("vllm-llama31-8b-3090-maxlen20k-kv", "kv_pool_gib", "deep_speed", merge({"model": "llama-3.1-8b", "task": "inference"},
     card("rtx-3090"), {"efficiency": {"runtime_gib": 0.35}}), L(), tol=0.1, util=0.9, profile_tokens=20000, capacity_gib=23.58,
     note="total_gpu_memory 23.58 GiB and non_torch_memory 0.35 GiB are the same log's own figures.")
case("vllm-llama31-8b-3090-maxlen29k-kv", "kv_capacity_tokens", "deep_speed", merge({"model": "llama-3.1-8b", "task": "inference"},
     card("rtx-3090"), {"efficiency": {"runtime_gib": 0.35}}), L(), tol=0.1, util=0.9, profile_tokens=29000, capacity_gib=23.58)
case("sglang-qwen3-235b-fp8-4xh100-kv", "kv_capacity_tokens", "deep_speed", merge({"model": "qwen3-235b-a22b", "task": "inference",
     "precision": "bf16", "weight_quant": "fp8"}, card(H100)), L(tp=4), tol=0.1, util=0.93, profile_tokens=0,
     note="SGLang's mem_fraction_static covers weights + KV pool; activations come out of the remaining 7%.")
case("vllm-qwen3-235b-fp8-4xh100-kv", "kv_capacity_tokens", "deep_speed", merge({"model": "qwen3-235b-a22b", "task": "inference",
     "precision": "bf16", "weight_quant": "fp8"}, card(H100)), L(tp=4), tol=0.15, util=0.9, profile_tokens=8192,
     nx="vLLM V1 also reserves CUDA-graph memory and the run used an LMCache connector; maintainers attributed the smaller pool to profiling.")

# Training throughput (NeMo / Megatron-Core, FP8 on H100).
NEMO_TP_OVERLAP = ("NeMo's performance recipes overlap TP communication with GEMMs (userbuffers presets such as "
    "userbuffers_fp8_h100_h8192_tp4_mbs1_seqlen8192 for Llama 3 70B and userbuffers_bf16_h100_h12288_tp4_mbs1_seqlen2048 "
    "for GPT-3 175B; NeMo user guide, Communication Overlap).")
for rid, mid, task, gpus, gb, seq, lay, vp in [
    ("nemo-llama2-7b-8xh100-fp8-tokps", "llama-2-7b", "pretrain", 8, 128, 4096, L(dp=8, zero=1), 1),
    ("nemo-llama2-70b-64xh100-fp8-tokps", "llama-2-70b", "pretrain", 64, 128, 4096, L(tp=4, pp=4, dp=4, zero=1), 20),
    ("nemo-llama2-7b-sft-8xh100-fp8-tokps", "llama-2-7b", "full_finetune", 8, 32, 4096, L(dp=8, zero=1), 1)]:
    case(rid, "tokens_per_s_gpu", "megatron", merge({"model": mid, "task": task, "precision": "fp8"}, card(H100),
         tr(seq_len=seq, micro_batch=1, global_batch=gb, tokens=1e10), {"parallel": {"virtual_stages": vp}}), lay, tol=0.2,
         **({"scenario_conventions": {"overlap_tp_comm": True}, "note": NEMO_TP_OVERLAP} if lay["tp"] > 1 else {}))
for rid in ["nemo-llama3-8b-8xh100-fp8-tokps", "nemo-llama3-70b-64xh100-fp8-tokps"]:
    big = "70b" in rid
    case(rid, "tokens_per_s_gpu", "megatron", merge({"model": "llama-3.1-70b" if big else "llama-3.1-8b",
         "task": "pretrain", "precision": "fp8"}, card(H100), tr(seq_len=8192, micro_batch=1, global_batch=128, tokens=1e10),
         {"parallel": {"virtual_stages": 5 if big else 1}}),
         dict(L(tp=4, pp=4, dp=2, zero=1), cp=2) if big else dict(L(dp=4, zero=1), cp=2), tol=0.2,
         **({"scenario_conventions": {"overlap_tp_comm": True}, "note": NEMO_TP_OVERLAP} if big else {}),
         **({} if big else {"note": "Transformer Engine keeps its GEMM inputs in FP8 (memory/activations.rs); with 16-bit "
                                    "activations the engine put this plan 6% over 80 GB and had no time for it."}))
case("nemo-gpt3-175b-512xh100-fp8-tokps", "tokens_per_s_gpu", "megatron", merge(custom(gpt(96, 12288, 96, vocab=50257, params=175)),
     {"task": "pretrain", "precision": "fp8"}, card(H100), tr(seq_len=2048, micro_batch=2, global_batch=2048, tokens=1e10),
     {"parallel": {"virtual_stages": 6}}),
     L(tp=4, pp=8, dp=16, zero=1), tol=0.2, scenario_conventions={"overlap_tp_comm": True}, note=NEMO_TP_OVERLAP)
# Training throughput on Ascend 910B (MindSpeed-LLM, Megatron-Core on CANN), the repository's launch scripts.
NPU = "huawei-ascend-910b3"
LLAMA2_13B = {"params_b": 13.0, "layers": 40, "hidden": 5120, "heads": 40, "kv_heads": 40, "intermediate": 13824,
              "vocab": 32000, "gated_mlp": True, "tied_embeddings": False, "max_context": 4096}
MC2 = "--use-mc2 overlaps the tensor-parallel communication with the matmuls (MindSpeed's fused matmul + collective kernels)."
for rid, model, seq, mbs, gbs, lay, vp in [
    ("mindspeed-llama2-7b-8npu-tokps", {"model": "llama-2-7b"}, 4096, 1, 256, L(pp=2, dp=4, zero=1), 1),
    ("mindspeed-llama2-13b-8npu-tokps", custom(LLAMA2_13B), 4096, 4, 512, L(tp=8), 1),
    ("mindspeed-llama2-70b-32npu-tokps", {"model": "llama-2-70b"}, 4096, 1, 1024, L(tp=8, pp=4), 4),
    ("mindspeed-llama3-8b-8npu-tokps", {"model": "llama-3.1-8b"}, 8192, 2, 64, L(tp=8), 1),
    ("mindspeed-qwen2-7b-8npu-tokps", {"model": "qwen2.5-7b"}, 4096, 1, 256, L(pp=2, dp=4, zero=1), 1)]:
    case(rid, "tokens_per_s_gpu", "megatron", merge(model, {"task": "pretrain", "precision": "bf16"}, card(NPU),
         tr(seq_len=seq, micro_batch=mbs, global_batch=gbs, tokens=1e10), {"parallel": {"virtual_stages": vp}}), lay, tol=0.25,
         **({"scenario_conventions": {"overlap_tp_comm": True}} if lay["tp"] > 1 else {}),
         also=(MC2 if lay["tp"] > 1 else "") + (" Llama 3.1 8B has Llama 3 8B's shape." if "llama3" in rid else "")
              + (" Qwen2.5-7B has Qwen2-7B's shape." if "qwen2" in rid else ""))
# Held out: four more rows of the same table, added after CANN's kernel efficiency was set from the five above.
HELD = "Held out: added after CANN's kernel efficiency (compute.rs) was set from the five rows above."
for rid, model, seq, mbs, gbs, lay, cp in [
    ("mindspeed-llama31-8b-8npu-tokps", "llama-3.1-8b", 8192, 2, 64, L(tp=8), 1),
    ("mindspeed-llama31-70b-32npu-tokps", "llama-3.1-70b", 8192, 1, 512, L(tp=8, pp=4), 1),
    ("mindspeed-qwen2-72b-32npu-tokps", "qwen2.5-72b", 4096, 1, 64, L(tp=8, pp=4), 1),
    ("mindspeed-mixtral-8x7b-64npu-tokps", "mixtral-8x7b", 32768, 1, 128, L(tp=8, pp=4), 2)]:
    case(rid, "tokens_per_s_gpu", "megatron", merge({"model": model, "task": "pretrain", "precision": "bf16"}, card(NPU),
         tr(seq_len=seq, micro_batch=mbs, global_batch=gbs, tokens=1e10), {"parallel": {"virtual_stages": 1}}),
         dict(lay, cp=cp), tol=0.25, scenario_conventions={"overlap_tp_comm": True},
         nx=("MindSpeed splits the 80 layers unevenly over the 4 stages (--num-layer-list 17,20,22,21) to fit 64 GB; "
             "the engine splits them evenly, and its first stage (20 layers, 4 micro-batches in flight) needs 68.9 GiB, so it has no time for this plan."
             if "70b" in rid else None),
         also=HELD + " " + MC2 + (" Qwen2.5-72B has Qwen2-72B's shape." if "qwen2" in rid else "")
              + (" Missed by 92%: the engine counts neither the MoE layers' token permutation nor a lower efficiency of the fused attention "
                 "kernel, which does 40% of the FLOPs at 32K tokens." if "mixtral" in rid else ""))
case("torchtune-llama31-8b-qlora-4090-tokps", "tokens_per_s_gpu", "torchtune", merge({"model": "llama-3.1-8b", "task": "qlora",
     "lora": {"rank": 8, "targets": "all_linear"}}, tt, card("rtx-4090"), tr(seq_len=2048, micro_batch=2, global_batch=2, tokens=1e8)),
     L(rec="full"), tol=0.3, note="QLoRA dequantizes NF4 weights on the fly; the engine counts only matmul FLOPs.")

# Serving: static-batch benchmarks (TensorRT-LLM v0.6.1), roofline estimate.
for rid, mid, c, prec, kv, b, isl, osl, lay in [
    ("trtllm061-llama2-7b-h100-fp8-bs768", "llama-2-7b", H100, "fp8", "fp8", 768, 128, 128, L()),
    ("trtllm061-llama2-70b-h100tp2-fp8-bs64", "llama-2-70b", H100, "fp8", "fp8", 64, 2048, 2048, L(tp=2)),
    ("trtllm061-llama2-7b-a100-fp16-bs384", "llama-2-7b", A100, "fp16", "bf16", 384, 128, 128, L())]:
    q = {"weight_quant": "fp8"} if prec == "fp8" else {}
    case(rid, "static_batch_tokens_s_gpu", "deep_speed", merge({"model": mid, "task": "inference",
         "precision": "bf16" if prec == "fp8" else "fp16", "inference": {"context": isl, "output_tokens": osl,
         "concurrent": b, "kv": kv}}, q, card(c)), lay, tol=0.3,
         note="Roofline estimate (bandwidth or compute bound per step), not a measurement.")
# Serving latency (NeMo inference, 16-bit): the engine's step model, static batch.
for rid, c, tp, b in [("nemo-infer-llama2-7b-a100-tp1-bs1", A100, 1, 1), ("nemo-infer-llama2-7b-h100-tp1-bs1", H100, 1, 1),
                      ("nemo-infer-llama2-7b-a100-tp1-bs8", A100, 1, 8), ("nemo-infer-llama2-7b-h100-tp1-bs8", H100, 1, 8),
                      ("nemo-infer-llama2-7b-a100-tp2-bs1", A100, 2, 1), ("nemo-infer-llama2-7b-h100-tp2-bs1", H100, 2, 1)]:
    case(rid, "request_latency_ms", "deep_speed", merge({"model": "llama-2-7b", "task": "inference", "precision": "bf16",
         "inference": {"context": 128, "output_tokens": 20, "concurrent": b}}, card(c)), L(tp=tp), tol=0.2,
         note="Prefill in one step, then 19 decode steps (the first token comes with the prefill); 2 ms per step overhead.")
for rid in ["trtllm-llama31-8b-h100-fp8-1k1k", "trtllm-llama31-8b-h100-fp8-2048-128", "trtllm-llama33-70b-h100tp2-fp8-1k1k",
            "trtllm-llama31-405b-h100tp8-fp8-1k1k", "trtllm-qwen3-235b-h100tp8-fp8-1k1k"]:
    r = refs[rid]
    case(rid, "static_batch_tokens_s_gpu", "deep_speed", {"model": "llama-3.1-8b", "task": "inference"}, L(), tol=0.3,
         nx="Offline max-throughput runs: the batch the engine reached is not published (serving capacity is issue 15).")

# Inputs the sources leave open: scored over their plausible values (domain/accuracy/scoring.rs).
LLAMA3_OPEN = {"path": "/parallel/virtual_stages", "values": [1, 2, 4, 8],
               "why": "interleaved 1F1B; Dubey et al. 2024 §3.3.2 do not publish the virtual stages "
                      "(126 layers over 16 stages: at most 8 chunks of one layer)"}
for c in C:
    if c["id"].startswith("llama3-405b-"):
        c["open"], c["not_expressible"] = LLAMA3_OPEN, None
        if "cp16" in c["id"]:
            c["note"] = ("Table 4 prints DP=4 although 8x16x16x4 = 8192, not 16,384: the layout is taken as printed "
                         "(8,192 GPUs), which is what the degrees describe.")
for c in C:
    conv = c.pop("scenario_conventions", None)
    if conv:
        c["scenario"].setdefault("training", {}).setdefault("conventions", {}).update(conv)
# Rows this script does not build (the vision rows, added from src/domain/vision.json's sources)
# are kept as they are in the file, after the built ones.
built = {c["id"] for c in C}
out = root / "src/domain/accuracy.json"
C += [c for c in json.loads(out.read_text()) if c["id"] not in built]
out.write_text(json.dumps(C, indent=1, ensure_ascii=False) + "\n")
print(len(C), "cases,", sum(1 for c in C if not c["not_expressible"]), "expressible")
