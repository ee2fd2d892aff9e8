// The axis-teeth report (SPEC §6 rev 3, issue 27): each axis raised alone from its d = 3 value to
// its d = 12 value (the other axes and the env knobs at d = 3), and knocked out the other way (at
// d = 12, that axis back at its d = 3 value). An axis has teeth in an env when moving it in its
// harder direction lowers the heuristic's pass rate or mean reward beyond 2 standard errors.
// The harder direction is towards the d = 12 value, except for the budgets (T_max, B_tool), which
// grow with d: a budget has teeth when it binds, i.e. its d = 3 value lowers them.
// An override changes every random stream of an episode, so arms are unpaired; each row has its
// own base arms (the axis overridden to its own formula value: the same episode rules, fresh
// streams), so one unlucky shared base cannot lend or take teeth from every row at once.

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
  only?: ReadonlySet<string>,
): TeethRow[] {
  const low = axesFor(LOW_D);
  const high = axesFor(HIGH_D);
  const rows: TeethRow[] = [];
  for (const axis of AXES) {
    if (low[axis.name] === high[axis.name] || (only && !only.has(axis.name))) continue;
    const base3 = playArm(envId, LOW_D, { [axis.name]: low[axis.name] }, seeds, catalog, agent);
    const base12 = playArm(envId, HIGH_D, { [axis.name]: high[axis.name] }, seeds, catalog, agent);
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

/** Axes that are budgets: they grow with d, so their harder direction is down. */
export const BUDGET_AXES: ReadonlySet<AxisName> = new Set(['T_max', 'B_tool']);

/** Beyond 2 standard errors in the harder direction (a change lowering pass or reward, or raising them for a budget). */
export const bites = (c: Change, axis?: AxisName) => {
  const harder = axis && BUDGET_AXES.has(axis) ? c.delta : -c.delta;
  return harder > 0 && harder > 2 * c.se;
};

export const rowBites = (r: TeethRow) =>
  bites(r.raisedPass, r.axis) ||
  bites(r.raisedReward, r.axis) ||
  bites(r.knockedPass, r.axis) ||
  bites(r.knockedReward, r.axis);

/** The verdicts: axes without teeth in any env, envs responding to fewer than two axes. */
export function teethVerdict(rows: readonly TeethRow[]) {
  const axes = [...new Set(rows.map((r) => r.axis))];
  const envs = [...new Set(rows.map((r) => r.env))];
  const toothless = axes.filter((a) => !rows.some((r) => r.axis === a && rowBites(r)));
  const deaf = envs.filter((e) => rows.filter((r) => r.env === e && rowBites(r)).length < 2);
  return { toothless, deaf };
}
