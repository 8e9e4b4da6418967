#!/usr/bin/env bash
# Builds the page (release) and serves it on http://127.0.0.1:${PORT:-8080}/
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
trunk build --release --offline   # CSP and precompressed files come from the post_build hook
echo "GPU Planner: http://127.0.0.1:${PORT:-8080}/"
exec python3 e2e/server.py "${PORT:-8080}" dist   # sends the precompressed .br/.gz when accepted
