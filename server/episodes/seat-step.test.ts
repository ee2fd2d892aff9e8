// The lean step route POST /play/<id>/step (the playground's hot path), with auth on: who may
// step, what comes back (the agent seat's view, as tRPC seat.get gives it), idempotent step
// keys, and one precise error for bad input.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOnForFile } from '@/server/auth/test-auth-on';
import { installRequestGuard } from '@/server/lib/request-guard';
import { appDatabaseForFile } from './test-app-db';

appDatabaseForFile();
const { POST } = await import('@/app/play/[episodeId]/step/route');
const { episodeService } = await import('@/server/episodes');
const { toSeatView } = await import('./seat');
const { serveSeatStep } = await import('./seat-step');

authOnForFile('admin-secret-token');

const CHAT = { assistant_message: 'Could you tell me more?', tool_calls: [], answer: null };

function step(id: string, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return POST(
    new Request(`http://127.0.0.1/play/${id}/step`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: text,
    }),
    { params: Promise.resolve({ episodeId: id }) },
  );
}

async function started(seed: number) {
  const { capabilityToken, id } = await episodeService.startEpisode({ envId: 'CART', d: 1, seed });
  return { id, token: capabilityToken };
}

describe('POST /play/<id>/step', () => {
  it('refuses anyone without the episode capability, and takes no turn', async () => {
    const ep = await started(7);
    const other = await started(8);
    const refused: Array<Record<string, string>> = [
      {},
      { 'x-episode-token': other.token },
      { cookie: `ecomrlve_ep_${ep.id}=${other.token}` },
    ];
    for (const headers of refused) {
      const res = await step(ep.id, { action: CHAT }, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: {
          code: 'UNAUTHORIZED',
          message: `episode ${ep.id} needs its capability token (header x-episode-token, given when the episode started)`,
        },
      });
    }
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(0);
  });

  it("steps with the playground's cookie and answers the agent seat's view, goal withheld", async () => {
    const ep = await started(9);
    const res = await step(ep.id, { action: CHAT, stepKey: 'k-1' }, { cookie: `ecomrlve_ep_${ep.id}=${ep.token}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
    const view = await res.json();
    expect(view.turn).toBe(1);
    expect(view.hiddenGoal).toBeNull();
    expect(view.seed).toBeNull();
    expect(view).toEqual(JSON.parse(JSON.stringify(toSeatView(await episodeService.getEpisode(ep.id)))));
  });

  it('a retried step key returns the stored turn instead of taking another', async () => {
    const ep = await started(10);
    const headers = { 'x-episode-token': ep.token };
    const first = await (await step(ep.id, { action: CHAT, stepKey: 'same-key' }, headers)).json();
    const again = await (await step(ep.id, { action: CHAT, stepKey: 'same-key' }, headers)).json();
    expect(again).toEqual(first);
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(1);
    const next = await (await step(ep.id, { action: CHAT, stepKey: 'other-key' }, headers)).json();
    expect(next.turn).toBe(2);
  });

  it('bad input gets one precise error', async () => {
    const ep = await started(11);
    const headers = { 'x-episode-token': ep.token };
    const cases: Array<[unknown, number, string]> = [
      ['{not json', 400, 'step body: not JSON; send {"action": …, "stepKey"?: "…"}'],
      [{ actoin: CHAT }, 400, 'step body: action: Invalid input; Unrecognized key: "actoin"'],
      [{ action: CHAT, stepKey: '' }, 400, 'step body: stepKey: Too small: expected string to have >=1 characters'],
    ];
    for (const [body, status, message] of cases) {
      const res = await step(ep.id, body, headers);
      expect(res.status).toBe(status);
      expect((await res.json()).error).toEqual({ code: 'BAD_INPUT', message });
    }
    const huge = await step(ep.id, { action: 'x'.repeat(300 * 1024) }, headers);
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.code).toBe('TOO_LARGE');
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(0);
  });

  it('an unknown episode is 404 for the admin', async () => {
    const res = await step('no-such-episode', { action: CHAT }, { authorization: 'Bearer admin-secret-token' });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('NOT_FOUND');
  });
});

describe('POST /play/<id>/step served before Next (the direct path instrumentation.ts installs)', () => {
  let server: http.Server;
  let base: string;
  let fellThrough: string[] = [];
  beforeAll(async () => {
    installRequestGuard({ direct: (req, res) => serveSeatStep(req, res, episodeService) });
    server = http.createServer((req, res) => {
      fellThrough.push(`${req.method} ${req.url}`); // what Next would have handled
      res.end('next');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers what the route handler answers: the seat view, 401, 400, 413, idempotent keys', async () => {
    const ep = await started(20);
    fellThrough = [];
    const anon = await post(`/play/${ep.id}/step`, { action: CHAT });
    expect(anon.status).toBe(401);
    expect((await anon.json()).error.code).toBe('UNAUTHORIZED');
    const cookie = { cookie: `ecomrlve_ep_${ep.id}=${ep.token}` };
    const ok = await post(`/play/${ep.id}/step`, { action: CHAT, stepKey: 'd-1' }, cookie);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store, no-transform');
    const view = await ok.json();
    expect(view).toEqual(JSON.parse(JSON.stringify(toSeatView(await episodeService.getEpisode(ep.id)))));
    expect(view.hiddenGoal).toBeNull();
    expect(await (await post(`/play/${ep.id}/step`, { action: CHAT, stepKey: 'd-1' }, cookie)).json()).toEqual(view);
    const bad = await post(`/play/${ep.id}/step`, '{not json', cookie);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toBe('step body: not JSON; send {"action": …, "stepKey"?: "…"}');
    const huge = await post(`/play/${ep.id}/step`, { action: 'x'.repeat(300 * 1024) }, cookie);
    expect(huge.status).toBe(413);
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(1);
    expect(fellThrough).toEqual([]);
  });

  it('leaves a cross-site POST to Next (proxy.ts refuses it there): it takes no turn', async () => {
    const ep = await started(21);
    fellThrough = [];
    const cookie = { cookie: `ecomrlve_ep_${ep.id}=${ep.token}` };
    const page = { 'content-type': 'text/plain', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' };
    expect(await (await post(`/play/${ep.id}/step`, { action: CHAT }, { ...cookie, ...page })).text()).toBe('next');
    expect(fellThrough).toEqual([`POST /play/${ep.id}/step`]);
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(0);
  });

  it('leaves every other request to the server (Next)', async () => {
    fellThrough = [];
    expect(await (await post('/play/x/model-turn', {})).text()).toBe('next');
    expect(await (await fetch(`${base}/play/x/step`)).text()).toBe('next'); // GET
    expect(await (await post('/play/x/step/more', {})).text()).toBe('next');
    expect(fellThrough).toEqual(['POST /play/x/model-turn', 'GET /play/x/step', 'POST /play/x/step/more']);
  });
});
