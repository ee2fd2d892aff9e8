import { describe, expect, it } from 'vitest';
import { useTestCaller } from './test/caller';

const getCaller = useTestCaller();

describe('tRPC routers', () => {
  it('envs.list and tools.list describe what can be played', async () => {
    const envs = await getCaller().envs.list();
    const cart = envs.find((e) => e.id === 'CART');
    expect(cart).toBeTruthy();
    const tools = await getCaller().tools.list({ envId: 'CART' });
    expect(tools.map((t) => t.name)).toContain('catalog.search');
    expect(tools.find((t) => t.name === 'cart.add')?.parameters).toMatchObject({ type: 'object' });
    await expect(getCaller().tools.list({ envId: 'NOPE' as never })).rejects.toThrow();
  });

  it('difficulty.preview gives the twelve axes at d', async () => {
    const rows = await getCaller().difficulty.preview({ d: 6 });
    expect(rows).toHaveLength(12);
    const byName = Object.fromEntries(rows.map((r) => [r.name, r.value]));
    expect(byName).toMatchObject({ m: 5, k_rec: 5, T_max: 7, top_k: 13, H_orders: 4, B_branch: 3, B_tool: 4 });
    expect(byName.eps_rank).toBeCloseTo(0.12);
    expect(rows.every((r) => r.formula && r.label)).toBe(true);
  });

  it('catalog.titles names products by id for display; unknown ids and catalogs are reported', async () => {
    const { episodeService } = await import('@/server/episodes');
    const ep = await episodeService.startEpisode({ envId: 'PD', d: 0, seed: 1 });
    const target = ep.hiddenGoal.data as { targetId: string; targetTitle: string };
    const titles = await getCaller().catalog.titles({ catalogId: ep.catalogId, ids: [target.targetId, 'no_such_id'] });
    expect(titles).toEqual({ [target.targetId]: target.targetTitle });
    await expect(getCaller().catalog.titles({ catalogId: 'nope', ids: ['x'] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('episodes.get returns the stored episode; errors keep their precise message', async () => {
    const { episodeService } = await import('@/server/episodes');
    const ep = await episodeService.startEpisode({ envId: 'CART', d: 0, seed: 24 });
    const got = await getCaller().episodes.get({ id: ep.id });
    expect(got.id).toBe(ep.id);
    expect(got.events[0]).toMatchObject({ kind: 'customer_message', act: 'opening' });
    // active and not revealed: the spoiler guard withholds the goal and the seed (server/inspector/spoiler.ts)
    expect({ goal: got.hiddenGoal, seed: got.seed }).toEqual({ goal: null, seed: null });
    await expect(getCaller().episodes.world({ id: ep.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await episodeService.revealGoal(ep.id);
    const revealed = await getCaller().episodes.get({ id: ep.id });
    expect(revealed.hiddenGoal!.summary.length).toBeGreaterThan(0);
    expect(revealed.seed).toBe(24);
    const list = await getCaller().episodes.list({ limit: 5 });
    expect(list.items[0].id).toBe(ep.id);
    await expect(getCaller().episodes.get({ id: 'missing' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'no episode with id "missing"',
    });
  });
});
