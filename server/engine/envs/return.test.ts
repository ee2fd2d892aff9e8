// RETURN's verifier by hand-computed cases (r_sel, r_ret, r_rep); the rest in return-episode.test.ts.
import { describe, expect, it } from 'vitest';
import type { Product } from '../catalog/types';
import { axesFor } from '../difficulty';
import { Rng } from '../random';
import { testCatalog, verifyContext } from '../testing';
import { getTool } from '../tools';
import { ToolError } from '../tools/registry';
import { makeLine, newOrder, setOrderStatus } from '../world/orders';
import { checkEligibility } from '../world/returns';
import { createWorld, type WorldState } from '../world/state';
import { returnEnv, type ReturnGoal } from './return';
import type { CallRecord } from './types';
import { newCustomerNotes } from './shared/recommend-customer';

const catalog = testCatalog();
const TODAY = '2026-06-30';

const firstIn = (dept: string): Product => {
  for (let i = 0; i < catalog.size; i++)
    if (catalog.at(i).department === dept && catalog.at(i).stockQty > 5) return catalog.at(i);
  throw new Error(dept);
};
const electronics = firstIn('electronics');
const clothing = firstIn('clothing');

/** One order delivered `days` ago: L1 electronics (15-day window, the target), L2 clothing (30 days). */
function scenario(days: number) {
  const world = createWorld(TODAY);
  const lines = [makeLine('ORD-30000', 1, electronics, 1), makeLine('ORD-30000', 2, clothing, 1)];
  const order = newOrder({
    order_id: 'ORD-30000',
    placed_date: TODAY,
    shipping_address_id: 'addr_1',
    payment_method_id: 'pm_1',
    lines,
  });
  setOrderStatus(order, 'DELIVERED', TODAY, new Rng(2), days);
  world.orders.push(order);
  const e = checkEligibility(world, order, lines[0]);
  const goal: ReturnGoal = {
    orderId: 'ORD-30000',
    lineId: 'ORD-30000-L1',
    productId: electronics.id,
    title: electronics.title,
    itemPhrase: 'gadget',
    case: 'eligible',
    eligible: e.eligible,
    windowDays: e.window_days,
    daysSinceDelivery: days,
    deliveredDate: e.delivered_date!,
    eligibilityReason: e.reason,
    reasonCode: 'defective',
    replacement: null,
    replacementNoun: null,
  };
  return { world, goal };
}

/** return.initiate as the agent would call it; false when the tool refuses. */
function initiate(world: WorldState, lineId: string, turn = 1): boolean {
  const tool = getTool('return.initiate')!;
  try {
    tool.run(tool.args.parse({ order_id: 'ORD-30000', line_id: lineId, reason_code: 'defective', method: 'mail' }), {
      catalog,
      world,
      axes: axesFor(4),
      turn,
      rng: new Rng(1),
    });
    return true;
  } catch (e) {
    if (e instanceof ToolError) return false;
    throw e;
  }
}

function verify(world: WorldState, goal: ReturnGoal, answer: Record<string, unknown>, calls: CallRecord[] = []) {
  const ctx = verifyContext(catalog, world, 4, { calls, turn: 3 });
  return returnEnv.verify(
    goal,
    newCustomerNotes(),
    { env: 'RETURN', done: true, selected_order_id: 'ORD-30000', selected_line_id: 'ORD-30000-L1', ...answer },
    ctx,
  );
}

describe('RETURN verifier: r_task = 0.45·r_sel + 0.45·r_ret + 0.10·r_rep', () => {
  it('right line selected and returned, no replacement wanted → 1, pass', () => {
    const { world, goal } = scenario(3);
    expect(initiate(world, 'ORD-30000-L1')).toBe(true);
    expect(verify(world, goal, {})).toMatchObject({
      rTask: 1,
      isCorrect: true,
      metrics: { rSel: 1, rRet: 1, rRep: 1 },
    });
  });

  it('an exchange of the target line counts as r_ret = +1', () => {
    const { world, goal } = scenario(3);
    world.exchanges.push({
      exchange_id: 'EXC-0001',
      order_id: 'ORD-30000',
      line_id: 'ORD-30000-L1',
      product_id: electronics.id,
      new_product_id: electronics.id,
      new_variant_id: null,
      qty: 1,
      price_difference: 0,
      status: 'INITIATED',
      created_date: TODAY,
      turn: 2,
    });
    expect(verify(world, goal, {}).metrics.rRet).toBe(1);
  });

  it('wrong line selected: r_sel = −1 and r_rep = r_sel (rev 3) → −0.10, fail', () => {
    const { world, goal } = scenario(3);
    initiate(world, 'ORD-30000-L1');
    const r = verify(world, goal, { selected_line_id: 'ORD-30000-L2' });
    expect(r.rTask).toBeCloseTo(-0.1, 12);
    expect(r.isCorrect).toBe(false);
  });

  it('FIX: only another line initiated → r_ret = −1 → 0.10; target plus another line → also −1', () => {
    const { world, goal } = scenario(3);
    initiate(world, 'ORD-30000-L2', 2);
    const r = verify(world, goal, {});
    expect(r.metrics.rRet).toBe(-1);
    expect(r.rTask).toBeCloseTo(0.1, 12);
    expect(r.evidence.find((e) => /not the target line/.test(e.text))!.turns).toEqual([2]);
    initiate(world, 'ORD-30000-L1', 3);
    expect(verify(world, goal, {}).metrics.rRet).toBe(-1);
  });

  it('eligible item but nothing initiated, or the answer wrongly calls it ineligible → r_ret = −1', () => {
    const { world, goal } = scenario(3);
    expect(verify(world, goal, {}).metrics.rRet).toBe(-1);
    initiate(world, 'ORD-30000-L1');
    expect(verify(world, goal, { return_ineligible: true }).metrics.rRet).toBe(-1);
  });

  describe('at the window boundary (electronics, 15 days from delivery)', () => {
    for (const [days, eligible] of [
      [14, true],
      [15, true],
      [16, false],
    ] as const) {
      it(`delivered ${days} days ago (window ${days - 15 >= 0 ? '+' : ''}${days - 15}) → ${eligible ? 'eligible: returning passes' : 'ineligible: explaining passes'}`, () => {
        const { world, goal } = scenario(days);
        expect(goal.eligible).toBe(eligible);
        expect(initiate(world, 'ORD-30000-L1')).toBe(eligible); // the tool refuses an ineligible line
        const r = verify(world, goal, eligible ? {} : { return_ineligible: true });
        expect(r).toMatchObject({ rTask: 1, isCorrect: true });
        if (!eligible) expect(verify(world, goal, {}).metrics.rRet).toBe(-1); // silent: not explained
      });
    }
  });

  it('revision 2: a refused return.initiate on the ineligible target counts as initiating it → r_ret = −1', () => {
    const { world, goal } = scenario(16);
    expect(initiate(world, 'ORD-30000-L1', 2)).toBe(false);
    const refused: CallRecord = {
      turn: 2,
      name: 'return.initiate',
      args: { order_id: 'ORD-30000', line_id: 'ORD-30000-L1', reason_code: 'defective', method: 'mail' },
      error: 'return.initiate: line ORD-30000-L1 cannot be returned',
    };
    const r = verify(world, goal, { return_ineligible: true }, [refused]);
    expect(r.metrics.rRet).toBe(-1);
    expect(r.rTask).toBeCloseTo(0.45 - 0.45 + 0.1, 12);
    expect(r.evidence.find((e) => /refused initiate/.test(e.text))!.turns).toEqual([2]);
    // a refused call on another line, or a successful check of eligibility, does not count
    const other: CallRecord = { ...refused, args: { ...(refused.args as object), line_id: 'ORD-30000-L2' } };
    const check: CallRecord = {
      turn: 1,
      name: 'return.check_eligibility',
      args: { order_id: 'ORD-30000', line_id: 'ORD-30000-L1' },
      error: null,
    };
    expect(verify(world, goal, { return_ineligible: true }, [other, check]).metrics.rRet).toBe(1);
  });

  it('ineligible item: returning another line instead → r_ret = −1 even with the flag', () => {
    const { world, goal } = scenario(16);
    expect(initiate(world, 'ORD-30000-L2')).toBe(true); // clothing still in its 30-day window
    expect(verify(world, goal, { return_ineligible: true }).metrics.rRet).toBe(-1);
  });
});

describe('RETURN evidence (round 11): the total line carries the verdict, negative factors in parentheses', () => {
  /** Three in-stock products of one category: two the customer wants (pool), one it does not. */
  function replacementProducts(): [Product, Product, Product] {
    const byCategory = new Map<string, Product[]>();
    for (let i = 0; i < catalog.size; i++) {
      const p = catalog.at(i);
      if (p.stockQty <= 5) continue;
      const list = byCategory.get(p.category) ?? [];
      list.push(p);
      if (list.length === 3) return list as [Product, Product, Product];
      byCategory.set(p.category, list);
    }
    throw new Error('no category with three in-stock products');
  }

  it('r_task 0.957 ≥ 0.95 with a replacement that fails on its own: the total line says fail (✗), r_rep says why', () => {
    const { world, goal } = scenario(3);
    const [a, b, other] = replacementProducts();
    const entry = (p: Product) => ({ id: p.id, s: 1, u: 1, sim: 1, rel: 1, stock: p.stockQty });
    goal.replacement = {
      mode: 'pd',
      referenceId: a.id,
      category: a.category,
      constraints: [],
      compatibility: [],
      persona: { weights: { price: 1, rating: 0, ship: 0, brand: 0, sim: 0 }, brand: null, priceLow: 0, priceHigh: 1 },
      k: 2,
      alpha: 1,
      lambdaSim: 0,
      weights: { rank: 0.55, cons: 0.35, oos: 0.1 },
      passThreshold: 0.95,
      excludeIds: [],
      pool: [entry(a), entry(b)],
    } as unknown as ReturnGoal['replacement'];
    initiate(world, 'ORD-30000-L1');
    const r = verify(world, goal, { replacement_product_ids: [a.id, other.id] });
    // By hand: nDCG@2 = (1/log2 2) / (1/log2 2 + 1/log2 3) = 1/1.63093 = 0.61315 → r_rank = 0.22629;
    // r_cons = 1 (no constraints), r_oos = 1 → the replacement's r_task = 0.55·0.22629 + 0.35 + 0.1
    // = 0.57446 < 0.95; RETURN r_task = 0.45 + 0.45 + 0.1·0.57446 = 0.95745.
    expect(r.metrics.rRep).toBeCloseTo(0.57446, 5);
    expect(r.rTask).toBeCloseTo(0.95745, 5);
    expect(r.isCorrect).toBe(false);
    const total = r.evidence.at(-1)!;
    expect(total).toEqual({
      text: 'r_task = 0.45·r_sel + 0.45·r_ret + 0.10·r_rep = 0.45·1 + 0.45·1 + 0.10·0.574 = 0.957 → fail: the replacement does not pass on its own',
      turns: [],
      ok: false,
      role: 'verdict',
    });
    expect(r.evidence.find((e) => e.text.includes('→ r_rep'))).toEqual({
      text: 'the replacement does not pass on its own (its r_task 0.574 < 0.95) → r_rep = 0.574',
      turns: [],
      ok: false,
      role: 'part',
    });
    const repVerdict = r.evidence.find((e) => e.text.startsWith('replacement: r_task'))!;
    expect(repVerdict).toMatchObject({ ok: false, role: 'verdict', depth: 1 });
    expect(repVerdict.text).toBe(
      'replacement: r_task = 0.55·r_rank + 0.35·r_cons + 0.1·r_oos = 0.55·0.226 + 0.35·1 + 0.1·1 = 0.574 (pass ≥ 0.95) → fail',
    );
    // the r_rank line is ✗: nDCG 0.613 lost points (✓ only when r_rank = 1)
    expect(r.evidence.find((e) => e.text.includes('→ r_rank'))!.ok).toBe(false);
  });

  it('wrong line, nothing returned: "0.45·(−1) + 0.45·(−1) + 0.10·(−1.000) = −1.000 → fail: r_sel = −1; r_ret = −1"', () => {
    const { world, goal } = scenario(3);
    const r = verify(world, goal, { selected_line_id: 'ORD-30000-L2' });
    expect(r.evidence.at(-1)!.text).toBe(
      'r_task = 0.45·r_sel + 0.45·r_ret + 0.10·r_rep = 0.45·(−1) + 0.45·(−1) + 0.10·(−1.000) = −1.000 → fail: r_sel = −1; r_ret = −1',
    );
    expect(r.evidence[0].text).toMatch(/→ r_sel = −1$/);
    expect(r.evidence.map((e) => e.text).join('\n')).not.toMatch(/[=·(] ?-\d/);
  });

  it('a pass says so on the total line, ✓', () => {
    const { world, goal } = scenario(3);
    initiate(world, 'ORD-30000-L1');
    expect(verify(world, goal, {}).evidence.at(-1)).toMatchObject({
      text: 'r_task = 0.45·r_sel + 0.45·r_ret + 0.10·r_rep = 0.45·1 + 0.45·1 + 0.10·1.000 = 1.000 → pass',
      ok: true,
    });
  });
});
