// The demo bundle's data: episodes as the replay shows them, turn by turn (transcript, tool calls,
// the world after each turn, the reward breakdown), read through the export path and the replay's
// world. Without `withGoal` nothing of the hidden goal is kept: no goal, no seed (it regenerates
// the goal), no hidden world changes, no full world (only what the agent's tools returned) and
// no task evidence (its lines name the goal's ids and values).
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import { retrievedWorld } from '@/server/episodes/seat';
import type { WorldView } from '@/server/episodes/types';
import { MAX_BUNDLE_EPISODES } from '@/lib/bundle-limit';
import { fmtReward } from '@/lib/format';
import type { SqlDb } from '@/server/db/sql';
import type { createEpisodeData } from './episode-data';
import { createExporter } from './export';

export { MAX_BUNDLE_EPISODES };
const BUNDLE_FORMAT = 'ecomrlve-demo-bundle';
const BUNDLE_VERSION = 1;

export type BundlePayload = Awaited<ReturnType<typeof bundlePayload>>;

type EpisodeData = Pick<ReturnType<typeof createEpisodeData>, 'worldAt'>;

/** The breakdown without the task's evidence lines, which name the goal's ids and values. */
function withoutTaskEvidence(b: RewardBreakdown): RewardBreakdown {
  return { ...b, task: { ...b.task, evidence: [] }, evidence: { ...b.evidence, task: [] } };
}

async function bundleEpisode(db: SqlDb, data: EpisodeData, id: string, withGoal: boolean) {
  const line = await createExporter(db).episodeLine(id);
  if (!line) return null;
  const events = line.events.filter((e) => e.kind !== 'reward' && (withGoal || e.kind !== 'world_change'));
  const stored = line.breakdown;
  const lastTurn = Math.max(line.turn, ...events.map((e) => e.turn), 0);
  const turns: Array<{ turn: number; events: EpisodeEvent[]; world: WorldView | null }> = [];
  let worldNote = 'what the agent’s tool calls returned (the full world comes with the hidden goal)';
  for (let t = 0; t <= lastTurn; t++) {
    let world: WorldView | null;
    if (withGoal) {
      const at = await data.worldAt(id, t);
      world = at?.world ?? null;
      if (at) worldNote = at.source === 'replay' ? 'the world replayed by the engine' : at.note;
    } else world = retrievedWorld(events.filter((e) => e.turn <= t));
    // the turn's events in log order (the reward event is left out: the breakdown is per episode), the world after it
    turns.push({ turn: t, events: events.filter((e) => e.turn === t), world });
  }
  return {
    id,
    envId: line.envId,
    d: line.d,
    seed: withGoal ? line.seed : null,
    player: line.player,
    runLabel: line.runLabel,
    createdAt: line.createdAt,
    status: line.status,
    terminationReason: line.terminationReason,
    turnsTaken: line.turn,
    reward: line.reward,
    isCorrect: line.isCorrect,
    /** display strings, formatted as the replay formats them */
    shown: {
      reward: fmtReward(line.reward),
      rTask: fmtReward(stored?.rTask),
      rEff: fmtReward(stored?.rEff),
      rHall: fmtReward(stored?.rHall),
    },
    breakdown: stored && !withGoal ? withoutTaskEvidence(stored) : stored,
    /** how the world was obtained, said in the viewer */
    worldNote,
    turns,
    ...(withGoal ? { hiddenGoal: line.hiddenGoal } : {}),
  };
}

/** The bundle's data for these ids, in order (unknown ids are left out). */
export async function bundlePayload(
  db: SqlDb,
  data: EpisodeData,
  ids: readonly string[],
  opts: { withGoal: boolean; title?: string; now?: Date },
) {
  if (ids.length > MAX_BUNDLE_EPISODES)
    throw new Error(`a demo bundle holds at most ${MAX_BUNDLE_EPISODES} episodes (asked for ${ids.length})`);
  const episodes = [];
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
