// The routes that read a body run the app's first gate themselves, before reading it (proxy.ts
// skips requests with a body): a foreign Host or a cross-site write is 403 there, auth off, and
// takes no turn; a malformed tRPC body is one 400, never a 500.
import { describe, expect, it } from 'vitest';
import { appDatabaseForFile } from '@/server/episodes/test/app-db';

appDatabaseForFile();
const trpcRoute = await import('@/app/api/trpc/[trpc]/route');
const seatRoute = await import('@/app/play/[episodeId]/trpc/[trpc]/route');
const envRoute = await import('@/app/api/env/[...path]/route');
const modelTurn = await import('@/app/play/[episodeId]/model-turn/route');
const { episodeService } = await import('@/server/episodes');

const LOCAL = { host: '127.0.0.1:3000', 'content-type': 'application/json' };
const REBOUND = { host: 'rebound.example:3000', 'content-type': 'application/json' };
const CROSS_SITE = {
  ...LOCAL,
  'content-type': 'text/plain',
  origin: 'http://evil.example',
  'sec-fetch-site': 'cross-site',
};
const CHAT = { assistant_message: 'Hello?', tool_calls: [], answer: null };

const post = (path: string, headers: Record<string, string>, body: string) =>
  new Request(`http://127.0.0.1:3000${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    body,
  });

async function refusal(res: Response) {
  return { status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code };
}

describe('the gate in the routes that read a body (auth off)', () => {
  it('/api/trpc: a foreign Host is 403 before the body is read; a malformed body is one 400', async () => {
    const start = JSON.stringify({ envId: 'CART', d: 1 });
    const rebound = post('/api/trpc/play.start', REBOUND, start);
    expect(await refusal(await trpcRoute.POST(rebound))).toEqual({ status: 403, code: 'FOREIGN_HOST' });
    expect(rebound.bodyUsed).toBe(false);
    const bad = await trpcRoute.POST(post('/api/trpc/play.start', LOCAL, '{not json'));
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toMatch(/at .*\.(js|ts):\d+/); // no stack
    expect((await trpcRoute.POST(post('/api/trpc/play.start', LOCAL, start))).status).toBe(200);
  });

  it("the playground's seat and its model turn: a cross-site POST is 403 and takes no turn", async () => {
    const ep = await episodeService.startEpisode({ envId: 'CART', d: 1, seed: 5 });
    const cookie = { cookie: `ecomrlve_ep_${ep.id}=${ep.capabilityToken}` };
    const step = post(
      `/play/${ep.id}/trpc/seat.step`,
      { ...CROSS_SITE, ...cookie },
      JSON.stringify({ id: ep.id, action: CHAT }),
    );
    const res = await seatRoute.POST(step, { params: Promise.resolve({ episodeId: ep.id, trpc: 'seat.step' }) });
    expect(await refusal(res)).toEqual({ status: 403, code: 'CROSS_SITE' });
    const turn = post(`/play/${ep.id}/model-turn`, { ...CROSS_SITE, ...cookie }, '{"player":{"agent":"oracle"}}');
    const turnRes = await modelTurn.POST(turn, { params: Promise.resolve({ episodeId: ep.id }) });
    expect(await refusal(turnRes)).toEqual({ status: 403, code: 'CROSS_SITE' });
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(0);
  });

  it('/api/env: a reset from a foreign Host is 403 and starts nothing', async () => {
    const body = JSON.stringify({ env: 'PD', episode_id: 'gate-test-episode' });
    const res = await envRoute.POST(post('/api/env/reset', REBOUND, body), {
      params: Promise.resolve({ path: ['reset'] }),
    });
    expect(await refusal(res)).toEqual({ status: 403, code: 'FOREIGN_HOST' });
    await expect(episodeService.getEpisode('gate-test-episode')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
