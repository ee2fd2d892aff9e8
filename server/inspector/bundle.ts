// The demo bundle's data: episodes as the replay shows them, turn by turn (transcript, tool calls,
// the world after each turn, the reward breakdown), read through the export path and the replay's
// world. Without `withGoal` nothing of the hidden goal is kept: no goal, no seed (it regenerates
// the goal), no hidden world changes, no full world (only what the agent's tools returned) and
// no task evidence (its lines name the goal's ids and values).
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import { retrievedWorld } from '@/server/episodes/seat';
import type { HiddenGoal } from '@/server/episodes/types';
import { MAX_BUNDLE_EPISODES } from '@/lib/bundle-limit';
import { fmtReward } from '@/lib/format';
import type { SqlDb } from '@/server/db/sql';
import type { createEpisodeData } from './episode-data';
import { createExporter } from './export';

export { MAX_BUNDLE_EPISODES };
export const BUNDLE_FORMAT = 'ecomrlve-demo-bundle';
export const BUNDLE_VERSION = 1;

export interface BundleTurn {
  turn: number;
  /** the turn's events in log order (the reward event is left out: the breakdown is per episode) */
  events: EpisodeEvent[];
  /** the world after this turn */
  world: Record<string, unknown> | null;
}

export interface BundleEpisode {
  id: string;
  envId: string;
  d: number;
  /** null unless the goal is included */
  seed: number | null;
  player: string;
  runLabel: string | null;
  createdAt: string;
  status: string;
  terminationReason: string | null;
  /** turns taken */
  turnsTaken: number;
  reward: number | null;
  isCorrect: boolean | null;
  /** display strings, formatted as the replay formats them */
  shown: { reward: string; rTask: string; rEff: string; rHall: string };
  breakdown: RewardBreakdown | null;
  /** how the world was obtained, said in the viewer */
  worldNote: string;
  turns: BundleTurn[];
  hiddenGoal?: HiddenGoal;
}

export interface BundlePayload {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  createdAt: string;
  title: string;
  withGoal: boolean;
  episodes: BundleEpisode[];
}

type EpisodeData = Pick<ReturnType<typeof createEpisodeData>, 'worldAt'>;

/** The breakdown without the task's evidence lines, which name the goal's ids and values. */
function withoutTaskEvidence(b: RewardBreakdown): RewardBreakdown {
  return { ...b, task: { ...b.task, evidence: [] }, evidence: { ...b.evidence, task: [] } };
}

export async function bundleEpisode(
  db: SqlDb,
  data: EpisodeData,
  id: string,
  withGoal: boolean,
): Promise<BundleEpisode | null> {
  const line = await createExporter(db).episodeLine(id);
  if (!line) return null;
  const all = line.events as EpisodeEvent[];
  const events = all.filter((e) => e.kind !== 'reward' && (withGoal || e.kind !== 'world_change'));
  const stored = line.breakdown as RewardBreakdown | null;
  const breakdown = stored && !withGoal ? withoutTaskEvidence(stored) : stored;
  const lastTurn = Math.max(Number(line.turn), ...events.map((e) => e.turn), 0);
  const turns: BundleTurn[] = [];
  let worldNote = 'what the agent’s tool calls returned (the full world comes with the hidden goal)';
  for (let t = 0; t <= lastTurn; t++) {
    let world: Record<string, unknown> | null;
    if (withGoal) {
      const at = await data.worldAt(id, t);
      world = at?.world ?? null;
      if (at) worldNote = at.source === 'replay' ? 'the world replayed by the engine' : at.note;
    } else world = retrievedWorld(events.filter((e) => e.turn <= t)) as Record<string, unknown>;
    turns.push({ turn: t, events: events.filter((e) => e.turn === t), world });
  }
  const reward = line.reward as number | null;
  return {
    id,
    envId: String(line.envId),
    d: Number(line.d),
    seed: withGoal ? Number(line.seed) : null,
    player: String(line.player),
    runLabel: (line.runLabel as string | null) ?? null,
    createdAt: String(line.createdAt),
    status: String(line.status),
    terminationReason: (line.terminationReason as string | null) ?? null,
    turnsTaken: Number(line.turn),
    reward,
    isCorrect: (line.isCorrect as boolean | null) ?? null,
    shown: {
      reward: fmtReward(reward),
      rTask: fmtReward(stored?.rTask),
      rEff: fmtReward(stored?.rEff),
      rHall: fmtReward(stored?.rHall),
    },
    breakdown,
    worldNote,
    turns,
    ...(withGoal ? { hiddenGoal: line.hiddenGoal as HiddenGoal } : {}),
  };
}

/** The bundle's data for these ids, in order (unknown ids are left out). */
export async function bundlePayload(
  db: SqlDb,
  data: EpisodeData,
  ids: readonly string[],
  opts: { withGoal: boolean; title?: string; now?: Date },
): Promise<BundlePayload> {
  if (ids.length > MAX_BUNDLE_EPISODES)
    throw new Error(`a demo bundle holds at most ${MAX_BUNDLE_EPISODES} episodes (asked for ${ids.length})`);
  const episodes: BundleEpisode[] = [];
  for (const id of ids) {
    const ep = await bundleEpisode(db, data, id, opts.withGoal);
    if (ep) episodes.push(ep);
  }
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    createdAt: (opts.now ?? new Date()).toISOString(),
    title: opts.title ?? `EcomRLVE demo: ${episodes.length} episode${episodes.length === 1 ? '' : 's'}`,
    withGoal: opts.withGoal,
    episodes,
  };
}
