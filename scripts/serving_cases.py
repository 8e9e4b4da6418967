#!/usr/bin/env python3
"""Builds the held-out serving rows (`serve-*`) of src/domain/accuracy.json from the published runs in
docs/research/2026-12-02-serving-rows.json: each run's model preset, card, layout, engine settings
and client schedule, and one row per published mean TTFT, mean TPOT and output tokens/s (±20%).
Rows already in the file are replaced by id; the others are kept. Run from anywhere."""
import json, pathlib
root = pathlib.Path(__file__).resolve().parent.parent
R={r['id']:r for r in json.load(open(root / 'docs/research/2026-12-02-serving-rows.json'))}
out=[]
A100_OPEN={"path":"/inference/prefix_share","values":[0.0,0.5,0.9],"why":"prefix caching was on (the server logs show non-zero hit rates) and vLLM's random dataset draws the same prompts on every run with its default seed: each run's hit rate is not published"}
def inf(ctx,out,**kw):
    d={"context":ctx,"output_tokens":out,"prefix_share":0.0}
    d.update(kw); return d
spec={
 # id: (model, card, tp, ep, dp, precision, weight_quant, inference patch, prompts, concurrency, open, note)
 'a100-vllm0.10.1.1-qwen2-7b-burst20':('qwen2.5-7b','a100-80gb-sxm4',1,1,'bf16','none',inf(1023,1020,mem_util=0.5,max_batched_tokens=2048),20,None,A100_OPEN),
 'a100-vllm0.10.1.1-qwen2-7b-burst50':('qwen2.5-7b','a100-80gb-sxm4',1,1,'bf16','none',inf(1020,1022,mem_util=0.5,max_batched_tokens=2048),50,None,A100_OPEN),
 'a100-vllm0.10.1.1-qwen2-7b-burst100':('qwen2.5-7b','a100-80gb-sxm4',1,1,'bf16','none',inf(1021,1016,mem_util=0.5,max_batched_tokens=2048),100,None,A100_OPEN),
 'a100-vllm0.10.1.1-qwen2-7b-burst200':('qwen2.5-7b','a100-80gb-sxm4',1,1,'bf16','none',inf(1020,1002,mem_util=0.5,max_batched_tokens=2048),200,None,A100_OPEN),
 'a100-vllm0.10.1.1-qwen2-7b-burst500':('qwen2.5-7b','a100-80gb-sxm4',1,1,'bf16','none',inf(1021,1005,mem_util=0.5,max_batched_tokens=2048),500,None,A100_OPEN),
 'a100-vllm-qwen2.5-32b-burst10':('qwen2.5-32b','a100-80gb-sxm4',1,1,'bf16','none',inf(1024,1024,max_batched_tokens=2048),10,None,A100_OPEN),
 'a100-vllm-qwen2.5-32b-burst50':('qwen2.5-32b','a100-80gb-sxm4',1,1,'bf16','none',inf(1020,1024,max_batched_tokens=2048),50,None,A100_OPEN),
 'a100-vllm0.9.1-qwen3-14b-awq-16k-conc1':('qwen3-14b','a100-80gb-sxm4',1,1,'bf16','int4',inf(16000,200,mem_util=0.95,max_batched_tokens=16384,max_seqs=30),30,1,A100_OPEN),
 'h200x8-vllm0.7.0-v1-deepseek-r1-rate4':('deepseek-r1','h200-sxm',8,8,'fp8','fp8',inf(1024,120,rate_rps=4.0),1000,None,None),
}
for c in (8,16,32,64):
    spec[f'h200x8-sglang0.5.7-dsr1-0528-1k1k-conc{c}']=('deepseek-r1','h200-sxm',8,8,'fp8','fp8',inf(922,922,context_p90=1003,output_p90=1003,mem_util=0.82,max_batched_tokens=32768,max_seqs=512),10*c,c,None)
for c in (4,16,32):
    spec[f'h200x8-trtllm-dsr1-0528-1k1k-conc{c}']=('deepseek-r1','h200-sxm',8,8,'fp8','fp8',inf(922,922,context_p90=1003,output_p90=1003,kv='fp8',mem_util=0.88,max_batched_tokens=1152),10*c,c,None)
spec['h200x8-trtllm-dsr1-0528-8k1k-conc16']=('deepseek-r1','h200-sxm',8,8,'fp8','fp8',inf(7373,922,context_p90=8028,output_p90=1003,kv='fp8',mem_util=0.88,max_batched_tokens=8320),160,16,None)
spec['b200x4-trtllm-dsr1-0528-fp4-1k1k-conc256']=('deepseek-r1','b200-hgx',1,4,'fp8','int4',inf(922,922,context_p90=1003,output_p90=1003,kv='fp8',ep=4),2560,256,None)
for c in (4,32,64):
    spec[f'mi355x-x4-sglang0.5.9-dsr1-0528-mxfp4-1k1k-conc{c}']=('deepseek-r1','mi355x',4,4,'fp8','int4',inf(922,922,context_p90=1003,output_p90=1003,kv='fp8',mem_util=0.8,max_batched_tokens=196608),10*c,c,None)
NOTES={
 'a100':"The source says A100 80GB without the form factor: the SXM4 card (PCIe has 5% less bandwidth). Qwen2-7B-Instruct has Qwen2.5-7B's architecture (28 layers, hidden 3,584, 4 KV heads, FFN 18,944): the qwen2.5-7b preset. Burst: all prompts sent at t = 0 (no --request-rate). Mean lengths from the printed totals.",
 'inferencex':"InferenceX random dataset: lengths uniform in [0.8 L, L] (mean 0.9 L, p90 0.98 L); prompts = 10 × concurrency; all measured from a cold start.",
}
for rid,(model,card,tp,ep,prec,wq,patch,prompts,conc,opn) in spec.items():
    r=R[rid]
    base={"framework":"deep_speed","scenario":{"model":model,"task":"inference","precision":prec,"weight_quant":wq,"inference":patch,"cards":{"only":[card]}},
          "layout":{"tp":tp,"pp":1,"dp":1,"zero":0,"recompute":"none","offload":"none","ep":1,"cp":1},
          "prompts":prompts,"concurrency":conc,"url":r['url'],"date":r.get('date') or "2026-12-02",
          "role":"validation","tolerance":0.2,
          "source":f"{r['engine']} on {r['gpus']}× {r['gpu']}, {r['model']} ({r['precision']})",
          "inputs":(r.get('dataset') or '')+'; '+(r.get('engine_flags') or '')+'; '+(r.get('notes') or '')}
    if ep>tp: base['scenario']['inference']['ep']=ep
    if opn: base['open']=opn
    note=NOTES['a100'] if rid.startswith('a100-vllm0.10') or '32b' in rid else NOTES['inferencex'] if 'conc' in rid and 'a100' not in rid else ''
    if 'fp4' in rid: note+=" FP4 (NVFP4/MXFP4) weights and math are not in the engine: the closest expressible reading is 4-bit weights with FP8 math."
    if 'trtllm' in rid: note+=" TensorRT-LLM's free_gpu_memory_fraction 0.75 of the memory left after the weights ≈ 0.88 of the card; max_num_tokens = (conc + ISL + 127) // 64 × 64."
    if 'qwen3-14b' in rid: note+=" Sent at 1 request/s with --max-concurrency 1; each request takes ~7 s, so the concurrency cap sets the schedule."
    base['note']=note.strip()
    for metric,key,unit in (("serving_ttft_mean_ms","ttft_mean_ms","ms"),("serving_tpot_mean_ms","tpot_mean_ms","ms"),("serving_output_tok_s","output_tok_s","tokens/s")):
        v=r.get(key)
        if key=='output_tok_s': v=v or r.get('output_tok_s_total_derived')
        if v is None: continue
        row=dict(base); row['id']=f"serve-{rid}-{metric.replace('serving_','').replace('_ms','').replace('_tok_s','')}"
        row['metric']=metric; row['published']=v; row['unit']=unit
        out.append(row)
dest = root / 'src/domain/accuracy.json'
rows = json.loads(dest.read_text())
new = {r['id']: r for r in out}
kept = [new.pop(r['id'], r) for r in rows]
dest.write_text(json.dumps(kept + list(new.values()), indent=1, ensure_ascii=False) + "\n")
print(len(out), "serving rows")
