"""The MLPerf server runs' rate-at-the-limits rows (third addendum of
docs/research/2026-12-06-mlperf-prereg.md): one row per server run already in the table, built
from that run's p99 time-per-token row. Usage: python3 THIS accuracy.json > new-rows.json"""
import json
import re
import sys

rows = json.load(open(sys.argv[1]))
out = []
for r in rows:
    m = re.match(r'(serve-mlperf\d+-.*-server)-tpot_p99$', r['id'])
    if not m:
        continue
    inf = dict(r['scenario']['inference'])
    rate = inf.pop('rate_rps')
    # MLPerf's limits (the log's "Test Parameters Used"); it has no median limit.
    inf.update({'ttft_p50_s': 2.0, 'ttft_p99_s': 2.0, 'tpot_p50_ms': 200.0, 'tpot_p99_ms': 200.0})
    scen = dict(r['scenario'], inference=inf)
    row = {
        'id': m.group(1) + '-rate',
        'metric': 'serving_rate_rps',
        'published': rate,
        'unit': 'requests/s per replica',
        'tolerance': 0.2,
        'source': r['source'],
        'url': r['url'],
        'inputs': 'The run met p99 TTFT <= 2 s and p99 TPOT <= 200 ms (the log\'s "Test Parameters Used": '
                  'ttft_latency 2000000000 ns, tpot_latency 200000000 ns; "Result is : VALID") at its scheduled '
                  f'rate, {rate} samples/s per replica (the scheduled samples/s over the run\'s {r["layout"]["dp"]} '
                  'replicas). Every other input is the run\'s latency rows\'. From those rows: ' + r['inputs'],
        'framework': r['framework'],
        'scenario': scen,
        'layout': r['layout'],
        'prompts': r['prompts'],
        'concurrency': None,
        'date': r['date'],
        'role': 'validation',
        'note': 'Held out, added 2026-12-07 by the third addendum (docs/research/2026-12-06-mlperf-prereg.md), '
                'after a scratch bisection (disclosed there). The scheduled rate is a lower bound of the largest '
                'rate the system carries within the limits.',
    }
    if 'open' in r:
        row['open'] = r['open']
    out.append(row)
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
