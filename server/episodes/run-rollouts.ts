// A training run's rollouts as server/inspector/groups.ts takes them: one SELECT over the run's
// finished episodes (a rollout still playing has no reward and its seed is not yet the
// inspector's), and the event logs and breakdowns of a few rollouts (a group's causes).
import type { SqlDb } from '@/server/db/sql';
import { flag, sqlFor } from '@/server/db/dialect';
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { AttributionInput } from '@/server/inspector/attribution';
import { failureSignature, type CauseRollout } from '@/server/inspector/group-cause';
import { formGroups, zeroVarianceKind, type Group, type GroupRolloutInput } from '@/server/inspector/groups';
import { runCondition } from '@/server/inspector/run-keys';

/** One group of a run: its explicit name, or its prompt (trainStep, env, d, seed). */
export type GroupSelector =
  { group: string } | { group: null; trainStep: number | null; env: string; d: number; seed: number };

interface RolloutRow {
  id: string;
  envId: string;
  d: number;
  seed: number;
  trainStep: number | null;
  rolloutGroup: string | null;
  reward: number;
  isCorrect: number | boolean | null;
  terminationReason: string | null;
  turn: number;
  rTask?: number;
  rEff?: number;
  rHall?: number;
}

/** The run's groups of finished rollouts (one group, with reward parts, when `only` is given). */
export async function readRunGroups(db: SqlDb, run: string, only?: GroupSelector): Promise<Group[]> {
  const where = runCondition(run);
  const c = [where.sql, `e."status" = 'done'`, 'e."reward" IS NOT NULL'];
  const args: unknown[] = [...where.args];
  if (only?.group != null) {
    c.push('e."rolloutGroup" = ?');
    args.push(only.group);
  } else if (only) {
    c.push('e."rolloutGroup" IS NULL', 'e."envId" = ?', 'e."d" = ?', 'e."seed" = ?');
    c.push(only.trainStep === null ? 'e."trainStep" IS NULL' : 'e."trainStep" = ?');
    args.push(only.env, only.d, only.seed, ...(only.trainStep === null ? [] : [only.trainStep]));
  }
  // A whole run is read from Episode_run_rollouts_idx alone; the parts (in the breakdown) only for one group.
  const part = (k: string) => `${sqlFor(db.dialect).jsonNumber('e."breakdown"', k)} AS "${k}"`;
  const rows = await db.all<RolloutRow>(
    `SELECT e."id", e."envId", e."d", e."seed", e."trainStep", e."rolloutGroup", e."reward", e."isCorrect",
       e."terminationReason", e."turn"${only ? `, ${part('rTask')}, ${part('rEff')}, ${part('rHall')}` : ''}
     FROM "Episode" e WHERE ${c.join(' AND ')} ORDER BY e."createdAt", e."id"`,
    args,
  );
  const rollouts: GroupRolloutInput[] = rows.map((r) => ({
    id: r.id,
    run,
    trainStep: r.trainStep === null ? null : Number(r.trainStep),
    group: r.rolloutGroup,
    env: r.envId,
    d: Number(r.d),
    seed: Number(r.seed),
    reward: Number(r.reward),
    isCorrect: flag(r.isCorrect) === true,
    termination: r.terminationReason,
    turns: Number(r.turn),
    ...(only ? { components: { rTask: Number(r.rTask), rEff: Number(r.rEff), rHall: Number(r.rHall) } } : {}),
  }));
  // "All fail the same way" compares how each failed: only the logs of the groups that may be such are read.
  const groups = formGroups(rollouts);
  const candidates = groups.filter((g) => g.kind === 'same_termination' && g.rollouts.every((r) => !r.isCorrect));
  const logs = await rolloutLogs(
    db,
    candidates.flatMap((g) => g.rollouts.map((r) => r.id)),
    ['action_error'],
  );
  const failures = new Map(logs.map((l) => [l.id, failureSignature(l)]));
  for (const g of candidates) {
    for (const r of g.rollouts) r.failure = failures.get(r.id) ?? null;
    g.kind = zeroVarianceKind(g.rollouts);
  }
  return groups;
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
