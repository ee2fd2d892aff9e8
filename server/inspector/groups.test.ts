import { describe, expect, it } from 'vitest';
import { emptyAgent } from '../engine/agents/empty';
import { createRandomAgent } from '../engine/agents/random';
import { playEpisode } from '../engine/play';
import { testCatalog } from '../engine/testing';
import { ENV_IDS, type EnvId } from '../engine/types';
import { terminationOf } from './group-cause';
import { effectivePromptRatios, formGroups, groupKey, type GroupRolloutInput } from './groups';

let next = 0;
const rollout = (over: Partial<GroupRolloutInput> = {}): GroupRolloutInput => ({
  id: `r${++next}`,
  run: 'run-a',
  trainStep: 1,
  group: null,
  env: 'PD',
  d: 2,
  seed: 7,
  reward: 0,
  isCorrect: false,
  termination: 'answered',
  turns: 2,
  components: { rTask: 0, rEff: 0, rHall: 0 },
  ...over,
});

describe('formGroups', () => {
  it('computes advantages with the group mean and the population std (as GRPO)', () => {
    const [g] = formGroups([1, 0, 0.5, 0.5].map((reward) => rollout({ reward })));
    expect(g.mean).toBe(0.5);
    // population: sqrt((0.25 + 0.25 + 0 + 0) / 4); the sample std would be sqrt(0.5 / 3) ≈ 0.408
    expect(g.std).toBeCloseTo(Math.sqrt(0.125), 12);
    expect(g.rollouts.map((r) => r.advantage)).toEqual([0.5, -0.5, 0, 0]);
    const norm = g.rollouts.map((r) => r.normalizedAdvantage);
    expect(norm[0]).toBeCloseTo(Math.SQRT2, 12);
    expect(norm[1]).toBeCloseTo(-Math.SQRT2, 12);
    expect(norm.slice(2)).toEqual([0, 0]);
    expect(g.zeroVariance).toBe(false);
    expect(g.kind).toBeNull();
  });

  it('groups by (run, trainStep, env, d, seed) by default, keeping first-seen order', () => {
    const rs = [
      rollout({ seed: 1 }),
      rollout({ seed: 2 }),
      rollout({ seed: 1 }),
      rollout({ seed: 1, trainStep: 2 }),
      rollout({ seed: 1, run: 'run-b' }),
      rollout({ seed: 1, d: 3 }),
      rollout({ seed: 1, env: 'SUB' }),
    ];
    const groups = formGroups(rs);
    expect(groups.map((g) => g.rollouts.map((r) => r.id))).toEqual([
      [rs[0].id, rs[2].id],
      [rs[1].id],
      [rs[3].id],
      [rs[4].id],
      [rs[5].id],
      [rs[6].id],
    ]);
  });

  it('uses an explicit group name within the run, and refuses a group that mixes prompts', () => {
    const a = rollout({ group: 'g1', seed: 3 });
    const b = rollout({ group: 'g1', seed: 3, trainStep: 1 });
    const c = rollout({ group: 'g1', seed: 3, run: 'run-b' });
    expect(groupKey(a)).toBe(groupKey(b));
    expect(groupKey(a)).not.toBe(groupKey(c));
    expect(groupKey(a)).not.toBe(groupKey(rollout({ seed: 3 })));
    expect(formGroups([a, b, c]).map((g) => g.rollouts.length)).toEqual([2, 1]);
    expect(() => formGroups([a, rollout({ group: 'g1', seed: 4, id: 'odd' })])).toThrow(
      /group "g1" of run "run-a" mixes prompts: .* is PD d=2 seed=3 step=1, rollout odd is PD d=2 seed=4/,
    );
  });

  it('refuses a reward that is not a finite number', () => {
    expect(() => formGroups([rollout({ reward: Number.NaN, id: 'bad' })])).toThrow(/rollout bad: reward NaN/);
  });

  it('names the kind of a zero-variance group', () => {
    const kindOf = (rs: GroupRolloutInput[]) => formGroups(rs)[0].kind;
    expect(kindOf([rollout({ reward: 1, isCorrect: true }), rollout({ reward: 1, isCorrect: true })])).toBe('all_pass');
    const failing = { reward: -1, termination: 'tool_invalid' };
    expect(kindOf([rollout(failing), rollout(failing)])).toBe('all_fail_same_way');
    // the same termination and reward, but one passed: not "all fail"
    expect(kindOf([rollout({ reward: 0.5, isCorrect: true }), rollout({ reward: 0.5 })])).toBe('same_termination');
    expect(kindOf([rollout({ reward: -1, termination: 'turn_budget' }), rollout(failing)])).toBe('other');
    // equal within the tolerance: float sums of the same components
    const g = formGroups([rollout({ reward: 0.1 + 0.2 }), rollout({ reward: 0.3 })])[0];
    expect(g.zeroVariance).toBe(true);
    expect(g.rollouts.map((r) => r.normalizedAdvantage)).toEqual([0, 0]);
  });
});

describe('effectivePromptRatios', () => {
  it('counts groups whose rewards differ per env × d × trainStep, and zero-variance groups by kind', () => {
    const groups = formGroups([
      // PD d2 step 1: seed 1 differs, seed 2 all pass, seed 3 differs → 2 of 3
      rollout({ seed: 1, reward: 1 }),
      rollout({ seed: 1, reward: 0 }),
      rollout({ seed: 2, reward: 1, isCorrect: true }),
      rollout({ seed: 2, reward: 1, isCorrect: true }),
      rollout({ seed: 3, reward: 0.2 }),
      rollout({ seed: 3, reward: 0.4 }),
      // PD d2 step 2: one group, every rollout failing with the same termination
      rollout({ seed: 1, trainStep: 2, reward: -1, termination: 'turn_budget' }),
      rollout({ seed: 1, trainStep: 2, reward: -1, termination: 'turn_budget' }),
      // CART d0, no step (a batch run): one differing group
      rollout({ env: 'CART', d: 0, trainStep: null, reward: 1 }),
      rollout({ env: 'CART', d: 0, trainStep: null, reward: 0.5 }),
    ]);
    const zero = { all_pass: 0, all_fail_same_way: 0, same_termination: 0, other: 0 };
    expect(effectivePromptRatios(groups)).toEqual([
      { env: 'CART', d: 0, trainStep: null, groups: 1, effective: 1, ratio: 1, zeroVariance: zero },
      { env: 'PD', d: 2, trainStep: 1, groups: 3, effective: 2, ratio: 2 / 3, zeroVariance: { ...zero, all_pass: 1 } },
      {
        env: 'PD',
        d: 2,
        trainStep: 2,
        groups: 1,
        effective: 0,
        ratio: 0,
        zeroVariance: { ...zero, all_fail_same_way: 1 },
      },
    ]);
  });
});

describe('groups of real engine episodes', () => {
  const catalog = testCatalog();
  const play = (
    env: EnvId,
    seed: number,
    agent: Parameters<typeof playEpisode>[2],
    step: number,
  ): GroupRolloutInput => {
    const { episode } = playEpisode({ envId: env, d: 1, seed }, catalog, agent);
    const b = episode.events.findLast((e) => e.kind === 'reward');
    if (b?.kind !== 'reward') throw new Error('episode not scored');
    const { breakdown } = b;
    return {
      id: `${env}-${seed}-${step}-${++next}`,
      run: 'real',
      trainStep: step,
      group: null,
      env,
      d: 1,
      seed,
      reward: breakdown.total,
      isCorrect: breakdown.isCorrect,
      termination: terminationOf(episode.events),
      turns: breakdown.turns,
      components: { rTask: breakdown.rTask, rEff: breakdown.rEff, rHall: breakdown.rHall },
    };
  };

  it('an agent that always answers the same way gives a zero-variance group that fails the same way', () => {
    const [g] = formGroups([1, 2, 3, 4].map(() => play('PD', 11, emptyAgent, 1)));
    expect(g.rollouts).toHaveLength(4);
    expect(g.zeroVariance).toBe(true);
    expect(g.kind).toBe('all_fail_same_way');
    expect(g.rollouts.every((r) => r.advantage === 0 && r.normalizedAdvantage === 0)).toBe(true);
  });

  it('sampled agents give groups whose advantages sum to 0 and whose normalised advantages have variance 1', () => {
    const rs = [1, 2, 3, 4].map((agentSeed) => play('PD', 5, createRandomAgent({ seed: agentSeed }), 1));
    const [g] = formGroups(rs);
    expect(new Set(rs.map((r) => r.reward)).size).toBeGreaterThan(1);
    expect(g.zeroVariance).toBe(false);
    const adv = g.rollouts.map((r) => r.advantage);
    expect(adv.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 12);
    const norm = g.rollouts.map((r) => r.normalizedAdvantage);
    expect(norm.reduce((a, b) => a + b * b, 0) / norm.length).toBeCloseTo(1, 12);
    expect(effectivePromptRatios([g])[0]).toMatchObject({ groups: 1, effective: 1, ratio: 1 });
  });

  it('a GRPO-style run over the 8 envs (G = 4, two steps) agrees with a direct count of groups whose rewards differ', () => {
    // step 1: sampled agents; step 2: an agent that always does the same thing (no variance anywhere)
    const agentFor = (step: number, g: number) =>
      step === 1 ? createRandomAgent({ seed: g, pInvalid: 0.3 }) : emptyAgent;
    const rs = ENV_IDS.flatMap((env) =>
      [1, 2].flatMap((step) => [1, 2, 3, 4].map((g) => play(env, 20 + step, agentFor(step, g), step))),
    );
    const cells = effectivePromptRatios(formGroups(rs));
    expect(cells).toHaveLength(16);
    for (const cell of cells) {
      const rewards = rs.filter((r) => r.env === cell.env && r.trainStep === cell.trainStep).map((r) => r.reward);
      expect(rewards).toHaveLength(4);
      expect(cell.effective).toBe(new Set(rewards).size > 1 ? 1 : 0);
    }
    expect(cells.filter((c) => c.trainStep === 2).every((c) => c.effective === 0)).toBe(true);
    expect(cells.filter((c) => c.trainStep === 1).some((c) => c.effective === 1)).toBe(true);
  });
});
