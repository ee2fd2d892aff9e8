#!/usr/bin/env bash
# Installs what the app and its tests need, skipping what is already there:
# npm packages (only when the lockfile changed), the Prisma client, the database schema.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1 PRISMA_HIDE_UPDATE_MESSAGE=1

stamp=node_modules/.installed-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "› installing npm packages (npm ci; the first install compiles better-sqlite3, about 2–3 min)"
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
echo "› generating the Prisma client"
npm run -s db:generate >/dev/null
echo "› applying database migrations (${DATABASE_URL:-file:./prisma/dev.db})"
npx prisma migrate deploy >/dev/null
