// The customer's side of the recommendation envs (PD, SUB, BUNDLE): which
// products the agent's message names, and the confirm / correct rules.
//
// A message "names" a product when it contains the product's id as a word, or
// the exact title (case-insensitive) of a product some earlier tool result showed.
// What the customer has seen named and whether it already confirmed are the
// task's state (CustomerNotes), passed in by the hooks.

import type { Product } from '../../catalog/types';
import type { Slot } from '../../customer/slots';
import { productStock } from '../../world/stock';
import { constraintMet, describeConstraint, satisfaction, type Constraint } from './persona';
import type { CustomerReply, EnvContext, EnvTask, TurnInfo } from '../types';

/** What the customer of a recommendation env remembers during an episode. */
export interface CustomerNotes {
  /** lowercased title → product id, from tool results so far */
  titles: Record<string, string>;
  confirmed: boolean;
}

export const newCustomerNotes = (): CustomerNotes => ({ titles: titleTable(), confirmed: false });

/**
 * An empty object that V8 keeps in dictionary mode. Its keys are product titles, each new to the
 * object: on a plain `{}` every one made a new hidden class (a map transition), which cost 2–4×
 * the whole insert (issue 13). Deleting a property that is not the last one added switches the
 * object to dictionary mode for good; it still reads, iterates (in insertion order) and
 * serialises as the plain object it was.
 */
function titleTable(): Record<string, string> {
  const table: Record<string, string> = { a: '', b: '' };
  delete table.a;
  delete table.b;
  return table;
}

function rememberTitles(notes: CustomerNotes, info: TurnInfo) {
  const visit = (x: unknown) => {
    if (!x || typeof x !== 'object') return;
    const o = x as { product_id?: unknown; title?: unknown };
    if (typeof o.product_id === 'string' && typeof o.title === 'string' && o.title.length >= 8)
      notes.titles[o.title.toLowerCase()] = o.product_id;
  };
  for (const r of info.toolResults) {
    if (r.error !== null) continue;
    if (Array.isArray(r.result)) r.result.forEach(visit);
    else visit(r.result);
  }
}

/** [A-Za-z0-9] */
const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** [A-Za-z0-9_-] */
const isIdChar = (c: number) => isAlnum(c) || c === 95 || c === 45;

/**
 * The product ids a message names as words: the matches of /[A-Za-z0-9][A-Za-z0-9_-]{3,}/g that
 * the catalog knows, with their offsets. Scanned by hand (matchAll built a match per word, issue
 * 13): a run of id characters from an alphanumeric one is a match when 4 or more long, and a
 * shorter run holds no match either, as every later start in it ends at the same place.
 */
export function namedIds(message: string, catalog: EnvContext['catalog'], found: Array<{ at: number; id: string }>) {
  for (let i = 0; i < message.length;) {
    if (!isAlnum(message.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < message.length && isIdChar(message.charCodeAt(end))) end++;
    if (end - i >= 4) {
      const word = message.slice(i, end);
      if (catalog.get(word)) found.push({ at: i, id: word });
    }
    i = end;
  }
}

// The customer policy asks twice in most turns (confirm, then respond): the answer for a turn is
// kept with its TurnInfo (a new object every turn) and the notes it was read with (issue 13).
const MENTIONED = new WeakMap<TurnInfo, { notes: CustomerNotes; products: Product[] }>();

/** Products the agent's message names, in order of first appearance. */
export function mentionedProducts(notes: CustomerNotes, info: TurnInfo, ctx: EnvContext): Product[] {
  const kept = MENTIONED.get(info);
  if (kept?.notes === notes) return kept.products.slice();
  const products = findMentioned(notes, info, ctx);
  MENTIONED.set(info, { notes, products });
  return products.slice();
}

function findMentioned(notes: CustomerNotes, info: TurnInfo, ctx: EnvContext): Product[] {
  rememberTitles(notes, info);
  const found: Array<{ at: number; id: string }> = [];
  namedIds(info.agentMessage, ctx.catalog, found);
  const lower = info.agentMessage.toLowerCase();
  // for-in: the table's own keys in Object.entries' order, without a [key, value] pair per title
  const { titles } = notes;
  for (const title in titles) {
    const at = lower.indexOf(title);
    if (at >= 0) found.push({ at, id: titles[title] });
  }
  found.sort((a, b) => a.at - b.at);
  const ids = [...new Set(found.map((f) => f.id))];
  return ids.map((id) => ctx.catalog.get(id)!).filter(Boolean);
}

/** Confirm at most once per episode (a confirm turn is not charged to the agent, so it must not repeat). */
export function confirmOnce(notes: CustomerNotes, reply: CustomerReply | null): CustomerReply | null {
  if (!reply || notes.confirmed) return null;
  notes.confirmed = true;
  return reply;
}

export function revealSlot(slots: Slot[], id: string) {
  const slot = slots.find((s) => s.id === id);
  if (slot?.omitted) slot.revealed = true;
}

export const constraintSlotId = (c: Constraint) => `constraint:${c.attr}`;

/**
 * The first named product that fails the request: out of stock, or missing a
 * constraint (the customer says which one, revealing that slot). null when
 * nothing named is wrong.
 */
export function firstObjection(
  task: Pick<EnvTask<unknown>, 'slots'>,
  named: readonly Product[],
  constraints: readonly Constraint[],
  ctx: EnvContext,
  extraCheck?: (p: Product) => string | null,
): CustomerReply | null {
  for (const p of named) {
    const extra = extraCheck?.(p);
    if (extra) return { text: extra, act: 'correct' };
    const missed = constraints.find((c) => !constraintMet(p, c));
    if (missed) {
      revealSlot(task.slots, constraintSlotId(missed));
      return { text: `The ${p.title} won't work for me: I need it ${describeConstraint(missed)}.`, act: 'correct' };
    }
    if (productStock(ctx.world, p) <= 0)
      return { text: `The ${p.title} shows as out of stock, so that's no good.`, act: 'correct' };
  }
  return null;
}

/** A named product that meets every constraint and is in stock, if any. */
export function firstGoodProduct(
  named: readonly Product[],
  constraints: readonly Constraint[],
  ctx: EnvContext,
  extraOk?: (p: Product) => boolean,
) {
  return (
    named.find((p) => satisfaction(p, constraints) === 1 && productStock(ctx.world, p) > 0 && (extraOk?.(p) ?? true)) ??
    null
  );
}
