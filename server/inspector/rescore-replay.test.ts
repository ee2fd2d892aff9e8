// Re-scoring by replay on the episode's own catalog: the whole config replays (a JOURNEY's
// sub-tasks, an older engine's rules), a missing catalog is a stored "none", and a catalog
// that is still loading is an error to retry, not an answer to store.
import { describe, expect, it } from 'vitest';
import { playEpisode, oracleAgent } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { AppError } from '@/server/lib/errors';
import { rescoreOnCatalog } from './rescore';

const catalog = testCatalog();
const stored = (actions: unknown[]) => actions.map((a) => ({ format: 'json', raw: JSON.stringify(a) }));

describe('rescoreOnCatalog', () => {
  it('replays a JOURNEY under its own sub-tasks to the reward it was played to', () => {
    const config = { envId: 'JOURNEY' as const, d: 4, seed: 3, journeyEnvs: ['CART' as const, 'STATUS' as const] };
    const { episode, actions } = playEpisode(config, catalog, oracleAgent);
    const rs = rescoreOnCatalog({ ...config, catalogId: catalog.id }, stored(actions), () => catalog, null);
    expect(rs.method).toBe('replay');
    expect(rs.reward).toBe(episode.breakdown!.total);
    expect(rs.reward).toBeGreaterThan(0.5);
  });

  it('says so when the catalog is not here, and lets a loading catalog be retried', () => {
    const config = { envId: 'PD' as const, d: 0, seed: 1, catalogId: 'elsewhere' };
    const missing = rescoreOnCatalog(
      config,
      [],
      () => {
        throw new Error('unknown catalog');
      },
      null,
    );
    expect([missing.method, missing.note]).toEqual(['none', 'catalog "elsewhere" is not available here']);
    const busy = () => {
      throw new AppError('BUSY', 'catalog "elsewhere" is loading; retry in a few seconds');
    };
    expect(() => rescoreOnCatalog(config, [], busy, null)).toThrow(/is loading/);
  });
});
