// Facts that agree (issue 31): what policy.search tells an agent about return windows and
// return shipping fees is what return.check_eligibility and return.initiate then apply, for every
// department × return reason × membership tier (and days since delivery, order size, method).
import { describe, expect, it } from 'vitest';
import { ALL_DEPARTMENTS } from '../catalog/taxonomy';
import { Rng } from '../random';
import { callTool } from '../testing/call-tool';
import { FIELD_VALUES, conditionHolds, getPolicyRule, type Facts, type PolicyRule } from './policy-kb';
import { newOrder, setOrderStatus, type OrderLine } from './orders';
import { RETURN_METHODS, RETURN_REASONS, type ReturnMethod, type ReturnReason } from './returns';
import { createWorld } from './state';

const TODAY = '2026-03-15';
const TIERS = FIELD_VALUES.member_tier!;
const DAYS = [0, 1, 10, 14, 15, 16, 29, 30, 31, 45];
const UNIT_PRICES = [20, 150];
const METHOD_WORDS: Record<ReturnMethod, string> = {
  mail: 'by mail',
  in_store: 'dropped off in store',
  pickup: 'courier pickup',
};

/** A world holding one delivered order of one line of `category`. */
function worldWith(category: string, deliveredDaysAgo: number, unitPrice: number) {
  const world = createWorld(TODAY);
  const line: OrderLine = {
    line_id: 'ORD-10001-L1',
    product_id: 'p1',
    variant_id: null,
    title: 'Acme Thing',
    category,
    qty: 1,
    unit_price: unitPrice,
  };
  const order = newOrder({
    order_id: 'ORD-10001',
    placed_date: TODAY,
    shipping_address_id: 'addr_1',
    payment_method_id: 'pm_1',
    lines: [line],
  });
  setOrderStatus(order, 'DELIVERED', TODAY, new Rng(7), deliveredDaysAgo);
  world.orders.push(order);
  return world;
}

/** The answer an agent reads off policy.search's hits: the most specific rule of the topic that holds. */
function searchedAnswer(query: string, topic: string, facts: Facts): PolicyRule | undefined {
  const { result, error } = callTool(createWorld(TODAY), 'policy.search', { query, top_k: 20 });
  expect(error).toBeUndefined();
  const rules = (result as Array<{ rule_id: string }>)
    .map((h) => getPolicyRule(h.rule_id)!)
    .filter((r) => r.topic === topic && r.conditions.every((c) => conditionHolds(c, facts)))
    .sort((a, b) => b.conditions.length - a.conditions.length);
  if (rules.length > 1)
    expect(rules[1].conditions.length, `${query}: two rules tie`).toBeLessThan(rules[0].conditions.length);
  return rules[0];
}

const policyDepartment = (dept: string) => (FIELD_VALUES.department!.includes(dept) ? dept : undefined);
const condition = (reason: ReturnReason) => (reason === 'defective' ? 'defective' : 'opened');
const label = (dept: string) => dept.replace(/_/g, ' ').replace('home kitchen', 'home & kitchen');

describe('policy.search and the return tools state the same facts', () => {
  for (const { name: dept } of ALL_DEPARTMENTS) {
    it(`${dept}: the return window policy.search gives is the one return.check_eligibility applies`, () => {
      for (const reason of RETURN_REASONS)
        for (const tier of TIERS)
          for (const days of DAYS)
            for (const price of UNIT_PRICES) {
              const world = worldWith(`${dept}/thing`, days, price);
              const facts: Facts = {
                department: policyDepartment(dept),
                member_tier: tier,
                item_condition: condition(reason),
                days_since_delivery: days,
                order_total: price,
                purchase_channel: 'online',
              };
              const rule = searchedAnswer(`return window for ${label(dept)} items`, 'return_window_days', facts);
              const where = `${dept}, ${reason}, ${tier}, day ${days}, $${price}`;
              expect(rule, `${where}: no rule found`).toBeDefined();
              const { result } = callTool(world, 'return.check_eligibility', {
                order_id: 'ORD-10001',
                line_id: 'ORD-10001-L1',
              });
              expect(result.window_days, `${where}: ${rule!.rule_id}`).toBe(rule!.answer);
              expect(result.eligible, where).toBe(days <= Number(rule!.answer) && rule!.answer !== 0);
            }
    });

    it(`${dept}: the return shipping fee policy.search gives is the one return.initiate charges`, () => {
      for (const reason of RETURN_REASONS)
        for (const tier of TIERS)
          for (const method of RETURN_METHODS)
            for (const price of UNIT_PRICES) {
              const world = worldWith(`${dept}/thing`, 1, price);
              const facts: Facts = {
                department: policyDepartment(dept),
                member_tier: tier,
                item_condition: condition(reason),
                return_method: method,
                days_since_delivery: 1,
                order_total: price,
                purchase_channel: 'online',
              };
              const query = `return shipping fee for ${reason === 'defective' ? 'defective items ' : ''}returns ${METHOD_WORDS[method]}`;
              const rule = searchedAnswer(query, 'return_shipping_fee', facts);
              const where = `${dept}, ${reason}, ${tier}, ${method}, $${price}`;
              expect(rule, `${where}: no rule found`).toBeDefined();
              const { result, error } = callTool(world, 'return.initiate', {
                order_id: 'ORD-10001',
                line_id: 'ORD-10001-L1',
                reason_code: reason,
                method,
              });
              if (dept === 'grocery') {
                expect(error, where).toMatch(/not returnable/);
                continue;
              }
              expect(result.fee, `${where}: ${rule!.rule_id}`).toBe(rule!.answer);
              // the refund is the price less this fee and the restocking fee (tested below)
              expect(Math.round((result.refund_amount + result.restocking_fee) * 100) / 100, where).toBe(
                Math.round((price - Number(rule!.answer)) * 100) / 100,
              );
            }
    });

    it(`${dept}: the restocking fee policy.search gives is the one return.initiate deducts from the refund`, () => {
      for (const reason of RETURN_REASONS)
        for (const tier of TIERS)
          for (const method of RETURN_METHODS)
            for (const price of [...UNIT_PRICES, 600]) {
              const world = worldWith(`${dept}/thing`, 1, price);
              const facts: Facts = {
                department: policyDepartment(dept),
                member_tier: tier,
                item_condition: condition(reason),
                return_method: method,
                days_since_delivery: 1,
                order_total: price,
                purchase_channel: 'online',
              };
              const query = `restocking fee for ${condition(reason)} ${label(dept)} returned ${METHOD_WORDS[method]}`;
              const rule = searchedAnswer(query, 'restocking_fee_percent', facts);
              const where = `${dept}, ${reason}, ${tier}, ${method}, $${price}`;
              expect(rule, `${where}: no rule found`).toBeDefined();
              const { result, error } = callTool(world, 'return.initiate', {
                order_id: 'ORD-10001',
                line_id: 'ORD-10001-L1',
                reason_code: reason,
                method,
              });
              if (dept === 'grocery') {
                expect(error, where).toMatch(/not returnable/);
                continue;
              }
              const restocking = Math.round(price * Number(rule!.answer)) / 100;
              expect(result.restocking_fee, `${where}: ${rule!.rule_id}`).toBe(restocking);
              expect(result.refund_amount, where).toBe(Math.round((price - result.fee - restocking) * 100) / 100);
              expect(result.refund_amount, where).toBeGreaterThan(0);
            }
    });
  }
});
