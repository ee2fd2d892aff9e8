// Against a real `serve:env` process: the Python client plays every env to the end; HTTP, WS and
// the in-process engine agree byte for byte; no server→agent message carries the hidden goal.

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEpisode, listEnvs, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { EnvHttpClient, EnvWsClient } from '@/clients/typescript/env-client';
import Database from 'better-sqlite3';
import { createPrismaClient } from '@/server/db';
import { sqliteFile } from '@/server/db/path';
import { openSqlDb } from '@/server/db/sql';
import { indexCommitted } from '@/server/inspector/pg-search';
import { ADMIN, asSent, oracleRun } from './test/helpers';
import { migratedTempDatabase, spawnEnvServer, type SpawnedServer } from './test/spawn';

const ENVS = listEnvs().map((e) => e.id as EnvId);
const run = promisify(execFile);
let server: SpawnedServer;
let db: ReturnType<typeof migratedTempDatabase>;

beforeAll(async () => {
  db = migratedTempDatabase();
  server = await spawnEnvServer(['--persist', 'on'], {
    ECOMRLVE_ADMIN_TOKEN: ADMIN,
    ECOMRLVE_TOKEN_SECRET: 'served-test',
    DATABASE_URL: db.url,
  });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  db?.remove();
});

describe('the Python client', () => {
  it('plays an episode of each env to the end, and the engine in-process agrees on every observation and reward', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ecomrlve-py-'));
    try {
      const out = path.join(dir, 'transcripts.json');
      const script = path.resolve(__dirname, '../../clients/python/examples/example_loop.py');
      const { stdout } = await run(
        'python3',
        [script, '--url', server.url, '--env', 'all', '--d', '3', '--seed', '5', '--transcripts', out],
        { timeout: 120_000 },
      );
      const transcripts = JSON.parse(readFileSync(out, 'utf8')) as Array<{
        env: EnvId;
        d: number;
        seed: number;
        actions: unknown[];
        observations: unknown[];
        rewards: number[];
        done: boolean;
        reward: number;
        termination: string;
      }>;
      expect(transcripts.map((t) => t.env)).toEqual(ENVS);
      for (const t of transcripts) {
        expect(t.done, t.env).toBe(true);
        expect(stdout).toContain(t.env);
        const episode = createEpisode({ envId: t.env, d: t.d, seed: t.seed }, testCatalog());
        const observations = [JSON.stringify(episode.reset().observation)];
        const rewards = [0];
        for (const action of t.actions) {
          const r = episode.step(action as never);
          observations.push(JSON.stringify(r.observation));
          rewards.push(r.reward);
        }
        expect(episode.done, t.env).toBe(true);
        expect(
          t.observations.map((o) => JSON.stringify(o)),
          t.env,
        ).toEqual(observations.map(asSent));
        expect(t.rewards, t.env).toEqual(rewards);
        expect(t.termination).toBe(episode.termination);
      }
      // Recorded like any episode, tagged with the run name, finished.
      const prisma = createPrismaClient(db.url);
      try {
        const rows = await prisma.episode.findMany({ where: { player: 'trainer:python-example' } });
        expect(rows.map((r) => r.envId).sort()).toEqual([...ENVS].sort());
        for (const row of rows) expect(row.status, row.envId).toBe('done');
      } finally {
        await prisma.$disconnect();
      }
      // Indexed for search by the catch-up every inspector query runs first: the mark reaches
      // the last event, and the tool-call counts it keeps match the events.
      const sql = openSqlDb(db.url);
      await indexCommitted(sql, false);
      await sql.close();
      const file = new Database(sqliteFile(db.url)!, { readonly: true });
      try {
        const mark = () =>
          file
            .prepare(
              'SELECT (SELECT "upTo" FROM "EpisodeTextIndexed") AS upTo, (SELECT max("id") FROM "EpisodeEvent") AS last',
            )
            .get() as { upTo: number; last: number };
        expect(mark().upTo).toBe(mark().last);
        const counts = file
          .prepare(
            `SELECT e."toolCalls" AS kept, (SELECT count(*) FROM "EpisodeEvent" v WHERE v."episodeId" = e."id" AND v."kind" = 'tool_call') AS actual
             FROM "Episode" e WHERE e."player" = 'trainer:python-example'`,
          )
          .all() as Array<{ kept: number; actual: number }>;
        expect(counts.reduce((n, c) => n + c.actual, 0)).toBeGreaterThan(0);
        for (const c of counts) expect(c.kept).toBe(c.actual);
      } finally {
        file.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('HTTP, WebSocket and in-process', () => {
  it.each(ENVS)('%s: the same seed and actions give byte-identical observations and rewards', async (envId) => {
    const config = { envId, d: 5, seed: 100 + ENVS.indexOf(envId) };
    const reference = oracleRun(config);
    const http = new EnvHttpClient(server.url);
    const ws = await EnvWsClient.connect(server.url);
    try {
      const h = await http.reset({ env: envId, d: config.d, seed: config.seed });
      const w = await ws.reset({ env: envId, d: config.d, seed: config.seed });
      const httpSeen = [JSON.stringify(h.observation)];
      const wsSeen = [JSON.stringify(w.observation)];
      const httpRewards = [h.reward];
      const wsRewards = [w.reward];
      // The wire sends the tools with the reset only; the clients give each step the reset's back.
      const sentOf = (o: object) => JSON.stringify({ ...o, tools: undefined });
      for (const action of reference.actions) {
        const a = await http.step(h.episode_id, action);
        const b = await ws.step(action);
        expect(a.observation.tools).toEqual(h.observation.tools);
        expect(b.observation.tools).toEqual(w.observation.tools);
        httpSeen.push(sentOf(a.observation));
        wsSeen.push(sentOf(b.observation));
        httpRewards.push(a.reward);
        wsRewards.push(b.reward);
      }
      expect(httpSeen).toEqual(reference.sent);
      expect(wsSeen).toEqual(reference.sent);
      expect(httpRewards).toEqual(reference.rewards);
      expect(wsRewards).toEqual(reference.rewards);
    } finally {
      await ws.close();
    }
  });
});

describe('the hidden goal', () => {
  it.each(ENVS)('%s: no server→agent message of a full episode contains any of its values', async (envId) => {
    const config = { envId, d: 8, seed: 300 + ENVS.indexOf(envId) };
    const reference = oracleRun(config);
    expect(reference.secrets.size).toBeGreaterThan(0);
    const messages: string[] = [];
    const http = new EnvHttpClient(server.url, { onMessage: (m) => messages.push(m) });
    const ws = await EnvWsClient.connect(server.url, { onMessage: (m) => messages.push(m) });
    const h = await http.reset({ env: envId, d: config.d, seed: config.seed, run: 'scan' });
    await ws.reset({ env: envId, d: config.d, seed: config.seed, run: 'scan' });
    // every kind of WebSocket frame: a refused action's error frame and the MCP tool list too
    await expect(ws.step({ assistant_message: '', tool_calls: [{ name: 'nope' }] } as never)).rejects.toThrow(
      /action schema/,
    );
    const tools = await ws.sendRaw<{ result: { tools: unknown[] } }>(
      JSON.stringify({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }),
    );
    expect(tools.result.tools.length).toBeGreaterThan(2);
    for (const action of reference.actions) {
      await http.step(h.episode_id, action);
      await ws.step(action);
      await http.state(h.episode_id);
      await ws.state();
    }
    await ws.close();
    expect(messages.length).toBe(4 + 4 * reference.actions.length);
    for (const message of messages)
      for (const secret of reference.secrets)
        expect(message.includes(secret), `${envId} leaks ${secret.slice(0, 100)}`).toBe(false);

    // The scan can fail: the admin's state of the same episode does carry the goal.
    const admin = new EnvHttpClient(server.url, { adminToken: ADMIN, onMessage: (m) => messages.push(m) });
    await admin.state(h.episode_id);
    expect(
      [...reference.secrets].some((s) => messages.at(-1)!.includes(s)),
      envId,
    ).toBe(true);
  });

  it('holds one connection to the SQLite file in each worker (the SQL layer’s: writes and episode reads), one in the primary', async () => {
    // the Python client's episodes above were written and read back through it; no worker opens Prisma's
    const file = sqliteFile(db.url)!;
    const opened = (pid: string) =>
      readdirSync(`/proc/${pid}/fd`).filter((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
        } catch {
          return false; // closed meanwhile
        }
      }).length;
    // an admin read of an unknown episode asks the store on whichever worker takes it:
    // fresh connections, handed out round-robin, reach every worker
    for (let i = 0; i < 2 * os.availableParallelism(); i++)
      await new Promise((resolve, reject) =>
        get(`${server.url}/state?episode_id=none-${i}`, { agent: false, headers: { authorization: `Bearer ${ADMIN}` } })
          .on('response', (res) => res.resume().on('end', resolve))
          .on('error', reject),
      );
    const primary = server.child.pid!;
    const parentOf = (pid: string) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      } catch {
        return null;
      }
    };
    const workers = readdirSync('/proc').filter(
      // the cluster's workers (not, say, tsx's esbuild service)
      (p) =>
        /^\d+$/.test(p) && parentOf(p) === primary && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('serve-env'),
    );
    // one worker per core, the default with persistence on (one core: the process serves itself)
    const cores = os.availableParallelism();
    expect(workers).toHaveLength(cores > 1 ? cores : 0);
    // the primary holds one: its workers' WAL checkpointer (wal-checkpoints.ts), or serving alone its own
    expect(opened(String(primary))).toBe(1);
    for (const worker of workers) expect(opened(worker)).toBe(1);
  });
});
