// What the run view shows of a run's groups (issue 30): reward, pass rate and effective prompt
// ratio per train step and per env × d, zero-variance groups by kind, the worst groups, reward
// histograms; and two runs (or two train steps) over the same prompts. Pure: groups.ts's groups in.
import type { GroupSelector } from '@/server/episodes/run-rollouts';
import { effectivePromptRatios, type Group, type ZeroVarianceKind } from './groups';

export interface Figures {
  rollouts: number;
  groups: number;
  meanReward: number;
  passRate: number;
  /** groups whose rewards are not all equal / groups */
  effectiveRatio: number;
}

export interface GroupRow {
  key: string;
  /** the group in a URL (groupSlug) */
  slug: string;
  trainStep: number | null;
  env: string;
  d: number;
  seed: number;
  size: number;
  mean: number;
  std: number;
  passed: number;
  kind: ZeroVarianceKind | null;
}

/** Reward histogram bins: [-1, 1] in steps of 0.1 (a reward of exactly 1 falls in the last). */
export const HIST_BINS = 20;
const binOf = (reward: number) => Math.min(HIST_BINS - 1, Math.max(0, Math.floor((reward + 1) * 10)));

export interface RunSummary {
  total: Figures;
  /** per train step (null: not training), ascending */
  steps: Array<Figures & { trainStep: number | null }>;
  /** per env × d over every step */
  cells: Array<Figures & { env: string; d: number }>;
  /** per env × d × train step */
  ratios: ReturnType<typeof effectivePromptRatios>;
  zeroVariance: Record<ZeroVarianceKind, number>;
  /** the worst groups first: no learning signal and failing, then no signal, then lowest mean */
  worst: GroupRow[];
  /** rollouts per reward bin, passed and failed apart, per env × d */
  histograms: Array<{ env: string; d: number; pass: number[]; fail: number[] }>;
}

function figures(groups: readonly Group[]): Figures {
  const rollouts = groups.flatMap((g) => g.rollouts);
  const n = rollouts.length;
  return {
    rollouts: n,
    groups: groups.length,
    meanReward: n ? rollouts.reduce((a, r) => a + r.reward, 0) / n : 0,
    passRate: n ? rollouts.filter((r) => r.isCorrect).length / n : 0,
    effectiveRatio: groups.length ? groups.filter((g) => !g.zeroVariance).length / groups.length : 0,
  };
}

function byKey<K, T>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const t of items) {
    const k = key(t);
    const list = m.get(k);
    if (list) list.push(t);
    else m.set(k, [t]);
  }
  return m;
}

const badness = (g: Group) => (!g.zeroVariance ? 2 : g.kind === 'all_pass' ? 1 : 0);

export const groupRow = (g: Group): GroupRow => ({
  key: g.key,
  slug: groupSlug({ ...g, group: g.rollouts[0].group }),
  trainStep: g.trainStep,
  env: g.env,
  d: g.d,
  seed: g.seed,
  size: g.rollouts.length,
  mean: g.mean,
  std: g.std,
  passed: g.rollouts.filter((r) => r.isCorrect).length,
  kind: g.kind,
});

export function summarizeRun(groups: readonly Group[], worstLimit = 100): RunSummary {
  const stepOrder = (s: number | null) => s ?? Number.MIN_SAFE_INTEGER;
  const steps = [...byKey(groups, (g) => g.trainStep)]
    .map(([trainStep, gs]) => ({ trainStep, ...figures(gs) }))
    .sort((a, b) => stepOrder(a.trainStep) - stepOrder(b.trainStep));
  const cellGroups = [...byKey(groups, (g) => `${g.env}|${g.d}`).values()].sort(
    (a, b) => a[0].env.localeCompare(b[0].env) || a[0].d - b[0].d,
  );
  const zeroVariance = { all_pass: 0, all_fail_same_way: 0, same_termination: 0, other: 0 };
  for (const g of groups) if (g.kind) zeroVariance[g.kind]++;
  const worst = [...groups]
    .sort((a, b) => badness(a) - badness(b) || a.mean - b.mean || a.key.localeCompare(b.key))
    .slice(0, worstLimit)
    .map(groupRow);
  const histograms = cellGroups.map((gs) => {
    const pass = new Array<number>(HIST_BINS).fill(0);
    const fail = new Array<number>(HIST_BINS).fill(0);
    for (const r of gs.flatMap((g) => g.rollouts)) (r.isCorrect ? pass : fail)[binOf(r.reward)]++;
    return { env: gs[0].env, d: gs[0].d, pass, fail };
  });
  return {
    total: figures(groups),
    steps,
    cells: cellGroups.map((gs) => ({ env: gs[0].env, d: gs[0].d, ...figures(gs) })),
    ratios: effectivePromptRatios(groups),
    zeroVariance,
    worst,
    histograms,
  };
}

/** One prompt in two runs (or two train steps): its group in each. */
export interface PromptChange {
  env: string;
  d: number;
  seed: number;
  a: GroupRow;
  b: GroupRow;
}

export interface RunVersus {
  /** prompts found in both */
  matched: number;
  /** zero variance in A, a learning signal in B */
  gainedVariance: PromptChange[];
  lostVariance: PromptChange[];
  /** most rollouts failed in A and most passed in B */
  nowPass: PromptChange[];
  nowFail: PromptChange[];
}

/** A task passes when more than half its rollouts pass (with one rollout: when it passes). */
const passes = (g: GroupRow) => g.passed * 2 > g.size;

/**
 * Groups of two runs matched by prompt (env, d, seed). A run with several train steps counts its
 * latest group of each prompt unless `step` picks one (two checkpoints: the same run twice).
 */
export function compareGroups(
  a: readonly Group[],
  b: readonly Group[],
  steps: { a?: number; b?: number } = {},
): RunVersus {
  const latest = (gs: readonly Group[], step: number | undefined) => {
    const m = new Map<string, Group>();
    for (const g of gs) {
      if (step !== undefined && g.trainStep !== step) continue;
      const k = `${g.env}|${g.d}|${g.seed}`;
      const had = m.get(k);
      if (!had || (g.trainStep ?? -1) >= (had.trainStep ?? -1)) m.set(k, g);
    }
    return m;
  };
  const inB = latest(b, steps.b);
  const out: RunVersus = { matched: 0, gainedVariance: [], lostVariance: [], nowPass: [], nowFail: [] };
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
export function groupSlug(g: Pick<Group, 'trainStep' | 'env' | 'd' | 'seed'> & { group?: string | null }): string {
  return g.group != null ? `g:${g.group}` : `p:${g.trainStep ?? '-'}:${g.env}:${g.d}:${g.seed}`;
}

export function parseGroupSlug(slug: string): GroupSelector {
  if (slug.startsWith('g:') && slug.length > 2) return { group: slug.slice(2) };
  const m = /^p:(-|\d+):([A-Z_]+):(\d+):(\d+)$/.exec(slug);
  if (!m) throw new Error(`"${slug}" is not a group (g:<name> or p:<step>:<env>:<d>:<seed>)`);
  return { group: null, trainStep: m[1] === '-' ? null : Number(m[1]), env: m[2], d: Number(m[3]), seed: Number(m[4]) };
}
