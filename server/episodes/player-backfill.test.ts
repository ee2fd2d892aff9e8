// The one-shot player backfill on a database holding old-style rows: episodes stored as "human"
// although a model or the oracle took turns get the player their turns' actors give; episodes a
// person played alone, trainer episodes without actors and derived players stay; a second run
// changes nothing.
import { describe, expect, it } from 'vitest';
import { backfillPlayers } from './player-backfill';
import { db, service, setupServiceTests } from './test/service-kit';

setupServiceTests();

// a search each turn: the customer waits (repeated questions would make them quit)
const SEARCH = {
  assistant_message: 'Let me look.',
  tool_calls: [{ name: 'catalog.search', args: { query: 'lamp' } }],
  answer: null,
};

/** An episode whose turns were taken by `actors`, then stored as `player` (as before provenance). */
async function oldStyle(actors: Array<string | undefined>, player: string): Promise<string> {
  const view = await service.startEpisode({ envId: 'CART', d: 1, seed: 3, player: 'human' });
  for (const actor of actors) await service.submitAction(view.id, SEARCH, actor ? { actor } : {});
  await db.sql.run(`UPDATE "Episode" SET "player" = ? WHERE "id" = ?`, [player, view.id]);
  return view.id;
}

const playerOfRow = async (id: string) => (await db.prisma.episode.findUniqueOrThrow({ where: { id } })).player;

describe('player backfill', { timeout: 120_000 }, () => {
  it('derives the player of old rows from their turns, once', async () => {
    const ids = {
      modelTookOver: await oldStyle(['human', 'model:qwen', 'model:qwen'], 'human'),
      oracleOnly: await oldStyle(['oracle', 'oracle'], 'human'),
      personAlone: await oldStyle(['human', 'human'], 'human'),
      trainer: await oldStyle([undefined, undefined], 'api'),
      starterThenModel: await oldStyle([undefined, 'model:qwen'], 'human'),
      derived: await oldStyle(['human', 'oracle'], 'mixed:human+oracle'),
    };
    expect(await backfillPlayers(db.sql)).toBe(3);
    const players = Object.fromEntries(
      await Promise.all(Object.entries(ids).map(async ([k, id]) => [k, await playerOfRow(id)])),
    );
    expect(players).toEqual({
      modelTookOver: 'mixed:human+model:qwen',
      oracleOnly: 'oracle',
      personAlone: 'human',
      trainer: 'api',
      starterThenModel: 'mixed:human+model:qwen',
      derived: 'mixed:human+oracle',
    });
    // what the live path derives for the same turns
    const live = await service.startEpisode({ envId: 'CART', d: 1, seed: 3, player: 'human' });
    for (const actor of ['human', 'model:qwen']) await service.submitAction(live.id, SEARCH, { actor });
    expect(await playerOfRow(live.id)).toBe(players.modelTookOver);
    expect(await backfillPlayers(db.sql)).toBe(0);
  });
});
