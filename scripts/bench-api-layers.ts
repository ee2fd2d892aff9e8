// npx tsx scripts/bench-api-layers.ts [--layer seq|interleaved|json|held] [--steps 12000] [--sessions 64]
// What the layers under the sockets cost, in one process (no sockets, no other process on the
// cores it measures): the bench:api oracle scripts replayed through the env service's protocol
// calls, one layer added at a time. Prints CPU seconds per 1,000 steps (process.cpuUsage, all
// threads, after a warm-up) and the GC count and time of the counted steps.
//   seq          one episode after another (bench:api's inproc×1 row)
//   interleaved  64 sessions, one message of each in turn, as a server sees them
//   json         + the request's JSON.parse and the answer's JSON and UTF-8 (wire-json.ts)
//   held         + finished episodes kept until the LRU is full (--max-sessions, 1,024), as a
//                worker without a store keeps them; with a store they are dropped once durable
// Run each layer in its own process, alternating, several times; read medians (docs/env-server-rounds.md).

import { PerformanceObserver } from 'node:perf_hooks';
import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { loadConfig } from '../server/env-server/config';
import { buildEnvService } from '../server/env-server/server';
import type { LiveEpisode } from '../server/env-server/sessions';
import { wireBytes } from '../server/env-server/wire-json';
import { recordScript, type Script } from './bench-api-lib';
import { benchOptions, oneOf, positive } from './bench-options';

const LAYERS = ['seq', 'interleaved', 'json', 'held'] as const;
const { layer, steps, sessions } = benchOptions('npx tsx scripts/bench-api-layers.ts [options]', {
  layer: oneOf(LAYERS, 'json', 'the layers measured'),
  steps: positive(12000, 'steps counted', true),
  sessions: positive(64, 'sessions interleaved', true),
});
const POOL = 8;
const withJson = layer === 'json' || layer === 'held';

const catalog = getCatalog(DEFAULT_CATALOG_ID);
const scripts: Script[][] = Array.from({ length: sessions }, (_, i) =>
  Array.from({ length: POOL }, (_, n) => recordScript(catalog, 'oracle', i, n)),
);
const { service } = buildEnvService(loadConfig({}, ['--persist', 'off'], DEFAULT_CATALOG_ID), catalog);

/** One session's place in its scripts. */
interface Cursor {
  session: number;
  episode: number;
  turn: number;
  live: LiveEpisode | null;
}
let bytes = 0;
const answer = (body: unknown) => {
  if (withJson) {
    // what the WebSocket session hands to `ws` (a string is encoded by the socket's write: byteLength stands for it)
    const sent = wireBytes(body, '{"type":"observation","data":', '}');
    bytes += typeof sent === 'string' ? Buffer.byteLength(sent) : sent.length;
  }
};
const request = (type: string, data: string) =>
  withJson ? (JSON.parse(`{"type":"${type}","data":${data}}`) as { data: unknown }).data : JSON.parse(data);

/** The session's next message (a reset or a step); returns the steps taken (0 or 1). */
function next(c: Cursor): number {
  const script = scripts[c.session][c.episode % POOL];
  if (c.live === null) {
    const { live, response } = service.reset(request('reset', script.reset));
    answer(response);
    c.live = live;
    c.turn = 0;
    return 0;
  }
  answer(service.stepLive(c.live, request('step', script.actions[c.turn])));
  if (++c.turn === script.actions.length) {
    if (layer !== 'held') service.sessions.drop(c.live.id);
    c.live = null;
    c.episode++;
  }
  return 1;
}

function play(total: number): number {
  const cursors: Cursor[] = Array.from({ length: sessions }, (_, session) => ({
    session,
    episode: 0,
    turn: 0,
    live: null,
  }));
  let done = 0;
  if (layer === 'seq') for (const c of cursors) while (done < (total * (c.session + 1)) / sessions) done += next(c);
  else while (done < total) for (const c of cursors) done += next(c);
  return done;
}

play(Math.min(3000, steps));
const gc = { scavenges: 0, scavengeMs: 0, major: 0, majorMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const minor = (e as { detail?: { kind?: number } }).detail?.kind === 1;
    gc[minor ? 'scavenges' : 'major']++;
    gc[minor ? 'scavengeMs' : 'majorMs'] += e.duration;
  }
}).observe({ entryTypes: ['gc'] });
const start = process.cpuUsage();
const counted = play(steps);
const used = process.cpuUsage(start);
await new Promise((resolve) => setTimeout(resolve, 50)); // the last GC entries
const per1k = (x: number) => ((x / counted) * 1000).toFixed(3);
console.log(
  `${layer.padEnd(11)} ${counted} steps: CPU ${per1k((used.user + used.system) / 1e6)} s per 1k steps; ` +
    `GC ${gc.scavenges} scavenges ${per1k(gc.scavengeMs / 1000)} s + ${gc.major} major ${per1k(gc.majorMs / 1000)} s per 1k steps (wall); ` +
    `${Math.round(bytes / counted)} answer bytes a step; ${service.sessions.size} episodes held`,
);
