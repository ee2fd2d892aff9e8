// What the run view shows of a run's groups (issue 30): reward, pass rate and effective prompt
// ratio per train step and per env × d, zero-variance groups by kind, the worst groups, reward
// histograms; and two runs (or two train steps) over the same prompts. Pure: groups.ts's groups in.
import type { GroupSelector } from '@/server/episodes/run-rollouts';
import { AppError } from '@/server/lib/errors';
import { effectivePromptRatios, type GroupStats } from './groups';

export type GroupRow = ReturnType<typeof groupRow>;

/** Reward histogram bins: [-1, 1] in steps of 0.1, bin floor((reward + 1) × 10) (a reward of exactly 1 falls in the last). */
export const HIST_BINS = 20;

export type RunSummary = ReturnType<typeof summarizeRun>;

/** Sums over groups, turned into figures at the end. */
class Tally {
  rollouts = 0;
  groups = 0;
  rewardSum = 0;
  passed = 0;
  effective = 0;
  add(g: GroupStats) {
    this.groups++;
    this.rollouts += g.size;
    this.passed += g.passed;
    if (!g.zeroVariance) this.effective++;
    this.rewardSum += g.rewardSum;
  }
  figures() {
    const n = this.rollouts;
    return {
      rollouts: n,
      groups: this.groups,
      meanReward: n ? this.rewardSum / n : 0,
      passRate: n ? this.passed / n : 0,
      /** groups whose rewards are not all equal / groups */
      effectiveRatio: this.groups ? this.effective / this.groups : 0,
    };
  }
}

/** Rollouts per reward bin (binOf), passed and failed apart, per env × d: the histograms' input. */
export interface RewardBinCount {
  env: string;
  d: number;
  bin: number;
  passed: boolean;
  rollouts: number;
}

const badness = (g: GroupStats) => (!g.zeroVariance ? 2 : g.kind === 'all_pass' ? 1 : 0);

export const groupRow = (g: GroupStats) => ({
  key: g.key,
  /** the group in a URL (groupSlug) */
  slug: groupSlug(g),
  trainStep: g.trainStep,
  env: g.env,
  d: g.d,
  seed: g.seed,
  size: g.size,
  mean: g.mean,
  std: g.std,
  passed: g.passed,
  kind: g.kind,
});

/**
 * One pass over the groups: figures per train step (null: not training, first) and per env × d,
 * effective prompt ratios per env × d × step, zero variance by kind, the worst groups (no learning
 * signal and failing, then no signal, then lowest mean); the bins make the histograms per env × d.
 */
export function summarizeRun(groups: readonly GroupStats[], bins: readonly RewardBinCount[], worstLimit = 100) {
  const total = new Tally();
  const steps = new Map<number | null, Tally>();
  const cells = new Map<string, { env: string; d: number; tally: Tally; pass: number[]; fail: number[] }>();
  const cellOf = (env: string, d: number) => {
    const k = `${env}|${d}`;
    let cell = cells.get(k);
    if (!cell) {
      const zeros = () => new Array<number>(HIST_BINS).fill(0);
      cells.set(k, (cell = { env, d, tally: new Tally(), pass: zeros(), fail: zeros() }));
    }
    return cell;
  };
  const zeroVariance = { all_pass: 0, all_fail_same_way: 0, same_termination: 0, other: 0 };
  for (const g of groups) {
    total.add(g);
    let step = steps.get(g.trainStep);
    if (!step) steps.set(g.trainStep, (step = new Tally()));
    step.add(g);
    cellOf(g.env, g.d).tally.add(g);
    if (g.kind) zeroVariance[g.kind]++;
  }
  for (const b of bins) {
    const cell = cellOf(b.env, b.d);
    (b.passed ? cell.pass : cell.fail)[Math.min(HIST_BINS - 1, Math.max(0, b.bin))] += b.rollouts;
  }
  const stepOrder = (s: number | null) => s ?? Number.MIN_SAFE_INTEGER;
  const byCell = [...cells.values()].sort((a, b) => a.env.localeCompare(b.env) || a.d - b.d);
  // only the groups of the worst kinds that can fill the list are sorted
  let shown = groups.filter((g) => badness(g) === 0);
  if (shown.length < worstLimit) shown = groups.filter((g) => badness(g) <= 1);
  if (shown.length < worstLimit) shown = [...groups];
  const worst = shown
    .sort((a, b) => badness(a) - badness(b) || a.mean - b.mean || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, worstLimit)
    .map(groupRow);
  return {
    total: total.figures(),
    steps: [...steps]
      .map(([trainStep, t]) => ({ trainStep, ...t.figures() }))
      .sort((a, b) => stepOrder(a.trainStep) - stepOrder(b.trainStep)),
    cells: byCell.map((c) => ({ env: c.env, d: c.d, ...c.tally.figures() })),
    ratios: effectivePromptRatios(groups),
    zeroVariance,
    worst,
    histograms: byCell.map(({ env, d, pass, fail }) => ({ env, d, pass, fail })),
  };
}

/** One prompt in two runs (or two train steps): its group in each. */
export type PromptChange = { env: string; d: number; seed: number; a: GroupRow; b: GroupRow };
export type RunVersus = ReturnType<typeof compareGroups>;

/** A task passes when more than half its rollouts pass (with one rollout: when it passes). */
const passes = (g: GroupRow) => g.passed * 2 > g.size;

/**
 * Groups of two runs matched by prompt (env, d, seed). A run with several train steps counts its
 * latest group of each prompt unless `step` picks one (two checkpoints: the same run twice).
 */
export function compareGroups(
  a: readonly GroupStats[],
  b: readonly GroupStats[],
  steps: { a?: number; b?: number } = {},
) {
  const latest = (gs: readonly GroupStats[], step: number | undefined) => {
    const m = new Map<string, GroupStats>();
    for (const g of gs) {
      if (step !== undefined && g.trainStep !== step) continue;
      const k = `${g.env}|${g.d}|${g.seed}`;
      const had = m.get(k);
      if (!had || (g.trainStep ?? -1) >= (had.trainStep ?? -1)) m.set(k, g);
    }
    return m;
  };
  const inB = latest(b, steps.b);
  // gained: zero variance in A, a learning signal in B; now pass: most rollouts failed in A, most pass in B
  const out = {
    matched: 0,
    gainedVariance: [] as PromptChange[],
    lostVariance: [] as PromptChange[],
    nowPass: [] as PromptChange[],
    nowFail: [] as PromptChange[],
  };
  for (const [k, ga] of latest(a, steps.a)) {
    const gb = inB.get(k);
    if (!gb) continue;
    out.matched++;
    const change = { env: ga.env, d: ga.d, seed: ga.seed, a: groupRow(ga), b: groupRow(gb) };
    if (ga.zeroVariance && !gb.zeroVariance) out.gainedVariance.push(change);
    if (!ga.zeroVariance && gb.zeroVariance) out.lostVariance.push(change);
    if (!passes(change.a) && passes(change.b)) out.nowPass.push(change);
    if (passes(change.a) && !passes(change.b)) out.nowFail.push(change);
  }
  return out;
}

/** A group in a URL: `g:<name>` for an explicit group, `p:<step or ->:<env>:<d>:<seed>` for a prompt. */
export function groupSlug(g: Pick<GroupStats, 'trainStep' | 'env' | 'd' | 'seed' | 'group'>): string {
  return g.group != null ? `g:${g.group}` : `p:${g.trainStep ?? '-'}:${g.env}:${g.d}:${g.seed}`;
}

export function parseGroupSlug(slug: string): GroupSelector {
  if (slug.startsWith('g:') && slug.length > 2) return { group: slug.slice(2) };
  const m = /^p:(-|\d+):([A-Z_]+):(\d+):(\d+)$/.exec(slug);
  if (!m) throw new AppError('BAD_INPUT', `"${slug}" is not a group (g:<name> or p:<step>:<env>:<d>:<seed>)`);
  return { group: null, trainStep: m[1] === '-' ? null : Number(m[1]), env: m[2], d: Number(m[3]), seed: Number(m[4]) };
}
