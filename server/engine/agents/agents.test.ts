// The random and empty agents: valid, reproducible, and unable to score.

import { describe, expect, it } from 'vitest';
import { listEnvs } from '../envs/registry';
import { playEpisode } from '../play';
import { testCatalog } from '../testing/catalog-fixture';
import type { EnvId } from '../types';
import { emptyAgent, emptyAnswer, emptyValue } from './empty';
import { collectIds, createRandomAgent } from './random';

const catalog = testCatalog();
const ENVS = listEnvs().map((e) => e.id as EnvId);
const DS = [0, 3, 6, 9, 12];

describe('random agent', () => {
  it('scores a mean reward below 0 on every env', () => {
    const agent = createRandomAgent(7);
    for (const envId of ENVS) {
      const rewards = DS.flatMap((d) =>
        [0, 1].map((seed) => playEpisode({ envId, d, seed }, catalog, agent).episode.breakdown!.total),
      );
      const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
      expect(mean, `${envId} mean ${mean.toFixed(3)}`).toBeLessThan(0);
    }
  });

  it('always sends valid actions: never format_invalid, and its final turn calls no tool', () => {
    const agent = createRandomAgent(3);
    for (const envId of ENVS)
      for (const d of [0, 8]) {
        const { episode, actions } = playEpisode({ envId, d, seed: 5 }, catalog, agent);
        expect(episode.termination).not.toBe('format_invalid');
        // its answer turn calls nothing, so a tool_invalid can only come from a turn the customer or
        // the budget ended (a failing call in the turn that ends the episode is −1, SPEC §1)
        if (episode.termination === 'tool_invalid') expect(actions.at(-1)!.answer?.done).not.toBe(true);
        for (const a of actions) expect(a.assistant_message.trim().length).toBeGreaterThan(0);
      }
  });

  it('is reproducible from its seed, and differs across seeds', () => {
    const play = (seed: number) =>
      JSON.stringify(playEpisode({ envId: 'CART', d: 6, seed: 2 }, catalog, createRandomAgent(seed)).actions);
    expect(play(11)).toBe(play(11));
    expect(play(11)).not.toBe(play(12));
  });

  it('collects ids under *_id keys and *_ids lists, by field name', () => {
    const ids = new Map<string, Set<string>>();
    collectIds({ lines: [{ line_id: 'L1', product_id: 'p1' }], candidate_product_ids: ['p2'], title: 'x' }, ids);
    expect([...ids.get('product_id')!]).toEqual(['p1', 'p2']);
    expect([...ids.get('line_id')!]).toEqual(['L1']);
  });
});

describe('empty agent', () => {
  it('scores at most −0.5 on every env at every d', () => {
    for (const envId of ENVS)
      for (let d = 0; d <= 12; d++) {
        const { episode } = playEpisode({ envId, d, seed: d }, catalog, emptyAgent);
        expect(episode.turn).toBe(1);
        expect(episode.breakdown!.total, `${envId} d=${d}`).toBeLessThanOrEqual(-0.5);
      }
  });

  it('answers with the emptiest values the schema allows', () => {
    expect(
      emptyValue({ type: 'object', properties: { a: { type: 'array' }, b: { type: 'string' } }, required: ['a'] }),
    ).toEqual({ a: [] });
    expect(emptyValue({ anyOf: [{ type: 'number' }, { type: 'string' }] })).toBe('');
    expect(emptyValue({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBeNull();
    expect(emptyAnswer('CART')).toEqual({ env: 'CART', done: true });
  });
});
