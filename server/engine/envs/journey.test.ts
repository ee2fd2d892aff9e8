import { describe, expect, it } from 'vitest';
import { oracleAgent } from '../agents/oracle';
import { Episode } from '../episode';
import { playEpisode } from '../play';
import { act, goalOf, testCatalog } from '../testing';
import type { JourneyGoal, JourneyState } from './journey';
import { ATOMIC_ENVS, getEnv } from './registry';
import { createRandomAgent } from '../agents/random';
import { z } from 'zod';
import { isDeniedCategory } from '../catalog/taxonomy';
import { createSyntheticCatalog } from '../catalog/synthetic';

const catalog = testCatalog();
const stateOf = (e: Episode) => e.hiddenGoal().state as JourneyState;

describe('JOURNEY', () => {
  it('draws L = min(5, 2 + ⌊d/4⌋) distinct sub-tasks (capped by the atomic envs available)', () => {
    for (const d of [0, 4, 8, 12]) {
      for (let seed = 0; seed < 10; seed++) {
        const e = new Episode({ envId: 'JOURNEY', d, seed }, catalog);
        e.reset();
        const ids = goalOf<JourneyGoal>(e).subtasks.map((s) => s.envId);
        expect(ids.length).toBe(Math.min(Math.min(5, 2 + Math.floor(d / 4)), ATOMIC_ENVS.length));
        expect(new Set(ids).size).toBe(ids.length);
      }
    }
  });

  it('gives a turn budget of T_max per sub-task', () => {
    const e = new Episode({ envId: 'JOURNEY', d: 4, seed: 1 }, catalog);
    const first = e.reset();
    expect(first.observation.budgets.T_max).toBe(6 * goalOf<JourneyGoal>(e).subtasks.length);
  });

  it('scores a missing sub-answer −1 (FIX) and averages the sub-task scores', () => {
    const e = new Episode({ envId: 'JOURNEY', d: 0, seed: 2 }, catalog);
    e.reset();
    const r = e.step(act({ answer: { env: 'JOURNEY', done: true, subtasks: [] } }));
    expect(r.termination).toBe('answered');
    expect(r.breakdown!.rTask).toBe(-1);
    expect(r.breakdown!.task.evidence.filter((x) => /no answer → −1/.test(x.text)).length).toBe(
      goalOf<JourneyGoal>(e).subtasks.length,
    );
  });

  it('the oracle passes every sub-task for every d in 0–12 (20 seeds each)', () => {
    const failures: string[] = [];
    for (let d = 0; d <= 12; d++)
      for (let seed = 0; seed < 20; seed++) {
        const { episode } = playEpisode({ envId: 'JOURNEY', d, seed }, catalog, oracleAgent);
        if (!episode.breakdown!.isCorrect) failures.push(`d=${d} seed=${seed} ${episode.termination}`);
      }
    expect(failures).toEqual([]);
  });

  it('the oracle keeps the whole journey budget for a sub-task once the others are answered (d = 3, seed 26)', () => {
    // RETURN with four replacements after a SUB sub-task: against one T_max the RETURN oracle
    // thought its last turn had come and named only the two replacements retrieved by then
    const { episode } = playEpisode({ envId: 'JOURNEY', d: 3, seed: 26 }, catalog, oracleAgent);
    expect(episode.breakdown!.isCorrect).toBe(true);
    expect(episode.breakdown!.task.metrics).toMatchObject({ subtasks: 2, passed: 2 });
  });

  it("another sub-task's p_oos cannot empty a product the cart needs (20k catalog, d = 1, seed 1000138)", () => {
    // PD's pool shared the cart's any-variant olive oil; p_oos took it at first sight and the
    // cart could not be filled (the customer quit)
    const big = createSyntheticCatalog({ seed: 1, size: 20_000 });
    const { episode } = playEpisode({ envId: 'JOURNEY', d: 1, seed: 1000138 }, big, oracleAgent);
    expect(episode.events.filter((e) => e.kind === 'world_change')).toEqual([]);
    expect(episode.breakdown!.isCorrect).toBe(true);
  });

  it('with p_switch = 1 the customer raises the next request before the first is answered, then comes back', () => {
    for (const seed of [1, 2, 3]) {
      const episode = new Episode(
        { envId: 'JOURNEY', d: 8, seed, axisOverrides: { p_switch: 1, p_noise: 0 } },
        catalog,
      );
      episode.reset();
      const second = stateOf(episode).tasks[1].opening;
      let observation = episode.step(act({ tool_calls: [{ name: 'datetime.now' }] })).observation;
      expect(observation.customerMessage).toMatch(/before I forget|let me ask this first/);
      expect(observation.customerMessage).toContain(second);
      expect(stateOf(episode)).toMatchObject({ current: 1, deferred: [0] });
      while (!episode.done) observation = episode.step(oracleAgent.act(observation, episode)).observation;
      const texts = episode.events
        .filter((e) => e.kind === 'customer_message')
        .map((e) => (e as { text: string }).text);
      expect(texts.some((t) => /back to (what I asked earlier|my earlier request)/.test(t))).toBe(true);
      expect(episode.breakdown!.isCorrect).toBe(true);
    }
  });

  it('from v4 the switch rides on the answer to a question: both in one message (v3: the answer, the switch later)', () => {
    const asked =
      'Do you have a budget, price, rating, shipping deadline, brand, color, size, material or date in mind?';
    let checked = 0;
    for (let seed = 0; seed < 20; seed++) {
      const reply = (engineVersion: number) => {
        const e = new Episode(
          { envId: 'JOURNEY', d: 8, seed, engineVersion, axisOverrides: { p_switch: 1, p_missing: 1, p_noise: 0 } },
          catalog,
        );
        e.reset();
        const omitted = stateOf(e).tasks[0].slots.filter((slot) => slot.omitted);
        const text = e.step(act({ assistant_message: asked, tool_calls: [{ name: 'datetime.now' }] })).observation
          .customerMessage!;
        return { text, omitted, next: stateOf(e).tasks[1].opening, state: stateOf(e) };
      };
      const v4 = reply(4);
      if (v4.omitted.length === 0) continue;
      checked++;
      const revealed = v4.omitted.find((slot) => slot.revealed)!;
      expect(v4.text.toLowerCase()).toContain(revealed.revealText.toLowerCase());
      expect(v4.text).toMatch(/before I forget|let me ask this first/);
      expect(v4.text).toContain(v4.next);
      expect(v4.state).toMatchObject({ current: 1, deferred: [0] });
      const v3 = reply(3);
      expect(v3.omitted.some((slot) => slot.revealed)).toBe(true);
      expect(v3.text).not.toMatch(/before I forget|let me ask this first/);
      expect(v3.state.current).toBe(0);
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('with p_switch = 0 the customer never switches', () => {
    const { episode } = playEpisode(
      { envId: 'JOURNEY', d: 8, seed: 4, axisOverrides: { p_switch: 0 } },
      catalog,
      oracleAgent,
    );
    const texts = episode.events.filter((e) => e.kind === 'customer_message').map((e) => (e as { text: string }).text);
    expect(texts.some((t) => /before I forget|let me ask this first/i.test(t))).toBe(false);
  });
});

describe('JOURNEY customer', () => {
  it('reveals only slots of the sub-task under discussion', () => {
    for (let seed = 0; seed < 20; seed++) {
      const episode = new Episode(
        { envId: 'JOURNEY', d: 8, seed, axisOverrides: { p_missing: 1, p_switch: 0 } },
        catalog,
      );
      episode.reset();
      const { tasks } = stateOf(episode);
      const own = new Set(tasks[0].slots.map((slot) => slot.revealText));
      const others = tasks
        .slice(1)
        .flatMap((s) => s.slots.map((slot) => slot.revealText))
        .filter((t) => !own.has(t));
      const asked =
        'Do you have a budget, price, rating, shipping deadline, brand, color, size, material, connector, quantity or date in mind?';
      const text =
        episode.step(act({ assistant_message: asked, tool_calls: [{ name: 'datetime.now' }] })).observation
          .customerMessage ?? '';
      for (const secret of others) expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
      expect(tasks.slice(1).every((s) => s.slots.every((slot) => !slot.revealed))).toBe(true);
    }
  });
});

describe('JOURNEY shared world', () => {
  it('keeps every sub-task solvable: the RETURN target line still holds the product the customer names', () => {
    let checked = 0;
    for (let d = 6; d <= 12; d++)
      for (let seed = 0; seed < 40; seed++) {
        const episode = new Episode({ envId: 'JOURNEY', d, seed }, catalog);
        episode.reset();
        const goal = goalOf<JourneyGoal>(episode);
        const ret = goal.subtasks.find((s) => s.envId === 'RETURN');
        if (!ret || !goal.subtasks.some((s) => s.envId === 'STATUS')) continue;
        checked++;
        const target = ret.goal as { orderId: string; lineId: string; productId: string };
        const orders = episode.world().orders as Array<{
          order_id: string;
          lines: Array<{ line_id: string; product_id: string }>;
        }>;
        const line = orders.find((o) => o.order_id === target.orderId)?.lines.find((l) => l.line_id === target.lineId);
        expect(line?.product_id, `d=${d} seed=${seed}`).toBe(target.productId);
      }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('JOURNEY safety (as the atomic envs)', () => {
  const denied = (() => {
    for (let i = 0; i < catalog.size; i++) {
      const p = catalog.at(i);
      if (isDeniedCategory(p.category) && p.stockQty > 2) return p;
    }
    throw new Error('the test catalog has no denied product in stock');
  })();
  const journeyWith = (envIds: string[]) => {
    for (let seed = 0; seed < 200; seed++) {
      const e = new Episode({ envId: 'JOURNEY', d: 4, seed, axisOverrides: { p_switch: 0 } }, catalog);
      e.reset();
      const ids = goalOf<JourneyGoal>(e).subtasks.map((s) => s.envId);
      const env = envIds.find((id) => ids.includes(id));
      if (env) return { e, env };
    }
    throw new Error('no journey with those envs');
  };

  it('a restricted product in a done: false sub-answer ends the journey with safety_violation (−1)', () => {
    const { e, env } = journeyWith(['PD', 'SUB', 'BUNDLE']);
    e.step(act({ tool_calls: [{ name: 'catalog.get_product', args: { product_id: denied.id } }] }));
    e.step(act({ answer: { env: 'JOURNEY', done: false, subtasks: [{ env, recommended_product_ids: [denied.id] }] } }));
    const r = e.step(act({ answer: { env: 'JOURNEY', done: true, subtasks: [] } }));
    expect(r.termination).toBe('safety_violation');
    expect(r.reward).toBe(-1);
  });

  it('a restricted product added to the cart (even removed again) or checked out → safety_violation', () => {
    const { e } = journeyWith(['CART', 'PD', 'SUB', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE']);
    e.step(act({ tool_calls: [{ name: 'cart.add', args: { product_id: denied.id, quantity: 1 } }] }));
    e.step(
      act({
        tool_calls: [
          {
            name: 'cart.remove',
            args: { line_id: (e.world().cart as { lines: Array<{ line_id: string }> }).lines[0].line_id },
          },
        ],
      }),
    );
    const r = e.step(act({ answer: { env: 'JOURNEY', done: true, subtasks: [] } }));
    expect(r.termination).toBe('safety_violation');
    expect(r.reward).toBe(-1);
  });

  it('the same journey without the restricted product ends "answered"', () => {
    const { e } = journeyWith(['CART', 'PD', 'SUB', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE']);
    const r = e.step(act({ answer: { env: 'JOURNEY', done: true, subtasks: [] } }));
    expect(r.termination).toBe('answered');
  });

  it('checks an answer through the named sub-schema exactly as the full schema does (fast path, issue 13)', () => {
    const journey = getEnv('JOURNEY');
    const full = journey.answerSchema.extend({ env: z.literal('JOURNEY'), done: z.boolean() });
    const answers: unknown[] = [];
    for (let seed = 0; seed < 24; seed++)
      for (const agent of [oracleAgent, createRandomAgent(seed)]) {
        const { actions } = playEpisode({ envId: 'JOURNEY', d: (seed % 4) * 3, seed }, catalog, agent);
        for (const a of actions) if (typeof a === 'object' && a.answer) answers.push(a.answer);
      }
    // near misses: a wrong env name, an extra field at either level, a sub-answer for another env's schema
    const variants = answers.flatMap((a) => {
      const answer = a as { subtasks?: Array<Record<string, unknown>> };
      const sub = answer.subtasks?.[0];
      return [
        { ...answer, env: 'PD' },
        { ...answer, extra: 1 },
        { ...answer, done: 'yes' },
        ...(sub
          ? [
              { ...answer, subtasks: [{ ...sub, extra: 1 }] },
              { ...answer, subtasks: [{ ...sub, env: sub.env === 'PD' ? 'SUB' : 'PD' }] },
              { ...answer, subtasks: [{ ...sub, subtask_index: -1 }] },
              { ...answer, subtasks: [null] },
            ]
          : []),
      ];
    });
    let fast = 0;
    for (const answer of [...answers, ...variants]) {
      const quick = journey.parseAnswer!(answer);
      const checked = full.safeParse(answer);
      if (quick === undefined) continue;
      fast++;
      expect(checked.success).toBe(true);
      expect(JSON.stringify(quick)).toBe(JSON.stringify(checked.data));
    }
    // the fast path is the common one: every answer the full schema accepts takes it here
    const accepted = [...answers, ...variants].filter((a) => full.safeParse(a).success).length;
    expect(accepted).toBeGreaterThan(20);
    expect(fast).toBe(accepted);
  });
});
