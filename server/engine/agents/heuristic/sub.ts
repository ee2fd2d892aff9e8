// SUB heuristic: find the sold-out product the customer names, then recommend
// similar, compatible products of the same kind that meet their requirements.

import { categoryNoun } from '../../envs/cart';
import {
  cardsIn,
  describeCard,
  mergeWants,
  parseWants,
  rankCards,
  REQUIREMENT_QUESTION,
  searchFor,
  type Want,
} from './recommend';
import { RECOMMEND_COUNT } from './pd';
import { deslang, nameSimilarity } from './text';
import type { Card, Strategy, TurnInput, TurnOutput } from './types';

const TITLE =
  /\bthe (.+?)(?= I wanted\b| is unavailable\b|, but it'?s\b|, is out of stock\b|\? It'?s out\b| because it'?s\b| is out of stock\b)/i;

export function originalTitleOf(text: string): string | null {
  const m = TITLE.exec(deslang(text));
  return m ? m[1].trim() : null;
}

export function createSubStrategy(): Strategy {
  let title = '';
  let wants: Want[] = [];
  const cards: Card[] = [];
  let original: Card | undefined;
  let turn = 0;
  let searchedWith = -1;

  const searches = (budget: number) => {
    const calls = [{ name: 'catalog.search', args: { ...searchFor(title, wants), query: title || 'similar' } }];
    if (budget >= 2) calls.push({ name: 'catalog.search', args: searchFor(title, wants) });
    return calls;
  };

  return {
    envId: 'SUB',
    step(input: TurnInput): TurnOutput {
      turn++;
      cards.push(...cardsIn(input.results));
      if (turn === 1) {
        title = originalTitleOf(input.message) ?? input.message;
        // requirements follow the title; parsing the title itself would read its words as requirements
        wants = parseWants(input.message.replace(title, ''));
        searchedWith = wants.length;
        return {
          message: `Sorry it's sold out; let me find close alternatives. ${REQUIREMENT_QUESTION}`,
          calls: searches(input.budget),
        };
      }
      original ??= cards
        .filter((c) => nameSimilarity(title, c.title) >= 0.9)
        .sort((a, b) => nameSimilarity(title, b.title) - nameSimilarity(title, a.title))[0];
      const before = wants.length;
      mergeWants(wants, parseWants(input.message));
      const noun = original ? categoryNoun(String(original.key_attrs.category)) : undefined;
      const exclude = new Set(original ? [original.product_id] : []);
      const ranked = rankCards(cards, wants, {
        noun,
        exclude,
        similarTo: original ? describeCard(original) : title,
        similarWeight: 2,
      });
      if ((wants.length > before || ranked.length === 0) && searchedWith !== wants.length && input.turnsLeft > 1) {
        searchedWith = wants.length;
        return { message: 'Thanks, let me look again with that in mind.', calls: searches(input.budget) };
      }
      const ids = ranked.slice(0, RECOMMEND_COUNT).map((c) => c.product_id);
      return {
        message: 'Here are the closest alternatives I found.',
        calls: [],
        answer: { recommended_product_ids: ids },
      };
    },
  };
}
