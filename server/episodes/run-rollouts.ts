// A training run's rollouts as server/inspector/groups.ts takes them: one SELECT over the run's
// finished episodes (a rollout still playing has no reward and its seed is not yet the
// inspector's), one group's rollouts, and the event logs and breakdowns of a group (its causes).
import type { SqlDb } from '@/server/db/sql';
import { flag, sqlFor } from '@/server/db/dialect';
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { AttributionInput } from '@/server/inspector/attribution';
import type { CauseRollout } from '@/server/inspector/group-cause';
import { formGroups, groupStats, mixedPrompts, type Group, type GroupStats } from '@/server/inspector/groups';
import type { RewardBinCount } from '@/server/inspector/run-view';
import { runCondition } from '@/server/inspector/run-keys';

/** One group of a run: its explicit name, or its prompt (trainStep, env, d, seed). */
export type GroupSelector =
  { group: string } | { group: null; trainStep: number | null; env: string; d: number; seed: number };

/** The columns that name a rollout's prompt, as SQL gives them back. */
interface PromptRow {
  trainStep: number | null;
  rolloutGroup: string | null;
  envId: string;
  d: number;
  seed: number;
}

function finished(run: string) {
  const where = runCondition(run);
  return { sql: `${where.sql} AND e."status" = 'done' AND e."reward" IS NOT NULL`, args: where.args as unknown[] };
}

const promptOf = (run: string, r: PromptRow) => ({
  run,
  group: r.rolloutGroup,
  trainStep: r.trainStep === null ? null : Number(r.trainStep),
  env: r.envId,
  d: Number(r.d),
  seed: Number(r.seed),
});

/**
 * The run's groups of finished rollouts, for the run view: summed in SQL, one row per group (a
 * trainer run is read from Episode_run_rollouts_idx alone, in its order). groups.ts's groupStats
 * turns the sums into figures, as formGroups does for rollouts in hand.
 */
export async function readRunGroups(db: SqlDb, run: string): Promise<GroupStats[]> {
  const where = finished(run);
  type Sums = Record<'n' | 'rewardSum' | 'squares' | 'spread' | 'passed' | 'sameEnd', number>;
  const rows = await db.all<PromptRow & Sums>(
    // as few columns as the figures need: building 25,000 result rows is most of the cost
    `SELECT e."trainStep", e."rolloutGroup", e."envId", e."d", e."seed", count(*) AS "n",
       sum(e."reward") AS "rewardSum", sum(e."reward" * e."reward") AS "squares",
       max(e."reward") - min(e."reward") AS "spread", sum(CASE WHEN e."isCorrect" THEN 1 ELSE 0 END) AS "passed",
       CASE WHEN count(e."terminationReason") = 0 OR (count(e."terminationReason") = count(*)
         AND min(e."terminationReason") = max(e."terminationReason")) THEN 1 ELSE 0 END AS "sameEnd"
     FROM "Episode" e WHERE ${where.sql}
     GROUP BY e."trainStep", e."rolloutGroup", e."envId", e."d", e."seed"`,
    where.args,
  );
  const named = new Map<string, GroupStats>();
  return rows.map((r) => {
    const size = Number(r.n);
    const rewardSum = Number(r.rewardSum);
    const mean = rewardSum / size;
    const g = groupStats(promptOf(run, r), {
      size,
      rewardSum,
      variance: Number(r.squares) / size - mean * mean,
      spread: Number(r.spread),
      passed: Number(r.passed),
      sameTermination: Number(r.sameEnd) === 1,
    });
    // a named group is one prompt: a second row of the same name is a trainer bug, said plainly
    if (g.group !== null) {
      const seen = named.get(g.group);
      if (seen) throw mixedPrompts(seen, g);
      named.set(g.group, g);
    }
    return g;
  });
}

/** The run's finished rollouts per reward bin (floor((reward + 1) × 10)), passed apart, per env × d. */
export async function readRewardBins(db: SqlDb, run: string): Promise<RewardBinCount[]> {
  const where = finished(run);
  const rows = await db.all<{ envId: string; d: number; bin: number; passed: number; n: number }>(
    `SELECT e."envId", e."d", floor((e."reward" + 1) * 10) AS "bin",
       CASE WHEN e."isCorrect" THEN 1 ELSE 0 END AS "passed", count(*) AS "n"
     FROM "Episode" e WHERE ${where.sql} GROUP BY 1, 2, 3, 4`,
    where.args,
  );
  return rows.map((r) => ({
    env: r.envId,
    d: Number(r.d),
    bin: Number(r.bin),
    passed: Number(r.passed) === 1,
    rollouts: Number(r.n),
  }));
}

/** One group of the run with its rollouts in play order, their ids, turns and reward parts (the group view). */
export async function readGroup(db: SqlDb, run: string, only: GroupSelector): Promise<Group | null> {
  const { sql, args } = finished(run);
  const c = [sql];
  if (only.group != null) {
    c.push('e."rolloutGroup" = ?');
    args.push(only.group);
  } else {
    c.push('e."rolloutGroup" IS NULL', 'e."envId" = ?', 'e."d" = ?', 'e."seed" = ?');
    c.push(only.trainStep === null ? 'e."trainStep" IS NULL' : 'e."trainStep" = ?');
    args.push(only.env, only.d, only.seed, ...(only.trainStep === null ? [] : [only.trainStep]));
  }
  const part = (k: string) => `${sqlFor(db.dialect).jsonNumber('e."breakdown"', k)} AS "${k}"`;
  type Row = PromptRow & { id: string; isCorrect: unknown; terminationReason: string | null };
  const rows = await db.all<Row & Record<'turn' | 'reward' | 'rTask' | 'rEff' | 'rHall', number>>(
    `SELECT e."id", e."turn", e."trainStep", e."rolloutGroup", e."envId", e."d", e."seed", e."reward", e."isCorrect",
       e."terminationReason", ${part('rTask')}, ${part('rEff')}, ${part('rHall')}
     FROM "Episode" e WHERE ${c.join(' AND ')} ORDER BY e."createdAt", e."id"`,
    args,
  );
  const [group] = formGroups(
    rows.map((r) => ({
      ...promptOf(run, r),
      reward: Number(r.reward),
      isCorrect: flag(r.isCorrect) === true,
      termination: r.terminationReason,
      id: r.id,
      turns: Number(r.turn),
      components: { rTask: Number(r.rTask), rEff: Number(r.rEff), rHall: Number(r.rHall) },
    })),
  );
  return group ?? null;
}

export interface RolloutLog extends CauseRollout {
  infraError: AttributionInput['infraError'];
}

/** Event logs (only the given kinds, when given), breakdowns and infrastructure failures of these episodes, in the order asked. */
export async function rolloutLogs(db: SqlDb, ids: readonly string[], kinds?: readonly string[]): Promise<RolloutLog[]> {
  const logs = new Map<string, RolloutLog>();
  for (let at = 0; at < ids.length; at += 500) {
    const part = ids.slice(at, at + 500);
    const marks = part.map(() => '?').join(',');
    const rows = await db.all<{ id: string; breakdown: string | null; infraError: string | null }>(
      `SELECT "id", "breakdown", "infraError" FROM "Episode" WHERE "id" IN (${marks})`,
      part,
    );
    for (const r of rows)
      logs.set(r.id, {
        id: r.id,
        events: [],
        breakdown: r.breakdown ? (JSON.parse(r.breakdown) as RewardBreakdown) : null,
        infraError: r.infraError ? JSON.parse(r.infraError) : null,
      });
    const events = await db.all<{ episodeId: string; payload: string }>(
      `SELECT "episodeId", "payload" FROM "EpisodeEvent" WHERE "episodeId" IN (${marks})` +
        (kinds ? ` AND "kind" IN (${kinds.map(() => '?').join(',')})` : '') +
        ' ORDER BY "episodeId", "seq"',
      [...part, ...(kinds ?? [])],
    );
    for (const e of events) (logs.get(e.episodeId)?.events as EpisodeEvent[]).push(JSON.parse(e.payload));
  }
  return ids.flatMap((id) => logs.get(id) ?? []);
}
