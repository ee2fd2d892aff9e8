// Issue 7.5: Seen means retrieved. Ids the agent only sent (catalog.rerank candidates, an
// exchange's new product) do not join Seen, so guessing sequential ids cannot zero r_hall.

import { describe, expect, it } from 'vitest';
import { Episode } from './episode';
import { testCatalog } from './testing/catalog-fixture';
import { returnExchange } from './tools/return-tools';
import type { Action } from './types';

const catalog = testCatalog();
const act = (over: Partial<Action> = {}): Action => ({
  assistant_message: 'Here you go.',
  tool_calls: [],
  answer: null,
  ...over,
});
const guessed = Array.from({ length: 500 }, (_, i) => `syn_${String(i).padStart(7, '0')}`);

describe('Seen means retrieved', () => {
  it('500 guessed sequential ids sent through catalog.rerank stay unseen, and recommending them costs r_hall', () => {
    const e = new Episode({ envId: 'PD', d: 2, seed: 4 }, catalog);
    e.reset();
    const r = e.step(
      act({ tool_calls: [{ name: 'catalog.rerank', args: { query: 'anything', candidate_product_ids: guessed } }] }),
    );
    expect(r.observation.toolResults[0].error).toBeNull(); // the ids all exist: rerank did run
    expect(guessed.filter((id) => e.seenIds.has(id))).toEqual([]);
    const top = (r.observation.toolResults[0].result as { product_id: string }[])
      .slice(0, e.axes.k_rec)
      .map((x) => x.product_id);
    const end = e.step(act({ answer: { env: 'PD', done: true, recommended_product_ids: top } }));
    expect(end.breakdown!.rHall).toBe(-1);
    expect(end.breakdown!.hallucinatedIds).toEqual([...top]);
  });

  it('rerank of retrieved ids keeps them seen from the turn they were retrieved', () => {
    const e = new Episode({ envId: 'PD', d: 2, seed: 4 }, catalog);
    e.reset();
    const search = e.step(act({ tool_calls: [{ name: 'catalog.search', args: { query: 'charger', top_k: 5 } }] }));
    const ids = (search.observation.toolResults[0].result as { product_id: string }[]).map((c) => c.product_id);
    const rr = e.step(
      act({ tool_calls: [{ name: 'catalog.rerank', args: { query: 'fast charger', candidate_product_ids: ids } }] }),
    );
    const order = (rr.observation.toolResults[0].result as { product_id: string }[]).map((x) => x.product_id);
    expect([...order].sort()).toEqual([...ids].sort());
    for (const id of ids) expect(e.seenIds.get(id)).toBe(1);
    const end = e.step(act({ answer: { env: 'PD', done: true, recommended_product_ids: order.slice(0, 3) } }));
    expect(end.breakdown!.rHall).toBe(0);
  });

  it('a guessed id becomes seen only when a retrieval shows it (get_product)', () => {
    const e = new Episode({ envId: 'PD', d: 2, seed: 4 }, catalog);
    e.reset();
    e.step(
      act({ tool_calls: [{ name: 'catalog.rerank', args: { query: 'x', candidate_product_ids: [guessed[7]] } }] }),
    );
    expect(e.seenIds.has(guessed[7])).toBe(false);
    e.step(act({ tool_calls: [{ name: 'catalog.get_product', args: { product_id: guessed[7] } }] }));
    expect(e.seenIds.get(guessed[7])).toBe(2);
  });

  it("an exchange's new product is the agent's choice echoed back, not a retrieval", () => {
    const shown = {
      exchange_id: 'EXC-1',
      order_id: 'ORD-1',
      line_id: 'L1',
      product_id: 'syn_0000001',
      new_product_id: 'syn_0000002',
      new_title: 't',
    };
    expect(returnExchange.seen!(shown)).toEqual(['syn_0000001']);
  });
});
