// Who played an episode, derived from who took its turns (EpisodeAction.actor): one actor
// ("human", "model:<name>", a built-in agent such as "oracle", "trainer:<run>", "api"), or
// "mixed:<a>+<b>…" when several did. The oracle reads the hidden goal, so any episode it acted
// in is spoiled as a measure of a player.

/**
 * The player after one more turn. `player` is what the episode was recorded as so far
 * (its starting player before any turn); `actor` null = the seat did not say (the starter).
 */
export function withActor(player: string, turnsBefore: number, actor: string | null): string {
  if (actor === null) return player;
  if (turnsBefore === 0) return actor;
  const actors = new Set(actorsOf(player));
  actors.add(actor);
  return playerOfActors([...actors]);
}

/** The player of an episode whose turns were taken by these actors (in any order). */
export function playerOf(starter: string, actors: ReadonlyArray<string | null>): string {
  return actors.reduce<string>((player, actor, i) => withActor(player, i, actor), starter);
}

const MIXED = 'mixed:';

function playerOfActors(actors: string[]): string {
  const distinct = [...new Set(actors)].sort();
  return distinct.length === 1 ? distinct[0] : MIXED + distinct.join('+');
}

/** The actors a derived player names (one, or each of a mixed episode's). */
export function actorsOf(player: string): string[] {
  return player.startsWith(MIXED) ? player.slice(MIXED.length).split('+') : [player];
}

/** The oracle took at least one turn: the episode measures the answer key, not a player. */
export const isSpoiled = (player: string) => actorsOf(player).includes('oracle');
