"""The Ascend A2 serving rows of docs/research/2026-12-07-ascend-serving-prereg.md (addendum),
from the helper's sourced report (2026-12-07-ascend-serving-sources.md).
Usage: python3 THIS > new-rows.json"""
import json
import sys

TUTORIAL = ('https://github.com/vllm-project/vllm-ascend/blob/be5b66de6d3b7b2d2aed21305327487c1505b272/'
            'docs/source/tutorials/suffix_speculative_decoding.md')
# (dataset, concurrency, avg in, avg out, requests, base TPOT ms, base TPS), verbatim.
TABLE = [
    ('humaneval', 1, 150, 2700, 100, 55.1, 18.1), ('humaneval', 15, 150, 2700, 100, 61.6, 233.8),
    ('humaneval', 26, 150, 2700, 100, 64.7, 403.8),
    ('arc', 1, 76, 960, 100, 52.8, 18.9), ('arc', 8, 76, 960, 100, 59.1, 125.4), ('arc', 15, 76, 960, 100, 59.8, 245.8),
    ('gsm8k', 1, 67, 1570, 100, 55.5, 18.0), ('gsm8k', 17, 67, 1570, 100, 61.5, 279.8),
    ('gsm8k', 26, 67, 1570, 100, 63.9, 396.4),
    ('sharegpt', 1, 666, 231, 327, 54.1, 18.3), ('sharegpt', 8, 666, 231, 327, 58.8, 125.0),
    ('sharegpt', 14, 666, 231, 327, 61.8, 227.0),
    ('boolq', 1, 207, 314, 100, 54.1, 18.4), ('boolq', 16, 207, 314, 100, 60.0, 229.7),
    ('boolq', 32, 207, 314, 100, 62.7, 396.4),
    ('agieval', 1, 735, 1880, 100, 53.1, 18.7), ('agieval', 24, 735, 1880, 100, 64.0, 381.2),
    ('agieval', 34, 735, 1880, 100, 70.0, 494.6),
]
A2_64GB = ['huawei-ascend-910b1', 'huawei-ascend-910b2', 'huawei-ascend-910b3']
LAYOUT = lambda tp: {'tp': tp, 'pp': 1, 'dp': 1, 'zero': 0, 'recompute': 'none', 'offload': 'none', 'ep': 1, 'cp': 1}
CARD_OPEN = {'path': '/cards/only/0', 'values': A2_64GB,
             'why': 'the source names the server (Atlas A2) but not its 910B variant; the 64 GB A2 variants in the catalog'}

out = []
for name, conc, pin, pout, n, tpot, tps in TABLE:
    calibration = conc == 1
    inf = {'context': pin, 'output_tokens': pout, 'prefix_share': 0.0, 'max_batched_tokens': 40960,
           'mem_util': 0.9, 'engine': 'vllm'}
    base = {
        'framework': 'deep_speed',
        'scenario': {'model': 'qwen3-32b', 'task': 'inference', 'precision': 'bf16', 'weight_quant': 'none',
                     'inference': inf, 'cards': {'only': ['huawei-ascend-910b3']}},
        'layout': LAYOUT(4), 'prompts': n, 'concurrency': conc, 'url': TUTORIAL, 'date': '2026-02-03',
        'role': 'calibration' if calibration else 'validation', 'tolerance': 0.2,
        'source': 'vLLM-Ascend v0.13.0rc1 on one Atlas 800T A2 node, 4 cards, Qwen3-32B (bf16): the suffix '
                  'speculative decoding tutorial\'s non-speculative baseline columns',
        'inputs': f'Tutorial table row "{name} | {conc} | avg in {pin} | avg out {pout} | {n} requests | Base TPOT '
                  f'{tpot} ms | Base TPS {tps}" (TPS: output tokens/s over all requests, 1000/TPOT at '
                  'concurrency 1). Serve command as printed less --speculative-config: vllm serve /data/Qwen3-32B '
                  '--tensor-parallel-size 4 --max-model-len 5500 --max-num-batched-tokens 40960 '
                  '--gpu-memory-utilization 0.9 (the baseline command itself is not printed). AISBench, '
                  'temperature 0, ignore_eos False, max_out_len 4000, request_rate 0, the table\'s concurrency.',
    }
    if calibration:
        base['note'] = ('Sets serving::CANN_LAYER_S (docs/research/2026-12-07-ascend-serving-prereg.md, addendum). '
                        'A lone request: its prompt and answer lengths do not move its time per token, so they '
                        'are the means.')
    else:
        p90s = sorted({min(round(pout * f), 4000) for f in (1.5, 2.0)})
        base['open'] = [
            {'path': '/inference/output_p90', 'values': p90s,
             'why': 'answers end at EOS (ignore_eos False, at most max_out_len 4000): only their mean is '
                    'published; 1.5x and 2x the mean, capped at 4000'},
            CARD_OPEN,
        ]
        base['note'] = ('Held out (docs/research/2026-12-07-ascend-serving-prereg.md, addendum): the batch '
                        'dependence of the cost the concurrency-1 rows set. Prompts at their mean length.')
    for metric, unit, value, suffix in (('serving_tpot_mean_ms', 'ms', tpot, 'tpot_mean'),
                                         ('serving_output_tok_s', 'tokens/s', tps, 'output')):
        # Calibration rows are named apart: every `serve-` row is held out (tests/accuracy.rs).
        prefix = 'calib-serve' if calibration else 'serve'
        row = dict(base, id=f'{prefix}-910b-vllm0.13-qwen3-32b-tp4-{name}-conc{conc}-{suffix}', metric=metric,
                   published=value, unit=unit)
        out.append(row)

ISSUE = 'https://github.com/vllm-project/vllm-ascend/issues/12577'
for metric, unit, value, suffix in (('serving_ttft_mean_ms', 'ms', 346.31, 'ttft_mean'),
                                     ('serving_tpot_mean_ms', 'ms', 64.66, 'tpot_mean'),
                                     ('serving_output_tok_s', 'tokens/s', 123.62, 'output')):
    out.append({
        'id': f'serve-910b-vllm0.18-qwen3-32b-w4a4-tp1-rate1-{suffix}', 'metric': metric, 'published': value,
        'unit': unit, 'tolerance': 0.2, 'framework': 'deep_speed',
        'source': 'vLLM-Ascend v0.18.0 on one Atlas 800I A2 card (HDK 25.5.0.B078), vllm-ascend/Qwen3-32B-W4A4',
        'url': ISSUE, 'date': '2026-07-22', 'role': 'validation',
        'scenario': {'model': 'qwen3-32b', 'task': 'inference', 'precision': 'bf16', 'weight_quant': 'int4',
                     'inference': {'context': 1024, 'output_tokens': 128, 'prefix_share': 0.0, 'rate_rps': 1.0,
                                   'mem_util': 0.9, 'engine': 'vllm'},
                     'cards': {'only': ['huawei-ascend-910b3']}},
        'layout': LAYOUT(1), 'prompts': 200, 'concurrency': None,
        'inputs': 'vllm bench serve --endpoint /v1/completions --dataset-name random --random-input 1024 '
                  '--num-prompts 200 --request-rate 1 (output length the default 128: "Total generated tokens: '
                  '25600"). Printed: Output token throughput 123.62 tok/s, Mean TTFT 346.31 ms, Mean TPOT 64.66 ms. '
                  'Serve command not printed: the v0.18.0 single-NPU tutorial the test task names, vllm serve '
                  '... --max-model-len 4096 --quantization ascend (an inference).',
        'note': 'Held out (docs/research/2026-12-07-ascend-serving-prereg.md, addendum). A community test report '
                'in the engine\'s repository (PR #12580 adds it to the docs). W4A4 read as INT4 weights: the '
                'engine has no 4-bit math, so its prefill runs at the 16-bit rate.',
        'open': CARD_OPEN,
    })

NIGHTLY = ('https://github.com/vllm-project/vllm-ascend/blob/67b1ac5e7a2f0d98606c720d500cdb3f8d675054/'
           'tests/e2e/nightly/single_node/models/configs/Qwen3-32B-Int8-A2.yaml')
out.append({
    'id': 'serve-910b-vllm-nightly-qwen3-32b-w8a8-tp4-conc72-output', 'metric': 'serving_output_tok_s',
    'published': 1065.179, 'unit': 'tokens/s', 'tolerance': 0.2, 'framework': 'deep_speed',
    'source': 'vLLM-Ascend nightly CI performance baseline (vLLM v0.27.1), Qwen3-32B-W8A8 TP4 on an A2 runner '
              '(linux-aarch64-a2b3-4)',
    'url': NIGHTLY, 'date': '2026-08-19', 'role': 'validation',
    'scenario': {'model': 'qwen3-32b', 'task': 'inference', 'precision': 'bf16', 'weight_quant': 'int8',
                 'inference': {'context': 3500, 'output_tokens': 1500, 'prefix_share': 0.0,
                               'max_batched_tokens': 40960, 'mem_util': 0.9, 'engine': 'vllm'},
                 'cards': {'only': ['huawei-ascend-910b3']}},
    'layout': LAYOUT(4), 'prompts': 288, 'concurrency': 72,
    'inputs': 'Qwen3-32B-Int8-A2.yaml at 67b1ac5e (PR #14553, "update nightly cases perf baseline"): '
              '--quantization ascend --no-enable-prefix-caching --tensor-parallel-size 4 --max-model-len 40960 '
              '--max-num-batched-tokens 40960 --gpu-memory-utilization 0.9, cudagraph_mode FULL_DECODE_ONLY; '
              'AISBench dataset GSM8K-in3500-bs400 (about 3,500 prompt tokens: read off the name), num_prompts 288, '
              'max_out_len 1500 with ignore_eos (answers exactly 1500), batch_size 72 (the concurrency); baseline '
              '1065.179 = AISBench Output Token Throughput total, a run passes at 0.97 of it.',
    'note': 'Held out (docs/research/2026-12-07-ascend-serving-prereg.md, addendum). A CI pass reference set '
            'from the nightly runs, not a published log; W8A8 read as INT8 weights (the engine has no INT8 math: '
            'its prefill runs at the 16-bit rate).',
    'open': CARD_OPEN,
})
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
