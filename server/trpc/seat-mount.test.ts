// The playground's agent seat over HTTP (app/play/[episodeId]/trpc/[trpc]/route.ts), with auth
// on: who may step (the episode's cookie, scoped to /play/<id>, or its token), what comes back
// (the agent seat's view, as seat.get gives it), idempotent step keys, turns recorded as the
// person's, one precise error for bad input, and the body cap.
import { describe, expect, it } from 'vitest';
import { authOnForFile } from '@/server/auth/test/auth-on';
import { appDatabaseForFile } from '@/server/episodes/test/app-db';

appDatabaseForFile();
const { POST } = await import('@/app/play/[episodeId]/trpc/[trpc]/route');
const { episodeService } = await import('@/server/episodes');
const { toSeatView } = await import('@/server/episodes/seat');

authOnForFile('admin-secret-token');

const CHAT = { assistant_message: 'Could you tell me more?', tool_calls: [], answer: null };

function call(id: string, proc: string, body: unknown, headers: Record<string, string> = {}) {
  return POST(
    new Request(`http://127.0.0.1/play/${id}/trpc/${proc}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({ episodeId: id, trpc: proc }) },
  );
}

async function answer(res: Response) {
  const body = (await res.json()) as {
    result?: { data: unknown };
    error?: { message: string; data: { code: string } };
  };
  return body.result ? { data: body.result.data } : { code: body.error!.data.code, message: body.error!.message };
}

async function started(seed: number) {
  const { capabilityToken, id } = await episodeService.startEpisode({ envId: 'CART', d: 1, seed });
  return { id, token: capabilityToken, cookie: { cookie: `ecomrlve_ep_${id}=${capabilityToken}` } };
}

describe('POST /play/<id>/trpc/seat.step', () => {
  it('refuses anyone without the episode capability, and takes no turn', async () => {
    const ep = await started(7);
    const other = await started(8);
    const refused: Array<Record<string, string>> = [
      {},
      { 'x-episode-token': other.token },
      { cookie: `ecomrlve_ep_${ep.id}=${other.token}` },
    ];
    for (const headers of refused) {
      const res = await call(ep.id, 'seat.step', { id: ep.id, action: CHAT }, headers);
      expect(res.status).toBe(401);
      expect(await answer(res)).toEqual({
        code: 'UNAUTHORIZED',
        message: `episode ${ep.id} needs its capability token (header x-episode-token, given when the episode started)`,
      });
    }
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(0);
  });

  it("steps with the playground's cookie, answers the agent seat's view (goal withheld) and records the person", async () => {
    const ep = await started(9);
    const res = await call(ep.id, 'seat.step', { id: ep.id, action: CHAT, stepKey: 'k-1' }, ep.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
    const { data: view } = (await answer(res)) as { data: { turn: number; hiddenGoal: unknown; seed: unknown } };
    expect(view.turn).toBe(1);
    expect(view.hiddenGoal).toBeNull();
    expect(view.seed).toBeNull();
    expect(view).toEqual(JSON.parse(JSON.stringify(toSeatView(await episodeService.getEpisode(ep.id)))));
    expect((await episodeService.turnRecords(ep.id)).map((r) => r.actor)).toEqual(['human']);
  });

  it('a retried step key returns the stored turn instead of taking another', async () => {
    const ep = await started(10);
    const step = async (stepKey: string) =>
      answer(await call(ep.id, 'seat.step', { id: ep.id, action: CHAT, stepKey }, ep.cookie));
    const first = await step('same-key');
    expect(await step('same-key')).toEqual(first);
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(1);
    expect(((await step('other-key')) as { data: { turn: number } }).data.turn).toBe(2);
  });

  it('bad input gets one precise error; an oversized body is refused before it is parsed', async () => {
    const ep = await started(11);
    const bad = await call(ep.id, 'seat.step', '{not json', ep.cookie);
    expect(bad.status).toBe(400);
    expect((await answer(bad)).code).toBe('BAD_REQUEST');
    const noAction = await call(ep.id, 'seat.step', { id: ep.id, actoin: CHAT }, ep.cookie);
    expect(noAction.status).toBe(400);
    expect((await answer(noAction)).message).toMatch(/action/);
    const emptyKey = await call(ep.id, 'seat.step', { id: ep.id, action: CHAT, stepKey: '' }, ep.cookie);
    expect(emptyKey.status).toBe(400);
    // over the action limit (64 KB) but under the body cap: the service's own message
    const long = await call(ep.id, 'seat.step', { id: ep.id, action: 'x'.repeat(100 * 1024) }, ep.cookie);
    expect(long.status).toBe(413);
    expect((await answer(long)).message).toMatch(/action text is \d+ bytes; the limit is 65536 bytes/);
    // over the body cap: refused by the route before tRPC reads it
    const huge = await call(ep.id, 'seat.step', { id: ep.id, action: 'x'.repeat(300 * 1024) }, ep.cookie);
    expect(huge.status).toBe(413);
    expect(huge.headers.get('connection')).toBe('close');
    expect(((await huge.json()) as { error: { message: string } }).error.message).toMatch(
      /^request body passed the limit of 262144 bytes. Nothing was read or run.$/,
    );
    // a declared length over the cap is refused before a byte is read
    const declared = await call(ep.id, 'seat.step', '{}', { ...ep.cookie, 'content-length': String(2 * 1024 * 1024) });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { message: string } }).error.message).toBe(
      `request body is ${2 * 1024 * 1024} bytes; the limit is 262144 bytes. Nothing was read or run.`,
    );
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(0);
  });

  it("caps a person's message to the customer at 4,000 characters: a clear error, nothing stored", async () => {
    const ep = await started(13);
    const over = 'a'.repeat(4001);
    for (const action of [
      { ...CHAT, assistant_message: over },
      JSON.stringify({ ...CHAT, assistant_message: over }),
      over,
    ]) {
      const res = await call(ep.id, 'seat.step', { id: ep.id, action }, ep.cookie);
      expect(res.status).toBe(413);
      expect(await answer(res)).toEqual({
        code: 'PAYLOAD_TOO_LARGE',
        message:
          "The message is 4,001 characters; the playground's limit is 4,000. Shorten it. Nothing was sent to the episode.",
      });
    }
    expect((await episodeService.getEpisode(ep.id)).turn).toBe(0);
    expect(await episodeService.getActions(ep.id)).toHaveLength(0);
    const atCap = { ...CHAT, assistant_message: 'a'.repeat(4000) };
    expect((await call(ep.id, 'seat.step', { id: ep.id, action: atCap }, ep.cookie)).status).toBe(200);
    // the cap is the person's: a program at the agent seat (its token, no person) keeps the 64 KB action cap
    const other = await started(14);
    const longer = { ...CHAT, assistant_message: over };
    expect((await episodeService.submitAction(other.id, longer)).turn).toBe(1);
  });

  it('reveal through the same mount; an unknown episode is 404 for the admin; only the seat router is mounted', async () => {
    const ep = await started(12);
    const revealed = await answer(await call(ep.id, 'seat.reveal', { id: ep.id }, ep.cookie));
    expect((revealed as { data: { revealed: boolean; hiddenGoal: unknown } }).data).toMatchObject({ revealed: true });
    const admin = { authorization: 'Bearer admin-secret-token' };
    const missing = await call('no-such-episode', 'seat.step', { id: 'no-such-episode', action: CHAT }, admin);
    expect(missing.status).toBe(404);
    const inspector = await call(ep.id, 'episodes.list', {}, admin);
    expect(inspector.status).toBe(404);
  });
});
