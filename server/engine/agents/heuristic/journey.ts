// JOURNEY heuristic: recognise which kind of request the customer is making
// (a keyword classifier over the request), play it with that environment's own
// heuristic, and turn its answer into a sub-answer. Follows the customer's
// context switches ("before I forget…", "back to what I asked earlier…") with a
// stack of suspended requests.

import type { AtomicEnvId, EnvId, ToolResult } from '../../types';
import { between, deslang, sameWord, words } from './text';
import type { Strategy, TurnInput, TurnOutput } from './types';

type Make = (envId: EnvId) => Strategy;

/** Phrases that mark each kind of request (the envs' opening templates), with weights. */
export const REQUEST_PATTERNS: Record<AtomicEnvId, Array<[RegExp, number]>> = {
  CART: [
    [/set that up|help me buy|build my cart|in my cart|to my cart|to the cart/i, 3],
    [/looking at earlier/i, 2],
  ],
  PD: [
    [
      /what would you recommend|best options|which ones would you pick|any recommendations|the best [\w ]+ you have|can you suggest an? /i,
      3,
    ],
    [/looking for|need a new/i, 2],
  ],
  SUB: [
    [
      /out of stock|sold out|unavailable|because it'?s|i wanted is|about to order|my usual|close substitute|something like it|can'?t buy the/i,
      3,
    ],
  ],
  BUNDLE: [
    [/one of each|one product each|bundle|one item for each|just one item/i, 3],
    [/\bi'?m (?:setting|going|getting|starting|repainting|hosting|packing|moving|redoing|building|refreshing)\b/i, 4],
  ],
  RETURN: [
    [/return (?:the|something)\b|send back the|help me return|isn'?t working out/i, 4],
    [/i'd also like a replacement/i, 3],
  ],
  STATUS: [
    [/\bORD-\d+/, 6],
    [/status|where(?:'s| is)\b|any (?:news|update)|shipped yet|check on|what'?s happening|look up my order/i, 3],
  ],
  POLICY: [
    [/policy|policies/i, 4],
    [
      /how (?:much|many|long)|is there an? |can i pay|what will you do|what'?s the minimum|if the price drops|if i cancel/i,
      2,
    ],
    [
      /i'?m an? (?:basic|plus|premium) member|member for \d+|joined less|send it back by mail|courier pickup|drop it off|i'?m paying|i bought it (?:online|in store|\d+ months? ago)|i'?d choose|it ships|delivered \d+ days ago|order total is|still unopened|i'?ve opened it|it'?s defective|it'?s (?:an? |office)/i,
      3,
    ],
  ],
};

/** Single words (typo-tolerant) that mark each kind of request. */
const REQUEST_WORDS: Record<AtomicEnvId, Array<[string, number]>> = {
  CART: [['cart', 4]],
  PD: [
    ['recommend', 2],
    ['suggest', 1],
    ['recommendations', 2],
  ],
  SUB: [
    ['stock', 2],
    ['substitute', 2],
    ['alternative', 2],
    ['similar', 1],
    ['replace', 1],
  ],
  BUNDLE: [
    ['bundle', 3],
    ['each', 2],
  ],
  RETURN: [['return', 3]],
  STATUS: [
    ['status', 3],
    ['shipped', 1],
    ['news', 1],
  ],
  POLICY: [
    ['policy', 4],
    ['member', 2],
    ['warranty', 2],
    ['membership', 2],
    ['coupons', 2],
    ['installments', 2],
    ['fee', 1],
    ['refund', 1],
  ],
};

export function classifyRequest(text: string, available: readonly AtomicEnvId[]): AtomicEnvId {
  const t = deslang(text);
  const w = words(t);
  let best: { env: AtomicEnvId; score: number } | null = null;
  for (const env of available) {
    let score = 0;
    for (const [re, weight] of REQUEST_PATTERNS[env]) if (re.test(t)) score += weight;
    for (const [kw, weight] of REQUEST_WORDS[env]) if (w.some((x) => sameWord(x, kw))) score += weight;
    if (!best || score > best.score) best = { env, score };
  }
  return best?.env ?? available[0];
}

/** Phrases the customer opens a new, switched-to or resumed request with (envs/journey.ts). */
const OPENING_MARKERS = ['first', 'start with this one', 'one at a time', 'more after this one', 'to begin with'];
const NEXT_MARKERS = ['next thing', 'another thing', 'now something else'];
const SWITCH_MARKERS = ['before i forget, something else', 'let me ask this first'];
const BACK_MARKERS = ['back to what i asked earlier', 'going back to my earlier request'];

/** The request after a marker phrase, or null when none of the markers is there. */
function afterMarker(message: string, markers: string[]): string | null {
  for (const marker of markers) {
    const rest = between(message, marker, null, words(marker).length >= 3 ? 1 : 0);
    if (rest !== null) return rest.replace(/^[\s:.,!]+/, '');
  }
  return null;
}

interface Task {
  strategy: Strategy;
  /** Results of this task's last calls that arrived while it was suspended. */
  stash: ToolResult[];
}

export function createJourneyStrategy(make: Make, available: () => readonly AtomicEnvId[] = () => []): Strategy {
  let current: Task | null = null;
  const suspended: Task[] = [];
  let issuer: Task | null = null;
  let started = false;
  let answeredLast = false;

  const start = (request: string): Task => ({ strategy: make(classifyRequest(request, envsOf())), stash: [] });
  const envsOf = () => {
    const list = available();
    return list.length ? list : (Object.keys(REQUEST_PATTERNS) as AtomicEnvId[]);
  };

  return {
    envId: 'JOURNEY',
    step(input: TurnInput): TurnOutput {
      let message = deslang(input.message);
      if (!started) {
        started = true;
        message = afterMarker(message, OPENING_MARKERS) ?? message;
        current = start(message);
      } else if (answeredLast && /wrap up|everything i needed/i.test(message)) {
        return { message: 'Glad I could help with everything!', calls: [], answer: { done: true, subtasks: [] } };
      } else {
        const next = afterMarker(message, NEXT_MARKERS);
        const switched = next === null ? afterMarker(message, SWITCH_MARKERS) : null;
        const back = next === null && switched === null ? afterMarker(message, BACK_MARKERS) : null;
        if (next !== null) {
          current = start(next);
          message = next;
        } else if (switched !== null) {
          if (current) suspended.push(current);
          current = start(switched);
          message = switched;
        } else if (back !== null) {
          current = suspended.pop() ?? start(back);
          message = back;
        } else if (!current) current = start(message);
      }
      answeredLast = false;
      const task = current!;
      const results = issuer === task ? input.results : task.stash;
      if (issuer && issuer !== task) issuer.stash = input.results;
      task.stash = [];
      const out = task.strategy.step({ ...input, message, results });
      issuer = task;
      if (!out.answer) return out;
      answeredLast = true;
      current = null;
      const done = input.turnsLeft <= 1;
      return { ...out, answer: { done, subtasks: [{ env: task.strategy.envId, ...out.answer }] } };
    },
  };
}
