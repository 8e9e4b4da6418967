#!/usr/bin/env bash
# Every test: formatting, lints, purity of the domain, host tests, browser tests in headless
# Chromium, the release build, and an end-to-end check of the built page under a sub-path.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "purity: no browser or framework crates in domain/ or chart.rs"
if grep -rnE '\b(leptos|web_sys|wasm_bindgen|js_sys|gloo|plotters_canvas)\b' src/domain src/domain.rs src/chart.rs; then
  echo "domain/chart must stay pure"; exit 1
fi

step "cargo fmt --check"
cargo fmt --check

step "clippy (host and wasm32), warnings are errors"
cargo clippy --locked --all-targets -- -D warnings
cargo clippy --locked --target wasm32-unknown-unknown --lib --bins -- -D warnings
# The page as trunk builds it (index.html: data fetched beside the wasm).
cargo clippy --locked --target wasm32-unknown-unknown --lib --bins --features fetch-data -- -D warnings
# ... and with its split points (src/web/lazy.rs, scripts/split.py).
cargo clippy --locked --target wasm32-unknown-unknown --lib --bins --features fetch-data,split -- -D warnings

step "host tests"
cargo test --locked
# The page's build loads the serving engine on first use.
cargo test --locked --features split --test lazy_engines

step "browser tests (wasm-bindgen-test, headless Chromium)"
# The runner's default limit is 20 s for the whole suite; 38 tests in a debug build take ~36 s on
# 2 cores (serving plans and the compare table), so give it room.
WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-300} cargo test --locked --target wasm32-unknown-unknown --test web

step "release build (CSP and precompressed .gz/.br from the post_build hook in Trunk.toml)"
trunk build --release --offline
for f in dist/*.wasm dist/*.js dist/*.css dist/index.html; do
  [ -s "$f.gz" ] && [ -s "$f.br" ] || { echo "missing $f.gz or $f.br"; exit 1; }
done
grep -q 'http-equiv="Content-Security-Policy"' dist/index.html || { echo "no CSP in dist/index.html"; exit 1; }

step "end-to-end: built page under a sub-path and in an iframe"
rm -rf site && mkdir -p site/tools/gpu && cp -r dist/. site/tools/gpu/ && cp e2e/host.html e2e/host-sandbox.html site/
PORT=${E2E_PORT:-8743}
python3 e2e/server.py "$PORT" site & SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$PORT/tools/gpu/" >/dev/null && break; sleep 0.1; done
node e2e/e2e.mjs "http://127.0.0.1:$PORT"
echo; echo "all tests passed"
