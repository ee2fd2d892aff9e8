// GRPO groups of training rollouts (issue 30): which rollouts form a group, each rollout's
// advantage, whether the group carries any learning signal, and the effective prompt ratio.
// Pure: the caller reads the rollouts from the store.

/** What one rollout contributes to its group's statistics. */
export interface GroupRolloutInput {
  id: string;
  run: string;
  /** The trainer's step; null outside training (a batch run). */
  trainStep: number | null;
  /** An explicit group name from the trainer; null groups by prompt (see groupKey). */
  group: string | null;
  env: string;
  d: number;
  seed: number;
  reward: number;
  isCorrect: boolean;
  /** How the episode ended (the engine's TerminationReason); null when it did not end. */
  termination: string | null;
  turns: number;
  /** The reward parts; left out where only groups are summarised (reading them costs the whole row). */
  components?: { rTask: number; rEff: number; rHall: number };
  /**
   * How the rollout failed, e.g. its first failing evidence line (group-cause.ts's failureSignature);
   * absent when not known. Two failed rollouts fail "the same way" when termination and this agree.
   */
  failure?: string | null;
}

export interface GroupRollout extends GroupRolloutInput {
  /** reward − group mean */
  advantage: number;
  /** (reward − mean) / std with the population std (as GRPO); 0 in a zero-variance group. */
  normalizedAdvantage: number;
}

/** Why a zero-variance group's rewards are all equal, most specific first. */
export type ZeroVarianceKind = 'all_pass' | 'all_fail_same_way' | 'same_termination' | 'other';

export interface Group {
  key: string;
  run: string;
  trainStep: number | null;
  env: string;
  d: number;
  seed: number;
  rollouts: GroupRollout[];
  mean: number;
  /** Population standard deviation of the rewards (divides by G, not G − 1). */
  std: number;
  /** All rewards equal (within REWARD_TOLERANCE): the group gives the policy no gradient. */
  zeroVariance: boolean;
  /** Set only on a zero-variance group. */
  kind: ZeroVarianceKind | null;
}

/** Rewards closer than this count as equal (they are sums of floats, not exact decimals). */
export const REWARD_TOLERANCE = 1e-9;

/** Explicit groups are (run, group); otherwise (run, trainStep, env, d, seed), the same prompt in one step. */
export function groupKey(r: GroupRolloutInput): string {
  return r.group !== null
    ? JSON.stringify(['group', r.run, r.group])
    : JSON.stringify(['prompt', r.run, r.trainStep, r.env, r.d, r.seed]);
}

/** The rollouts grouped, in order of each group's first rollout; rollouts keep their input order. */
export function formGroups(rollouts: readonly GroupRolloutInput[]): Group[] {
  const byKey = new Map<string, GroupRolloutInput[]>();
  for (const r of rollouts) {
    if (!Number.isFinite(r.reward)) throw new Error(`rollout ${r.id}: reward ${r.reward} is not a finite number`);
    const key = groupKey(r);
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  return [...byKey.entries()].map(([key, members]) => summarizeGroup(key, members));
}

function summarizeGroup(key: string, members: GroupRolloutInput[]): Group {
  const first = members[0];
  // A group is one prompt: an explicit group that mixes prompts or steps is a trainer bug, said plainly.
  for (const r of members)
    if (r.trainStep !== first.trainStep || r.env !== first.env || r.d !== first.d || r.seed !== first.seed)
      throw new Error(
        `group "${first.group}" of run "${first.run}" mixes prompts: rollout ${first.id} is ` +
          `${promptText(first)}, rollout ${r.id} is ${promptText(r)}`,
      );
  const rewards = members.map((r) => r.reward);
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / rewards.length);
  const zeroVariance = Math.max(...rewards) - Math.min(...rewards) <= REWARD_TOLERANCE;
  return {
    key,
    run: first.run,
    trainStep: first.trainStep,
    env: first.env,
    d: first.d,
    seed: first.seed,
    rollouts: members.map((r) => ({
      ...r,
      advantage: r.reward - mean,
      normalizedAdvantage: zeroVariance ? 0 : (r.reward - mean) / std,
    })),
    mean,
    std,
    zeroVariance,
    kind: zeroVariance ? zeroVarianceKind(members) : null,
  };
}

const promptText = (r: GroupRolloutInput) => `${r.env} d=${r.d} seed=${r.seed} step=${r.trainStep ?? '–'}`;

const allSame = <T>(values: readonly T[]) => values.every((v) => v === values[0]);

/** Only meaningful for a group whose rewards are all equal. */
export function zeroVarianceKind(members: readonly GroupRolloutInput[]): ZeroVarianceKind {
  if (members.every((r) => r.isCorrect)) return 'all_pass';
  const sameTermination = allSame(members.map((r) => r.termination));
  if (
    members.every((r) => !r.isCorrect) &&
    sameTermination &&
    members.every((r) => r.failure != null) &&
    allSame(members.map((r) => r.failure))
  )
    return 'all_fail_same_way';
  return sameTermination ? 'same_termination' : 'other';
}

/** One cell of the env × d × trainStep table. */
export interface EffectivePromptCell {
  env: string;
  d: number;
  trainStep: number | null;
  groups: number;
  /** Groups whose rewards are not all equal. */
  effective: number;
  /** effective / groups: the share of prompts the policy learns from (RLVE's effective prompt ratio). */
  ratio: number;
  /** Zero-variance groups by kind. */
  zeroVariance: Record<ZeroVarianceKind, number>;
}

/** The effective prompt ratio per env × d × trainStep, sorted by env, d, then step (null first). */
export function effectivePromptRatios(groups: readonly Group[]): EffectivePromptCell[] {
  const cells = new Map<string, EffectivePromptCell>();
  for (const g of groups) {
    const key = JSON.stringify([g.env, g.d, g.trainStep]);
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        env: g.env,
        d: g.d,
        trainStep: g.trainStep,
        groups: 0,
        effective: 0,
        ratio: 0,
        zeroVariance: { all_pass: 0, all_fail_same_way: 0, same_termination: 0, other: 0 },
      };
      cells.set(key, cell);
    }
    cell.groups++;
    if (g.kind) cell.zeroVariance[g.kind]++;
    else cell.effective++;
  }
  for (const cell of cells.values()) cell.ratio = cell.effective / cell.groups;
  const step = (c: EffectivePromptCell) => c.trainStep ?? Number.MIN_SAFE_INTEGER;
  return [...cells.values()].sort((a, b) => a.env.localeCompare(b.env) || a.d - b.d || step(a) - step(b));
}
