// Omitted slots (SPEC §9): non-critical facts the customer may leave out of the
// opening, recorded so the customer can reveal them when the agent asks.

import type { Rng } from '../random';

export interface Slot {
  id: string;
  /** What the slot is about, for the inspector ("color of the Anker charger"). */
  label: string;
  /** Words that, in an agent's question, ask about this slot. */
  keywords: string[];
  critical: boolean;
  omitted: boolean;
  revealed: boolean;
  /** What the customer says when revealing it. */
  revealText: string;
}

export function makeSlot(s: Omit<Slot, 'omitted' | 'revealed'>, pMissing: number, rng: Rng): Slot {
  const omitted = !s.critical && rng.bernoulli(pMissing);
  return { ...s, omitted, revealed: false };
}

/** An agent message asks about a slot when it is a question and names one of its keywords. */
export function asksAbout(message: string, slot: Slot): boolean {
  if (!message.includes('?')) return false;
  const text = ` ${message.toLowerCase().replace(/[^a-z0-9-]+/g, ' ')} `;
  return slot.keywords.some((k) => text.includes(` ${k.toLowerCase()} `) || text.includes(` ${k.toLowerCase()}s `));
}

export function pendingSlots(slots: Slot[]): Slot[] {
  return slots.filter((s) => s.omitted && !s.revealed);
}
