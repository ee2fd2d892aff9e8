import { describe, expect, it } from 'vitest';
import { createEpisode, listEnvs, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { EnvServerError } from './errors';
import { handleHttp } from './http';
import type { EnvService } from './protocol';
import { actionSchemaFor, agentStateSchema, wireResultSchema } from './schemas';
import { wireReset, wireStep } from './openenv-wire';
import { ADMIN, makeService, oracleRun } from './test/helpers';

const ENVS = listEnvs().map((e) => e.id as EnvId);

function expectError(fn: () => unknown, code: string, message?: string | RegExp) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(EnvServerError);
    expect((e as EnvServerError).code).toBe(code);
    if (message) expect((e as EnvServerError).message).toMatch(message);
    return e as EnvServerError;
  }
  throw new Error(`expected ${code}, nothing was thrown`);
}

async function expectRejection(p: Promise<unknown>, code: string, message?: string | RegExp) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EnvServerError);
  expect((e as EnvServerError).code).toBe(code);
  if (message) expect((e as EnvServerError).message).toMatch(message);
  return e as EnvServerError;
}

const step = (s: EnvService, id: string, token: string | null, action: unknown) =>
  s.stepEpisode(id, token, action, null);

/** POST /step with this body (the one parse path of a step request: http.ts). */
const postStep = async (s: EnvService, body: unknown, token: string | null) => {
  const r = await handleHttp(s, {
    method: 'POST',
    path: '/step',
    query: new URLSearchParams(),
    authorization: token ? `Bearer ${token}` : null,
    body: JSON.stringify(body),
  });
  return r.body as { episode_id?: string; observation?: { metadata?: { episode_id?: string } } } & {
    error?: { code: string; message: string };
  };
};

describe('reset', () => {
  it('honours and echoes env, d, seed and run, and gives the engine’s own first observation', () => {
    const s = makeService();
    const { response } = s.reset({ env: 'CART', d: 3, seed: 42, run: 'grpo-7' });
    expect(response).toMatchObject({
      env: 'CART',
      d: 3,
      seed: 42,
      run: 'grpo-7',
      reward: 0,
      done: false,
      termination: null,
      reward_parts: null,
    });
    expect(response.episode_id).toMatch(/^c[0-9a-z]{11}[0-9a-f]{12}$/);
    const local = createEpisode({ envId: 'CART', d: 3, seed: 42 }, testCatalog()).reset();
    expect(JSON.stringify(response.observation)).toBe(JSON.stringify(local.observation));
    expect(wireResultSchema.safeParse(wireReset(response, 'simulation')).success).toBe(true);
  });

  it('picks a seed when none is given and echoes it, so the episode can be reproduced', () => {
    const s = makeService();
    const a = s.reset({ env: 'PD', d: 1 }).response;
    expect(Number.isInteger(a.seed)).toBe(true);
    const again = s.reset({ env: 'PD', d: 1, seed: a.seed }).response;
    expect(JSON.stringify(again.observation)).toBe(JSON.stringify(a.observation));
  });

  it('takes the caller’s episode_id once', () => {
    const s = makeService();
    expect(s.reset({ env: 'PD', episode_id: 'mine-1', seed: 1 }).response.episode_id).toBe('mine-1');
    expectError(
      () => s.reset({ env: 'PD', episode_id: 'mine-1' }),
      'EPISODE_EXISTS',
      'episode_id "mine-1" is already in use',
    );
  });

  it('names every bad field', () => {
    const s = makeService();
    expectError(
      () => s.reset({ env: 'NOPE', d: -1, sed: 3 }),
      'VALIDATION_ERROR',
      /env: Invalid option.*d: Too small.*unknown field "sed"/,
    );
    expectError(
      () => s.reset({ env: 'PD', axis_overrides: { T_maxx: 3 } }),
      'VALIDATION_ERROR',
      'axis_overrides: unknown field "T_maxx"',
    );
    // each axis within the engine's own range (difficulty.ts: T_max 1–100)
    expectError(
      () => s.reset({ env: 'PD', axis_overrides: { T_max: 0 } }),
      'VALIDATION_ERROR',
      /axis_overrides\.T_max: Too small/,
    );
  });

  it('applies axis overrides in simulation mode and refuses them in production mode', () => {
    const sim = makeService().reset({ env: 'PD', d: 0, seed: 1, axis_overrides: { T_max: 9 } }).response;
    expect(sim.observation.budgets.T_max).toBe(9);
    expectError(
      () => makeService({ mode: 'production' }).reset({ env: 'PD', axis_overrides: { T_max: 9 } }),
      'PRODUCTION_MODE',
    );
  });
});

describe('step', () => {
  it('plays the oracle’s actions to the same observations and rewards as the engine in-process, in every env', async () => {
    for (const envId of ENVS) {
      const reference = oracleRun({ envId, d: 4, seed: 11 });
      const s = makeService();
      const { response, live } = s.reset({ env: envId, d: 4, seed: 11 });
      const token = response.token;
      const seen = [JSON.stringify(response.observation)];
      const rewards = [response.reward];
      let last = null;
      for (const action of reference.actions) {
        last = await step(s, live.id, token, action);
        expect(wireResultSchema.safeParse(wireStep(last)).success, envId).toBe(true);
        expect(last.episode_id).toBe(live.id);
        seen.push(JSON.stringify(last.observation));
        rewards.push(last.reward);
      }
      expect(seen, envId).toEqual(reference.observations);
      expect(rewards, envId).toEqual(reference.rewards);
      expect(last!.done).toBe(true);
      expect(last!.termination).toBe(reference.episode.termination);
      expect(last!.reward_parts).toEqual({
        r_task: reference.episode.breakdown!.rTask,
        r_eff: reference.episode.breakdown!.rEff,
        r_hall: reference.episode.breakdown!.rHall,
        is_correct: reference.episode.breakdown!.isCorrect,
      });
    }
  });

  it('takes the model’s raw text as the action, and a bad one is the agent’s mistake, not a protocol error', async () => {
    const s = makeService();
    const { response } = s.reset({ env: 'PD', d: 2, seed: 3 });
    const text = JSON.stringify({
      assistant_message: 'Looking.',
      tool_calls: [{ name: 'catalog.search', args: { query: 'lamp' } }],
      answer: null,
    });
    const ok = await step(s, response.episode_id, response.token, text);
    expect(ok.done).toBe(false);
    expect(ok.observation.toolResults).toHaveLength(1);
    const bad = await step(s, response.episode_id, response.token, 'I think the answer is 3');
    expect(bad).toMatchObject({ done: true, termination: 'format_invalid', reward: -1 });
    expect(bad.observation.error).toMatch(/not valid JSON/);
  });

  it('needs the episode’s own capability token', async () => {
    const s = makeService();
    const a = s.reset({ env: 'PD', seed: 1 }).response;
    const b = s.reset({ env: 'PD', seed: 2 }).response;
    const action = { assistant_message: 'hi' };
    await expectRejection(step(s, a.episode_id, null, action), 'BAD_TOKEN', 'no capability token');
    await expectRejection(step(s, a.episode_id, b.token, action), 'BAD_TOKEN', "not this episode's capability token");
    await expectRejection(step(s, a.episode_id, ADMIN, action), 'BAD_TOKEN', 'the admin token only reads');
    // or in the body, when no header has it
    const inBody = await postStep(s, { episode_id: a.episode_id, action, token: a.token }, null);
    expect(inBody.observation?.metadata?.episode_id).toBe(a.episode_id);
    // after a good step the episode checks against its remembered token: a changed one still fails
    const tampered = a.token.slice(0, -2) + (a.token.endsWith('AA') ? 'BB' : 'AA');
    await expectRejection(step(s, a.episode_id, tampered, action), 'BAD_TOKEN', "not this episode's capability token");
    await expectRejection(step(s, a.episode_id, b.token, action), 'BAD_TOKEN', "not this episode's capability token");
  });

  it('skips the token check only for the connection that holds the token this worker issued', async () => {
    const s = makeService();
    const a = s.reset({ env: 'PD', seed: 1 }).response;
    const b = s.reset({ env: 'PD', seed: 2 }).response;
    const action = { assistant_message: 'hi' };
    await expect(s.stepEpisode(a.episode_id, b.token, action, null, true)).rejects.toMatchObject({ code: 'BAD_TOKEN' });
    await expect(s.stepEpisode(a.episode_id, null, action, null, true)).rejects.toMatchObject({ code: 'BAD_TOKEN' });
    expect((await s.stepEpisode(a.episode_id, a.token, action, null, true)).episode_id).toBe(a.episode_id);
    // the issued token, never hashed on the connection path, still checks over HTTP
    expect((await step(s, a.episode_id, a.token, action)).episode_id).toBe(a.episode_id);
    await expectRejection(step(s, b.episode_id, a.token, action), 'BAD_TOKEN', "not this episode's capability token");
  });

  it('takes a plain-object or text action as it is and refuses anything else with the schema’s message', async () => {
    const s = makeService();
    const a = s.reset({ env: 'PD', seed: 1 }).response;
    for (const bad of [[{ assistant_message: 'hi' }], null, 7])
      await expectRejection(
        step(s, a.episode_id, a.token, bad),
        'VALIDATION_ERROR',
        'step: action: must be a JSON object or a string of model text',
      );
    // an object that is not a plain one (no transport makes one) fails the action schema first
    await expectRejection(step(s, a.episode_id, a.token, new Date(0)), 'VALIDATION_ERROR', 'action schema');
    expect(await step(s, a.episode_id, a.token, 'not json at all')).toMatchObject({ termination: 'format_invalid' });
  });

  it('says precisely what is wrong with the request', async () => {
    const s = makeService();
    const a = s.reset({ env: 'PD', seed: 1 }).response;
    await expectRejection(step(s, 'ep_missing', a.token, {}), 'UNKNOWN_EPISODE', 'unknown episode_id "ep_missing"');
    expect(await postStep(s, { episode_id: a.episode_id }, a.token)).toMatchObject({
      error: { code: 'VALIDATION_ERROR', message: /action/ },
    });
    await expectRejection(
      step(s, a.episode_id, a.token, 42),
      'VALIDATION_ERROR',
      'step: action: must be a JSON object or a string of model text',
    );
    expect(await postStep(s, { episode_id: a.episode_id, action: {}, extra: 1 }, a.token)).toMatchObject({
      error: { code: 'VALIDATION_ERROR', message: /unknown field "extra"/ },
    });
  });

  it('refuses a step after the end', async () => {
    const s = makeService();
    const a = s.reset({ env: 'PD', seed: 1 }).response;
    await step(s, a.episode_id, a.token, {
      assistant_message: 'done',
      answer: { env: 'PD', done: true, recommended_product_ids: [] },
    });
    await expectRejection(
      step(s, a.episode_id, a.token, { assistant_message: 'more' }),
      'EPISODE_DONE',
      /is over \(\w+\); reset/,
    );
  });
});

describe('state', () => {
  it('shows the capability holder the agent-visible state only, and the admin the goal', async () => {
    const s = makeService();
    const a = s.reset({ env: 'STATUS', d: 2, seed: 5, run: 'r1' }).response;
    const agent = await s.stateRequest(a.episode_id, a.token);
    expect(agentStateSchema.strict().safeParse(agent).success).toBe(true);
    expect(agent).toMatchObject({
      episode_id: a.episode_id,
      step_count: 0,
      env: 'STATUS',
      d: 2,
      seed: 5,
      run: 'r1',
      done: false,
      reward: null,
    });
    expect(JSON.stringify(agent)).not.toMatch(/hidden_goal|summary/);
    const full = (await s.stateRequest(a.episode_id, ADMIN)) as unknown as Record<string, unknown>;
    expect(full.hidden_goal).toEqual(s.sessions.peek(a.episode_id)!.episode.hiddenGoal());
    await expectRejection(s.stateRequest(a.episode_id, 'nonsense'), 'BAD_TOKEN');
    await expectRejection(s.stateRequest(null, a.token), 'VALIDATION_ERROR', 'episode_id query parameter is required');
  });

  it('never gives the goal in production mode, even to the admin token', async () => {
    const s = makeService({ mode: 'production' });
    expectError(() => s.reset({ env: 'PD', seed: 5 }), 'PRODUCTION_MODE', 'the server draws the seed');
    const a = s.reset({ env: 'PD' }).response;
    await expectRejection(s.stateRequest(a.episode_id, ADMIN), 'PRODUCTION_MODE');
    expect(await s.stateRequest(a.episode_id, a.token)).not.toHaveProperty('hidden_goal');
    expect(s.info().admin).toBe(false);
  });
});

describe('session cap and idle timeout', () => {
  it('refuses a new episode when every held one is running, and makes room from finished ones', async () => {
    const s = makeService({ maxSessions: 2 });
    const a = s.reset({ env: 'PD', seed: 1 }).response;
    s.reset({ env: 'PD', seed: 2 });
    expectError(() => s.reset({ env: 'PD', seed: 3 }), 'CAPACITY_REACHED', 'ECOMRLVE_MAX_SESSIONS=2');
    await step(s, a.episode_id, a.token, {
      assistant_message: 'bye',
      answer: { env: 'PD', done: true, recommended_product_ids: [] },
    });
    const c = s.reset({ env: 'PD', seed: 3 }).response;
    expect(s.sessions.size).toBe(2);
    await expectRejection(s.stateRequest(a.episode_id, a.token), 'UNKNOWN_EPISODE');
    expect(await s.stateRequest(c.episode_id, c.token)).toMatchObject({ seed: 3 });
  });

  it('drops an episode left idle for the timeout, and keeps one in use', async () => {
    let now = 1_000_000;
    const s = makeService({ idleTimeoutMs: 60_000 }, () => now);
    const idle = s.reset({ env: 'PD', seed: 1 }).response;
    const busy = s.reset({ env: 'PD', seed: 2 }).response;
    now += 40_000;
    await s.stateRequest(busy.episode_id, busy.token);
    now += 30_000;
    expect(await s.stateRequest(busy.episode_id, busy.token)).toMatchObject({ seed: 2 });
    await expectRejection(
      step(s, idle.episode_id, idle.token, { assistant_message: 'hi' }),
      'UNKNOWN_EPISODE',
      /dropped after 60 s idle/,
    );
    expect(s.sessions.size).toBe(1);
  });
});

describe('per-client cap on episodes started over HTTP', () => {
  it('refuses a client its next reset or MCP session at the cap, counts only running episodes, and leaves others alone', async () => {
    const s = makeService({ maxSessionsPerClient: 2 });
    const call = (client: string, path: string, body: unknown, token?: string) =>
      handleHttp(s, {
        method: 'POST',
        path,
        query: new URLSearchParams(),
        authorization: token ? `Bearer ${token}` : null,
        body: JSON.stringify(body),
        client,
      });
    const first = await call('10.0.0.1', '/reset', { env: 'PD' });
    const viaMcp = await call('10.0.0.1', '/mcp', {
      jsonrpc: '2.0',
      id: 1,
      method: 'openenv/session/create',
      params: { env: 'CART' },
    });
    expect(viaMcp.body).toHaveProperty('result.session_id');
    expect(await call('10.0.0.1', '/reset', { env: 'PD' })).toMatchObject({
      status: 503,
      body: { error: { code: 'CAPACITY_REACHED', message: /MAX_SESSIONS_PER_CLIENT=2/ } },
    });
    expect(
      await call('10.0.0.1', '/mcp', { jsonrpc: '2.0', id: 2, method: 'openenv/session/create', params: {} }),
    ).toMatchObject({
      body: { error: { data: { code: 'CAPACITY_REACHED' } } },
    });
    expect((await call('10.0.0.2', '/reset', { env: 'PD' })).status).toBe(200);
    // a finished episode stops counting
    const meta = (first.body as { observation: { metadata: { episode_id: string; token: string } } }).observation
      .metadata;
    const ended = await call('10.0.0.1', '/step', { episode_id: meta.episode_id, action: 'not an action' }, meta.token);
    expect(ended.body).toMatchObject({ done: true });
    expect((await call('10.0.0.1', '/reset', { env: 'PD' })).status).toBe(200);
  });
});

describe('schema, metadata, health', () => {
  it('publishes an action schema the oracle’s actions satisfy, in every env', () => {
    for (const envId of ENVS) {
      const schema = actionSchemaFor(envId);
      const { actions } = oracleRun({ envId, d: 6, seed: 2 });
      for (const action of actions) expect(schema.safeParse(action).error?.issues, envId).toBeUndefined();
    }
    expect(
      actionSchemaFor('PD').safeParse({ assistant_message: 'x', tool_calls: [{ name: 'orders.list', args: {} }] })
        .success,
    ).toBe(false);
  });

  it('answers OpenEnv’s schema/metadata/health shapes over HTTP', async () => {
    const s = makeService();
    const schema = await handleHttp(s, {
      method: 'GET',
      path: '/schema',
      query: new URLSearchParams('env=PD'),
      authorization: null,
      body: null,
    });
    expect(schema.status).toBe(200);
    expect(Object.keys(schema.body as object)).toEqual(['action', 'observation', 'state']);
    expect(
      (
        await handleHttp(s, {
          method: 'GET',
          path: '/schema',
          query: new URLSearchParams('env=XX'),
          authorization: null,
          body: null,
        })
      ).status,
    ).toBe(422);
    const meta = (
      await handleHttp(s, {
        method: 'GET',
        path: '/metadata',
        query: new URLSearchParams(),
        authorization: null,
        body: null,
      })
    ).body as Record<string, unknown>;
    expect(Object.keys(meta).sort()).toEqual(
      ['author', 'description', 'documentation_url', 'name', 'readme_content', 'version'].sort(),
    );
    expect(meta.readme_content).toContain('JOURNEY');
    const info = (
      await handleHttp(s, {
        method: 'GET',
        path: '/info',
        query: new URLSearchParams(),
        authorization: null,
        body: null,
      })
    ).body as Record<string, unknown>;
    expect(info).toMatchObject({ name: 'EcomRLVE-GYM', mode: 'simulation', catalog: testCatalog().id, admin: true });
    expect((info.envs as unknown[]).length).toBe(ENVS.length);
    expect(
      (
        await handleHttp(s, {
          method: 'GET',
          path: '/health',
          query: new URLSearchParams(),
          authorization: null,
          body: null,
        })
      ).body,
    ).toEqual({ status: 'healthy' });
  });

  it('maps bad HTTP requests to one precise error each', async () => {
    const s = makeService();
    const call = (method: string, path: string, body: string | null = null) =>
      handleHttp(s, { method, path, query: new URLSearchParams(), authorization: null, body });
    expect(await call('POST', '/reset', '{"env": "PD",')).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_JSON' } },
    });
    expect(await call('GET', '/reset')).toMatchObject({
      status: 405,
      body: { error: { code: 'METHOD_NOT_ALLOWED', message: '/reset takes POST, not GET' } },
    });
    expect(await call('GET', '/nope')).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    expect(await call('POST', '/reset', '')).toMatchObject({
      status: 200,
      body: { observation: { metadata: { env: 'PD', d: 0 } } },
    });
    expect(await call('POST', '/step', '{"episode_id":"ep_x","action":{}}')).toMatchObject({
      status: 404,
      body: { episode_id: 'ep_x', error: { code: 'UNKNOWN_EPISODE' } },
    });
    // OpenEnv's answers to calls that name no episode: a fresh episode takes the step; a fresh state.
    const stateless = await call('POST', '/step', '{"action":{"assistant_message":"Hello"},"timeout_s":5}');
    expect(stateless).toMatchObject({
      status: 200,
      body: { observation: { turn: 1, metadata: { env: 'PD', d: 0 } }, done: false },
    });
    const meta = (stateless.body as { observation: { metadata: { episode_id: string; token: string } } }).observation
      .metadata;
    expect(s.sessions.peek(meta.episode_id)!.episode.turn).toBe(1);
    expect(await call('GET', '/state')).toEqual({ status: 200, body: { episode_id: null, step_count: 0 } });
    // A structured action that breaks the schema: 422 with FastAPI's detail list; the episode is unchanged.
    const bad = await handleHttp(s, {
      method: 'POST',
      path: '/step',
      query: new URLSearchParams(),
      authorization: `Bearer ${meta.token}`,
      body: JSON.stringify({
        episode_id: meta.episode_id,
        action: { assistant_message: 'x', tool_calls: [{ name: 'nope' }] },
      }),
    });
    expect(bad.status).toBe(422);
    expect((bad.body as { detail: { loc: unknown[] }[] }).detail[0].loc.slice(0, 3)).toEqual([
      'body',
      'action',
      'tool_calls',
    ]);
    expect(s.sessions.peek(meta.episode_id)!.episode.turn).toBe(1);
    // Raw text is never refused: the engine scores it (format rule).
    const text = await handleHttp(s, {
      method: 'POST',
      path: '/step',
      query: new URLSearchParams(),
      authorization: `Bearer ${meta.token}`,
      body: JSON.stringify({ episode_id: meta.episode_id, action: 'not json at all' }),
    });
    expect(text).toMatchObject({
      status: 200,
      body: { done: true, observation: { metadata: { termination: 'format_invalid' } } },
    });
  });
});
