// Batch runs played in a worker thread (the app's player): the stored episodes are the ones the
// episode service stores turn by turn (the path runs took before), for a built-in agent and a
// model over HTTP; a request is answered while a run plays; cancel stops it; the server's event
// loop runs between two batch writes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import type { EnvId } from '@/server/engine';
import { createEpisodeService, type EpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { expandCells } from './run-play';
import { parseConnection } from './connection';
import { workerRunPlayer } from './run-player';
import { cancelStoredRun, startStoredRun, type RunSpec } from './runs';
import { actorOf, type TablePlayer } from './table';
import { playTableEpisode } from './test/table-episode';
import { createAgentServer, listen } from '@/scripts/agent-server/server';
import { macrotaskProbe } from '@/server/lib/test/macrotask-probe';

let db: TestDb;
let service: EpisodeService;
let agentServer: http.Server;
let agentUrl = '';
const runPlayer = workerRunPlayer();
const deps = () => ({ prisma: db.prisma, runPlayer, catalogId: DEFAULT_CATALOG_ID });

beforeAll(async () => {
  db = createTestDb();
  service = createEpisodeService({ prisma: db.prisma, getCatalog, defaultCatalogId: DEFAULT_CATALOG_ID });
  agentServer = createAgentServer({ agent: 'heuristic', port: 0 });
  agentUrl = `http://127.0.0.1:${await listen(agentServer, 0)}/v1`;
}, 120_000);
afterAll(async () => {
  agentServer?.close();
  await db?.cleanup();
});

/** The path runs took before they moved to a worker: the episode service, one stored turn at a time. */
async function playThroughService(player: TablePlayer, spec: RunSpec): Promise<string> {
  const run = await db.prisma.modelRun.create({ data: { player: actorOf(player), spec: '{}', total: 0 } });
  for (const cell of expandCells(spec.envs, spec.ds, spec.seeds)) {
    const started = await service.startEpisode({ ...cell, player: actorOf(player) });
    await db.prisma.episode.update({ where: { id: started.id }, data: { runId: run.id } });
    await playTableEpisode(service, getCatalog, started.id, player);
  }
  return run.id;
}

/** A model turn's record without what the serving side measured or numbered (latency, reply id). */
function comparableRecord(text: string) {
  const r = JSON.parse(text);
  return {
    ...r,
    attempts: r.attempts.map((a: object) => ({ ...a, latencyMs: 0 })),
    reply: r.reply && { ...r.reply, latencyMs: 0, rawText: r.reply.rawText.replace(/"chatcmpl-[^"]*"/, '"id"') },
  };
}

/** Everything stored of a run's episodes but ids and times, by cell. */
async function storedRun(runId: string) {
  const rows = await db.prisma.episode.findMany({
    where: { runId },
    include: { events: { orderBy: { seq: 'asc' } }, actions: { orderBy: { seq: 'asc' } } },
  });
  return rows
    .map((r) => ({
      ...r,
      id: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      runId: undefined,
      events: r.events.map(({ seq, turn, kind, payload }) => ({ seq, turn, kind, payload })),
      actions: r.actions.map(({ seq, turn, format, raw, eventEnd, actor, stepKey, modelRecord }) => ({
        ...{ seq, turn, format, raw, eventEnd, actor, stepKey },
        modelRecord: modelRecord && comparableRecord(modelRecord),
      })),
    }))
    .sort((a, b) => a.envId.localeCompare(b.envId) || a.d - b.d || a.seed - b.seed);
}

describe('batch runs in a worker thread', { timeout: 120_000 }, () => {
  it('stores what the episode service stored turn by turn: a built-in agent on every env', async () => {
    const player: TablePlayer = { kind: 'agent', agent: 'heuristic' };
    const spec: RunSpec = {
      envs: ['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE', 'JOURNEY'],
      ds: [3],
      seeds: [1],
      concurrency: 2,
    };
    const run = await startStoredRun(deps(), player, spec);
    await run.finished;
    const before = await storedRun(await playThroughService(player, spec));
    const after = await storedRun(run.id);
    expect(after).toHaveLength(8);
    expect(after.every((e) => e.status === 'done' && e.actions.length > 0)).toBe(true);
    expect(after).toEqual(before);
    expect((await db.prisma.modelRun.findUniqueOrThrow({ where: { id: run.id } })).state).toBe('finished');
  });

  it('stores what the episode service stored for a model over HTTP, request records included', async () => {
    const connection = parseConnection(
      { name: 'served', baseUrl: agentUrl, model: 'heuristic', sendEpisodeHeader: true },
      {},
    );
    const player: TablePlayer = { kind: 'model', connection };
    const spec: RunSpec = { envs: ['PD', 'RETURN'] as EnvId[], ds: [2], seeds: [1], concurrency: 2 };
    const run = await startStoredRun(deps(), player, spec);
    await run.finished;
    const after = await storedRun(run.id);
    expect(after).toEqual(await storedRun(await playThroughService(player, spec)));
    expect(after.flatMap((e) => e.actions).every((a) => a.actor === 'model:served' && a.modelRecord)).toBe(true);
  });

  it('answers a heartbeat request while a run plays, and stops on cancel, keeping what was played', async () => {
    const heartbeat = http.createServer((_, res) => res.end('ok'));
    await new Promise<void>((r) => heartbeat.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(heartbeat.address() as AddressInfo).port}/`;
    const spec: RunSpec = {
      envs: ['PD', 'CART', 'STATUS'],
      ds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      seeds: Array.from({ length: 50 }, (_, i) => i + 1),
      concurrency: 1,
    };
    const run = await startStoredRun(deps(), { kind: 'agent', agent: 'oracle' }, spec);
    let row = await db.prisma.modelRun.findUniqueOrThrow({ where: { id: run.id } });
    for (let i = 0; i < 600 && row.done === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = await db.prisma.modelRun.findUniqueOrThrow({ where: { id: run.id } });
    }
    expect(row.done).toBeGreaterThan(0);
    // a request made once the first batch is stored, answered while the run still plays
    expect(await fetch(url).then((r) => r.text())).toBe('ok');
    heartbeat.close();
    row = await db.prisma.modelRun.findUniqueOrThrow({ where: { id: run.id } });
    expect([row.state, row.done < row.total]).toEqual(['running', true]);
    expect(cancelStoredRun(run.id)).toBe(true);
    await run.finished;
    row = await db.prisma.modelRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.state).toBe('cancelled');
    expect(row.done).toBeLessThan(row.total);
    expect(await db.prisma.episode.count({ where: { runId: run.id } })).toBe(row.done);
    expect(cancelStoredRun(run.id)).toBe(false);
  });

  // Batches the worker posts while one is written arrive together; each write starts in its own
  // macrotask, so other requests run between two writes (as the curriculum's writer does).
  it('runs other tasks between two batch writes', async () => {
    const probe = macrotaskProbe();
    let seen: number[];
    const cells = expandCells(
      ['PD', 'STATUS'],
      [2, 6],
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    try {
      await runPlayer(
        {
          cells,
          player: { kind: 'agent', agent: 'oracle' },
          catalogId: DEFAULT_CATALOG_ID,
          concurrency: 1,
          maxEvents: 2000,
          maxBytes: 8 << 20,
          batchSize: 5,
          flushMs: 60_000,
        },
        probe.write,
        new AbortController().signal,
      );
    } finally {
      seen = probe.stop();
    }
    expect(seen).toHaveLength(8);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
  });
});
