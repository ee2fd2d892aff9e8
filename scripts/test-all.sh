#!/usr/bin/env bash
# Every test: lint (ESLint + Prettier), typecheck, unit (vitest) and end-to-end (Playwright in
# Debian chromium). Ends with one line "N passed, N failed" summing all four.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1 PRISMA_HIDE_UPDATE_MESSAGE=1

if ! command -v chromium >/dev/null 2>&1; then
  echo "› installing Debian chromium for Playwright"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null || {
    echo "could not install chromium"; echo "0 passed, 1 failed"; exit 1; }
fi
bash scripts/ensure-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

out=.test-results
rm -rf "$out" && mkdir -p "$out"
status=0

# The PostgreSQL tests (server/env-server/pg-workers.test.ts, server/inspector/pg-parity.test.ts, pg-import.test.ts) need PostgreSQL's
# binaries; install Debian's package when they are missing. If that fails, the suite is skipped,
# the summary counts it as failed and says why (postgres.status).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -z "${ECOMRLVE_PG_BIN:-}" ]; then
  echo "› installing Debian postgresql for the two-worker test"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >"$out/postgres-install.log" 2>&1 ||
    echo "could not install postgresql (apt-get failed: see $out/postgres-install.log)" > "$out/postgres.status"
fi

# Lint and typecheck count as one test each in the summary (a .status file holds pass or fail).
# ESLint, Prettier and tsc are each one thread: they run side by side (two cores) instead of in turn.
# `npm run typecheck` runs alone: `next typegen` first writes the route types next build would, so
# tsc checks what the build's own type check would; once it passed, the build skips that second
# check (ECOMRLVE_TYPECHECKED).
echo "› lint and typecheck (ESLint, Prettier, npm run typecheck, side by side)"
npx eslint . > "$out/eslint.log" 2>&1 & eslint_pid=$!
npx prettier --check . > "$out/prettier.log" 2>&1 & prettier_pid=$!
npm run -s typecheck > "$out/typecheck.log" 2>&1 & tsc_pid=$!
lint_ok=1
wait $eslint_pid || lint_ok=0
wait $prettier_pid || lint_ok=0
cat "$out/eslint.log" "$out/prettier.log" > "$out/lint.log"
if [ $lint_ok = 1 ]; then echo pass > "$out/lint.status"
else tail -40 "$out/lint.log"; echo fail > "$out/lint.status"; status=1; fi
if wait $tsc_pid; then echo pass > "$out/typecheck.status"; export ECOMRLVE_TYPECHECKED=1
else tail -40 "$out/typecheck.log"; echo fail > "$out/typecheck.status"; status=1; fi

echo "› unit tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile="$out/unit.json" || status=1

# `npm run build` as on a fresh clone: no database. DATABASE_URL names a file that does not
# exist, and the build fails if anything opened (so created) it. The e2e servers then migrate
# their own empty databases on start (playwright.config.ts).
echo "› building the app with no database, for end-to-end tests"
nodb="$(mktemp -d)/never.db"
if DATABASE_URL="file:$nodb" npm run -s build > "$out/build.log" 2>&1 &&
  { [ ! -e "$nodb" ] || { echo "next build opened the database $nodb" >> "$out/build.log"; false; }; }; then
  echo "› end-to-end tests (Playwright)"
  PLAYWRIGHT_JSON_OUTPUT_NAME="$out/e2e.json" npx playwright test --reporter=list,json || status=1
else
  tail -40 "$out/build.log"; echo "next build failed"; status=1
fi

node scripts/test-summary.mjs "$out" || status=1
exit $status
