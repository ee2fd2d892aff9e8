// The replay sends a long episode's transcript in windows of turns: the page renders the
// window around the selected turn and the client fetches others as the reader moves. Short
// episodes (nearly all) go whole. A 500-turn episode sent whole was 7 MB of HTML plus the same
// again as the client's props.
import type { EpisodeEvent } from '@/server/engine/types';

/** Episodes with at most this many turns (the opening counts as turn 0) are sent whole. */
export const WHOLE_UP_TO = 40;
/** Turns per window for longer episodes. */
export const WINDOW_TURNS = 20;
/** The most turns one request may ask for. */
export const MAX_WINDOW_TURNS = 200;

export interface TurnRange {
  from: number;
  to: number;
}

/** The range to send first: everything, or WINDOW_TURNS turns with `turn` in the middle. */
export function windowAround(turn: number, lastTurn: number): TurnRange {
  if (lastTurn + 1 <= WHOLE_UP_TO) return { from: 0, to: lastTurn };
  const t = Math.min(Math.max(turn, 0), lastTurn);
  const from = Math.max(0, Math.min(t - Math.floor(WINDOW_TURNS / 2), lastTurn + 1 - WINDOW_TURNS));
  return { from, to: from + WINDOW_TURNS - 1 };
}

export const eventsIn = (events: readonly EpisodeEvent[], r: TurnRange) =>
  events.filter((e) => e.turn >= r.from && e.turn <= r.to);
