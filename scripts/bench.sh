#!/usr/bin/env bash
# Speed and size against DESIGN.md §5: plan() natively and in headless Chromium, input-to-screen
# latency, chart redraw, first result on screen against gpu_poor's first text (same local server,
# same run), and the gzip and brotli transfer size of every shipped file of the release build.
# Exits non-zero when the gzip total is over the budget (or a precompressed file is missing).
#   BENCH_DIST=target/bench-dist   where the release build goes (its own folder, so a concurrent
#                        `trunk build` into dist/ cannot mix files into what is measured)
#   BENCH_RUNS=7         page loads of each site for the first-result medians
#   GPU_POOR_DIR=...     gpu_poor's built docs/ folder (default ~/.cache/gpu-planner-bench/gpu_poor,
#                        see bench/README.md); the comparison is skipped when it is absent
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# Vision, OCR, speech and diffusion jobs (issue 17) added ~15 KB; it was won back by terser on the
# JS glue, wasm-opt --low-memory-unused, table-driven form fields, name-only enums, compact vision
# rows and table-driven reading of the scenario's sections (domain/read.rs, ~12 KB).
GZIP_BUDGET=400000
# Data fetched beside the code (DESIGN.md §5): the catalog, presets and vision rows.
DATA_BUDGET=200000
RUNS=${BENCH_RUNS:-7}
DIST=${BENCH_DIST:-target/bench-dist}
GPU_POOR_DIR=${GPU_POOR_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gpu-planner-bench/gpu_poor}

echo "== native plan() (cargo run --release --example bench)"
cargo run --locked --release --example bench
echo "== headless Chromium (wasm, release profile)"
cargo test --locked --release --target wasm32-unknown-unknown --test bench -- --nocapture 2>&1 | tee /tmp/gpu-planner-bench.log | grep '^BENCH' || true

echo "== release build (trunk build --release: CSP and precompressed files come from its post_build hook)"
trunk build --release --offline --dist "$DIST" >/tmp/gpu-planner-build.log 2>&1 || { cat /tmp/gpu-planner-build.log; exit 1; }
grep -E '^(CSP|precompressed)' /tmp/gpu-planner-build.log

echo "== transfer size of every shipped file (precompressed files as built: zopfli gzip, brotli q11)"
status=0
total_raw=0 total_gz=0 total_br=0 lazy_gz=0
printf '%-46s %10s %9s %9s\n' file raw gzip brotli
for f in "$DIST"/*; do
  case "$f" in
    *.gz|*.br) continue ;;
    # The full catalog ships beside the page as a linked download (the footer's sources link);
    # the page never loads it, so it is not part of the page's transfer.
    */catalog.json) echo "catalog.json (linked download, not loaded by the page): $(gzip -9c "$f" | wc -c) B gzip"; continue ;;
    # The accuracy table is a static page the accuracy section links to; opened on demand.
    */accuracy.html) echo "accuracy.html (linked page, not loaded by the page): $(stat -c%s "$f.gz") B gzip"; continue ;;
    # The data file the page fetches in parallel with the wasm: its own budget.
    */page-data.jsonl)
      data_gz=$(stat -c%s "$f.gz" 2>/dev/null || echo 999999999)
      echo "page-data.jsonl (data, fetched beside the wasm): $(stat -c%s "$f") B raw, $data_gz B gzip (budget $DATA_BUDGET)"
      [ "$data_gz" -gt "$DATA_BUDGET" ] && { echo "data: OVER the budget"; status=1; }
      continue ;;
    # Chunks the page fetches on first use (scripts/split.py): an open card, a pasted config, an
    # inference scenario. A first visit requests none of them (e2e/e2e.mjs checks it).
    */split_*.wasm)
      gz=$(stat -c%s "$f.gz" 2>/dev/null || gzip -9c "$f" | wc -c)
      lazy_gz=$((lazy_gz + gz))
      printf '%-46s %10d %9d %9s  (on first use)\n' "$(basename "$f")" "$(stat -c%s "$f")" "$gz" "-"
      continue ;;
  esac
  raw=$(stat -c%s "$f")
  if [ -f "$f.gz" ] && [ -f "$f.br" ]; then
    gz=$(stat -c%s "$f.gz"); br=$(stat -c%s "$f.br")
  else
    echo "MISSING precompressed $f.gz / $f.br (the post_build hook in Trunk.toml did not run?)"
    status=1; gz=$(gzip -9c "$f" | wc -c); br=0
  fi
  total_raw=$((total_raw + raw)); total_gz=$((total_gz + gz)); total_br=$((total_br + br))
  printf '%-46s %10d %9d %9d\n' "$(basename "$f")" "$raw" "$gz" "$br"
done
printf '%-46s %10d %9d %9d\n' total "$total_raw" "$total_gz" "$total_br"
if [ "$total_gz" -gt "$GZIP_BUDGET" ]; then
  echo "transfer: gzip total $total_gz bytes is OVER the budget of $GZIP_BUDGET bytes"; status=1
else
  echo "transfer: gzip total $total_gz bytes (budget $GZIP_BUDGET), brotli total $total_br bytes"
fi
echo "chunks loaded on first use: $lazy_gz bytes gzip in all"

echo "== first result on screen ($RUNS loads each, fresh context, medians; same server and run)"
site=$(mktemp -d)
srv=""
cleanup() { [ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$site"; }
trap cleanup EXIT
mkdir -p "$site/tools/gpu" && cp -r "$DIST"/. "$site/tools/gpu/"
with_poor=""
if [ -f "$GPU_POOR_DIR/index.html" ]; then
  cp -r "$GPU_POOR_DIR" "$site/gpu_poor"; with_poor=with-gpu-poor
else
  echo "gpu_poor not found at $GPU_POOR_DIR: comparison skipped (bench/README.md says how to get it)"
fi
PORT=${BENCH_PORT:-8745}
python3 e2e/server.py "$PORT" "$site" & srv=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$PORT/tools/gpu/" >/dev/null && break; sleep 0.1; done
# The share link as the page makes it: the scenario and the top of its answer (r=).
SHARE_QUERY=$(cargo run -q --locked --release --bin gpu-planner -- encode bench/share.json --answer)
SHARE_QUERY="$SHARE_QUERY" node bench/first-result.mjs "http://127.0.0.1:$PORT" "$RUNS" $with_poor | tee /tmp/gpu-planner-first.log
echo "== plan after an edit in the page as shipped (the serving engine is a chunk there; bench/plan-in-page.mjs)"
node bench/plan-in-page.mjs "http://127.0.0.1:$PORT" 15 | tee /tmp/gpu-planner-page.log

echo "== summary"
grep '^BENCH' /tmp/gpu-planner-bench.log | awk '
  /^BENCH plan_ms/ {print "plan() in Chromium: " $3 " ms (budget 2 ms)"}
  /vision_plan_ms/ {print "plan() of a vision job in Chromium: " $3 " ms (budget 2 ms)"}
  /input_to_screen_ms/ {print "input to screen: " $3 " ms"}
  /chart_memory_ms/ {print "memory chart redraw: " $3 " ms (budget 16 ms)"}
  /chart_cumulative_ms/ {print "cumulative chart redraw: " $3 " ms (budget 16 ms)"}
  /search_ms/ {print "auto-plan search: " $3 " ms for " $5 " configurations (budget 50 ms for 100,000)"}'
awk '
  /ours_first_row_ms/ {ours = $3}
  /gpu_poor_first_text_ms/ {poor = $3}
  /ours_live_row_ms/ {live = $3}
  /share_first_row_ms/ {share = $3}
  /share_live_row_ms/ {share_live = $3}
  END {
    if (poor == "") print "first result: ours " ours " ms (median); gpu_poor not measured";
    else print "first result: ours " ours " ms vs gpu_poor first text " poor " ms (medians): " \
      ((ours + 0 <= poor + 0) ? "within budget" : "OVER budget (must be no later than gpu_poor)");
    if (live != "") print "live ranking (after the WebAssembly starts; what a returning visitor waits for): " live " ms";
    if (share != "" && poor != "") print "share link first result: " share " ms vs gpu_poor first text " poor " ms: " \
      ((share + 0 <= poor + 0) ? "within budget" : "OVER budget (must be no later than gpu_poor)");
    else if (share != "") print "share link first result: " share " ms";
    if (share_live != "") print "share link live ranking (after the WebAssembly starts): " share_live " ms";
  }' /tmp/gpu-planner-first.log
grep '^TRACE' /tmp/gpu-planner-first.log || true
awk '/^PAGE/ {print "in the shipped page, " $2 ": " $3 " ms (median of 15 edits)"}' /tmp/gpu-planner-page.log
echo "transfer: gzip $total_gz bytes (budget $GZIP_BUDGET), brotli $total_br bytes"
exit $status
