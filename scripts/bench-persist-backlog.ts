// npm run bench:persist:backlog -- --db /path/to/env.db [--open 20]
// What a reader pays for the trainer recorder's deferred events (round 10, materialise.ts), on a
// COPY of a store that serve:env recorded into (e.g. after `bench:api` against it): every
// trainer episode's events are deleted again and its watermark set to 0 — the state right after
// a burst the server never idled after — and then timed (wall and this process's CPU):
// opening single episodes (materialising one each), then the first lists and a search (each
// materialises within its budget, pg-search.ts: what /episodes waits for), and last the whole
// backlog and its full-text catch-up (what every list waited for before the budget).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { materialiseEvents } from '../server/episodes/materialise';
import { openSqlite, sqliteInspectorDb } from '../server/inspector/db';
import { listInputSchema } from '../server/inspector/filters';
import { indexCommitted, materialiseBudgetMs } from '../server/inspector/pg-search';
import { listEpisodes } from '../server/inspector/query';
import { median } from './bench-api-lib';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
};
const source = arg('db', '');
if (!source) {
  console.error('--db <a SQLite file serve:env recorded into> is required');
  process.exit(2);
}
const opens = Number(arg('open', '20'));
const dir = mkdtempSync(path.join(tmpdir(), 'backlog-'));
const file = path.join(dir, 'env.db');
copyFileSync(source, file);
const sqlite = openSqlite(`file:${file}`);
const db = sqliteInspectorDb(sqlite);
const catalog = getCatalog(DEFAULT_CATALOG_ID);
const catalogOf = () => catalog;

// Back to "nothing materialised": the trainer episodes' events go, their watermark is 0.
sqlite.exec(`DELETE FROM "EpisodeEvent" WHERE "episodeId" IN (SELECT "id" FROM "Episode" WHERE "player" LIKE 'trainer:%');
  UPDATE "Episode" SET "eventsStored" = 0 WHERE "player" LIKE 'trainer:%'`);
const waiting = sqlite
  .prepare(
    `SELECT count(*) AS episodes, coalesce(sum("eventCount"), 0) AS events, coalesce(sum("turn"), 0) AS steps
    FROM "Episode" WHERE "eventsStored" < "eventCount"`,
  )
  .get() as { episodes: number; events: number; steps: number };
console.log(`waiting: ${waiting.episodes} episodes, ${waiting.steps} steps, ${waiting.events} events`);

const countPending = () =>
  (sqlite.prepare(`SELECT count(*) AS n FROM "Episode" WHERE "eventsStored" < "eventCount"`).get() as { n: number }).n;

const timed = async (fn: () => Promise<unknown>) => {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await fn();
  const c = process.cpuUsage(cpu);
  return { ms: performance.now() - t, cpuMs: (c.user + c.system) / 1000 };
};

const ids = sqlite
  .prepare(`SELECT "id" FROM "Episode" WHERE "eventsStored" < "eventCount" ORDER BY random() LIMIT ?`)
  .pluck()
  .all(opens) as string[];
const one = [];
for (const id of ids) one.push(await timed(() => materialiseEvents(db, [id], catalogOf)));
console.log(
  `open one episode (materialise it): median ${median(one.map((o) => o.ms)).toFixed(2)} ms wall, ` +
    `${median(one.map((o) => o.cpuMs)).toFixed(2)} ms CPU (${ids.length} episodes)`,
);
// Three lists (budget of a list) and a search (budget of a search), as /episodes sends them.
const reads: Array<[string, Record<string, unknown>]> = [
  ['list', {}],
  ['list', {}],
  ['list', {}],
  ['search "order"', { filter: { q: 'order' } }],
];
for (const [what, input] of reads) {
  const before = countPending();
  let eventsPending = 0;
  const t = await timed(async () => {
    ({ eventsPending } = await listEpisodes(db, listInputSchema.parse(input)));
  });
  console.log(
    `${what} (budget ${materialiseBudgetMs(what !== 'list')} ms): ${t.ms.toFixed(0)} ms wall, ${t.cpuMs.toFixed(0)} ms CPU; ` +
      `materialised ${before - eventsPending} episodes, ${eventsPending} still waiting`,
  );
}
const all = await timed(() => materialiseEvents(db, 'all pending', catalogOf));
const index = await timed(() => indexCommitted(db, true, catalogOf));
const steps = waiting.steps || 1;
console.log(
  `the rest of the backlog (what every list/search waited for before the budget): materialise ${(all.ms / 1000).toFixed(2)} s wall, ` +
    `${(all.cpuMs / 1000).toFixed(2)} s CPU (${((all.cpuMs / steps) * 1000).toFixed(0)} ms CPU per 1k steps); ` +
    `then the full-text catch-up ${(index.ms / 1000).toFixed(2)} s wall, ${(index.cpuMs / 1000).toFixed(2)} s CPU`,
);
sqlite.close();
rmSync(dir, { recursive: true, force: true });
