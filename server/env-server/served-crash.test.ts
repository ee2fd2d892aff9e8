// Against real `serve:env` processes: kill -9 during a burst of WebSocket steps loses no
// acknowledged step (group commit acknowledges only what is committed), and the stored episode
// replays to the same events in-process; `--workers 2` serves sessions from two processes, and
// without a store an HTTP step that reaches the worker not holding its episode says so, and the
// workers together hold the admin-guess bound.

import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { createEpisode, oracleAgent, type Action, type Observation } from '@/server/engine';
import { EnvWsClient } from '@/clients/typescript/env-client';
import { openSqlite } from '@/server/db/sql';
import { migratedTempDatabase, spawnEnvServer } from './test/spawn';

let db: ReturnType<typeof migratedTempDatabase>;
beforeAll(() => {
  db = migratedTempDatabase();
}, 120_000);
afterAll(() => db?.remove());

const search = (query: string): Action => ({
  assistant_message: 'Looking.',
  tool_calls: [{ name: 'catalog.search', args: { query } }],
  answer: null,
});

describe('serve:env under kill -9', () => {
  it('keeps every acknowledged step of a burst, and the stored episode replays identically', async () => {
    const server = await spawnEnvServer(['--persist', 'on'], { DATABASE_URL: db.url });
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const config = { env: 'PD', d: 3, seed: 21, axis_overrides: { T_max: 60 } };
    let episodeId = '';
    let acked = 0;
    const killed = new Promise<void>((resolve) => {
      socket.on('message', (raw) => {
        const msg = JSON.parse(raw.toString()) as {
          type: string;
          data: { observation: { metadata: { episode_id: string } } };
        };
        expect(msg.type).toBe('observation');
        if (!episodeId) {
          episodeId = msg.data.observation.metadata.episode_id;
          // The burst: 40 steps sent at once, answered one by one as their batches commit.
          for (let i = 0; i < 40; i++) socket.send(JSON.stringify({ type: 'step', data: search(`lamp ${i}`) }));
          return;
        }
        if (++acked === 5) {
          server.child.kill('SIGKILL');
          resolve();
        }
      });
    });
    socket.send(JSON.stringify({ type: 'reset', data: config }));
    await killed;
    await new Promise((resolve) => server.child.once('exit', resolve));
    socket.terminate();

    const sql = openSqlite(db.url);
    try {
      const actions = sql
        .prepare('SELECT "seq", "raw" FROM "EpisodeAction" WHERE "episodeId" = ? ORDER BY "seq"')
        .all(episodeId) as Array<{ seq: number; raw: string }>;
      const rowOf = () =>
        sql.prepare('SELECT "turn", "eventCount" FROM "Episode" WHERE "id" = ?').get(episodeId) as {
          turn: number;
          eventCount: number;
        };
      const events = sql
        .prepare('SELECT "payload" FROM "EpisodeEvent" WHERE "episodeId" = ? ORDER BY "seq"')
        .all(episodeId) as Array<{ payload: string }>;
      // Every acknowledged step is stored (steps committed but not yet acknowledged may be too).
      expect(actions.length).toBeGreaterThanOrEqual(acked);
      expect(actions.map((a) => a.seq)).toEqual(actions.map((_, i) => i));
      expect(rowOf()).toEqual({ turn: actions.length, eventCount: events.length });
      // The stored actions replay in-process to exactly the stored events.
      const episode = createEpisode(
        { envId: 'PD', d: 3, seed: 21, axisOverrides: { T_max: 60 } },
        getCatalog(DEFAULT_CATALOG_ID),
      );
      episode.reset();
      for (const a of actions) episode.step(JSON.parse(a.raw) as Action);
      expect(events.map((e) => e.payload)).toEqual(episode.events.map((e) => JSON.stringify(e)));
    } finally {
      sql.close();
    }
  }, 240_000);
});

describe('serve:env --workers 2', () => {
  it('serves WebSocket sessions from two worker processes, each played to its in-process reward', async () => {
    const server = await spawnEnvServer(['--persist', 'off', '--workers', '2']);
    try {
      const workers = readdirSync('/proc').filter((p) => {
        if (!/^\d+$/.test(p)) return false;
        try {
          const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
          // the primary's children that run serve-env (not a helper process such as tsx's esbuild service)
          const isServeEnv = readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('serve-env');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === server.child.pid && isServeEnv;
        } catch {
          return false;
        }
      });
      expect(workers).toHaveLength(2);
      const catalog = getCatalog(DEFAULT_CATALOG_ID);
      const rewards = await Promise.all(
        [1, 2, 3, 4].map(async (seed) => {
          const client = await EnvWsClient.connect(server.url);
          let r: { done: boolean; reward: number; observation: Observation } = await client.reset({
            env: 'STATUS',
            d: 1,
            seed,
          });
          // The oracle plays a shadow copy in-process (it needs the goal) and sends its actions.
          const shadow = createEpisode({ envId: 'STATUS', d: 1, seed }, catalog);
          shadow.reset();
          while (!r.done) {
            const action = oracleAgent.act(r.observation, shadow);
            shadow.step(action);
            r = await client.step(action);
          }
          await client.close();
          const expected = shadow.breakdown!.total;
          return [r.reward, expected];
        }),
      );
      for (const [got, expected] of rewards) expect(got).toBe(expected);
    } finally {
      await server.stop();
    }
  }, 240_000);

  it('without a store, an HTTP step on the worker not holding the episode names the cause; guesses are bounded overall', async () => {
    const server = await spawnEnvServer(['--persist', 'off', '--workers', '2'], { ECOMRLVE_ADMIN_TOKEN: 'admin-x' });
    // each call on a new connection (no keep-alive): the cluster hands connections out round-robin
    const post = (path: string, body: unknown, token?: string, method = 'POST') =>
      new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
        const text = method === 'POST' ? JSON.stringify(body) : '';
        const req = request(`${server.url}${path}`, {
          method,
          agent: false,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        });
        req.on('response', (res) => {
          let data = '';
          res.on('data', (c: Buffer) => (data += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) as Record<string, unknown> }));
        });
        req.on('error', reject);
        req.end(text);
      });
    try {
      const reset = await post('/reset', { env: 'STATUS', d: 1, seed: 5 });
      const { episode_id, token } = (reset.body.observation as { metadata: { episode_id: string; token: string } })
        .metadata;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const action = { assistant_message: 'Could you tell me your order number?', tool_calls: [], answer: null };
        const step = await post('/step', { episode_id, action }, token);
        statuses.push(step.status);
        if (step.status === 404)
          expect((step.body.error as { message: string }).message).toContain(
            `episode "${episode_id}" is in the memory of another of this server's 2 workers (persistence off)`,
          );
        else expect([step.status, step.body.error]).toEqual([200, undefined]);
      }
      // round-robin over two workers: both answered, one holding the episode and one not
      expect(statuses).toContain(404);
      expect(statuses).toContain(200);
      // Wrong admin tokens as a bearer: each worker holds the whole bound (10 a minute; docs/security.md),
      // so guesses on new connections reach at most 2 × 10, and 21 of them meet a refusal on some worker.
      const guesses: number[] = [];
      for (let i = 0; i < 21; i++) guesses.push((await post('/state?episode_id=x', null, `guess-${i}`, 'GET')).status);
      const passed = guesses.filter((s) => s !== 429).length;
      expect(passed).toBeGreaterThan(10); // both workers counted alone (a split bound let 10 through in all)
      expect(passed).toBeLessThanOrEqual(20);
      expect(guesses).toContain(429);
    } finally {
      await server.stop();
    }
  }, 240_000);
});
