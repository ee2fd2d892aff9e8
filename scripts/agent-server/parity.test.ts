// The acceptance check of issue 9: the heuristic behind the agent server, driven
// over real HTTP by the model driver, scores exactly what the in-process
// heuristic scores on the same episodes (tool-calling mode: 8 envs × 3 d × 5 seeds),
// plus JSON mode and streaming on a smaller grid, and the oracle through its header.

import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHeuristicAgent,
  createRandomAgent,
  ENV_IDS,
  oracleAgent,
  playEpisode,
  type Action,
  type Agent,
  type EpisodeConfig,
  type Observation,
} from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { parseConnection, type ConnectionInput } from '@/server/models/connection';
import { playModelEpisode } from '@/server/models/test/play-model';
import { createAgentServer, listen } from './server';
import { decide } from '@/server/models/agents';

const servers: Server[] = [];
async function serve(agent: 'heuristic' | 'oracle' | 'random', allowOracle = false, cacheSize?: number) {
  const server = createAgentServer({ agent, port: 0, allowOracle, catalog: testCatalog, cacheSize });
  servers.push(server);
  return listen(server, 0);
}
afterAll(() => servers.forEach((s) => s.close()));

const connect = (port: number, model: string, extra: Partial<ConnectionInput> = {}) =>
  parseConnection(
    { name: `local-${model}`, baseUrl: `http://127.0.0.1:${port}/v1`, model, maxRetries: 0, ...extra },
    {},
  );

async function expectParity(
  configs: EpisodeConfig[],
  connection: ReturnType<typeof connect>,
  inProcess = createHeuristicAgent,
) {
  for (const config of configs) {
    const local = playEpisode(config, testCatalog(), inProcess()).episode;
    const remote = await playModelEpisode(config, testCatalog(), connection);
    const where = `${config.envId} d=${config.d} seed=${config.seed}`;
    expect(remote.status, where).toBe('completed');
    expect(remote.episode.termination, where).toBe(local.termination);
    expect(remote.episode.turn, where).toBe(local.turn);
    expect(remote.episode.breakdown!.total, where).toBe(local.breakdown!.total);
    expect(remote.episode.breakdown!.rTask, where).toBe(local.breakdown!.rTask);
  }
}

const grid = (ds: number[], seeds: number[]): EpisodeConfig[] =>
  ENV_IDS.flatMap((envId) => ds.flatMap((d) => seeds.map((seed) => ({ envId, d, seed }))));

describe('agent server: heuristic over HTTP', () => {
  let port: number;
  beforeAll(async () => {
    testCatalog();
    port = await serve('heuristic');
  });

  // 8 envs × 3 d × 5 seeds in tool-calling mode, one d per test to keep each under its timeout
  it.each([0, 4, 8])(
    'tool-calling mode scores the in-process rewards: 8 envs × d %i × 5 seeds',
    async (d) => {
      await expectParity(grid([d], [1, 2, 3, 4, 5]), connect(port, 'heuristic'));
    },
    180_000,
  );

  it('JSON-action mode, streamed replies, and a server without its driver cache score the same too (8 envs × d 3 × 2 seeds each)', async () => {
    await expectParity(grid([3], [6, 7]), connect(port, 'heuristic', { actionMode: 'json' }));
    await expectParity(grid([3], [6, 7]), connect(await serve('heuristic', false, 0), 'heuristic'));
    await expectParity(grid([3], [6, 7]), connect(port, 'heuristic', { stream: true }));
  });

  it('records per turn what was sent and what came back', async () => {
    const result = await playModelEpisode({ envId: 'PD', d: 2, seed: 1 }, testCatalog(), connect(port, 'heuristic'));
    const first = result.records[0];
    expect(first.request.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first.request.tools!.map((t) => t.function.name)).toContain('catalog_search');
    expect(first.request.tools!.map((t) => t.function.name)).toContain('submit_answer');
    expect(first.reply.finishReason).toBe('tool_calls');
    expect(first.reply.toolCalls[0].function.name).toBe('catalog_search');
    expect(first.reply.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(first.attempts).toHaveLength(1);
    // the second request carries the first turn's call and its result as a tool message
    const second = result.records[1].request.messages;
    expect(second.map((m) => m.role).slice(0, 4)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(JSON.parse((second[3] as { content: string }).content)).toHaveProperty('result');
  });

  it('answers a request for another model, or a non-gym conversation, with a 4xx naming the problem', async () => {
    const post = (body: object) =>
      fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const wrongModel = await post({ model: 'gpt-4o', messages: [] });
    expect(wrongModel.status).toBe(404);
    expect((await wrongModel.json()).error.message).toMatch(/model "gpt-4o" is not served here; available: heuristic/);
    const notGym = await post({ model: 'heuristic', messages: [{ role: 'user', content: 'hi' }] });
    expect(notGym.status).toBe(400);
    expect((await notGym.json()).error.message).toMatch(/not a gym conversation/);
    for (const [body, message] of [
      [null, 'the request body must be a JSON object'],
      [{ model: 'heuristic', messages: 'hi' }, '"messages" must be a list of chat messages'],
      [
        { model: 'heuristic', messages: [null] },
        'messages[0] must be an object whose "role" is system, user, assistant or tool',
      ],
      [{ model: 'heuristic', messages: [{ role: 'user', content: 3 }] }, 'messages[0] (user) must have text "content"'],
    ] as const) {
      const res = await post(body as object);
      expect(res.status).toBe(400);
      expect((await res.json()).error.message).toBe(message);
    }
    const models = await (await fetch(`http://127.0.0.1:${port}/v1/models`)).json();
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(['heuristic']);
  });
});

describe('agent server: sampling', () => {
  /** The heuristic with sampling in-process, deciding as the agent server does (decide over the observations). */
  const sampledHeuristic = (seed: number): Agent => {
    const observations: Observation[] = [];
    const actions: Action[] = [];
    return {
      name: 'sampled-heuristic',
      act(observation, episode) {
        observations.push(observation);
        const conversation = { envId: observation.envId, mode: 'tools' as const, observations, actions };
        const ctx = { episodeConfig: episode.config, allowOracle: false, catalog: testCatalog, randomSeed: 0 };
        const action = decide('heuristic', conversation, { ...ctx, sampling: { temperature: 1, seed } });
        actions.push(action);
        return action;
      },
    };
  };

  it('a request’s temperature and seed sample as in-process, and rollouts with other seeds differ', async () => {
    const port = await serve('heuristic');
    const configs = grid([3], [1]);
    for (const seed of [1, 2]) {
      const sampled = connect(port, 'heuristic', { temperature: 1, seed, sendEpisodeHeader: true });
      await expectParity(configs, sampled, () => sampledHeuristic(seed));
    }
    const totals = (seed: number) =>
      configs.map((c) => playEpisode(c, testCatalog(), sampledHeuristic(seed)).episode.breakdown!.total);
    const greedy = configs.map((c) => playEpisode(c, testCatalog(), createHeuristicAgent()).episode.breakdown!.total);
    expect(totals(1)).not.toEqual(totals(2));
    expect(totals(1)).not.toEqual(greedy);
  });
});

describe('agent server: random agent', () => {
  it("with the episode header it plays the in-process random agent's stream (8 envs × d 2 × 2 seeds)", async () => {
    const port = await serve('random');
    await expectParity(grid([2], [1, 2]), connect(port, 'random', { sendEpisodeHeader: true }), () =>
      createRandomAgent(0),
    );
  });
});

describe('agent server: oracle behind its admin switch', () => {
  it('with --allow-oracle and the episode header it plays as the in-process oracle', async () => {
    const port = await serve('oracle', true);
    await expectParity(grid([5], [1]), connect(port, 'oracle', { sendEpisodeHeader: true }), () => oracleAgent);
  });

  it('without the switch it refuses (403), which the driver reports as an infrastructure failure', async () => {
    const port = await serve('oracle', false);
    const result = await playModelEpisode(
      { envId: 'PD', d: 1, seed: 1 },
      testCatalog(),
      connect(port, 'oracle', { sendEpisodeHeader: true }),
    );
    expect(result.status).toBe('infra_error');
    expect(result.infra!.message).toMatch(/HTTP 403 .*--allow-oracle/);
    expect(result.episode.turn).toBe(0);
  });
});
