// PD heuristic: read the product kind and the requirements, search (numbers as
// filters, names in the query), ask about requirements the opening may have left
// out, re-search when the customer adds one, and recommend the best matches.

import { cardsIn, mergeWants, parseWants, rankCards, REQUIREMENT_QUESTION, searchFor, type Want } from './recommend';
import { deslang } from './text';
import type { Card, Strategy, TurnInput, TurnOutput } from './types';

const NOUN =
  /(?:looking for (?:a good |an? )|suggest (?:an? )|need a new |shopping for (?:an? )|the best |a good )([a-z][a-z -]*?)(?= under\b| rated\b| that\b| from\b| in\b| made\b| with\b| no more\b| you have\b|[.,?!]|$)/i;

/** The kind of product asked for ("wall charger"), or null. */
export function productNounOf(text: string): string | null {
  const m = NOUN.exec(deslang(text));
  return m ? m[1].trim() : null;
}

export const RECOMMEND_COUNT = 10;

export function createPdStrategy(): Strategy {
  let noun = '';
  let wants: Want[] = [];
  const cards: Card[] = [];
  let turn = 0;
  let searchedWith = -1;

  return {
    envId: 'PD',
    step(input: TurnInput): TurnOutput {
      turn++;
      cards.push(...cardsIn(input.results));
      if (turn === 1) {
        noun = productNounOf(input.message) ?? '';
        wants = parseWants(input.message);
        searchedWith = wants.length;
        return { message: `Let me find the best options. ${REQUIREMENT_QUESTION}`, calls: searches(input.budget) };
      }
      const before = wants.length;
      mergeWants(wants, parseWants(input.message));
      const ranked = rankCards(cards, wants, { noun });
      // a requirement the customer just added: search again unless the answer is the last chance
      if ((wants.length > before || ranked.length === 0) && searchedWith !== wants.length && input.turnsLeft > 1) {
        searchedWith = wants.length;
        return { message: 'Thanks, let me narrow it down.', calls: searches(input.budget) };
      }
      const ids = ranked.slice(0, RECOMMEND_COUNT).map((c) => c.product_id);
      return {
        message: `Here are my recommendations${ranked[0] ? `, starting with the ${ranked[0].title}` : ''}.`,
        calls: [],
        answer: { recommended_product_ids: ids },
      };
    },
  };

  function searches(budget: number) {
    const calls = [{ name: 'catalog.search', args: searchFor(noun, wants) }];
    // a second, looser search (price only) when the budget allows, in case a name was misread
    if (budget >= 2)
      calls.push({
        name: 'catalog.search',
        args: searchFor(
          noun,
          wants.filter((w) => w.attr === 'price'),
        ),
      });
    return calls;
  }
}
