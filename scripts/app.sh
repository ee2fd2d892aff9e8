#!/usr/bin/env bash
# One command from a fresh clone to the app at http://localhost:3000 (SQLite, built-in catalog).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
echo "› building the app"
npx next build
node scripts/build-workers.mjs
# Local by default. HOST=0.0.0.0 (or any non-loopback address) exposes the app: auth turns on
# (server/auth) and ECOMRLVE_ADMIN_TOKEN is required.
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-3000}"
export ECOMRLVE_BIND="$HOST"
case "$HOST" in
  127.0.0.1|localhost|::1) ;;
  *) if [ -z "${ECOMRLVE_ADMIN_TOKEN:-}" ] && [ "${ECOMRLVE_AUTH:-}" != "off" ]; then
       echo "HOST=$HOST exposes the app, so auth is on: set ECOMRLVE_ADMIN_TOKEN (a long random string) and run again." >&2
       exit 1
     fi
     # requests must name this server: an address, or a name listed here (docs/security.md)
     [ -n "${ECOMRLVE_PUBLIC_HOSTS:-}" ] || echo "note: only addresses and loopback names reach the app; list the host names people use in ECOMRLVE_PUBLIC_HOSTS (comma-separated)" >&2 ;;
esac
echo "› serving on http://$HOST:$PORT"
exec npx next start -p "$PORT" -H "$HOST"
