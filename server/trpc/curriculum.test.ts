import { describe, expect, it } from 'vitest';
import { useTestCaller } from './test/caller';

const getCaller = useTestCaller();

describe('curriculum router', () => {
  it('creates, steps, lists and gets runs; errors keep their precise message', async () => {
    const meta = await getCaller().curriculum.meta();
    expect(meta.players.agents).toEqual(['oracle', 'heuristic', 'random']);
    expect(meta.collections.map((c) => c.id)).toEqual(['C1', 'C2', 'C4', 'ALL']);

    const run = await getCaller().curriculum.create({ name: 'router', collection: 'C1', seed: 1 });
    expect(run.windows).toEqual([{ envId: 'PD', l: 0, h: 0 }]);
    if (run.playable.length > 0) {
      const res = await getCaller().curriculum.step({
        id: run.id,
        episodes: 33,
        agent: 'oracle',
        storeEpisodes: false,
      });
      expect(res.run.episodes).toBe(33);
      expect(res.run.windows[0]).toEqual({ envId: 'PD', l: 0, h: 1 }); // 32 passes at d = 0
      expect(res.moves).toEqual([{ episode: 32, envId: 'PD', l: 0, h: 1 }]);
    }
    const list = await getCaller().curriculum.list();
    expect(list[0].id).toBe(run.id);
    expect((await getCaller().curriculum.get({ id: run.id })).name).toBe('router');

    await expect(getCaller().curriculum.get({ id: 'missing' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'no curriculum run with id "missing"',
    });
    await expect(getCaller().curriculum.create({ collection: 'C5' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(getCaller().curriculum.step({ id: run.id, episodes: 1, agent: 'nobody' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/unknown player "nobody"/),
    });
  });
});
