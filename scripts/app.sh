#!/usr/bin/env bash
# One command from a fresh clone to the app at http://localhost:3000 (SQLite, built-in catalog).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
echo "› building the app"
npx next build
echo "› serving on http://localhost:3000"
exec npx next start -p 3000
