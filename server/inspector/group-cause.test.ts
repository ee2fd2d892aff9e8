import { describe, expect, it } from 'vitest';
import { emptyAgent } from '../engine/agents/empty';
import { playEpisode } from '../engine/play';
import { act, startEpisode, testCatalog } from '../engine/testing';
import type { Action, EpisodeEvent, RewardBreakdown } from '../engine/types';
import { divergenceTurn, groupCause, stableJson, toolErrorSignature, type CauseRollout } from './group-cause';

const catalog = testCatalog();

/** Plays the given actions in a fresh PD episode (d 1, seed 3) and returns it as a rollout. */
function rolloutOf(id: string, actions: Action[]): CauseRollout {
  const { episode } = startEpisode({ envId: 'PD', d: 1, seed: 3 }, catalog);
  for (const a of actions) if (!episode.done) episode.step(a);
  return { id, events: episode.events, breakdown: breakdownOf(episode.events) };
}

function breakdownOf(events: readonly EpisodeEvent[]): RewardBreakdown | null {
  const e = events.findLast((x) => x.kind === 'reward');
  return e?.kind === 'reward' ? e.breakdown : null;
}

const answer = (ids: string[]): Action['answer'] => ({ env: 'PD', done: true, recommended_product_ids: ids });
const search = { name: 'catalog.search', args: { query: 'usb charger' } };

describe('groupCause', () => {
  it('a group of 4 that all call an unknown tool: the shared tool error, and the turn where their actions part', () => {
    const group = [1, 2, 3, 4].map((i) =>
      rolloutOf(`r${i}`, [
        act({ tool_calls: [search] }),
        act({ tool_calls: [{ name: 'catalog.find', args: { q: `thing ${i}` } }], answer: answer([]) }),
      ]),
    );
    expect(new Set(group.map((r) => r.breakdown?.total))).toEqual(new Set([-1]));
    const cause = groupCause(group);
    expect(cause.causes).toContainEqual({ kind: 'tool_error', text: 'shared tool error: unknown tool "catalog.find"' });
    expect(cause.causes.at(-1)).toEqual({ kind: 'termination', text: 'every rollout ended: tool_invalid' });
    expect(cause.causes.some((c) => c.kind === 'no_tool_call')).toBe(false);
    // turn 1 is the same search in all four; turn 2 calls the unknown tool with other arguments
    expect(cause.divergenceTurn).toBe(2);
  });

  it('reports only what every rollout shares', () => {
    const badArg = { name: 'catalog.search', args: { query: 'usb', colour: 'red' } };
    const a = rolloutOf('a', [act({ tool_calls: [badArg, { name: 'nope' }], answer: answer([]) })]);
    const b = rolloutOf('b', [act({ tool_calls: [badArg], answer: answer([]) })]);
    const texts = groupCause([a, b]).causes.map((c) => c.text);
    expect(texts).toContain('shared tool error: catalog.search: unknown argument "colour"');
    expect(texts.join('\n')).not.toContain('nope');
    // the same actions up to where a made one more call
    expect(groupCause([a, b]).divergenceTurn).toBe(1);
    expect(groupCause([b, b]).divergenceTurn).toBeNull();
  });

  it('rollouts that never call a tool: no tool call, the shared failing evidence line, the termination', () => {
    const group = [1, 2, 3].map((i) => {
      const { episode } = playEpisode({ envId: 'PD', d: 1, seed: 3 }, catalog, emptyAgent);
      return { id: `e${i}`, events: episode.events, breakdown: breakdownOf(episode.events) };
    });
    const { causes, divergenceTurn: turn } = groupCause(group);
    expect(causes.map((c) => c.kind)).toEqual(['no_tool_call', 'failing_evidence', 'termination']);
    const failing = group[0].breakdown!.evidence.task.filter((e) => !e.ok).map((e) => e.text);
    expect(failing).toContain(causes[1].text.replace('shared failing evidence: ', ''));
    expect(causes[2].text).toBe('every rollout ended: answered');
    expect(turn).toBeNull();
  });

  it('the same hallucinated id in every rollout', () => {
    const group = ['a', 'b'].map((id) =>
      rolloutOf(id, [act({ tool_calls: [search], answer: answer(['p_made_up', `p_${id}_other`]) })]),
    );
    const texts = groupCause(group).causes.map((c) => c.text);
    expect(texts).toContain('same hallucinated id: p_made_up was recommended but never retrieved');
    expect(texts.join('\n')).not.toContain('p_a_other');
    // different made-up ids share nothing
    const apart = ['c', 'd'].map((id) =>
      rolloutOf(id, [act({ tool_calls: [search], answer: answer([`p_${id}_fake`]) })]),
    );
    expect(apart.every((r) => r.breakdown!.hallucinatedIds.length === 1)).toBe(true);
    expect(groupCause(apart).causes.some((c) => c.kind === 'hallucinated_id')).toBe(false);
  });

  it('a shared format error, and a rollout that ended earlier diverges at its missing turn', () => {
    const broken = rolloutOf('x', ['{not json' as unknown as Action]);
    const texts = groupCause([broken, rolloutOf('y', ['{not json' as unknown as Action])]).causes.map((c) => c.kind);
    // an unusable action ends the episode without an answer, which the verdict line says
    expect(texts).toEqual(['format_error', 'no_tool_call', 'failing_evidence', 'termination']);
    const longer = rolloutOf('z', [act({ tool_calls: [search] }), act({ answer: answer([]) })]);
    const shorter = rolloutOf('w', [act({ tool_calls: [search] })]);
    expect(divergenceTurn([longer, shorter])).toBe(2);
  });

  it('refuses an empty group', () => {
    expect(() => groupCause([])).toThrow(/no rollouts/);
  });
});

describe('toolErrorSignature', () => {
  it('keeps the mistake and drops what varies between calls', () => {
    expect(toolErrorSignature('unknown tool "cart.nuke"; available tools: cart.add, cart.view')).toBe(
      'unknown tool "cart.nuke"',
    );
    expect(toolErrorSignature('catalog.search: unknown arguments "a", "b" (allowed: query, filters, top_k)')).toBe(
      'catalog.search: unknown arguments "a", "b"',
    );
    expect(toolErrorSignature('catalog.search: missing required argument "query"')).toBe(
      'catalog.search: missing required argument "query"',
    );
    expect(toolErrorSignature('tool budget exceeded: at most 2 tool calls per turn; this call was not executed')).toBe(
      'tool budget exceeded',
    );
    expect(toolErrorSignature('order.get: no order o_9')).toBe('order.get: no order o_9');
  });

  it("reads the engine's own message for an unknown filter key (the engine refuses it, it drops nothing)", () => {
    const call = { name: 'catalog.search', args: { query: 'usb', filters: { colour: 'red' } } };
    const r = rolloutOf('f', [act({ tool_calls: [call] })]);
    const errors = r.events.flatMap((e) => (e.kind === 'tool_call' && e.error ? [e.error] : []));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/allowed: /);
    expect(toolErrorSignature(errors[0])).toBe('catalog.search: unknown argument "colour"');
  });
});

describe('stableJson', () => {
  it('sorts object keys at every depth and leaves array order alone', () => {
    expect(stableJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(stableJson({ a: { c: null, d: [2, 1] }, b: 1 }));
    expect(stableJson([1, 2])).not.toBe(stableJson([2, 1]));
    expect(stableJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});
