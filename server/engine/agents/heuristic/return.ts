// RETURN heuristic: find the delivered order line the customer describes, try
// to start its return (the tool refuses an ineligible line, which then is the
// answer), and recommend a replacement when one is asked for.

import type { ToolCall } from '../../types';
import { itemPhraseOf, matchLines, ordersIn, whenOf, type LineMatch } from './orders';
import { RECOMMEND_COUNT } from './pd';
import { cardsIn, mergeWants, parseWants, rankCards, REQUIREMENT_QUESTION, searchFor, type Want } from './recommend';
import { deslang } from './text';
import type { Card, Strategy, TurnInput, TurnOutput } from './types';

const REASONS: Array<[RegExp, string]> = [
  [/stopped working|defective|broke/i, 'defective'],
  [/isn'?t the item|wrong item/i, 'wrong_item'],
  [/match the description/i, 'not_as_described'],
  [/too big|too large/i, 'too_large'],
  [/too small/i, 'too_small'],
  [/too late/i, 'arrived_late'],
  [/cheaper/i, 'better_price_found'],
  [/changed my mind/i, 'changed_mind'],
];
const LOOK_BACK_DAYS = 120;
const REPLACEMENT_NOUN =
  /replacement:? an? ([a-z][a-z -]*?)(?= under\b| rated\b| that\b| from\b| in\b| made\b| with\b| no more\b|[.,?!]|$)/i;

export const reasonOf = (text: string) => REASONS.find(([re]) => re.test(text))?.[1] ?? null;

export function createReturnStrategy(): Strategy {
  let phrase = '';
  let when: [number, number] | null = null;
  let reason: string | null = null;
  let replacementNoun: string | null = null;
  let wants: Want[] = [];
  const cards: Card[] = [];
  let target: LineMatch | null = null;
  let tried = false;
  let started = false;
  let ineligible = false;
  let searched = false;
  let turn = 0;

  return {
    envId: 'RETURN',
    step(input: TurnInput): TurnOutput {
      turn++;
      const text = deslang(input.message);
      if (turn === 1) {
        const [request, replacement] = text.split(/replacement/i);
        phrase = itemPhraseOf(request) ?? request;
        when = whenOf(request);
        if (replacement !== undefined) {
          replacementNoun = REPLACEMENT_NOUN.exec(text)?.[1]?.trim() ?? 'replacement';
          wants = parseWants(replacement);
        }
      } else if (replacementNoun) mergeWants(wants, parseWants(text));
      reason ??= reasonOf(text);
      cards.push(...cardsIn(input.results));
      if (cards.length > 0) searched = true;
      const listed = ordersIn(input.results);
      if (listed && !target)
        target = matchLines(listed.orders, phrase, listed.today, when, (o) => o.status === 'DELIVERED')[0] ?? null;
      for (const r of input.results) {
        if (r.name !== 'return.initiate') continue;
        if (r.error === null) started = true;
        else if (/cannot be returned|not eligible|window/i.test(r.error)) ineligible = true;
      }

      const calls: ToolCall[] = [];
      const lastTurn = input.turnsLeft <= 1;
      if (!lastTurn) {
        if (!listed && !target && turn === 1) calls.push({ name: 'order.list', args: { days: LOOK_BACK_DAYS } });
        if (target && !tried) {
          tried = true;
          calls.push({
            name: 'return.initiate',
            args: {
              order_id: target.order.order_id,
              line_id: target.line.line_id,
              reason_code: reason ?? 'changed_mind',
              method: 'in_store',
            },
          });
        }
        if (replacementNoun && !searched && calls.length < input.budget) {
          searched = true;
          calls.push({ name: 'catalog.search', args: searchFor(replacementNoun, wants) });
        }
      }
      if (calls.length > 0) {
        const what = target ? `the ${target.line.title}` : 'your order';
        // the replacement's requirements may have been left out of the opening
        const ask = turn === 1 && replacementNoun ? ` For the replacement: ${REQUIREMENT_QUESTION}` : '';
        return { message: `Let me take care of ${what}.${ask}`, calls: calls.slice(0, input.budget) };
      }
      const answer: Record<string, unknown> = {
        selected_order_id: target?.order.order_id ?? 'unknown',
        selected_line_id: target?.line.line_id ?? 'unknown',
      };
      if (replacementNoun)
        answer.replacement_product_ids = rankCards(cards, wants, { noun: replacementNoun })
          .slice(0, RECOMMEND_COUNT)
          .map((c) => c.product_id);
      if (ineligible && !started) answer.return_ineligible = true;
      const message =
        ineligible && !started
          ? 'Sorry, this item is not eligible for return: the return window has passed.'
          : 'Your return has been started.';
      return { message, calls: [], answer };
    },
  };
}
