// Episodes stored before provenance kept their starting player ("human") although a model or the
// oracle took turns. On start the app re-derives their player from the recorded actors with the
// live path's rule (playerOf). Idempotent: a derived player is never a candidate again. Why code
// and not a SQL migration: docs/inspector.md, "Provenance".
import type { SqlDb } from '@/server/db/sql';
import { playerOf } from './provenance';

const CHUNK = 500;

/** Candidates: a turn by someone the stored player does not name (mixed players are derived already). */
const CANDIDATES = `SELECT DISTINCT a."episodeId" AS "id" FROM "EpisodeAction" a JOIN "Episode" e ON e."id" = a."episodeId"
  WHERE a."actor" IS NOT NULL AND a."actor" <> e."player" AND e."player" NOT LIKE 'mixed:%' LIMIT ${CHUNK}`;

/** Re-derives the player of every episode stored before provenance; answers how many changed. */
export async function backfillPlayers(db: SqlDb): Promise<number> {
  let changed = 0;
  for (;;) {
    const ids = (await db.all<{ id: string }>(CANDIDATES)).map((r) => r.id);
    if (ids.length === 0) return changed;
    const marks = ids.map(() => '?').join(',');
    const rows = await db.all<{ id: string; player: string; actor: string | null }>(
      `SELECT e."id" AS "id", e."player" AS "player", a."actor" AS "actor" FROM "Episode" e
        JOIN "EpisodeAction" a ON a."episodeId" = e."id" WHERE e."id" IN (${marks}) ORDER BY e."id", a."seq"`,
      ids,
    );
    const turns = new Map<string, { starter: string; actors: Array<string | null> }>();
    for (const r of rows) {
      const t = turns.get(r.id) ?? { starter: r.player, actors: [] };
      t.actors.push(r.actor);
      turns.set(r.id, t);
    }
    const updates = [...turns].flatMap(([id, t]) => {
      const player = playerOf(t.starter, t.actors);
      return player === t.starter
        ? []
        : [{ sql: `UPDATE "Episode" SET "player" = ? WHERE "id" = ?`, args: [player, id] }];
    });
    if (updates.length === 0) return changed; // nothing derivable left (never expected: candidates change)
    await db.batch(updates);
    changed += updates.length;
  }
}
