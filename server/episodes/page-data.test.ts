// Who reaches the two episode pages with auth on: the playground (`/play/<id>`, the agent seat)
// and the replay (`/episodes/<id>`, the inspector). The pages pass their request headers to
// these loaders and render `denied` as an access-denied page, so the roles are decided here.
import { describe, expect, it } from 'vitest';
import { authOnForFile } from '@/server/auth/test-auth-on';
import { appDatabaseForFile } from './test/app-db';

appDatabaseForFile();
const { episodeService } = await import('@/server/episodes');
const { loadPlayPage, loadReplayPage } = await import('./page-data');
const { adminCookieValue, ADMIN_COOKIE } = await import('@/server/auth');

const ADMIN = 'admin-secret-token';
authOnForFile(ADMIN);

const headers = (h: Record<string, string>) => new Headers(h);

async function started(seed: number) {
  const { capabilityToken, id } = await episodeService.startEpisode({ envId: 'STATUS', d: 3, seed });
  return { id, token: capabilityToken };
}

describe('episode pages with auth on', () => {
  it('the playground: its own token (header or cookie) and the admin reach it, nobody else', async () => {
    const ep = await started(11);
    const other = await started(12);
    const refused: Array<Record<string, string>> = [
      {},
      { 'x-episode-token': other.token },
      { cookie: `ecomrlve_ep_${ep.id}=${other.token}` },
      { authorization: 'Bearer not-the-admin-token' },
    ];
    for (const h of refused) {
      const page = await loadPlayPage(ep.id, headers(h));
      expect(page?.denied).toBe(
        `episode ${ep.id} needs its capability token (header x-episode-token, given when the episode started)`,
      );
    }
    const allowed: Array<Record<string, string>> = [
      { 'x-episode-token': ep.token },
      { cookie: `ecomrlve_ep_${ep.id}=${ep.token}` },
      { authorization: `Bearer ${ADMIN}` },
      { cookie: `${ADMIN_COOKIE}=${adminCookieValue(ADMIN)}` },
    ];
    for (const h of allowed) {
      const page = await loadPlayPage(ep.id, headers(h));
      expect(page?.denied).toBeNull();
      // the agent seat: never the goal, whoever asks
      expect(page?.seat ? page.seat.hiddenGoal : 'missing').toBeNull();
    }
  });

  it("the replay: only the admin; an episode's own token is not enough", async () => {
    const ep = await started(13);
    const agentHeaders: Array<Record<string, string>> = [
      {},
      { 'x-episode-token': ep.token },
      { cookie: `ecomrlve_ep_${ep.id}=${ep.token}` },
    ];
    for (const h of agentHeaders) {
      const page = await loadReplayPage(ep.id, headers(h));
      expect(page?.denied).toMatch(/admin token/);
      expect(page && 'view' in page).toBe(false);
    }
    const page = await loadReplayPage(ep.id, headers({ authorization: `Bearer ${ADMIN}` }));
    expect(page?.denied).toBeNull();
    // active and not revealed: the spoiler guard keeps the goal out even for the admin's page
    expect(page?.view ? [page.guarded, page.view.hiddenGoal] : null).toEqual([true, null]);
  });

  it('an unknown episode is null (the page answers 404) once the caller may ask', async () => {
    expect(await loadReplayPage('ep_unknown', headers({ authorization: `Bearer ${ADMIN}` }))).toBeNull();
    expect(await loadPlayPage('ep_unknown', headers({ authorization: `Bearer ${ADMIN}` }))).toBeNull();
  });
});
