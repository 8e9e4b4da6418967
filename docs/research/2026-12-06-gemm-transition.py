"""GEMM time between its memory floor and its math: which overlap form fits AIConfigurator's tables.

Session 41 (2026-12-06). Inputs: ai-dynamo/aiconfigurator at 095f58a5, aic-core/src/
aiconfigurator_core/systems/data/<card>/gemm/trtllm/1.3.0rc20/gemm_perf.parquet (A100:
gemm/sglang/0.5.10), extracted with `git show` to <card>.gemm.parquet in the working directory.
For every shape with N, K >= 2,048 and a largest M >= 8,192: W = the time at M = 1, c = the
time per token at the largest M, and at M = 16 ... 8,192 the form (W^p + (M c)^p)^(1/p) against
the measured time (p = inf: the roofline's max). Usage: python3 this.py h100_sxm h200_sxm ...
"""
import pyarrow.parquet as pq, collections, math, sys
def load(card):
    d=pq.read_table(f'{card}.gemm.parquet').to_pydict()
    tab=collections.defaultdict(dict)
    for dt,m,n,k,l in zip(d['gemm_dtype'],d['m'],d['n'],d['k'],d['latency']):
        tab[(dt,n,k)][m]=l
    return tab
Ms=[16,32,64,128,256,512,1024,2048,4096,8192]
def errs(tab,dt,p):
    out=[]
    for (d,n,k),r in tab.items():
        if d!=dt or n<2048 or k<2048 or 1 not in r: continue
        big=max(r); 
        if big<8192: continue
        w=r[1]; c=r[big]/big
        for m in Ms:
            if m not in r: continue
            pred = max(w,m*c) if p==math.inf else (w**p+(m*c)**p)**(1/p)
            out.append(math.log(pred/r[m]))
    return out
def summ(v):
    a=sorted(abs(x) for x in v); s=sorted(v)
    return f"n={len(v)} med|e|={math.expm1(a[len(a)//2]):.3f} p90|e|={math.expm1(a[int(len(a)*0.9)]):.3f} med e={math.expm1(s[len(s)//2]):+.3f}"
cards=sys.argv[1:]
for card in cards:
    tab=load(card)
    dts=sorted(set(d for d,_,_ in tab))
    for dt in dts:
        if dt not in ('bfloat16','fp8_block','fp8'): continue
        print(card,dt)
        for p in [1,1.5,2,2.5,3,4,6,math.inf]:
            print('   p',p, summ(errs(tab,dt,p)))
