import { describe, expect, it } from 'vitest';
import type { EpisodeEvent } from '@/server/engine/types';
import { collectProductIds, collectProductTitles, collectTitlesInto } from './product-ids';

const call = (name: string, result: unknown, error: string | null = null): EpisodeEvent => ({
  kind: 'tool_call',
  turn: 1,
  index: 0,
  name,
  args: {},
  result,
  error,
});

describe('product ids and titles in tool results, answers and the world', () => {
  it('titles come from results that show them (cards, order lines, exchanges), not from failed calls', () => {
    const events: EpisodeEvent[] = [
      call('catalog.search', [{ product_id: 'a', title: 'Alpha' }]),
      call('order.list', { orders: [{ order_id: 'O', lines: [{ line_id: 'O-L1', product_id: 'b', title: 'Beta' }] }] }),
      call('return.exchange', { product_id: 'b', new_product_id: 'c', new_title: 'Gamma' }),
      call('catalog.get_product', { product_id: 'z', title: 'Zed' }, 'boom'),
      call('catalog.rerank', [{ product_id: 'd', score: 1 }]),
    ];
    expect(Object.fromEntries(collectProductTitles(events))).toEqual({ a: 'Alpha', b: 'Beta', c: 'Gamma' });
    expect(Object.fromEntries(collectTitlesInto(new Map(), { returns: [{ product_id: 'e', title: 'Eps' }] }))).toEqual({
      e: 'Eps',
    });
  });

  it('ids come from product_id fields and *_product_ids lists, however deep', () => {
    const ids = collectProductIds(new Set(), [{ product_id: 'd', score: 1 }]);
    collectProductIds(ids, {
      env: 'JOURNEY',
      subtasks: [
        { env: 'PD', recommended_product_ids: ['p1', 'p2'] },
        { env: 'RETURN', replacement_product_ids: ['p3'] },
      ],
    });
    collectProductIds(ids, { exchanges: [{ product_id: 'x', new_product_id: 'y' }], line_id: 'not-a-product' });
    expect([...ids].sort()).toEqual(['d', 'p1', 'p2', 'p3', 'x', 'y']);
  });
});
