import { describe, expect, it } from 'vitest';
import { axesFor } from '../difficulty';
import { Rng } from '../random';
import { testCatalog } from '../testing/catalog-fixture';
import { createWorld } from '../world/state';
import { getTool } from './index';
import { describeArgsError } from './registry';

const catalog = testCatalog();
const tool = getTool('policy.search')!;
function call(args: Record<string, unknown>): { result?: any; error?: string } {
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) return { error: describeArgsError(tool, parsed.error, args) };
  return {
    result: tool.run(parsed.data, {
      catalog,
      world: createWorld('2026-01-01'),
      axes: axesFor(0),
      turn: 1,
      rng: new Rng(1),
    }),
  };
}

describe('policy.search', () => {
  it('returns up to 5 rules by default, with id, title, text, category and score', () => {
    const { result } = call({ query: 'restocking fee opened electronics' });
    expect(result.length).toBe(5);
    expect(result[0]).toMatchObject({ rule_id: 'RET-22', category: 'returns' });
    expect(result[0].text).toMatch(/15%/);
  });

  it('top_k is 1–20', () => {
    const many = call({ query: 'shipping', top_k: 20 }).result.length;
    expect(many).toBeGreaterThan(5);
    expect(many).toBeLessThanOrEqual(20);
    expect(call({ query: 'shipping', top_k: 2 }).result.length).toBe(2);
    expect(call({ query: 'shipping', top_k: 21 }).error).toMatch(/^policy.search: argument "top_k"/);
    expect(call({ query: 'shipping', top_k: 0 }).error).toMatch(/argument "top_k"/);
  });

  it('rejects a missing or empty query and unknown arguments', () => {
    expect(call({}).error).toBe('policy.search: missing required argument "query"');
    expect(call({ query: '' }).error).toMatch(/argument "query"/);
    expect(call({ query: 'fee', category: 'returns' }).error).toBe(
      'policy.search: unknown argument "category" (allowed: query, top_k)',
    );
  });
});
