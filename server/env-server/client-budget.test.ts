// serve:env's per-client budgets (server/lib/client-budget.ts, issue 29): writes a minute (429),
// and the bytes stored for a client (413), over HTTP and WebSocket; the admin is not counted.
// And admin tokens guessed as a bearer are throttled like the app's sign-in.
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import Database from 'better-sqlite3';
import { createPrismaClient } from '@/server/db';
import { sqliteFile } from '@/server/db/path';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { clientBudgetLimits } from '@/server/lib/client-budget';
import { LOGIN_LIMITS } from '@/server/auth/login-throttle';
import { startEnvServer, type RunningEnvServer } from './server';
import { ADMIN, testConfig } from './test/helpers';
import { migratedTempDatabase } from './test/spawn';

const open: RunningEnvServer[] = [];
afterAll(async () => {
  for (const s of open) await s.close();
});

async function serve(env: Record<string, string>, persist = false) {
  const db = persist ? migratedTempDatabase() : null;
  const server = await startEnvServer(
    testConfig({ persist, clientBudget: clientBudgetLimits(env) }),
    testCatalog(),
    db ? { prisma: createPrismaClient(db.url) } : {},
  );
  open.push(server);
  return { server, dbFile: db ? sqliteFile(db.url) : null };
}

const post = (port: number, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('serve:env client budgets', () => {
  it('answers a client past its writes a minute with 429 and Retry-After; reads, the admin and other clients go on', async () => {
    const { server } = await serve({ ECOMRLVE_CLIENT_WRITES_PER_MIN: '3' });
    for (let i = 0; i < 3; i++) expect((await post(server.port, '/reset', { env: 'PD' })).status).toBe(200);
    const refused = await post(server.port, '/reset', { env: 'PD' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('3 changes a minute'),
    });
    expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
    expect((await post(server.port, '/reset', { env: 'PD' }, { authorization: `Bearer ${ADMIN}` })).status).toBe(200);
    // a WebSocket from the same address shares the budget
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
    await new Promise((r) => ws.once('open', r));
    const answer = new Promise<{ type: string; data: { code: string } }>((r) =>
      ws.once('message', (m) => r(JSON.parse(m.toString()))),
    );
    ws.send(JSON.stringify({ type: 'reset', data: { env: 'PD' } }));
    expect(await answer).toMatchObject({ type: 'error', data: { code: 'RATE_LIMITED' } });
    ws.close();
  });

  it('stops the bytes stored for one client at its quota (the database agrees), with 413', async () => {
    const QUOTA_MB = 0.25;
    const { server, dbFile } = await serve({ ECOMRLVE_CLIENT_STORED_MB_PER_DAY: String(QUOTA_MB) }, true);
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
    await new Promise((r) => ws.once('open', r));
    const ask = (msg: unknown) =>
      new Promise<{ type: string; data: { code?: string; message?: string } }>((r) => {
        ws.once('message', (m) => r(JSON.parse(m.toString())));
        ws.send(JSON.stringify(msg));
      });
    let refusal: { code?: string; message?: string } | null = null;
    let writes = 0;
    for (; writes < 400 && !refusal; writes++) {
      const search = {
        assistant_message: 'looking',
        tool_calls: [{ name: 'catalog.search', args: { query: `shoes ${writes}` } }],
      };
      const a = await ask(writes % 4 === 0 ? { type: 'reset', data: { env: 'PD' } } : { type: 'step', data: search });
      if (a.type === 'error' && a.data.code !== 'EPISODE_DONE') refusal = a.data;
    }
    ws.close();
    expect(refusal).toMatchObject({ code: 'QUOTA', message: expect.stringContaining('storage quota') });
    expect(writes).toBeGreaterThan(10); // it was the quota, not the first write
    await server.service.recorder?.drain();
    const sqlite = new Database(dbFile!, { readonly: true });
    const stored = (sql: string) => (sqlite.prepare(sql).get() as { n: number | null }).n ?? 0;
    const bytes =
      stored('select sum(length(hiddenGoal) + length(axes) + length(axisOverrides)) n from Episode') +
      stored('select sum(length(payload)) n from EpisodeEvent') +
      stored('select sum(length(raw)) n from EpisodeAction');
    sqlite.close();
    expect(bytes).toBeGreaterThan(QUOTA_MB * 1024 * 1024 * 0.3); // the quota, not something else, stopped it
    expect(bytes).toBeLessThanOrEqual(QUOTA_MB * 1024 * 1024);
  }, 60_000);

  it('throttles admin tokens guessed as a bearer (HTTP and the WebSocket upgrade) like the sign-in', async () => {
    // one of five workers: each holds the whole bound (a client cannot tell which worker answers)
    const server = await startEnvServer(testConfig({ workers: 5 }), testCatalog());
    open.push(server);
    const state = (bearer: string) =>
      fetch(`http://127.0.0.1:${server.port}/state?episode_id=x`, { headers: { authorization: `Bearer ${bearer}` } });
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) expect((await state(`guess-${i}`)).status).not.toBe(429);
    const refused = await state(ADMIN); // the right token too, once throttled
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('RATE_LIMITED');
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { headers: { authorization: 'Bearer guess' } });
    const status = await new Promise((r) => ws.once('unexpected-response', (_req, res) => r(res.statusCode)));
    expect(status).toBe(429);
    expect((await state('ept1.an-episode.sig')).status).not.toBe(429); // episode tokens are not guesses
  });
});
