// The Next route's adapter: the same protocol through fetch-API Request/Response objects.
import { afterAll, describe, expect, it, vi } from 'vitest';

const tempDb = await vi.hoisted(async () => {
  process.env.ECOMRLVE_MAX_SESSIONS_PER_CLIENT = '3';
  const db = (await import('./test/spawn')).migratedTempDatabase();
  process.env.DATABASE_URL = db.url; // the episode service's SQL connection (server/episodes/index.ts)
  return db;
});

vi.mock('@/server/catalogs', async () => {
  const { testCatalog } = await import('@/server/engine/testing/catalog-fixture');
  return {
    DEFAULT_CATALOG_ID: testCatalog().id,
    getCatalog: () => testCatalog(),
    loadCatalog: async () => {},
    onCatalogEvicted: () => {},
  };
});
// The app's Prisma client, pointed at a throw-away database.
vi.mock('@/server/db', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/server/db')>();
  return { ...real, prisma: real.createPrismaClient(tempDb.url) };
});

const { handleFetchRequest } = await import('./app-service');
const { prisma } = await import('@/server/db');
const { episodeService } = await import('@/server/episodes');
afterAll(async () => {
  await prisma.$disconnect();
  tempDb.remove();
});

const post = (path: string, body: unknown, token?: string) =>
  handleFetchRequest(
    new Request(`http://app.test/api/env${path}`, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    }),
    path,
  );

describe('/api/env in the Next app', () => {
  it('caps the running episodes one client (its forwarded address) starts, as serve:env does', async () => {
    const reset = (client: string) =>
      handleFetchRequest(
        new Request('http://app.test/api/env/reset', {
          method: 'POST',
          body: JSON.stringify({ env: 'PD', d: 0 }),
          headers: { 'x-forwarded-for': client },
        }),
        '/reset',
      );
    for (let i = 0; i < 3; i++) expect((await reset('198.51.100.7')).status).toBe(200);
    const refused = await reset('198.51.100.7');
    expect(refused.status).toBe(503);
    expect((await refused.json()).error).toMatchObject({
      code: 'CAPACITY_REACHED',
      message: expect.stringContaining('ECOMRLVE_MAX_SESSIONS_PER_CLIENT=3'),
    });
    expect((await reset('198.51.100.8')).status).toBe(200); // another client still gets a place
  });

  it('resets, steps and reads state like the standalone server, and records the episode in the app’s store', async () => {
    const resetBody = await (await post('/reset', { env: 'PD', d: 1, seed: 12, run: 'next' })).json();
    expect(resetBody).toMatchObject({ done: false, observation: { metadata: { env: 'PD', seed: 12, run: 'next' } } });
    const reset = resetBody.observation.metadata as { episode_id: string; token: string };
    const step = await post(
      '/step',
      { episode_id: reset.episode_id, action: { assistant_message: 'Hello', tool_calls: [], answer: null } },
      reset.token,
    );
    expect(step.status).toBe(200);
    // the body is JSON.stringify's exact text, tool specs included
    const stepText = await step.text();
    const stepBody = JSON.parse(stepText);
    expect(stepText).toBe(JSON.stringify(stepBody));
    expect(stepBody).toMatchObject({ observation: { turn: 1, metadata: { episode_id: reset.episode_id } } });
    const state = await handleFetchRequest(
      new Request(`http://app.test/api/env/state?episode_id=${reset.episode_id}`, {
        headers: { authorization: `Bearer ${reset.token}` },
      }),
      '/state',
    );
    expect(await state.json()).toMatchObject({ episode_id: reset.episode_id, step_count: 1 });
    const row = await prisma.episode.findUniqueOrThrow({ where: { id: reset.episode_id } });
    expect(row).toMatchObject({ envId: 'PD', seed: 12, player: 'trainer:next', turn: 1, status: 'active' });
  });

  it('holds its episodes in the episode service’s live cache: one per process, either side continues the other’s', async () => {
    const started = await handleFetchRequest(
      new Request('http://app.test/api/env/reset', {
        method: 'POST',
        body: JSON.stringify({ env: 'CART', d: 1, seed: 5 }),
        headers: { 'x-forwarded-for': '198.51.100.9' }, // its own client's place
      }),
      '/reset',
    );
    const reset = (await started.json()).observation.metadata as { episode_id: string; token: string };
    expect(episodeService.isLive(reset.episode_id)).toBe(true);
    const search = (query: string) => ({
      assistant_message: 'Searching.',
      tool_calls: [{ name: 'catalog.search', args: { query } }],
      answer: null,
    });
    const played = await episodeService.submitAction(reset.episode_id, search('lamp'), { actor: 'human' });
    expect(played.turn).toBe(1);
    const step = await post('/step', { episode_id: reset.episode_id, action: search('desk') }, reset.token);
    expect(await step.json()).toMatchObject({ observation: { turn: 2 } });
    // the service's held row is behind the trainer's step: it reads the store, no CONFLICT
    const again = await episodeService.submitAction(reset.episode_id, search('chair'), { actor: 'human' });
    expect(again.turn).toBe(3);
    expect(await prisma.episodeAction.count({ where: { episodeId: reset.episode_id } })).toBe(3);
  });

  it('a playground step racing a trainer step that ends the episode: the next playground step answers EPISODE_DONE', async () => {
    const started = await handleFetchRequest(
      new Request('http://app.test/api/env/reset', {
        method: 'POST',
        body: JSON.stringify({ env: 'CART', d: 1, seed: 6 }),
        headers: { 'x-forwarded-for': '198.51.100.10' },
      }),
      '/reset',
    );
    const { episode_id: id, token } = (await started.json()).observation.metadata as {
      episode_id: string;
      token: string;
    };
    const chat = {
      assistant_message: 'Searching.',
      tool_calls: [{ name: 'catalog.search', args: { query: 'lamp' } }],
      answer: null,
    };
    await episodeService.submitAction(id, chat, { actor: 'human' }); // the service now holds its row
    // both step the held episode; the trainer's text is not an action, so it ends the episode
    const [played, ended] = await Promise.all([
      episodeService.submitAction(id, chat, { actor: 'human' }),
      post('/step', { episode_id: id, action: 'not an action' }, token),
    ]);
    expect(played.turn).toBe(2);
    expect(await ended.json()).toMatchObject({
      done: true,
      observation: { metadata: { termination: 'format_invalid' } },
    });
    await expect(episodeService.submitAction(id, chat, { actor: 'human' })).rejects.toMatchObject({
      code: 'EPISODE_DONE',
    });
  });

  it('gives the same precise errors', async () => {
    const bad = await post('/step', '{oops');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'INVALID_JSON' } });
    const big = await post('/step', 'x'.repeat(300 * 1024));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    expect(big.headers.get('connection')).toBe('close'); // the server stops the upload
  });

  it('reads a body without a length only up to the limit', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        pulled++;
        ctrl.enqueue(new Uint8Array(64 * 1024).fill(120));
      },
    });
    const res = await handleFetchRequest(
      new Request('http://app.test/api/env/step', { method: 'POST', body: endless, duplex: 'half' } as RequestInit),
      '/step',
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    expect(pulled).toBeLessThan(10); // 256 KB of an endless body: about 5 chunks of 64 KB
  });

  it('roles with auth on: reset is public with default axes, axis overrides need the admin token, a step its capability', async () => {
    const saved = { auth: process.env.ECOMRLVE_AUTH, token: process.env.ECOMRLVE_ADMIN_TOKEN };
    process.env.ECOMRLVE_AUTH = 'on';
    process.env.ECOMRLVE_ADMIN_TOKEN = 'admin-secret-token';
    try {
      const plain = await post('/reset', { env: 'CART', d: 1, seed: 3 });
      expect(plain.status).toBe(200);
      const tuned = await post('/reset', { env: 'CART', d: 1, seed: 3, axis_overrides: { T_max: 3 } });
      expect(tuned.status).toBe(401);
      expect(await tuned.json()).toMatchObject({ error: { code: 'BAD_TOKEN', message: /admin operation/ } });
      const byAdmin = await post(
        '/reset',
        { env: 'CART', d: 1, seed: 3, axis_overrides: { T_max: 3 } },
        'admin-secret-token',
      );
      expect(byAdmin.status).toBe(200);
      const { episode_id } = (await plain.json()).observation.metadata;
      const chat = { assistant_message: 'Hello', tool_calls: [], answer: null };
      expect((await post('/step', { episode_id, action: chat })).status).toBe(401); // no capability
    } finally {
      for (const [k, v] of [
        ['ECOMRLVE_AUTH', saved.auth],
        ['ECOMRLVE_ADMIN_TOKEN', saved.token],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });
});
