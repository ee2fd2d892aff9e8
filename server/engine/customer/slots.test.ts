// One question, one fact: the customer reveals one omitted slot per question, and a question
// fishing over several topics is answered but not free (docs/environments.md).

import { describe, expect, it } from 'vitest';
import { Episode } from '../episode';
import { testCatalog } from '../testing/catalog-fixture';
import { answerQuestion, type Slot } from './slots';

const slot = (id: string, keywords: string[], extra: Partial<Slot> = {}): Slot => ({
  id,
  label: id,
  keywords,
  critical: false,
  omitted: true,
  revealed: false,
  revealText: `about ${id}`,
  ...extra,
});

describe('answerQuestion', () => {
  const budget = slot('constraint:price', ['budget', 'price']);
  const brand = slot('constraint:brand', ['brand']);
  const stated = slot('constraint:color', ['color'], { omitted: false });

  it('a focused question reveals its slot and is not fishing', () => {
    expect(answerQuestion('What is your budget?', [budget, brand, stated])).toEqual({ slot: budget, fishing: false });
    expect(answerQuestion('Any brand you prefer?', [budget, brand, stated])).toEqual({ slot: brand, fishing: false });
  });

  it('a question naming several topics reveals only the first omitted one and is fishing', () => {
    expect(answerQuestion('Any budget or brand in mind?', [budget, brand])).toEqual({ slot: budget, fishing: true });
    // naming a stated slot alongside counts too: the question fishes over two topics
    expect(answerQuestion('Which color, and what budget?', [budget, brand, stated])).toEqual({
      slot: budget,
      fishing: true,
    });
  });

  it('no question mark, or nothing omitted asked about → no answer', () => {
    expect(answerQuestion('Tell me your budget.', [budget])).toBeNull();
    expect(answerQuestion('Which color?', [budget, stated])).toBeNull();
  });

  it('slots of one topic: the subject named picks the slot; one topic is not fishing', () => {
    const a = slot('qty:A', ['how many', 'quantity'], { topic: 'qty', subject: ['voltura', 'charger'] });
    const b = slot('qty:B', ['how many', 'quantity'], { topic: 'qty', subject: ['lumen', 'lamp'] });
    expect(answerQuestion('How many of the Lumen lamp do you need?', [a, b])).toEqual({ slot: b, fishing: false });
    expect(answerQuestion('How many of each?', [a, b])).toEqual({ slot: a, fishing: false });
  });
});

describe('the customer in an episode', () => {
  const catalog = testCatalog();
  it('a keyword-stuffed question (no tool call) reveals one slot with an "elaborate" reply; a focused one gets a free "clarify"', () => {
    let checked = 0;
    for (let seed = 0; seed < 30 && checked < 5; seed++) {
      const e = new Episode({ envId: 'PD', d: 8, seed, axisOverrides: { p_missing: 1, p_noise: 0 } }, catalog);
      e.reset();
      const slots = e.hiddenGoal().slots as Slot[];
      const omitted = slots.filter((s) => s.omitted);
      if (omitted.length < 2) continue;
      checked++;
      const stuffed = `Any ${omitted.map((s) => s.keywords[0]).join(', or ')} in mind?`;
      const r = e.step({ assistant_message: stuffed, tool_calls: [], answer: null });
      expect(r.events.find((x) => x.kind === 'customer_message')).toMatchObject({ act: 'elaborate' });
      expect(slots.filter((s) => s.revealed).length).toBe(1);
      const next = slots.find((s) => s.omitted && !s.revealed)!;
      const focused = e.step({
        assistant_message: `What ${next.keywords[0]} would you like?`,
        tool_calls: [],
        answer: null,
      });
      expect(focused.events.find((x) => x.kind === 'customer_message')).toMatchObject({ act: 'clarify' });
      expect(slots.filter((s) => s.revealed).length).toBe(2);
    }
    expect(checked).toBe(5);
  });
});
