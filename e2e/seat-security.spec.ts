import { expect, test, type APIRequestContext } from '@playwright/test';
import http from 'node:http';
import { fieldNames, leakedValues, secretValues } from '../server/episodes/test/goal-scan';
import { createEpisode, type EnvId } from '../server/engine';
import { testCatalog } from '../server/engine/testing/catalog-fixture';
import { storedGoalOf } from '../server/episodes/stored-goal';
import { MAX_TRPC_BODY_BYTES } from '../server/lib/body-limit';
import { SHOTS, shot } from './play-helpers';

/** The hidden goal the server stored for (env, d, seed) with default axes on the default catalog. */
function goalOf(envId: string, d: number, seed: number): Goal {
  const ep = createEpisode({ envId: envId as EnvId, d, seed }, testCatalog());
  ep.reset();
  return storedGoalOf(ep) as unknown as Goal;
}

// The agent seat over HTTP, as a security engineer probes it: full episodes of all eight
// environments through every agent-seat route (tRPC seat.start / seat.get / seat.step, the
// trainer API mounted at /api/env (reset / step / state), the playground's HTML, and every tRPC
// call the playground makes (its turns go to seat.step under /play/<id>/trpc), scanning every response body for the
// hidden goal's values. The inspector withholds an active episode's goal (its spoiler guard, auth
// on or off), so the goal of an active episode is computed here as the server did (goalOf).

const ENVS = ['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE', 'JOURNEY'] as const;
const CHAT = {
  assistant_message: 'Could you tell me a bit more?',
  tool_calls: [],
  answer: null,
};

async function trpc<T>(
  request: APIRequestContext,
  proc: string,
  input: unknown,
  headers: Record<string, string> = {},
  method: 'GET' | 'POST' = 'POST',
) {
  const res =
    method === 'GET'
      ? await request.get(`/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
      : await request.post(`/api/trpc/${proc}`, { data: input, headers });
  const body = await res.text();
  expect(res.status(), `${proc}: ${body.slice(0, 300)}`).toBe(200);
  return {
    data: (JSON.parse(body) as { result: { data: T } }).result.data,
    body,
  };
}

interface Seat {
  id: string;
  status: 'active' | 'done';
  catalogId: string;
  events: Array<{ kind: string; text?: string }>;
  hiddenGoal: unknown;
}
interface Goal {
  envId: string;
  summary: string[];
  data: unknown;
  slots?: unknown;
}

async function publicTextFor(request: APIRequestContext, envId: string, seat: Seat) {
  const tools = await trpc(request, 'tools.list', { envId }, {}, 'GET');
  const envs = await trpc(request, 'envs.list', undefined, {}, 'GET');
  const customer = seat.events
    .filter((e) => e.kind === 'customer_message')
    .map((e) => e.text)
    .join('\n');
  return [
    fieldNames(seat),
    tools.body,
    envs.body,
    customer,
    CHAT.assistant_message,
    seat.id,
    seat.catalogId,
    'budgets opening',
  ].join('\n');
}

test('tRPC agent-seat routes never carry the hidden goal of an active episode (all eight envs)', async ({
  request,
}) => {
  for (const envId of ENVS) {
    const started = await trpc<{ episode: Seat; capabilityToken: string }>(request, 'seat.start', {
      envId,
      d: 6,
      seed: 1,
    });
    const id = started.data.episode.id;
    const auth = { 'x-episode-token': started.data.capabilityToken };
    const goal = goalOf(envId, 6, 1);
    const bodies = [started.body];
    let seat = started.data.episode;
    while (seat.status === 'active') {
      bodies.push((await trpc(request, 'seat.get', { id }, auth, 'GET')).body);
      const step = await trpc<Seat>(request, 'seat.step', { id, action: CHAT }, auth);
      seat = step.data;
      if (seat.status === 'active') bodies.push(step.body);
    }
    const secrets = secretValues(goal, await publicTextFor(request, envId, seat));
    expect(secrets.length, envId).toBeGreaterThan(0);
    for (const body of bodies) expect(leakedValues(body, secrets), envId).toEqual([]);
    expect(seat.hiddenGoal).not.toBeNull(); // finished: the goal may leave now
  }
});

test('/api/env (the trainer API inside the app) never carries the hidden goal (all eight envs, every body)', async ({
  request,
}) => {
  const schema = await request.get('/api/env/schema');
  const metadata = await request.get('/api/env/metadata');
  const health = await request.get('/api/env/health');
  for (const res of [schema, metadata, health]) expect(res.status()).toBe(200);
  const described = [await schema.text(), await metadata.text()].join('\n');
  for (const envId of ENVS) {
    const reset = await request.post('/api/env/reset', { data: { env: envId, d: 6, seed: 1 } });
    const resetBody = await reset.text();
    expect(reset.status(), resetBody.slice(0, 300)).toBe(200);
    const wire = JSON.parse(resetBody) as {
      done: boolean;
      observation: { metadata: { episode_id: string; token: string } };
    };
    const r = { ...wire.observation.metadata, done: wire.done };
    const auth = { authorization: `Bearer ${r.token}` };
    const bodies = [resetBody];
    let done = r.done;
    let last = resetBody;
    while (!done) {
      const state = await request.get(`/api/env/state?episode_id=${r.episode_id}`, { headers: auth });
      expect(state.status()).toBe(200);
      bodies.push(await state.text());
      const step = await request.post('/api/env/step', {
        data: { episode_id: r.episode_id, action: CHAT },
        headers: auth,
      });
      last = await step.text();
      expect(step.status(), last.slice(0, 300)).toBe(200);
      bodies.push(last);
      done = (JSON.parse(last) as { done: boolean }).done;
    }
    // the episode is recorded in the app's store: the inspector reads its goal and its customer's lines
    const goal = (await trpc<{ hiddenGoal: Goal }>(request, 'episodes.get', { id: r.episode_id }, {}, 'GET')).data
      .hiddenGoal;
    const seat = (await trpc<Seat>(request, 'seat.get', { id: r.episode_id }, {}, 'GET')).data;
    const publicText = [await publicTextFor(request, envId, seat), described, fieldNames(JSON.parse(last))].join('\n');
    const secrets = secretValues(goal, publicText);
    expect(secrets.length, envId).toBeGreaterThan(0);
    for (const body of bodies) expect(leakedValues(body, secrets), `${envId} /api/env`).toEqual([]);
    // the scan can fail: the inspector's view of the same episode holds the values
    const full = (await trpc(request, 'episodes.get', { id: r.episode_id }, {}, 'GET')).body;
    expect(leakedValues(full, secrets).length, envId).toBeGreaterThan(0);
  }
});

for (const envId of ENVS) {
  test(`${envId}: the playground's HTML and tRPC answers never carry the goal before a reveal`, async ({
    page,
    request,
  }) => {
    let trpcBodies: Array<Promise<string>> = [];
    let stepPosts = 0;
    page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (!path.includes('/trpc/')) return;
      if (/^\/play\/[^/]+\/trpc\/seat\.step$/.test(path)) stepPosts++;
      trpcBodies.push(res.text().catch(() => ''));
    });
    {
      await page.goto('/');
      await page.getByLabel('Environment').selectOption(envId);
      await page.getByTestId('seed-random').uncheck();
      await page.getByLabel('seed').fill('2');
      await page.getByTestId('start-episode').click();
      await page.waitForURL(/\/play\/[^/]+$/);
      const id = page.url().split('/').pop()!;
      const started = (await trpc<Seat & { d: number }>(request, 'seat.get', { id }, {}, 'GET')).data;
      const goal = goalOf(envId, started.d, 2);
      trpcBodies = [];
      stepPosts = 0;
      // a turn through the playground's agent seat (more idle turns and the customer leaves)
      for (let turn = 0; turn < 1; turn++) {
        const replies = await page.getByTestId('customer-message').count();
        await page.locator('#assistant-message').fill(CHAT.assistant_message);
        await page.getByTestId('send-turn').click();
        await expect
          .poll(
            async () =>
              (await page.getByTestId('customer-message').count()) > replies ||
              (await page.getByTestId('reward-breakdown').count()) > 0,
          )
          .toBe(true);
      }
      const htmlRes = await request.get(`/play/${id}`);
      const html = await htmlRes.text();
      const seat = (await trpc<Seat>(request, 'seat.get', { id }, {}, 'GET')).data;
      const secrets = secretValues(goal, await publicTextFor(request, envId, seat));
      expect(secrets.length, envId).toBeGreaterThan(0);
      expect(seat.status, `${envId} is still active`).toBe('active');
      expect(leakedValues(html, secrets), `${envId} playground HTML`).toEqual([]);
      expect(stepPosts, `${envId}: the turn went through POST /play/<id>/trpc/seat.step`).toBeGreaterThanOrEqual(1);
      for (const body of await Promise.all(trpcBodies))
        expect(leakedValues(body, secrets), `${envId} tRPC answer`).toEqual([]);
      await expect(page.getByTestId('hidden-goal')).toHaveCount(0);
      if (envId === 'STATUS') await shot(page, 'seat-playground-before-reveal');
    }
  });
}

test('a reveal is on purpose and recorded; the replay of an active episode keeps a spoiler guard', async ({
  page,
  request,
}) => {
  const started = await trpc<{ episode: Seat; capabilityToken: string }>(request, 'seat.start', {
    envId: 'STATUS',
    d: 4,
    seed: 3,
  });
  const id = started.data.episode.id;
  const goal = goalOf('STATUS', 4, 3);
  // the inspector withholds it while the episode is active and unrevealed (its spoiler guard)
  const guarded = (
    await trpc<{ hiddenGoal: Goal | null; seed: number | null }>(request, 'episodes.get', { id }, {}, 'GET')
  ).data;
  expect({ goal: guarded.hiddenGoal, seed: guarded.seed }).toEqual({ goal: null, seed: null });
  const secrets = secretValues(goal, await publicTextFor(request, 'STATUS', started.data.episode));

  // the replay's HTML holds nothing of the goal until the guard is clicked
  const replayHtml = await (await request.get(`/episodes/${id}`)).text();
  expect(leakedValues(replayHtml, secrets)).toEqual([]);
  await page.goto(`/episodes/${id}`);
  await expect(page.getByTestId('spoiler-guard')).toBeVisible();
  await expect(page.getByTestId('world-panel')).toHaveCount(0);
  await shot(page, 'seat-spoiler-guard');
  await page.getByTestId('spoiler-reveal').click();
  await expect(page.getByTestId('hidden-goal')).toBeVisible();
  await expect(page.getByText('goal revealed')).toBeVisible();
  await shot(page, 'seat-spoiler-revealed');

  // recorded: the list marks it, and the agent seat now carries the goal
  const list = await trpc<{ items: Array<{ id: string; revealed: boolean }> }>(
    request,
    'episodes.list',
    { limit: 20 },
    {},
    'GET',
  );
  expect(list.data.items.find((e) => e.id === id)?.revealed).toBe(true);
  const seat = await trpc<Seat>(
    request,
    'seat.get',
    { id },
    { 'x-episode-token': started.data.capabilityToken },
    'GET',
  );
  expect(seat.data.hiddenGoal).toEqual(goal);
});

test('unknown episodes get a styled 404 with a way back', async ({ page }) => {
  for (const path of ['/play/no-such-episode', '/episodes/no-such-episode', '/play/bad%20id!']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByTestId('episode-not-found')).toBeVisible();
  }
  await shot(page, 'seat-404');
  await page.getByTestId('back-home').click();
  await expect(page).toHaveURL(/\/$/);
  expect(SHOTS).toBeTruthy();
});

test('abusive requests are refused with one precise message', async ({ request }) => {
  // a body over the cap is refused before it is read
  const big = await request.post('/api/trpc/seat.step', {
    data: 'x'.repeat(2 * 1024 * 1024),
    headers: { 'content-type': 'application/json' },
  });
  expect(big.status()).toBe(413);
  expect(await big.text()).toMatch(/the limit is \d+ bytes/);
  // catalog ids only from the registry, canonical
  for (const catalogId of ['synthetic-s7-n2000000', 'synthetic-s01-n20000', 's07']) {
    const res = await request.post('/api/trpc/seat.start', {
      data: { envId: 'PD', d: 0, catalogId },
    });
    expect(res.status(), catalogId).toBe(400);
    expect(await res.text()).toMatch(/unknown catalog/);
  }
  // axis overrides have ranges
  const axes = await request.post('/api/trpc/seat.start', {
    data: { envId: 'PD', d: 0, axisOverrides: { top_k: 1e9, B_tool: 100 } },
  });
  expect(axes.status()).toBe(400);
  expect(await axes.text()).toMatch(/top_k: Too big/);
  // unknown episode ids are 404 whichever route ran first; no internal text reaches the client
  const missing = await request.get(`/api/trpc/seat.get?input=${encodeURIComponent(JSON.stringify({ id: 'nope' }))}`);
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toMatch(/no episode with id \\"nope\\"/);
});

/**
 * Offers a `total`-byte upload (declared, or chunked) in two steps and says how the server
 * answered and how much left the client. First the headers and, chunked, one byte over the tRPC
 * cap (what a capped reader must read to refuse); once the answer is read, the rest, until the
 * server closes or 15 s pass. Sending on while the server answers and closes can lose the answer
 * (the client's write hits the reset before it reads: status null, seen under load), so the answer
 * is read before the rest is offered. Nothing stands in front of Next: each path bounds its own
 * body (docs/security.md, "Request bodies").
 */
function upload(url: string, total: number, chunked: boolean) {
  return new Promise<{ status: number | null; body: string; sentMB: number }>((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': total }) },
    });
    let status: number | null = null;
    let body = '';
    let sent = 0;
    let over = false;
    const finish = () => {
      if (over) return;
      over = true;
      req.destroy();
      resolve({ status, body, sentMB: sent / 2 ** 20 });
    };
    const chunk = Buffer.alloc(2 ** 20, 120);
    const offerTheRest = () => {
      while (!over && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', offerTheRest);
      }
      if (!over) req.end();
    };
    req.on('response', (res) => {
      status = res.statusCode ?? null;
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      res.on('end', () => {
        setTimeout(finish, 15_000); // the client keeps offering the rest: does the server read it?
        offerTheRest();
      });
    });
    req.on('error', finish);
    req.on('close', finish);
    setTimeout(finish, 30_000).unref(); // no answer at all
    if (!chunked) return void req.flushHeaders();
    const overCap = Buffer.alloc(MAX_TRPC_BODY_BYTES + 1, 120);
    sent += overCap.length;
    req.write(overCap);
  });
}

test('300 MB uploads are refused or left unread, never drained', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const total = 300 * 2 ** 20;
  for (const chunked of [false, true]) {
    // tRPC: 413 with the precise message, and the connection closed: the upload is cut off
    const trpc = await upload(`${baseURL}/api/trpc/seat.step`, total, chunked);
    expect(trpc.status, `tRPC, chunked ${chunked}`).toBe(413);
    expect(JSON.parse(trpc.body), `tRPC, chunked ${chunked}`).toMatchObject({ error: { code: 'TOO_LARGE' } });
    expect(trpc.sentMB, `tRPC, chunked ${chunked}`).toBeLessThan(100);
    // a page takes no body: it answers without reading it, and the rest is never read
    const page = await upload(`${baseURL}/episodes`, total, chunked);
    expect(page.status, `a page, chunked ${chunked}`).toBe(200);
    expect(page.sentMB, `a page, chunked ${chunked}`).toBeLessThan(100);
  }
});

/** One raw request with exactly these headers (Playwright's client sets Host itself). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('local means local, with a body or without (proxy.ts, or the route that reads the body)', async ({
  baseURL,
  request,
}) => {
  const rebound = { host: `rebound.example:${new URL(baseURL!).port}` };
  // without a body proxy.ts answers; with one, the page or route itself (the proxy skips bodies)
  expect((await raw(`${baseURL}/`, 'GET', rebound)).status).toBe(403);
  const pagePost = await raw(`${baseURL}/`, 'POST', { ...rebound, 'content-type': 'text/plain' }, 'x');
  expect(pagePost.status).toBe(404); // the page renders nothing for a foreign Host: a 4xx, never a 500
  expect(pagePost.text).not.toContain('start-episode');
  const envReset = await raw(
    `${baseURL}/api/env/reset`,
    'POST',
    { ...rebound, 'content-type': 'application/json' },
    '{"env":"PD"}',
  );
  expect(envReset.status).toBe(403);
  expect(envReset.text).toContain('FOREIGN_HOST');

  // a cross-site text/plain POST of the playground's turn takes no turn (auth off)
  const started = await trpc<{ episode: Seat; capabilityToken: string }>(request, 'seat.start', {
    envId: 'CART',
    d: 1,
  });
  const id = started.data.episode.id;
  const crossSite = {
    'content-type': 'text/plain',
    origin: 'http://evil.example',
    'sec-fetch-site': 'cross-site',
    cookie: `ecomrlve_ep_${id}=${started.data.capabilityToken}`,
  };
  const step = await raw(
    `${baseURL}/play/${id}/trpc/seat.step`,
    'POST',
    crossSite,
    JSON.stringify({ id, action: CHAT }),
  );
  expect(step.status).toBe(403);
  expect(step.text).toContain('CROSS_SITE');
  const turn = await raw(`${baseURL}/play/${id}/model-turn`, 'POST', crossSite, '{"player":{"agent":"oracle"}}');
  expect(turn.status).toBe(403);
  const seat = await trpc<{ turn: number }>(
    request,
    'seat.get',
    { id },
    { 'x-episode-token': started.data.capabilityToken },
    'GET',
  );
  expect(seat.data.turn).toBe(0);
});
