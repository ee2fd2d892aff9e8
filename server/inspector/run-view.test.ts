// The run view and group view (issue 30) over a GRPO-style run stored through the one writer:
// 3 envs × 2 d × 2 seeds × 2 train steps, G = 4 rollouts per prompt by four different agents,
// and one explicit group whose four rollouts all call a tool that does not exist. The figures
// the procedures answer are checked against plain arithmetic over the stored rows.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@/server/engine';
import { createHeuristicAgent, oracleAgent } from '@/server/engine';
import { createRandomAgent } from '@/server/engine/agents/random';
import { playEpisode } from '@/server/engine/play';
import { testCatalog } from '@/server/engine/testing';
import type { EnvId } from '@/server/engine/types';
import { useTestCaller } from '@/server/trpc/test/caller';
import { formGroups } from './groups';
import { compareGroups, summarizeRun } from './run-view';

const caller = useTestCaller();
const RUN = 'trainer:grpo-test';

/** Calls a tool that does not exist every turn: the episode ends on its turn budget. */
const unknownToolAgent: Agent = {
  name: 'unknown-tool',
  act: () => ({
    assistant_message: 'Let me look that up.',
    tool_calls: [{ name: 'catalog.find', args: { query: 'anything' } }],
    answer: null,
  }),
};

interface Stored {
  id: string;
  envId: string;
  d: number;
  seed: number;
  trainStep: number | null;
  rolloutGroup: string | null;
  reward: number;
  isCorrect: number;
}
let stored: Stored[] = [];
let infraId = '';

beforeAll(async () => {
  const { sqlDb } = await import('@/server/db/sql');
  const { episodeStatements, eventRows, newEpisodeId } = await import('@/server/episodes/writer');
  const { storedGoalOf } = await import('@/server/episodes/stored-goal');
  const db = sqlDb();
  const writes = episodeStatements(db);
  const store = async (env: EnvId, d: number, seed: number, step: number, agent: Agent, group: string | null) => {
    const { episode } = playEpisode({ envId: env, d, seed }, testCatalog(), agent);
    const b = episode.breakdown!;
    await db.batch(
      writes.newEpisode(
        {
          id: newEpisodeId(),
          envId: env,
          d,
          seed,
          axisOverrides: '{}',
          axes: JSON.stringify(episode.axes),
          weights: null,
          catalogId: testCatalog().id,
          player: RUN,
          turn: episode.turn,
          status: 'done',
          terminationReason: episode.termination,
          reward: b.total,
          isCorrect: b.isCorrect,
          breakdown: JSON.stringify(b),
          hiddenGoal: JSON.stringify(storedGoalOf(episode)),
          eventCount: episode.events.length,
          trainStep: step,
          rolloutGroup: group,
        },
        eventRows(episode.events, 0),
      ),
    );
  };
  const agents = [oracleAgent, createHeuristicAgent(), createRandomAgent(1), createRandomAgent(2)];
  for (const step of [0, 1])
    for (const env of ['PD', 'SUB', 'CART'] as EnvId[])
      for (const d of [1, 3])
        for (const seed of [1, 2]) for (const a of agents) await store(env, d, seed, step, a, null);
  for (let i = 0; i < 4; i++) await store('STATUS', 2, 5, 1, unknownToolAgent, 'flat-tools');
  // another run's rollouts are not this run's
  await store('PD', 1, 1, 0, oracleAgent, null);
  await db.run(`UPDATE "Episode" SET "player" = 'trainer:other' WHERE "id" = (SELECT max("id") FROM "Episode")`);
  // a rollout whose model endpoint timed out: not scored, the infrastructure's failure
  infraId = newEpisodeId();
  const { episode } = playEpisode({ envId: 'PD', d: 1, seed: 9 }, testCatalog(), unknownToolAgent);
  await db.batch(
    writes.newEpisode(
      {
        id: infraId,
        envId: 'PD',
        d: 1,
        seed: 9,
        axisOverrides: '{}',
        axes: JSON.stringify(episode.axes),
        weights: null,
        catalogId: testCatalog().id,
        player: 'trainer:other',
        turn: 0,
        status: 'done',
        terminationReason: 'aborted',
        reward: null,
        isCorrect: null,
        breakdown: null,
        hiddenGoal: JSON.stringify(storedGoalOf(episode)),
        eventCount: 0,
        infraError: JSON.stringify({ kind: 'timeout', message: 'no answer in 30 s', turn: 1 }),
      },
      [],
    ),
  );
  stored = await db.all<Stored>(
    `SELECT "id", "envId", "d", "seed", "trainStep", "rolloutGroup", "reward", "isCorrect" FROM "Episode" WHERE "player" = ?`,
    [RUN],
  );
}, 120_000);

/** The test's own grouping: explicit group name, else (step, env, d, seed). */
function groupsByHand() {
  const m = new Map<string, Stored[]>();
  for (const r of stored) {
    const k = r.rolloutGroup ?? `${r.trainStep}|${r.envId}|${r.d}|${r.seed}`;
    m.set(k, [...(m.get(k) ?? []), r]);
  }
  return [...m.values()];
}

describe('the "failed by" filter on /episodes', () => {
  it('finds the timed-out rollout under infrastructure and every scored failure under agent or customer', async () => {
    const ids = async (failedBy: 'infrastructure' | 'environment' | 'agent' | 'customer') =>
      (await caller().inspector.list({ filter: { failedBy }, size: 200 })).rows.map((r) => r.id).sort();
    expect(await ids('infrastructure')).toEqual([infraId]);
    expect(await ids('environment')).toEqual([]);
    const agent = await ids('agent');
    const failed = stored.filter((r) => !r.isCorrect).map((r) => r.id);
    expect(agent).toEqual(
      expect.arrayContaining(stored.filter((r) => r.rolloutGroup === 'flat-tools').map((r) => r.id)),
    );
    // every scored failure of the run is the agent's or the customer's (the other run's oracle passed)
    expect([...agent, ...(await ids('customer'))].sort()).toEqual(failed.sort());
    expect(agent).not.toContain(infraId);
  });
});

describe('run view', () => {
  it('answers the effective prompt ratio per env × d × step that the stored rewards give', async () => {
    const view = await caller().runs.view({ run: RUN });
    expect(stored).toHaveLength(100);
    const cells = new Map<string, { groups: number; effective: number }>();
    for (const g of groupsByHand()) {
      const k = `${g[0].envId}|${g[0].d}|${g[0].trainStep}`;
      const c = cells.get(k) ?? { groups: 0, effective: 0 };
      const rewards = g.map((r) => r.reward);
      c.groups++;
      if (Math.max(...rewards) - Math.min(...rewards) > 1e-9) c.effective++;
      cells.set(k, c);
    }
    expect(view.ratios).toHaveLength(cells.size);
    for (const r of view.ratios) {
      const c = cells.get(`${r.env}|${r.d}|${r.trainStep}`)!;
      expect([r.groups, r.effective, r.ratio]).toEqual([c.groups, c.effective, c.effective / c.groups]);
    }
    // some prompts carry a signal and some do not: the figures are not all one value
    expect(new Set(view.ratios.map((r) => r.ratio)).size).toBeGreaterThan(1);

    const atStep = (s: number) => stored.filter((r) => r.trainStep === s);
    expect(view.steps.map((s) => [s.trainStep, s.rollouts])).toEqual([
      [0, 48],
      [1, 52],
    ]);
    for (const s of view.steps) {
      const rs = atStep(s.trainStep!);
      expect(s.meanReward).toBeCloseTo(rs.reduce((a, r) => a + r.reward, 0) / rs.length, 12);
      expect(s.passRate).toBe(rs.filter((r) => r.isCorrect).length / rs.length);
    }
    expect(view.total.groups).toBe(25);
    expect(view.zeroVariance.all_fail_same_way).toBeGreaterThanOrEqual(1);
    // the worst group is flat and failing: the tool-error group's mean is the lowest of those
    const flat = view.worst.find((g) => g.slug === 'g:flat-tools')!;
    expect(flat).toMatchObject({ kind: 'all_fail_same_way', size: 4, passed: 0, env: 'STATUS' });
    expect(view.worst[0].kind).not.toBeNull();
    expect(view.worst[0].kind).not.toBe('all_pass');
    // every rollout in its bin floor((reward + 1) × 10), passed and failed apart, per env × d
    for (const h of view.histograms) {
      const [pass, fail] = [Array(20).fill(0), Array(20).fill(0)];
      for (const r of stored.filter((x) => x.envId === h.env && x.d === h.d))
        (r.isCorrect ? pass : fail)[Math.min(19, Math.floor((r.reward + 1) * 10))]++;
      expect([h.pass, h.fail]).toEqual([pass, fail]);
    }
    expect(view.histograms.flatMap((h) => [...h.pass, ...h.fail]).reduce((a, n) => a + n, 0)).toBe(100);
    // each listed group's size, passes, mean and population std, from its stored rewards
    for (const row of view.worst) {
      const g = groupsByHand().find((m) =>
        row.slug.startsWith('g:')
          ? m[0].rolloutGroup === row.slug.slice(2)
          : row.slug === `p:${m[0].trainStep}:${m[0].envId}:${m[0].d}:${m[0].seed}` && !m[0].rolloutGroup,
      )!;
      const mean = g.reduce((a, r) => a + r.reward, 0) / g.length;
      const std = Math.sqrt(g.reduce((a, r) => a + (r.reward - mean) ** 2, 0) / g.length);
      expect([row.size, row.passed]).toEqual([g.length, g.filter((r) => r.isCorrect).length]);
      expect(row.mean).toBeCloseTo(mean, 12);
      expect(row.std).toBeCloseTo(std, 9);
    }
  });

  it('gives every rollout of a group its advantage: reward − mean, and over the population std', async () => {
    for (const g of groupsByHand().slice(0, 6)) {
      const slug = `p:${g[0].trainStep}:${g[0].envId}:${g[0].d}:${g[0].seed}`;
      const { group } = await caller().runs.group({ run: RUN, group: slug });
      const mean = g.reduce((a, r) => a + r.reward, 0) / g.length;
      const std = Math.sqrt(g.reduce((a, r) => a + (r.reward - mean) ** 2, 0) / g.length);
      expect(group.rollouts.map((r) => r.id).sort()).toEqual(g.map((r) => r.id).sort());
      for (const r of group.rollouts) {
        const reward = g.find((x) => x.id === r.id)!.reward;
        expect(r.advantage).toBeCloseTo(reward - mean, 12);
        expect(r.normalizedAdvantage).toBeCloseTo(std > 1e-9 ? (reward - mean) / std : 0, 9);
      }
    }
  });

  it('says why the tool-error group is flat, and where other groups part', async () => {
    const { group, cause, attributions } = await caller().runs.group({ run: RUN, group: 'g:flat-tools' });
    expect(group.zeroVariance).toBe(true);
    expect(cause.causes.map((c) => c.text)).toContain('shared tool error: unknown tool "catalog.find"');
    expect(cause.divergenceTurn).toBeNull();
    expect(attributions.every((a) => a.party === 'agent')).toBe(true);
    const mixed = (await caller().runs.view({ run: RUN })).worst.filter((g) => g.kind === null);
    expect(mixed.length).toBeGreaterThan(0);
    const parted = await caller().runs.group({ run: RUN, group: mixed[0].slug });
    expect(parted.cause.divergenceTurn).toBe(1); // oracle and random agents act differently at once
  });

  it('compares two train steps of the run over the same prompts', async () => {
    const v = await caller().runs.versus({ a: RUN, b: RUN, stepA: 0, stepB: 1 });
    expect(v.matched).toBe(12); // the step-1-only STATUS prompt has no step-0 partner
    // the same (seeded) agents on the same prompts at both steps: nothing changes
    expect([v.gainedVariance, v.lostVariance, v.nowPass, v.nowFail]).toEqual([[], [], [], []]);
  });

  it('finds the prompts that gained or lost variance and the tasks that flipped', () => {
    const r = (step: number, seed: number, reward: number) => ({
      id: `${step}-${seed}-${reward}-${Math.random()}`,
      run: 'r',
      trainStep: step,
      group: null,
      env: 'PD',
      d: 1,
      seed,
      reward,
      isCorrect: reward === 1,
      termination: 'answered',
      turns: 2,
      components: { rTask: reward, rEff: 0, rHall: 0 },
    });
    const groups = formGroups([
      ...[0, 0, 0].map((x) => r(0, 1, x)), // seed 1: flat fail → mixed, mostly passing
      ...[0, 1, 1].map((x) => r(1, 1, x)),
      ...[1, 1, 1].map((x) => r(0, 2, x)), // seed 2: flat pass → flat fail
      ...[0, 0, 0].map((x) => r(1, 2, x)),
      ...[0, 1, 1].map((x) => r(0, 3, x)), // seed 3: mixed → flat pass (lost variance, still passing)
      ...[1, 1, 1].map((x) => r(1, 3, x)),
    ]);
    const v = compareGroups(groups, groups, { a: 0, b: 1 });
    const seeds = (xs: Array<{ seed: number }>) => xs.map((x) => x.seed);
    expect(v.matched).toBe(3);
    expect([seeds(v.gainedVariance), seeds(v.lostVariance), seeds(v.nowPass), seeds(v.nowFail)]).toEqual([
      [1],
      [3],
      [1],
      [2],
    ]);
    // without steps each run counts its latest group of a prompt: the run against itself changes nothing
    expect(compareGroups(groups, groups).nowFail).toEqual([]);
  });

  it('lists the worst groups first: flat and failing by mean, then flat and passing, then the rest', () => {
    const r = (seed: number, reward: number, isCorrect = false) => ({
      id: `w-${seed}-${reward}-${Math.random()}`,
      run: 'r',
      trainStep: 0,
      group: null,
      env: 'PD',
      d: 1,
      seed,
      reward,
      isCorrect,
      termination: 'answered',
      turns: 2,
    });
    const groups = formGroups([
      ...[r(1, 0.5), r(1, -0.5)], // a learning signal
      ...[r(2, 1, true), r(2, 1, true)], // flat, passing
      ...[r(3, -0.2), r(3, -0.2)], // flat, failing
      ...[r(4, -0.9), r(4, -0.9)], // flat, failing, lower
    ]);
    const seeds = (limit: number) => summarizeRun(groups, [], limit).worst.map((g) => g.seed);
    expect(seeds(1)).toEqual([4]);
    expect(seeds(3)).toEqual([4, 3, 2]);
    expect(seeds(100)).toEqual([4, 3, 2, 1]);
  });

  it('refuses a malformed group and names a missing one', async () => {
    await expect(caller().runs.group({ run: RUN, group: 'nonsense' })).rejects.toThrow(/is not a group/);
    await expect(caller().runs.group({ run: RUN, group: 'g:nope' })).rejects.toThrow(/no finished rollouts/);
  });
});
