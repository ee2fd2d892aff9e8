// Who reaches the two episode pages with auth on: the playground (`/play/<id>`, the agent seat,
// tRPC play.page) and the replay (`/episodes/<id>`, the inspector, replay.page). The pages read
// them through a server-side caller with their request headers and render UNAUTHORIZED as an
// access-denied page, NOT_FOUND as a 404 (server/trpc/server-caller.ts).
import { describe, expect, it } from 'vitest';
import { authOnForFile } from '@/server/auth/test/auth-on';
import { callerWith, useTestCaller } from './test/caller';

useTestCaller();
const ADMIN = 'admin-secret-token';
authOnForFile(ADMIN);
const auth = { enabled: true, adminToken: ADMIN };
const as = (headers: Record<string, string>) => callerWith({ auth, headers });

async function started(seed: number) {
  const { episodeService } = await import('@/server/episodes');
  const { capabilityToken, id } = await episodeService.startEpisode({ envId: 'STATUS', d: 3, seed });
  return { id, token: capabilityToken };
}

describe('episode pages with auth on', () => {
  it('the playground: its own token (header or cookie) and the admin reach it, nobody else', async () => {
    const { adminCookieValue, ADMIN_COOKIE } = await import('@/server/auth');
    const ep = await started(11);
    const other = await started(12);
    const refused: Array<Record<string, string>> = [
      {},
      { 'x-episode-token': other.token },
      { cookie: `ecomrlve_ep_${ep.id}=${other.token}` },
      { authorization: 'Bearer not-the-admin-token' },
    ];
    for (const h of refused)
      await expect((await as(h)).play.page({ id: ep.id })).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        message: `episode ${ep.id} needs its capability token (header x-episode-token, given when the episode started)`,
      });
    const allowed: Array<Record<string, string>> = [
      { 'x-episode-token': ep.token },
      { cookie: `ecomrlve_ep_${ep.id}=${ep.token}` },
      { authorization: `Bearer ${ADMIN}` },
      { cookie: `${ADMIN_COOKIE}=${adminCookieValue(ADMIN)}` },
    ];
    for (const h of allowed) {
      const page = await (await as(h)).play.page({ id: ep.id });
      // the agent seat: never the goal, whoever asks
      expect(page.seat.hiddenGoal).toBeNull();
      expect(page.seat.id).toBe(ep.id);
      expect(page.env).toMatchObject({ id: 'STATUS', name: expect.any(String) });
      expect(page.tools.map((t) => t.name)).toContain('order.list');
    }
  });

  it("the replay: only the admin; an episode's own token is not enough", async () => {
    const ep = await started(13);
    const agentHeaders: Array<Record<string, string>> = [
      {},
      { 'x-episode-token': ep.token },
      { cookie: `ecomrlve_ep_${ep.id}=${ep.token}` },
    ];
    for (const h of agentHeaders)
      await expect((await as(h)).replay.page({ id: ep.id })).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        message: expect.stringMatching(/admin token/),
      });
    const page = await (await as({ authorization: `Bearer ${ADMIN}` })).replay.page({ id: ep.id });
    // active and not revealed: the spoiler guard keeps the goal and the world's changes out even for the admin's page
    expect([page.guarded, page.ep.hiddenGoal]).toEqual([true, null]);
    expect(page.ep.events.some((e) => e.kind === 'world_change')).toBe(false);
    expect(page.rescores).toEqual([]);
  });

  it('an unknown episode is NOT_FOUND (the page answers 404) once the caller may ask', async () => {
    const admin = await as({ authorization: `Bearer ${ADMIN}` });
    await expect(admin.replay.page({ id: 'ep_unknown' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(admin.play.page({ id: 'ep_unknown' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // an anonymous caller learns nothing about which ids exist
    await expect((await as({})).play.page({ id: 'ep_unknown' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
