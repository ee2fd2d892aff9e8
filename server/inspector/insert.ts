// Writing whole episodes (imports) through the episode writer
// (server/episodes/writer.ts): the Episode row, its events and actions in one transaction (a
// savepoint inside an import's), so an episode is either stored completely or not at all.
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { EpisodeSetup, HiddenGoal } from '@/server/episodes/types';
import { episodeStatements, eventRows, jsonOrNull, newEpisodeId, type EpisodeInsert } from '@/server/episodes/writer';
import type { SqlDb } from '@/server/db/sql';

export { newEpisodeId };

export interface EpisodeRecord extends EpisodeSetup {
  id?: string;
  createdAt?: string;
  status: 'active' | 'done';
  terminationReason: string | null;
  reward: number | null;
  isCorrect: boolean | null;
  breakdown: RewardBreakdown | null;
  turn: number;
  player: string;
  hiddenGoal: HiddenGoal;
  events: EpisodeEvent[];
  actions: Array<{ format: 'text' | 'json'; raw: string; turn: number }>;
  goalRevealed: boolean;
  origin: string;
  runLabel: string | null;
  recorded: unknown;
  rescored: unknown;
  prompts: Array<string | null> | null;
  /** the reward revision the recorded reward was computed under (absent in older files: 1) */
  rewardRevision?: number;
  /** training metadata (issue 30): the trainer's step and explicit group */
  trainStep?: number | null;
  rolloutGroup?: string | null;
}

export const rowOf = (r: EpisodeRecord, id: string): EpisodeInsert => ({
  id,
  createdAt: r.createdAt ? new Date(r.createdAt) : new Date(),
  envId: r.envId,
  d: r.d,
  seed: r.seed,
  axisOverrides: JSON.stringify(r.axisOverrides),
  axes: JSON.stringify(r.axes),
  weights: jsonOrNull(r.weights),
  catalogId: r.catalogId,
  player: r.player,
  turn: r.turn,
  status: r.status,
  terminationReason: r.terminationReason,
  reward: r.reward,
  isCorrect: r.isCorrect,
  breakdown: jsonOrNull(r.breakdown),
  hiddenGoal: JSON.stringify(r.hiddenGoal),
  eventCount: r.events.length,
  rewardRevision: r.rewardRevision ?? 1,
  goalRevealed: r.goalRevealed,
  origin: r.origin,
  runLabel: r.runLabel,
  recorded: jsonOrNull(r.recorded),
  rescored: jsonOrNull(r.rescored),
  prompts: jsonOrNull(r.prompts),
  trainStep: r.trainStep ?? null,
  rolloutGroup: r.rolloutGroup ?? null,
});

/** One episode, in its own transaction or as a savepoint of `tx`'s: stored whole or not at all. */
export async function insertEpisode(tx: SqlDb, r: EpisodeRecord): Promise<string> {
  const row = rowOf(r, r.id ?? newEpisodeId());
  const actions = r.actions.map((a, seq) => ({ seq, ...a }));
  await tx.batch(episodeStatements(tx).newEpisode(row, eventRows(r.events, 0), actions));
  return row.id;
}
