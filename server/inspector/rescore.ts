// Re-scoring imported episodes with this engine, and the component-by-component difference
// from the reward the source recorded.
//   replay:  env/d/seed/actions replayed by the engine on the same catalog → its breakdown.
//   formula: the episode cannot be replayed (another implementation's catalog and generator),
//            but its recorded parts can be re-combined under this project's SPEC §8 revision 3:
//            r_task as the source's verifier gave it (at most 0 with a never-retrieved id), r_eff and T_user recomputed, r_hall
//            recomputed from the recommended and retrieved ids.
//   none:    neither is possible; the episode is shown as recorded.
import { replayEpisode } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EpisodeConfig, RewardBreakdown, RewardWeights, UserAct } from '@/server/engine/types';
import { actionArgument } from '@/server/episodes/store';
import { isAppError } from '@/server/lib/errors';

const PARTS = ['total', 'rTask', 'rEff', 'rHall', 'isCorrect', 'turns', 'tUser', 'tEff'] as const;
export type RewardParts = Pick<RewardBreakdown, (typeof PARTS)[number]>;

export interface Rescore {
  /** pending: stored by a large import, re-scored by replay when first opened */
  method: 'replay' | 'formula' | 'none' | 'pending';
  reward: number | null;
  isCorrect: boolean | null;
  parts: RewardParts | null;
  breakdown: RewardBreakdown | null;
  /** components whose value differs from the recorded one */
  differs: Array<{ part: keyof RewardParts; recorded: number | boolean; rescored: number | boolean }>;
  note: string;
}

export const partsOf = (b: RewardBreakdown) => Object.fromEntries(PARTS.map((k) => [k, b[k]])) as RewardParts;

export function diffParts(recorded: RewardParts | null, rescored: RewardParts | null): Rescore['differs'] {
  if (!recorded || !rescored) return [];
  return PARTS.flatMap((part) => {
    const [a, b] = [recorded[part], rescored[part]];
    const same = typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < 1e-9 : a === b;
    return same ? [] : [{ part, recorded: a, rescored: b }];
  });
}

/** No re-score: `pending` (a large import's, replayed when first opened) or `none`, and why. */
export const unscored = (note: string, method: 'none' | 'pending' = 'none'): Rescore => ({
  method,
  reward: null,
  isCorrect: null,
  parts: null,
  breakdown: null,
  differs: [],
  note,
});

/** A stored or imported episode re-scored by replay on its own catalog, or why it cannot be. */
export function rescoreOnCatalog(
  { catalogId, ...config }: EpisodeConfig & { catalogId: string },
  stored: ReadonlyArray<{ format: string; raw: string }>,
  getCatalog: (id: string) => Catalog,
  recordedBreakdown: RewardBreakdown | null,
): Rescore {
  let catalog: Catalog;
  try {
    catalog = getCatalog(catalogId);
  } catch (e) {
    if (isAppError(e) && e.code === 'BUSY') throw e; // still loading: not an answer to store
    return unscored(`catalog "${catalogId}" is not available here`);
  }
  const actions = stored.map(actionArgument);
  try {
    const ep = replayEpisode(config, catalog, actions);
    if (!ep.breakdown)
      return unscored(
        `the ${actions.length} recorded action(s) do not finish the episode in this engine (it is still at turn ${ep.turn})`,
      );
    const parts = partsOf(ep.breakdown);
    return {
      method: 'replay',
      reward: ep.breakdown.total,
      isCorrect: ep.breakdown.isCorrect,
      parts,
      breakdown: ep.breakdown,
      differs: diffParts(recordedBreakdown ? partsOf(recordedBreakdown) : null, parts),
      note: `replayed ${actions.length} action(s) on ${catalog.id} with this engine`,
    };
  } catch (e) {
    return unscored(`this engine cannot replay it: ${(e as Error).message}`);
  }
}

const clip = (x: number) => Math.min(1, Math.max(-1, x));

export interface FormulaInput {
  hardFail: boolean;
  rTask: number;
  /** the verifier's verdict as recorded */
  verdict: boolean;
  turns: number;
  /** the customer's act after each turn (index 0 = after turn 1), null when unknown or none */
  replyActs: Array<UserAct | null>;
  /** successful tool calls per turn (index 0 = turn 1) */
  okToolCalls: number[];
  nSub: number;
  recommended: string[];
  seen: ReadonlySet<string>;
  weights: RewardWeights;
}

export function rescoreByFormula(input: FormulaInput, recorded: RewardParts | null): Rescore {
  // T_user (rev. 2): replies tagged confirm, and clarify replies to a turn with no successful tool call
  let tUser = 0;
  for (let i = 0; i < Math.min(input.turns, input.replyActs.length); i++) {
    const act = input.replyActs[i];
    if (act === 'confirm' || (act === 'clarify' && (input.okToolCalls[i] ?? 0) === 0)) tUser++;
  }
  // r_eff (rev. 2) with the fixed reference T_ref = 4·n_sub
  const tRef = 4 * input.nSub;
  const tEff = Math.max(1, input.turns - tUser);
  const rEff = clip(1 - (2 * (tEff - 1)) / (tRef - 1));
  const unique = [...new Set(input.recommended)];
  const hallucinated = unique.filter((id) => !input.seen.has(id));
  const rHall = hallucinated.length === 0 ? 0 : -Math.min(1, hallucinated.length / Math.max(1, unique.length));
  // revision 3: an answer naming a never-retrieved id earns at most 0; no efficiency bonus without progress
  const rTask = hallucinated.length > 0 ? Math.min(input.rTask, 0) : input.rTask;
  const effUsed = rTask > 0 ? rEff : Math.min(rEff, 0);
  const w = input.weights;
  const preClip = w.task * rTask + w.eff * effUsed + w.hall * rHall;
  const total = input.hardFail ? -1 : clip(preClip);
  const isCorrect = !input.hardFail && input.verdict && rHall === 0;
  const parts: RewardParts = { total, rTask, rEff: effUsed, rHall, isCorrect, turns: input.turns, tUser, tEff };
  return {
    method: 'formula',
    reward: total,
    isCorrect,
    parts,
    breakdown: null,
    differs: diffParts(recorded, parts),
    note:
      `re-combined under SPEC §8 rev. 3 from the recorded parts: r_task ${input.rTask} from the source's verifier` +
      `${rTask !== input.rTask ? ` (capped at 0: ${hallucinated.length} id(s) never retrieved)` : ''}; ` +
      `r_eff = 1 − 2·(${tEff} − 1)/(${tRef} − 1) with T_user ${tUser}; r_hall from ${unique.length} recommended id(s), ${hallucinated.length} never retrieved`,
  };
}
