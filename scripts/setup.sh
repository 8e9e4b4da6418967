#!/usr/bin/env bash
# Installs what the build and tests need, skipping what is already there at the right version.
# Downloads only from package registries (apt, crates.io, npm). Sourced by serve.sh and test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Browser tests and screenshots: Debian's chromium + chromedriver; a CJK font for Chinese on canvases.
need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v chromedriver >/dev/null || need_apt+=(chromium-driver)
command -v zopfli >/dev/null || need_apt+=(zopfli)
fc-list :lang=zh 2>/dev/null | grep -q . || need_apt+=(fonts-wqy-microhei)
if [ ${#need_apt[@]} -gt 0 ]; then
  say "apt-get install ${need_apt[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

rustup target list --installed | grep -qx wasm32-unknown-unknown || { say "rustup target add wasm32-unknown-unknown"; rustup target add wasm32-unknown-unknown; }

# trunk 0.21 (0.22 needs a newer rustc than the machine's). A cold build takes ~12 min on 2 cores.
trunk --version 2>/dev/null | grep -q '^trunk 0\.21\.' || { say "cargo install trunk ~0.21"; cargo install trunk --version '~0.21' --locked; }

# wasm-bindgen CLI must equal the wasm-bindgen crate in Cargo.lock. No --locked: its lockfile pins
# a webpki-roots the registry mirror lacks (see shared/TOOLCHAIN.md P2).
WB=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/"/,"",$3); print $3}' Cargo.lock)
wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $WB" || { say "cargo install wasm-bindgen-cli $WB"; cargo install wasm-bindgen-cli --version "$WB" --force; }

# wasm-split-cli cuts the page's wasm into lazily loaded chunks (scripts/split.py); its split
# points come from the wasm_split_helpers that leptos brings (0.2.x, Cargo.lock).
cargo install --list | grep -q '^wasm_split_cli_support v0\.2\.4:' || { say "cargo install wasm_split_cli_support 0.2.4"; cargo install wasm_split_cli_support --version 0.2.4 --locked --features build-binary; }

# wasm-opt 132 from npm (Debian's 108 silently breaks the page) and playwright-core for e2e.
if ! node_modules/.bin/wasm-opt --version 2>/dev/null | grep -q 'version 132' || [ ! -d node_modules/playwright-core ]; then
  say "npm ci"; npm ci --no-audit --no-fund --silent
fi
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
