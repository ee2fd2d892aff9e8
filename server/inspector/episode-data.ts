// What the replay page needs beyond the stored view: provenance and re-score, mistakes and
// turn marks, the world at a turn, and what the agent saw at a turn.
import { createEpisode } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { Action, EnvId, EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { SqlDb } from '@/server/db/sql';
import { flag } from '@/server/db/dialect';
import {
  episodeActions,
  episodeEvents,
  episodeRow,
  storeRescore,
  type StoredEpisodeRow as Row,
} from '@/server/episodes/queries';
import { rescoreOnCatalog, type Rescore } from './rescore';
import {
  mistakesOf,
  observationBefore,
  outOfStockTurns,
  stockChangesUpTo,
  turnMarks,
  type Mistake,
  type StockChange,
  type TurnMark,
  type TurnObservation,
} from './turns';

export interface InspectorExtras {
  origin: string;
  runLabel: string | null;
  goalRevealed: boolean;
  recorded: { reward: number | null; isCorrect: boolean | null; parts: unknown } | null;
  rescored: Rescore | null;
  mistakes: Mistake[];
  marks: TurnMark[];
  /** product/variant id → turn it went out of stock */
  outOfStock: Record<string, number>;
  hasPrompts: boolean;
}

export function createEpisodeData(db: SqlDb, getCatalog: (id: string) => Catalog) {
  const row = (id: string) => episodeRow(db, id);
  const actionsOf = async (id: string) =>
    (await episodeActions(db, id)).map((a) => (a.format === 'json' ? (JSON.parse(a.raw) as Action) : a.raw));

  // One replay per episode gives the world after every turn; scrubbing then costs nothing.
  // A few episodes are kept (a 500-turn episode replays in seconds, its worlds are small).
  const worldCache = new Map<string, Array<Record<string, unknown>>>();
  function worldsOf(r: Row, actions: Array<string | Action>, catalog: Catalog): Array<Record<string, unknown>> {
    const hit = worldCache.get(r.id);
    if (hit) return hit;
    const overrides = JSON.parse(r.axisOverrides) as Record<string, number>;
    const ep = createEpisode(
      {
        envId: r.envId as EnvId,
        d: r.d,
        seed: r.seed,
        ...(Object.keys(overrides).length ? { axisOverrides: overrides } : {}),
        ...(r.weights ? { weights: JSON.parse(r.weights) } : {}),
      },
      catalog,
    );
    ep.reset();
    const worlds = [ep.world() as unknown as Record<string, unknown>];
    for (const a of actions) {
      if (ep.done) break;
      ep.step(a);
      worlds.push(ep.world() as unknown as Record<string, unknown>);
    }
    worldCache.set(r.id, worlds);
    while (worldCache.size > 20) worldCache.delete(worldCache.keys().next().value!);
    return worlds;
  }

  /** Imports stored with a pending re-score (large files) are re-scored when first opened. */
  async function rescoreNow(r: Row, recorded: RewardBreakdown | null): Promise<Rescore> {
    const rs = rescoreOnCatalog(
      {
        ...r,
        envId: r.envId as EnvId,
        axisOverrides: JSON.parse(r.axisOverrides),
        weights: r.weights ? JSON.parse(r.weights) : null,
      },
      await episodeActions(db, r.id),
      getCatalog,
      recorded,
    );
    const stored = { ...rs, breakdown: null };
    await storeRescore(db, r.id, stored);
    return stored;
  }
  const events = (id: string) => episodeEvents(db, id);
  const parse = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));

  return {
    async extras(id: string, evs?: EpisodeEvent[]): Promise<InspectorExtras | null> {
      const r = await row(id);
      if (!r) return null;
      const all = evs ?? (await events(id));
      const breakdown = parse<RewardBreakdown>(r.breakdown);
      const mistakes = mistakesOf(all, breakdown);
      const rs = parse<Rescore>(r.rescored);
      return {
        origin: r.origin,
        runLabel: r.runLabel ?? r.curriculumRunId,
        goalRevealed: flag(r.goalRevealed) === true,
        recorded: parse(r.recorded),
        rescored: rs?.method === 'pending' ? await rescoreNow(r, breakdown) : rs,
        mistakes,
        marks: turnMarks(all, breakdown, mistakes),
        outOfStock: outOfStockTurns(all),
        hasPrompts: r.prompts !== null,
      };
    },

    /**
     * The agent-visible world after `turn`: replayed by the engine when the actions and the
     * catalog are here (exact), else rebuilt from the tool results in the log.
     */
    async worldAt(
      id: string,
      turn: number,
    ): Promise<{
      world: Record<string, unknown> | null;
      source: 'replay' | 'log';
      stockChanges: StockChange[];
      note: string;
    } | null> {
      const r = await row(id);
      if (!r) return null;
      const all = await events(id);
      const stockChanges = stockChangesUpTo(all, turn);
      const actions = await actionsOf(id);
      let catalog: Catalog | null;
      try {
        catalog = actions.length > 0 || turn === 0 ? getCatalog(r.catalogId) : null;
      } catch {
        catalog = null;
      }
      if (catalog && (actions.length > 0 || r.origin === 'engine')) {
        try {
          const worlds = worldsOf(r, actions, catalog);
          const at = Math.min(turn, worlds.length - 1);
          return {
            world: worlds[at],
            source: 'replay',
            stockChanges,
            note: `replayed ${at} action(s) with the engine`,
          };
        } catch (e) {
          return {
            ...fromLog(all, turn),
            stockChanges,
            note: `replay failed (${(e as Error).message}); rebuilt from the tool results in the log`,
          };
        }
      }
      return {
        ...fromLog(all, turn),
        stockChanges,
        note: 'rebuilt from the tool results in the log (the engine cannot replay this episode)',
      };
    },

    /** What the agent saw before acting at `turn`, and the model's prompt when one was recorded. */
    async observationAt(
      id: string,
      turn: number,
      budgets: TurnObservation['budgets'],
    ): Promise<{ observation: TurnObservation; prompt: string | null; promptNote: string } | null> {
      const r = await row(id);
      if (!r) return null;
      const prompts = parse<Array<string | null>>(r.prompts);
      const prompt = prompts?.[turn - 1] ?? null;
      const promptNote = prompt
        ? 'the prompt as recorded'
        : r.player.startsWith('model:') || r.origin === 'import:openai'
          ? 'a model played, but its prompt was not recorded for this turn'
          : `${r.player} played: no model prompt (the observation above is what it received)`;
      return { observation: observationBefore(r.envId, await events(id), turn, budgets), prompt, promptNote };
    },

    events,
  };
}

/** The world as far as the log shows it: the latest cart and order list seen, returns started. */
export function fromLog(events: EpisodeEvent[], turn: number): { world: Record<string, unknown>; source: 'log' } {
  let cart: unknown = null;
  let orders: unknown[] = [];
  const returns: unknown[] = [];
  for (const e of events) {
    if (e.kind !== 'tool_call' || e.turn > turn || e.error !== null || e.result === null) continue;
    const res = e.result as Record<string, unknown>;
    if (e.name.startsWith('cart.') && res && Array.isArray(res.lines)) cart = res;
    if (e.name === 'order.list')
      orders = Array.isArray(res) ? res : Array.isArray(res?.orders) ? (res.orders as unknown[]) : orders;
    if (e.name.startsWith('return.') && res && typeof res === 'object' && 'return_id' in res) returns.push(res);
  }
  return {
    world: { cart: cart ?? { lines: [], total_items: 0, total_price: 0 }, orders, returns, fromLog: true },
    source: 'log',
  };
}
