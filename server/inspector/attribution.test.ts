import { afterAll, describe, expect, it } from 'vitest';
import { emptyAgent } from '../engine/agents/empty';
import { oracleAgent } from '../engine/agents/oracle';
import { playEpisode } from '../engine/play';
import { act, startEpisode, testCatalog } from '../engine/testing';
import type { Action, EpisodeConfig, EpisodeEvent, RewardBreakdown } from '../engine/types';
import { parseConnection } from '../models/connection';
import { playModelEpisode } from '../models/test/play-model';
import { startFakeEndpoint, type FakeEndpoint, type FakeStep } from '../models/test/fake-endpoint';
import { attributeFailure, type AttributionInput } from './attribution';

const catalog = testCatalog();
const PD: EpisodeConfig = { envId: 'PD', d: 1, seed: 3 };

function breakdownOf(events: readonly EpisodeEvent[]): RewardBreakdown | null {
  const e = events.findLast((x) => x.kind === 'reward');
  return e?.kind === 'reward' ? e.breakdown : null;
}

/** A PD episode stepped with the given actions, as the attribution reads it. */
function played(actions: Array<Action | string>): AttributionInput {
  const { episode } = startEpisode(PD, catalog);
  for (const a of actions) if (!episode.done) episode.step(a);
  return { events: episode.events, breakdown: breakdownOf(episode.events), infraError: null };
}

const answer = (ids: string[]): Action['answer'] => ({ env: 'PD', done: true, recommended_product_ids: ids });
const search = { name: 'catalog.search', args: { query: 'usb charger' } };

describe('attributeFailure: infrastructure', () => {
  const endpoints: FakeEndpoint[] = [];
  afterAll(() => Promise.all(endpoints.map((e) => e.close())));

  async function playAgainst(step: FakeStep, extra: Record<string, unknown>) {
    const fake = await startFakeEndpoint([step]);
    endpoints.push(fake);
    const connection = parseConnection(
      { name: 'fake', baseUrl: fake.baseUrl, model: 'fake', maxRetries: 0, timeoutMs: 2000, ...extra },
      {},
    );
    const r = await playModelEpisode(PD, catalog, connection, { backoffMs: 1 });
    // as server/models stores it on the episode
    return attributeFailure({
      events: r.episode.events,
      breakdown: r.episode.breakdown,
      infraError: r.infra ?? null,
    });
  }

  it("a fake endpoint's timeout is the infrastructure's", async () => {
    const a = await playAgainst(
      { kind: 'stream', pieces: ['Let me ', 'think'], delayMs: 20, stall: true },
      { stream: true, timeoutMs: 300 },
    );
    expect(a).toMatchObject({ party: 'infrastructure', reason: 'timeout', turns: [1] });
    expect(a.detail).toMatch(/^model endpoint failed at turn 1 \(timeout\): /);
  });

  it("a fake endpoint's HTTP error is the infrastructure's", async () => {
    const a = await playAgainst({ kind: 'status', status: 503, body: 'overloaded' }, {});
    expect(a).toMatchObject({ party: 'infrastructure', reason: 'http', turns: [1] });
  });

  it('an unknown kind of infrastructure failure is still the infrastructure', () => {
    const a = attributeFailure({ ...played([]), infraError: { kind: 'dns', message: 'no such host', turn: 2 } });
    expect(a).toEqual({
      party: 'infrastructure',
      reason: 'infra_other',
      detail: 'model endpoint failed at turn 2 (dns): no such host',
      turns: [2],
    });
  });
});

describe('attributeFailure: agent', () => {
  it('an unparsable action is a format error of the agent', () => {
    const a = attributeFailure(played(['{not json']));
    expect(a).toMatchObject({ party: 'agent', reason: 'format', turns: [1] });
    expect(a.detail).toMatch(/^unusable action: /);
  });

  it('an unknown tool in the final turn is tool misuse', () => {
    const a = attributeFailure(played([act({ tool_calls: [{ name: 'catalog.find' }], answer: answer([]) })]));
    expect(a).toMatchObject({ party: 'agent', reason: 'tool_misuse', turns: [1] });
    expect(a.detail).toContain('unknown tool "catalog.find"');
  });

  it('recommending an id never retrieved is a hallucination', () => {
    const a = attributeFailure(played([act({ tool_calls: [search], answer: answer(['p_made_up']) })]));
    expect(a).toMatchObject({ party: 'agent', reason: 'hallucination', turns: [1] });
    expect(a.detail).toBe('recommended id(s) never retrieved: p_made_up');
  });

  it('talking until the turn budget runs out is no answer', () => {
    const a = attributeFailure(played(Array.from({ length: 40 }, () => act())));
    expect(a.party).toBe('agent');
    expect(a.reason).toBe('no_answer');
    expect(a.detail).toMatch(/^no answer before the episode ended \((turn_budget|user_quit)\)$/);
  });

  it('a valid answer that fails is a wrong answer, quoting the decisive failing line', () => {
    const { episode } = playEpisode(PD, catalog, emptyAgent);
    const input = { events: episode.events, breakdown: breakdownOf(episode.events), infraError: null };
    const a = attributeFailure(input);
    expect(a.party).toBe('agent');
    expect(a.reason).toBe('wrong_answer');
    const failing = input.breakdown!.evidence.task.filter((e) => !e.ok).map((e) => e.text);
    expect(failing).toContain(a.detail);
  });
});

describe('attributeFailure: environment, customer, none', () => {
  it('a passing episode has no failure', () => {
    const { episode } = playEpisode(PD, catalog, oracleAgent);
    const a = attributeFailure({ events: episode.events, breakdown: breakdownOf(episode.events), infraError: null });
    expect(a).toMatchObject({ party: 'none', reason: 'passed' });
  });

  it('an episode not yet scored is not attributed', () => {
    expect(attributeFailure(played([act({ tool_calls: [search] })]))).toMatchObject({
      party: 'none',
      reason: 'not_scored',
    });
  });

  it('a replay that differs from the stored episode is the environment', () => {
    const a = attributeFailure({ ...played(['{not json']), replayMismatch: 'replay reward 0.2 ≠ stored 0.5' });
    expect(a).toEqual({
      party: 'environment',
      reason: 'replay_mismatch',
      detail: 'replay reward 0.2 ≠ stored 0.5',
      turns: [],
    });
  });

  it("a tool's internal error is the environment's, even when the agent's answer failed too", () => {
    const base = played([act({ tool_calls: [search], answer: answer([]) })]);
    const events = base.events.map((e) =>
      e.kind === 'tool_call' ? { ...e, error: 'catalog.search: internal error: index missing', result: null } : e,
    );
    expect(attributeFailure({ ...base, events })).toEqual({
      party: 'environment',
      reason: 'tool_internal_error',
      detail: 'catalog.search: internal error: index missing',
      turns: [1],
    });
  });

  it('a goal the customer changed in the last turn, with no turn left to act on it, is the customer', () => {
    const base = played([act({ tool_calls: [search], answer: answer([]) })]);
    const change: EpisodeEvent = {
      kind: 'world_change',
      turn: 1,
      description: 'customer now wants it in blue',
      data: { hidden: true },
    };
    const a = attributeFailure({ ...base, events: [...base.events, change] });
    expect(a).toMatchObject({ party: 'customer', reason: 'goal_changed_at_end', turns: [1] });
    expect(a.detail).toContain('customer now wants it in blue');
    // a change the agent had turns after is not the customer's doing
    const earlier = attributeFailure({ ...base, events: [{ ...change, turn: 0 }, ...base.events] });
    expect(earlier.party).toBe('agent');
  });
});
