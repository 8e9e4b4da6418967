#!/usr/bin/env bash
# Builds the page (release) and serves it on http://127.0.0.1:${PORT:-8080}/
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
trunk build --release --offline
python3 scripts/csp.py dist/index.html
echo "GPU Planner: http://127.0.0.1:${PORT:-8080}/"
exec python3 -m http.server "${PORT:-8080}" --bind 127.0.0.1 --directory dist
