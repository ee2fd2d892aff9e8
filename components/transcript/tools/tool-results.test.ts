import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEpisode } from '@/server/engine';
import { createSyntheticCatalog } from '@/server/engine/catalog/synthetic';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EpisodeEvent } from '@/server/engine/types';
import { ToolResultView } from './ToolResult';

// Every tool family has its own card: real results from an engine episode render as cards,
// not as the raw-JSON fallback.
let catalog: Catalog;
beforeAll(() => {
  catalog = createSyntheticCatalog({ seed: 1, size: 3000 });
});

const html = (name: string, result: unknown) => renderToStaticMarkup(createElement(ToolResultView, { name, result }));
type ToolEvent = Extract<EpisodeEvent, { kind: 'tool_call' }>;

describe('tool result cards', () => {
  it('orders, eligibility, returns, policy rules, rerank and search results each get their card', () => {
    // RETURN offers the order, return, policy and catalog tools; take a seed whose target line is eligible
    const seed = [1, 2, 3, 4, 5, 6, 7, 8].find((s) => {
      const probe = createEpisode({ envId: 'RETURN', d: 0, seed: s }, catalog);
      probe.reset();
      return (probe.hiddenGoal().data as { eligible: boolean }).eligible;
    })!;
    const ep = createEpisode({ envId: 'RETURN', d: 0, seed, axisOverrides: { B_tool: 12 } }, catalog);
    ep.reset();
    const ret = ep.hiddenGoal().data as { orderId: string; lineId: string };
    const product = catalog.at(0);
    ep.step({
      assistant_message: 'Working on it.',
      tool_calls: [
        { name: 'order.list', args: { days: 365 } },
        { name: 'order.get_status', args: { order_id: ret.orderId } },
        { name: 'return.check_eligibility', args: { order_id: ret.orderId, line_id: ret.lineId } },
        {
          name: 'return.initiate',
          args: { order_id: ret.orderId, line_id: ret.lineId, reason_code: 'defective', method: 'mail' },
        },
        { name: 'return.check_eligibility', args: { order_id: ret.orderId, line_id: ret.lineId } }, // now: already initiated
        { name: 'policy.search', args: { query: 'free shipping minimum' } },
        { name: 'catalog.search', args: { query: product.title } },
        { name: 'catalog.rerank', args: { query: product.title, candidate_product_ids: [product.id] } },
      ],
      answer: null,
    });
    const calls = ep.events.filter((e): e is ToolEvent => e.kind === 'tool_call');
    expect(calls.filter((c) => c.error !== null).map((c) => `${c.name}: ${c.error}`)).toEqual([]);
    const expected: Array<[string, string]> = [
      ['order.list', 'data-testid="order-card"'],
      ['order.get_status', `data-order-id="${ret.orderId}"`],
      ['return.check_eligibility', 'data-eligible="true"'],
      ['return.initiate', 'data-testid="return-record"'],
      ['return.check_eligibility', 'data-eligible="false"'],
      ['policy.search', 'data-testid="policy-hit"'],
      ['catalog.search', 'data-testid="product-card"'],
      ['catalog.rerank', 'data-testid="rerank-hit"'],
    ];
    calls.forEach((c, i) => {
      const out = html(c.name, c.result);
      expect(c.name).toBe(expected[i][0]);
      expect(out, c.name).toContain(expected[i][1]);
      expect(out, c.name).not.toContain('<pre'); // not the JSON fallback
    });
    expect(html('order.list', calls[0].result)).toContain(ret.lineId);
    expect(html('return.check_eligibility', calls[4].result)).toContain('already initiated');
    expect(html('return.initiate', calls[3].result)).toMatch(
      /data-testid="return-record" data-return-id="[^"]+".*>Return<\/span>/,
    );
    // order.checkout returns the same order view as order.get_status
    expect(html('order.checkout', calls[1].result)).toContain('new order placed');
  });

  it('an exchange record names both products; unknown shapes fall back to JSON', () => {
    const out = html('return.exchange', {
      exchange_id: 'EXC-0001',
      order_id: 'ORD-1',
      line_id: 'ORD-1-L1',
      product_id: 'p_old',
      new_product_id: 'p_new',
      new_variant_id: null,
      new_title: 'The New One',
      qty: 1,
      price_difference: -2.5,
      status: 'INITIATED',
      created_date: '2025-01-02',
    });
    expect(out).toContain('The New One');
    expect(out).toContain('refund $2.50');
    expect(out).toContain('data-testid="exchange-record" data-exchange-id="EXC-0001"');
    expect(out).toContain('>Exchange</span>');
    expect(html('order.list', { surprise: true })).toContain('<pre');
  });
});
