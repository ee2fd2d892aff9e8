// The axis-teeth report (SPEC §6 rev 3, issue 27): each axis raised alone from its d = 3 value to
// its d = 12 value (the other axes and the env knobs at d = 3), and knocked out the other way (at
// d = 12, that axis back at its d = 3 value). An axis has teeth in an env when raising it lowers
// the heuristic's pass rate or mean reward beyond 2 standard errors, or knocking it out raises
// them so. Arms use independent seeds' streams (an override changes every stream), so the
// standard error is the unpaired one.

import type { Agent } from '../agents/types';
import type { Catalog } from '../catalog/types';
import { AXES, axesFor, type AxisName, type AxisValues } from '../difficulty';
import { playEpisode } from '../play';
import type { EnvId } from '../types';

export const LOW_D = 3;
export const HIGH_D = 12;

export interface ArmStats {
  n: number;
  pass: number;
  passVar: number;
  reward: number;
  rewardVar: number;
}

export interface Change {
  /** arm minus its base */
  delta: number;
  se: number;
}

export interface TeethRow {
  axis: AxisName;
  env: EnvId;
  /** raised alone at d = 3: arm − base(3) */
  raisedPass: Change;
  raisedReward: Change;
  /** knocked out at d = 12: base(12) − arm, so a positive value means the axis makes d = 12 harder */
  knockedPass: Change;
  knockedReward: Change;
}

/** Mean and sample variance of a list of numbers. */
export function meanVar(xs: readonly number[]): { mean: number; variance: number } {
  const n = xs.length;
  const mean = xs.reduce((s, x) => s + x, 0) / Math.max(1, n);
  const variance = n > 1 ? xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : 0;
  return { mean, variance };
}

/** The unpaired difference a − b of two arms' means, with its standard error. */
export function difference(
  a: { mean: number; variance: number; n: number },
  b: { mean: number; variance: number; n: number },
): Change {
  return { delta: a.mean - b.mean, se: Math.sqrt(a.variance / a.n + b.variance / b.n) };
}

export function playArm(
  envId: EnvId,
  d: number,
  overrides: Partial<AxisValues>,
  seeds: readonly number[],
  catalog: Catalog,
  agent: () => Agent,
): ArmStats {
  const passes: number[] = [];
  const rewards: number[] = [];
  const a = agent();
  for (const seed of seeds) {
    const b = playEpisode({ envId, d, seed, axisOverrides: overrides }, catalog, a).episode.breakdown!;
    passes.push(b.isCorrect ? 1 : 0);
    rewards.push(b.total);
  }
  const p = meanVar(passes);
  const r = meanVar(rewards);
  return { n: seeds.length, pass: p.mean, passVar: p.variance, reward: r.mean, rewardVar: r.variance };
}

const asPass = (s: ArmStats) => ({ mean: s.pass, variance: s.passVar, n: s.n });
const asReward = (s: ArmStats) => ({ mean: s.reward, variance: s.rewardVar, n: s.n });

/** The rows of one env: every axis whose d = 3 and d = 12 values differ. */
export function teethRows(
  envId: EnvId,
  seeds: readonly number[],
  catalog: Catalog,
  agent: () => Agent,
  onArm?: () => void,
): TeethRow[] {
  const low = axesFor(LOW_D);
  const high = axesFor(HIGH_D);
  const base3 = playArm(envId, LOW_D, {}, seeds, catalog, agent);
  const base12 = playArm(envId, HIGH_D, {}, seeds, catalog, agent);
  const rows: TeethRow[] = [];
  for (const axis of AXES) {
    if (low[axis.name] === high[axis.name]) continue;
    const raised = playArm(envId, LOW_D, { [axis.name]: high[axis.name] }, seeds, catalog, agent);
    onArm?.();
    const knocked = playArm(envId, HIGH_D, { [axis.name]: low[axis.name] }, seeds, catalog, agent);
    onArm?.();
    rows.push({
      axis: axis.name,
      env: envId,
      raisedPass: difference(asPass(raised), asPass(base3)),
      raisedReward: difference(asReward(raised), asReward(base3)),
      knockedPass: difference(asPass(base12), asPass(knocked)),
      knockedReward: difference(asReward(base12), asReward(knocked)),
    });
  }
  return rows;
}

/** Beyond 2 standard errors in the harder direction (a change lowering pass or reward). */
export const bites = (c: Change) => c.delta < 0 && -c.delta > 2 * c.se;

export const rowBites = (r: TeethRow) =>
  bites(r.raisedPass) || bites(r.raisedReward) || bites(r.knockedPass) || bites(r.knockedReward);

/** The verdicts: axes without teeth in any env, envs responding to fewer than two axes. */
export function teethVerdict(rows: readonly TeethRow[]) {
  const axes = [...new Set(rows.map((r) => r.axis))];
  const envs = [...new Set(rows.map((r) => r.env))];
  const toothless = axes.filter((a) => !rows.some((r) => r.axis === a && rowBites(r)));
  const deaf = envs.filter((e) => rows.filter((r) => r.env === e && rowBites(r)).length < 2);
  return { toothless, deaf };
}
