// What the replay page needs beyond the stored view: provenance and re-score, mistakes and
// turn marks, the world at a turn, and what the agent saw at a turn.
import { createEpisode } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EnvId, EpisodeEvent, Observation, RewardBreakdown } from '@/server/engine/types';
import type { SqlDb } from '@/server/db/sql';
import { actionArgument, configOfRow } from '@/server/episodes/store';
import { retrievedWorld } from '@/server/episodes/seat';
import type { Episode as Row } from '@/server/generated/prisma/client';
import { episodeReads, storeRescore } from '@/server/episodes/queries';
import type { WorldView } from '@/server/episodes/types';
import { rescoreOnCatalog, type Rescore } from './rescore';
import { observationOf } from '@/server/models/transcript';
import { mistakesOf, outOfStockTurns, stockChangesUpTo, turnMarks } from './turns';

export type InspectorExtras = NonNullable<Awaited<ReturnType<ReturnType<typeof createEpisodeData>['extras']>>>;

const parse = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));

export function createEpisodeData(db: SqlDb, getCatalog: (id: string) => Catalog) {
  const reads = episodeReads(db);
  // One replay per episode gives the world after every turn; scrubbing then costs nothing.
  // A few episodes are kept (a 500-turn episode replays in seconds, its worlds are small).
  const worldCache = new Map<string, WorldView[]>();
  /** The world after every turn, replayed once; null when there is nothing to replay (an import without actions). */
  async function worldsOf(r: Row): Promise<WorldView[] | null> {
    const hit = worldCache.get(r.id);
    if (hit) return hit;
    const actions = await reads.getActions(r.id);
    if (r.origin !== 'engine' && !actions.length) return null;
    const ep = createEpisode(configOfRow(r), getCatalog(r.catalogId));
    ep.reset();
    const worlds = [ep.world() as WorldView];
    for (const a of actions) {
      if (ep.done) break;
      ep.step(actionArgument(a));
      worlds.push(ep.world() as WorldView);
    }
    worldCache.set(r.id, worlds);
    while (worldCache.size > 20) worldCache.delete(worldCache.keys().next().value!);
    return worlds;
  }

  /** Imports stored with a pending re-score (large files) are re-scored when first opened. */
  async function rescoreNow(r: Row, recorded: RewardBreakdown | null): Promise<Rescore> {
    const config = { ...configOfRow(r), catalogId: r.catalogId };
    const rs = rescoreOnCatalog(config, await reads.getActions(r.id), getCatalog, recorded);
    const stored = { ...rs, breakdown: null };
    await storeRescore(db, r.id, stored);
    return stored;
  }

  return {
    async extras(id: string, evs?: EpisodeEvent[]) {
      const r = await reads.getRow(id);
      if (!r) return null;
      const all = evs ?? (await reads.events(id));
      const breakdown = parse<RewardBreakdown>(r.breakdown);
      const mistakes = mistakesOf(all, breakdown);
      const rs = parse<Rescore>(r.rescored);
      return {
        origin: r.origin,
        runLabel: r.runLabel ?? r.curriculumRunId,
        goalRevealed: r.goalRevealed,
        recorded: parse<{ reward: number | null; isCorrect: boolean | null; parts: unknown }>(r.recorded),
        rescored: rs?.method === 'pending' ? await rescoreNow(r, breakdown) : rs,
        mistakes,
        marks: turnMarks(all, breakdown, mistakes),
        /** product/variant id → turn it went out of stock */
        outOfStock: outOfStockTurns(all),
        hasPrompts: r.prompts !== null,
      };
    },

    /**
     * The world after `turn`: replayed by the engine when the actions (or an engine episode's
     * reset) and the catalog are here (exact), else what the agent's tool calls showed of it.
     */
    async worldAt(id: string, turn: number) {
      const r = await reads.getRow(id);
      if (!r) return null;
      const all = await reads.events(id);
      const stockChanges = stockChangesUpTo(all, turn);
      const fromLog = (note: string) => ({
        world: retrievedWorld(all.filter((e) => e.turn <= turn)),
        source: 'log' as const,
        stockChanges,
        note: `rebuilt from the tool results in the log (${note})`,
      });
      try {
        const worlds = await worldsOf(r);
        if (!worlds) return fromLog('the episode has no actions to replay');
        const at = Math.min(turn, worlds.length - 1);
        return {
          world: worlds[at],
          source: 'replay' as const,
          stockChanges,
          note: `replayed ${at} action(s) with the engine`,
        };
      } catch (e) {
        return fromLog(`the replay failed: ${(e as Error).message}`);
      }
    },

    /** What the agent saw before acting at `turn`, and the model's prompt when one was recorded. */
    async observationAt(id: string, turn: number, budgets: Observation['budgets']) {
      const r = await reads.getRow(id);
      if (!r) return null;
      const prompt = parse<Array<string | null>>(r.prompts)?.[turn - 1] ?? null;
      // the observation it acted on: what the previous turn's step answered
      const before = (await reads.events(id)).filter((e) => e.turn === turn - 1);
      const promptNote = prompt
        ? 'the prompt as recorded'
        : r.player.startsWith('model:') || r.origin === 'import:openai'
          ? 'a model played, but its prompt was not recorded for this turn'
          : `${r.player} played: no model prompt (the observation above is what it received)`;
      return {
        observation: observationOf(r.envId as EnvId, before, turn - 1, budgets),
        prompt,
        promptNote,
      };
    },
  };
}
