// The spoiler guard at every inspector read (issue 29): while an episode is active and its goal
// not revealed, nothing that gives its goal away leaves the server, whoever asks (with auth off
// the person playing is also "the admin", so an unrevealed pass must not have been read off the
// inspector). Given away: the hidden goal, the seed (the open engine regenerates the goal from
// it), the world and hidden world_change events, a same-seed oracle. Lists show such episodes
// without their seed; single reads answer FORBIDDEN or the guarded view; the replay's "reveal"
// records a reveal (revealedAt) and then everything is open, as it is once the episode ends.
import { TRPCError } from '@trpc/server';
import { episodeService } from '@/server/episodes';
import { goalMayLeave, voicedEvents } from '@/server/episodes/seat';
import type { EpisodeView } from '@/server/episodes/types';
import type { SqlDb } from '@/server/db/sql';
import { goalState, revealedAmong } from '@/server/episodes/queries';

type Status = { status: string; revealed: boolean };

export const goalHidden = (ep: Status) =>
  !goalMayLeave({ status: ep.status === 'done' ? 'done' : 'active', revealed: ep.revealed });

/** A list row, with its seed withheld while the goal is hidden. */
export function guardRow<T extends { seed: number; status: string }>(
  row: T,
  revealed: boolean,
): Omit<T, 'seed'> & { seed: number | null } {
  return goalHidden({ status: row.status, revealed }) ? { ...row, seed: null } : row;
}

/** Inspector list rows: an active row's seed stays unless its player revealed the goal (revealedAt). */
export async function guardRows<T extends { id: string; seed: number; status: string }>(db: SqlDb, rows: T[]) {
  const revealed = await revealedAmong(
    db,
    rows.filter((r) => r.status !== 'done').map((r) => r.id),
  );
  return rows.map((r) => guardRow(r, revealed.has(r.id)));
}

/** Whether this stored episode's goal may leave the server now (false for an unknown id). */
export async function goalOpen(db: SqlDb, id: string): Promise<boolean> {
  const state = await goalState(db, id);
  return state !== null && !goalHidden(state);
}

/** Refuses a spoiling read (the world, the evidence, the seed, a same-seed oracle) of an unknown or hidden episode. */
export async function assertGoalOpen(db: SqlDb, ...ids: string[]): Promise<void> {
  for (const id of ids) {
    const state = await goalState(db, id);
    if (!state) throw new TRPCError({ code: 'NOT_FOUND', message: `no episode with id "${id}"` });
    if (goalHidden(state)) throw spoilerRefusal(id);
  }
}

/** An episode as an inspector may see it now: without goal, seed and hidden events while they are hidden. */
export function guardEpisode(view: EpisodeView) {
  if (!goalHidden(view)) return view;
  return {
    ...view,
    seed: null,
    hiddenGoal: null,
    events: view.events.filter((e) => e.kind !== 'world_change'),
  };
}

/**
 * A stored episode as the replay shows it now (guardEpisode), the LLM customer's messages as
 * recorded, each with the template it stands for.
 */
export async function replayedEpisode(id: string) {
  const stored = await episodeService.getEpisode(id);
  return guardEpisode({ ...stored, events: voicedEvents(stored.events, stored.customerRewrites, true) });
}

/** The reason a spoiling read of this episode is refused. */
function spoilerRefusal(id: string): TRPCError {
  return new TRPCError({
    code: 'FORBIDDEN',
    message: `episode "${id}" is still being played: its goal, seed, world and evidence are shown when it ends or after a reveal`,
  });
}
