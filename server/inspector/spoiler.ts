// The spoiler guard at every inspector read (issue 29): while an episode is active and its goal
// not revealed, nothing that gives its goal away leaves the server, whoever asks (with auth off
// the person playing is also "the admin", so an unrevealed pass must not have been read off the
// inspector). Given away: the hidden goal, the seed (the open engine regenerates the goal from
// it), the world and hidden world_change events, a same-seed oracle. Lists show such episodes
// without their seed; single reads answer FORBIDDEN or the guarded view; the replay's "reveal"
// records a reveal (revealedAt) and then everything is open, as it is once the episode ends.
import { TRPCError } from '@trpc/server';
import { goalMayLeave } from '@/server/episodes/seat';
import type { EpisodeView } from '@/server/episodes/types';
import type { SqlDb } from '@/server/db/sql';

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
  const active = rows.filter((r) => r.status !== 'done').map((r) => r.id);
  const revealed = new Set<string>();
  if (active.length) {
    const sql = `SELECT "id" FROM "Episode" WHERE "revealedAt" IS NOT NULL AND "id" IN (${active.map(() => '?').join(',')})`;
    for (const r of await db.all<{ id: string }>(sql, active)) revealed.add(r.id);
  }
  return rows.map((r) => guardRow(r, revealed.has(r.id)));
}

/** Whether this stored episode's goal may leave the server now (false for an unknown id). */
export async function goalOpen(db: SqlDb, id: string): Promise<boolean> {
  const r = await db.get<{ status: string; revealedAt: unknown }>(
    'SELECT "status", "revealedAt" FROM "Episode" WHERE "id" = ?',
    [id],
  );
  return r !== undefined && r !== null && !goalHidden({ status: r.status, revealed: r.revealedAt !== null });
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

/** The reason a spoiling read of this episode is refused. */
export function spoilerRefusal(id: string): TRPCError {
  return new TRPCError({
    code: 'FORBIDDEN',
    message: `episode "${id}" is still being played: its goal, seed, world and evidence are shown when it ends or after a reveal`,
  });
}
