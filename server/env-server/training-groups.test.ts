// Issue 30: a GRPO-style run through the trainer API. 8 envs × 2 seeds × 2 train steps, G = 4
// rollouts per prompt, played by the built-in heuristic with a sampling temperature (each rollout
// its own sampling seed) over HTTP and WebSocket. The stored episodes carry run, train_step and
// group; the groups, advantages and effective prompt ratios that server/inspector/groups.ts
// computes from them equal plain arithmetic done here on the same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_IDS, type Action, type EnvId, type Observation } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { EnvHttpClient, EnvWsClient, type ResetOptions, type StepResponse } from '@/clients/typescript/env-client';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { decide } from '@/server/models/agents';
import { effectivePromptRatios, formGroups, type GroupRolloutInput } from '@/server/inspector/groups';
import { startEnvServer, type RunningEnvServer } from './server';
import { testConfig } from './test/helpers';

let db: TestDb;
let server: RunningEnvServer;
beforeAll(async () => {
  db = createTestDb();
  server = await startEnvServer(testConfig({ persist: true }), testCatalog(), { prisma: db.prisma });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await db?.cleanup();
});

const D = 3;
const G = 4;
const SEEDS = [1, 2];
const STEPS = [0, 1];

type Transport = {
  reset(o: ResetOptions): Promise<StepResponse & { episode_id: string }>;
  /** the model's text: the trainer API refuses a structured action that breaks the schema, but scores any text */
  step(id: string, text: string): Promise<StepResponse>;
};
const http = (): Transport => {
  const c = new EnvHttpClient(server.url);
  return { reset: (o) => c.reset(o), step: (id, a) => c.step(id, a) };
};

/** One rollout: the heuristic decides every turn from the observations the trainer API returned. */
async function rollout(
  t: Transport,
  reset: ResetOptions & { env: EnvId; d: number; seed: number },
  sampling: { temperature: number; seed: number },
) {
  let r: StepResponse = await t.reset(reset);
  const id = r.episode_id;
  // as a trainer does: the episode's tools come with the reset's answer only
  const { tools } = r.observation;
  const observations: Observation[] = [r.observation];
  const actions: Action[] = [];
  while (!r.done) {
    const action = decide(
      'heuristic',
      { envId: reset.env, mode: 'tools', observations, actions },
      {
        episodeConfig: { envId: reset.env, d: reset.d, seed: reset.seed },
        allowOracle: false,
        catalog: testCatalog,
        randomSeed: 0,
        sampling,
      },
    );
    r = await t.step(id, JSON.stringify(action));
    observations.push({ ...r.observation, tools });
    actions.push(action);
  }
  return id;
}

/** A stored trainer episode as groups.ts reads it. */
async function storedRollouts(run: string): Promise<GroupRolloutInput[]> {
  const rows = await db.prisma.episode.findMany({
    where: { player: `trainer:${run}`, status: 'done' },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((e) => {
    const b = JSON.parse(e.breakdown!) as { total: number; rTask: number; rEff: number; rHall: number };
    return {
      id: e.id,
      run,
      trainStep: e.trainStep,
      group: e.rolloutGroup,
      env: e.envId,
      d: e.d,
      seed: e.seed,
      reward: b.total,
      isCorrect: Boolean(e.isCorrect),
      termination: e.terminationReason,
      turns: e.turn,
      components: { rTask: b.rTask, rEff: b.rEff, rHall: b.rHall },
    };
  });
}

describe('a GRPO-style run through the trainer API', () => {
  it('stores run/train_step per rollout; groups, advantages and effective prompt ratios match plain arithmetic', async () => {
    const ws = await EnvWsClient.connect(server.url);
    const overWs: Transport = { reset: (o) => ws.reset(o), step: (_id, a) => ws.step(a) };
    try {
      for (const step of STEPS)
        for (const env of ENV_IDS)
          for (const seed of SEEDS)
            for (let k = 0; k < G; k++)
              // odd rollouts over WebSocket, even over HTTP: both transports carry the training metadata
              await rollout(
                k % 2 ? overWs : http(),
                { env, d: D, seed, run: 'grpo', train_step: step },
                { temperature: 0.4, seed: 100 * step + k },
              );
    } finally {
      ws.close();
    }
    const rollouts = await storedRollouts('grpo');
    expect(rollouts).toHaveLength(STEPS.length * ENV_IDS.length * SEEDS.length * G);
    expect(new Set(rollouts.map((r) => r.trainStep))).toEqual(new Set(STEPS));
    expect(rollouts.every((r) => r.group === null)).toBe(true);

    // plain arithmetic: a group is the rollouts of one (train_step, env, d, seed) in this run
    const byPrompt = new Map<string, GroupRolloutInput[]>();
    for (const r of rollouts) {
      const key = `${r.trainStep}|${r.env}|${r.d}|${r.seed}`;
      byPrompt.set(key, [...(byPrompt.get(key) ?? []), r]);
    }
    const expectedAdvantage = new Map<string, { advantage: number; normalized: number }>();
    const cells = new Map<string, { groups: number; effective: number }>();
    for (const members of byPrompt.values()) {
      let sum = 0;
      for (const m of members) sum += m.reward;
      const mean = sum / members.length;
      let squares = 0;
      for (const m of members) squares += (m.reward - mean) * (m.reward - mean);
      const std = Math.sqrt(squares / members.length);
      let lo = Infinity;
      let hi = -Infinity;
      for (const m of members) {
        lo = Math.min(lo, m.reward);
        hi = Math.max(hi, m.reward);
      }
      const varies = hi - lo > 1e-9;
      for (const m of members)
        expectedAdvantage.set(m.id, { advantage: m.reward - mean, normalized: varies ? (m.reward - mean) / std : 0 });
      const cellKey = `${members[0].env}|${members[0].d}|${members[0].trainStep}`;
      const cell = cells.get(cellKey) ?? { groups: 0, effective: 0 };
      cell.groups++;
      if (varies) cell.effective++;
      cells.set(cellKey, cell);
    }

    const groups = formGroups(rollouts);
    expect(groups).toHaveLength(STEPS.length * ENV_IDS.length * SEEDS.length);
    for (const g of groups) {
      expect(g.rollouts).toHaveLength(G);
      expect(new Set(g.rollouts.map((r) => `${r.trainStep}|${r.env}|${r.d}|${r.seed}`)).size).toBe(1);
      for (const r of g.rollouts) {
        expect(r.advantage).toBeCloseTo(expectedAdvantage.get(r.id)!.advantage, 12);
        expect(r.normalizedAdvantage).toBeCloseTo(expectedAdvantage.get(r.id)!.normalized, 9);
      }
    }
    const ratios = effectivePromptRatios(groups);
    expect(ratios).toHaveLength(cells.size);
    for (const c of ratios) {
      const expected = cells.get(`${c.env}|${c.d}|${c.trainStep}`)!;
      expect([c.groups, c.effective, c.ratio]).toEqual([
        expected.groups,
        expected.effective,
        expected.effective / expected.groups,
      ]);
    }
    // the temperature works: some groups carry a learning signal, and not every env is flat
    const varying = groups.filter((g) => !g.zeroVariance);
    expect(varying.length).toBeGreaterThan(groups.length / 4);
    expect(new Set(varying.map((g) => g.env)).size).toBeGreaterThan(3);
  }, 300_000);

  it('without a temperature the heuristic’s G rollouts are identical: a zero-variance group', async () => {
    for (let k = 0; k < G; k++)
      await rollout(http(), { env: 'PD', d: D, seed: 1, run: 'greedy', train_step: 0 }, { temperature: 0, seed: k });
    const groups = formGroups(await storedRollouts('greedy'));
    expect(groups).toHaveLength(1);
    expect(groups[0].zeroVariance).toBe(true);
    expect(groups[0].rollouts.every((r) => r.advantage === 0)).toBe(true);
  }, 120_000);

  it('rollouts sent with a group form (run, group) groups, over HTTP, WebSocket and MCP', async () => {
    const prompt = { env: 'CART' as EnvId, d: D, seed: 5, run: 'named', train_step: 7 };
    const ws = await EnvWsClient.connect(server.url);
    try {
      for (let k = 0; k < G; k++) {
        await rollout(http(), { ...prompt, group: 'a' }, { temperature: 1, seed: k });
        await rollout(
          { reset: (o) => ws.reset(o), step: (_id, a) => ws.step(a) },
          { ...prompt, group: 'b' },
          { temperature: 1, seed: k },
        );
      }
    } finally {
      ws.close();
    }
    // MCP's session/create takes the same reset fields
    const created = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'openenv/session/create',
        params: { ...prompt, group: 'c' },
      }),
    }).then((r) => r.json() as Promise<{ result: { session_id: string } }>);
    const mcpRow = await db.prisma.episode.findUniqueOrThrow({ where: { id: created.result.session_id } });
    expect([mcpRow.player, mcpRow.trainStep, mcpRow.rolloutGroup]).toEqual(['trainer:named', 7, 'c']);

    const rollouts = await storedRollouts('named'); // the MCP episode is not played: not among them
    expect(rollouts.map((r) => r.group).sort()).toEqual([...Array(G).fill('a'), ...Array(G).fill('b')]);
    const named = formGroups(rollouts);
    expect(named.map((g) => [JSON.parse(g.key), g.rollouts.length])).toEqual([
      [['group', 'named', 'a'], G],
      [['group', 'named', 'b'], G],
    ]);
    // the same rollouts without their group names are one prompt: one group of 2G
    expect(formGroups(rollouts.map((r) => ({ ...r, group: null }))).map((g) => g.rollouts.length)).toEqual([2 * G]);
  }, 120_000);

  it('refuses a negative or fractional train_step and an empty group, naming the field', async () => {
    const c = new EnvHttpClient(server.url);
    await expect(c.reset({ env: 'PD', train_step: -1 })).rejects.toThrow(/train_step/);
    await expect(c.reset({ env: 'PD', train_step: 1.5 })).rejects.toThrow(/train_step/);
    await expect(c.reset({ env: 'PD', group: '' })).rejects.toThrow(/group/);
  });
});
