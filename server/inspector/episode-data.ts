// What the replay page needs beyond the stored view: provenance and re-score, mistakes and
// turn marks, the world at a turn, and what the agent saw at a turn.
import { replayEpisode } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { Action, EnvId, EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { Sqlite } from './db';
import type { Rescore } from './rescore';
import { mistakesOf, observationBefore, outOfStockTurns, stockChangesUpTo, turnMarks, type Mistake, type StockChange, type TurnMark, type TurnObservation } from './turns';

interface Row {
  id: string;
  envId: string;
  d: number;
  seed: number;
  axisOverrides: string;
  weights: string | null;
  catalogId: string;
  axes: string;
  breakdown: string | null;
  origin: string;
  runLabel: string | null;
  curriculumRunId: string | null;
  recorded: string | null;
  rescored: string | null;
  prompts: string | null;
  player: string;
  goalRevealed: number;
}

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

export function createEpisodeData(db: Sqlite, getCatalog: (id: string) => Catalog) {
  const rowQ = db.prepare(`SELECT "id","envId","d","seed","axisOverrides","weights","catalogId","axes","breakdown","origin","runLabel","curriculumRunId",
    "recorded","rescored","prompts","player","goalRevealed" FROM "Episode" WHERE "id" = ?`);
  const eventsQ = db.prepare('SELECT "payload" FROM "EpisodeEvent" WHERE "episodeId" = ? ORDER BY "seq"');
  const actionsQ = db.prepare('SELECT "format","raw" FROM "EpisodeAction" WHERE "episodeId" = ? ORDER BY "seq"');

  const row = (id: string) => rowQ.get(id) as Row | undefined;
  const events = (id: string) => (eventsQ.all(id) as Array<{ payload: string }>).map((e) => JSON.parse(e.payload) as EpisodeEvent);
  const parse = <T,>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));

  return {
    extras(id: string, evs?: EpisodeEvent[]): InspectorExtras | null {
      const r = row(id);
      if (!r) return null;
      const all = evs ?? events(id);
      const breakdown = parse<RewardBreakdown>(r.breakdown);
      const mistakes = mistakesOf(all, breakdown);
      return {
        origin: r.origin,
        runLabel: r.runLabel ?? r.curriculumRunId,
        goalRevealed: r.goalRevealed === 1,
        recorded: parse(r.recorded),
        rescored: parse<Rescore>(r.rescored),
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
    worldAt(id: string, turn: number): { world: Record<string, unknown> | null; source: 'replay' | 'log'; stockChanges: StockChange[]; note: string } | null {
      const r = row(id);
      if (!r) return null;
      const all = events(id);
      const stockChanges = stockChangesUpTo(all, turn);
      const actions = (actionsQ.all(id) as Array<{ format: string; raw: string }>).map((a) => (a.format === 'json' ? (JSON.parse(a.raw) as Action) : a.raw));
      let catalog: Catalog | null = null;
      try {
        catalog = actions.length > 0 || turn === 0 ? getCatalog(r.catalogId) : null;
      } catch {
        catalog = null;
      }
      if (catalog && (actions.length > 0 || r.origin === 'engine')) {
        try {
          const overrides = JSON.parse(r.axisOverrides) as Record<string, number>;
          const ep = replayEpisode(
            { envId: r.envId as EnvId, d: r.d, seed: r.seed, ...(Object.keys(overrides).length ? { axisOverrides: overrides } : {}), ...(r.weights ? { weights: JSON.parse(r.weights) } : {}) },
            catalog,
            actions.slice(0, turn),
          );
          return { world: ep.world() as unknown as Record<string, unknown>, source: 'replay', stockChanges, note: `replayed ${Math.min(turn, actions.length)} action(s)` };
        } catch (e) {
          return { ...fromLog(all, turn), stockChanges, note: `replay failed (${(e as Error).message}); rebuilt from the tool results in the log` };
        }
      }
      return { ...fromLog(all, turn), stockChanges, note: 'rebuilt from the tool results in the log (the engine cannot replay this episode)' };
    },

    /** What the agent saw before acting at `turn`, and the model's prompt when one was recorded. */
    observationAt(id: string, turn: number, budgets: TurnObservation['budgets']): { observation: TurnObservation; prompt: string | null; promptNote: string } | null {
      const r = row(id);
      if (!r) return null;
      const prompts = parse<Array<string | null>>(r.prompts);
      const prompt = prompts?.[turn - 1] ?? null;
      const promptNote = prompt
        ? 'the prompt as recorded'
        : r.player.startsWith('model:') || r.origin === 'import:openai'
          ? 'a model played, but its prompt was not recorded for this turn'
          : `${r.player} played: no model prompt (the observation above is what it received)`;
      return { observation: observationBefore(r.envId, events(id), turn, budgets), prompt, promptNote };
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
    if (e.name === 'order.list') orders = Array.isArray(res) ? res : Array.isArray(res?.orders) ? (res.orders as unknown[]) : orders;
    if (e.name.startsWith('return.') && res && typeof res === 'object' && 'return_id' in res) returns.push(res);
  }
  return { world: { cart: cart ?? { lines: [], total_items: 0, total_price: 0 }, orders, returns, fromLog: true }, source: 'log' };
}
