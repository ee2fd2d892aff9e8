// Provenance: an episode's player is derived from who took its turns; the oracle spoils it, and
// the inspector's "human turns only" filter keeps exactly the episodes a person played alone.
import { describe, expect, it } from 'vitest';
import { createEpisode, oracleAgent } from '@/server/engine';
import { openSqlite, sqliteSqlDb } from '@/server/db/sql';
import { listInputSchema } from '@/server/inspector/filters';
import { listEpisodes } from '@/server/episodes/queries/list';
import { isSpoiled, playerOf, withActor } from './provenance';
import { catalog, db, service, setupServiceTests } from './test/service-kit';

setupServiceTests();

describe('the player derived from the turns', () => {
  it('is the one actor, or every actor of a mixed episode (sorted, each once)', () => {
    expect(playerOf('human', [])).toBe('human');
    expect(playerOf('human', ['human', 'human'])).toBe('human');
    expect(playerOf('human', ['oracle', 'oracle'])).toBe('oracle');
    expect(playerOf('api', [null, null])).toBe('api');
    expect(playerOf('human', ['model:qwen', 'human', 'model:qwen', 'oracle'])).toBe('mixed:human+model:qwen+oracle');
    expect(withActor('mixed:human+oracle', 5, 'human')).toBe('mixed:human+oracle');
  });

  it('marks an episode spoiled whenever the oracle took a turn', () => {
    expect(isSpoiled('oracle')).toBe(true);
    expect(isSpoiled('mixed:human+oracle')).toBe(true);
    expect(isSpoiled('human')).toBe(false);
    expect(isSpoiled('model:oracle-ish')).toBe(false);
  });
});

describe('stored players', { timeout: 120_000 }, () => {
  /**
   * Plays the episode to its end with the oracle's actions, taken by the given actors in turn;
   * `greeter` first says hello (one turn, no tools).
   */
  async function play(actors: string[], greeter: string | null = null): Promise<string> {
    const view = await service.startEpisode({ envId: 'PD', d: 2, seed: 7, player: 'human' });
    const twin = createEpisode({ envId: 'PD', d: 2, seed: 7 }, catalog);
    let obs = twin.reset().observation;
    if (greeter) {
      const hello = { assistant_message: 'Hello! Let me look.', tool_calls: [], answer: null };
      obs = twin.step(hello).observation;
      await service.submitAction(view.id, hello, { actor: greeter });
    }
    for (let i = 0; !twin.done; i++) {
      const action = oracleAgent.act(obs, twin);
      obs = twin.step(action).observation;
      await service.submitAction(view.id, action, { actor: actors[Math.min(i, actors.length - 1)] });
    }
    return view.id;
  }
  const stored = async (id: string) => (await db.prisma.episode.findUniqueOrThrow({ where: { id } })).player;

  it('stores human, oracle or mixed from the turns, and the human filter keeps only the person’s', async () => {
    const human = await play(['human']);
    const oracle = await play(['oracle'], 'oracle');
    const mixed = await play(['oracle'], 'human');
    expect([await stored(human), await stored(oracle), await stored(mixed)]).toEqual([
      'human',
      'oracle',
      'mixed:human+oracle',
    ]);
    expect((await service.getEpisode(mixed)).player).toBe('mixed:human+oracle');
    // a fork's player comes from the turns it copies
    const humanFork = (await service.forkEpisode(mixed, 1)).id;
    const oracleFork = (await service.forkEpisode(oracle, 1)).id;
    expect([await stored(humanFork), await stored(oracleFork)]).toEqual(['human', 'oracle']);
    const sqlite = openSqlite(db.url);
    try {
      const store = sqliteSqlDb(sqlite);
      const ids = async (filter: Record<string, unknown>) =>
        (await listEpisodes(store, listInputSchema.parse({ filter }))).rows.map((r) => r.id).sort();
      expect(await ids({ turns: 'human' })).toEqual([human, humanFork].sort());
      expect(await ids({})).toEqual([human, oracle, mixed, humanFork, oracleFork].sort());
    } finally {
      sqlite.close();
    }
  });
});
