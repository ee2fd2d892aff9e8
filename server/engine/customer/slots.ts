// Omitted slots (SPEC §9): non-critical facts the customer may leave out of the
// opening, recorded so the customer can reveal them when the agent asks.

import type { Rng } from '../random';

export interface Slot {
  id: string;
  /** What the slot is about, for the inspector ("color of the Anker charger"). */
  label: string;
  /** Words that, in an agent's question, ask about this slot. */
  keywords: string[];
  /** What kind of fact it is (CART's variant slots share "variant"); default: the id. One question, one topic. */
  topic?: string;
  /** Words naming what the slot is about ("Voltura charger"): a question naming them picks this slot among its topic. */
  subject?: string[];
  critical: boolean;
  omitted: boolean;
  revealed: boolean;
  /** What the customer says when revealing it. */
  revealText: string;
}

export function makeSlot(s: Omit<Slot, 'omitted' | 'revealed'>, pMissing: number, rng: Rng): Slot {
  const omitted = !s.critical && rng.bernoulli(pMissing);
  // Object.assign, not `{ ...s, omitted }`: spread followed by fields is a slow path in V8 (issue 13)
  return Object.assign({}, s, { omitted, revealed: false });
}

// a question's words between spaces (normalised once per question), and whether it names a slot's keyword
const wordsOf = (message: string) => ` ${message.toLowerCase().replace(/[^a-z0-9-]+/g, ' ')} `;
const namesKeyword = (text: string, slot: Slot) =>
  slot.keywords.some((k) => text.includes(` ${k.toLowerCase()} `) || text.includes(` ${k.toLowerCase()}s `));

export function pendingSlots(slots: Slot[]): Slot[] {
  return slots.filter((s) => s.omitted && !s.revealed);
}

const topicOf = (s: Slot) => s.topic ?? s.id;

/**
 * One question, one fact (SPEC §9, decided in docs/environments.md): of the omitted slots a
 * question asks about, the customer reveals one — the first whose subject the question names,
 * else the first. `fishing` when the question names slots of more than one topic: the reply
 * still reveals one slot but is not a free `clarify`.
 */
export function answerQuestion(message: string, slots: Slot[]): { slot: Slot; fishing: boolean } | null {
  if (!message.includes('?')) return null;
  const text = wordsOf(message);
  const named = slots.filter((s) => namesKeyword(text, s));
  const pending = named.filter((s) => s.omitted && !s.revealed);
  if (pending.length === 0) return null;
  const bySubject = pending.find((s) => s.subject?.some((w) => text.includes(` ${w.toLowerCase()} `)));
  const fishing = new Set(named.map(topicOf)).size > 1;
  return { slot: bySubject ?? pending[0], fishing };
}
