#!/usr/bin/env bash
# Speed and size: plan() natively and in headless Chromium, input-to-screen latency, chart redraw,
# gzip transfer size of the built page. Prints each figure against its budget.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
echo "== native plan() (cargo run --release --example bench)"
cargo run --locked --release --example bench
echo "== headless Chromium (wasm, release profile)"
cargo test --locked --release --target wasm32-unknown-unknown --test bench -- --nocapture 2>&1 | tee /tmp/gpu-planner-bench.log | grep BENCH || true
echo "== transfer size (release build, gzip -9)"
trunk build --release --offline >/dev/null 2>&1
python3 scripts/csp.py dist/index.html >/dev/null
total=0
for f in dist/*; do
  z=$(gzip -9c "$f" | wc -c); total=$((total + z))
  printf '%-50s %9d raw %8d gzip\n' "$(basename "$f")" "$(stat -c%s "$f")" "$z"
done
printf 'total gzip: %d bytes (budget 250,000)\n' "$total"
grep BENCH /tmp/gpu-planner-bench.log | awk '
  /plan_ms/ {print "plan() in Chromium: " $3 " ms (budget 2 ms)"}
  /input_to_screen_ms/ {print "input to screen: " $3 " ms"}
  /chart_memory_ms/ {print "memory chart redraw: " $3 " ms (budget 16 ms)"}
  /chart_cumulative_ms/ {print "cumulative chart redraw: " $3 " ms (budget 16 ms)"}
  /search_ms/ {print "auto-plan search: " $3 " ms for " $5 " configurations (budget 50 ms for 100,000)"}'
