// GRPO groups of training rollouts (issue 30): which rollouts form a group, each rollout's
// advantage, whether the group carries any learning signal, and the effective prompt ratio.
// Pure: the caller reads the rollouts from the store.

/** A rollout as the group view shows it. */
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
}

type Prompt = Pick<GroupRolloutInput, 'run' | 'group' | 'trainStep' | 'env' | 'd' | 'seed'>;

interface GroupRollout extends GroupRolloutInput {
  /** reward − group mean */
  advantage: number;
  /** (reward − mean) / std with the population std (as GRPO); 0 in a zero-variance group. */
  normalizedAdvantage: number;
}

/** Why a zero-variance group's rewards are all equal, most specific first. */
export type ZeroVarianceKind = 'all_pass' | 'all_fail_same_way' | 'same_termination' | 'other';

/** A group's figures: what the run view reads of it (server/episodes/run-rollouts.ts sums them in SQL). */
export interface GroupStats extends Prompt {
  key: string;
  size: number;
  rewardSum: number;
  mean: number;
  /** Population standard deviation of the rewards (divides by G, not G − 1). */
  std: number;
  /** rollouts that passed */
  passed: number;
  /** All rewards equal (within REWARD_TOLERANCE): the group gives the policy no gradient. */
  zeroVariance: boolean;
  /** Set only on a zero-variance group. */
  kind: ZeroVarianceKind | null;
}

export interface Group extends GroupStats {
  rollouts: GroupRollout[];
}

/** Rewards closer than this count as equal (they are sums of floats, not exact decimals). */
export const REWARD_TOLERANCE = 1e-9;

/** Explicit groups are (run, group); otherwise (run, trainStep, env, d, seed), the same prompt in one step. */
export function groupKey(r: Prompt): string {
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
  return Array.from(byKey.values(), (members) => {
    const first = members[0];
    // A group is one prompt: an explicit group that mixes prompts or steps is a trainer bug, said plainly.
    const odd = members.find((r) => promptText(r) !== promptText(first));
    if (odd) throw mixedPrompts(first, odd, `rollout ${first.id}`, `rollout ${odd.id}`);
    const rewards = members.map((r) => r.reward);
    const rewardSum = rewards.reduce((a, b) => a + b, 0);
    const mean = rewardSum / rewards.length;
    const stats = groupStats(first, {
      size: members.length,
      rewardSum,
      variance: rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / rewards.length,
      spread: Math.max(...rewards) - Math.min(...rewards),
      passed: members.filter((r) => r.isCorrect).length,
      sameTermination: members.every((r) => r.termination === first.termination),
    });
    return {
      ...stats,
      rollouts: members.map((r) => ({
        ...r,
        advantage: r.reward - mean,
        normalizedAdvantage: stats.zeroVariance ? 0 : (r.reward - mean) / stats.std,
      })),
    };
  });
}

export const mixedPrompts = (a: Prompt, b: Prompt, nameA = 'a rollout', nameB = 'another') =>
  new Error(
    `group "${a.group}" of run "${a.run}" mixes prompts: ${nameA} is ${promptText(a)}, ${nameB} is ${promptText(b)}`,
  );

/** What a group's figures come from, summed over its rollouts (in JS or in SQL). */
export interface GroupSums {
  size: number;
  rewardSum: number;
  /** population variance of the rewards */
  variance: number;
  /** highest reward − lowest */
  spread: number;
  passed: number;
  /** every rollout ended the same way (or none ended) */
  sameTermination: boolean;
}

/** A group's figures from its sums: the one place zero variance and its kind are decided. */
export function groupStats(prompt: Prompt, s: GroupSums): GroupStats {
  const zeroVariance = s.spread <= REWARD_TOLERANCE;
  return {
    key: groupKey(prompt),
    run: prompt.run,
    trainStep: prompt.trainStep,
    group: prompt.group,
    env: prompt.env,
    d: prompt.d,
    seed: prompt.seed,
    size: s.size,
    rewardSum: s.rewardSum,
    mean: s.rewardSum / s.size,
    std: zeroVariance ? 0 : Math.sqrt(Math.max(0, s.variance)),
    passed: s.passed,
    zeroVariance,
    kind: zeroVariance ? zeroVarianceKind(s) : null,
  };
}

const promptText = (r: Prompt) => `${r.env} d=${r.d} seed=${r.seed} step=${r.trainStep ?? '–'}`;

/**
 * Only meaningful for a group whose rewards are all equal. Judged from the stored columns alone
 * (a run view of 100,000 rollouts reads no event log): "the same way" is one termination and,
 * the group being flat, one reward; the group view names the shared cause (groupCause).
 */
function zeroVarianceKind(s: GroupSums): ZeroVarianceKind {
  if (s.passed === s.size) return 'all_pass';
  if (!s.sameTermination) return 'other';
  return s.passed === 0 ? 'all_fail_same_way' : 'same_termination';
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
export function effectivePromptRatios(groups: readonly GroupStats[]): EffectivePromptCell[] {
  const cells = new Map<string, EffectivePromptCell>();
  for (const g of groups) {
    const key = `${g.env}|${g.d}|${g.trainStep}`;
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
