// The recorder's writer for a SQLite store: prepared better-sqlite3 statements, one transaction
// per batch. The same rows Prisma writes (dates as Prisma stores them, see server/inspector/
// insert.ts), without Prisma's per-query compile and driver round trips, which cost more CPU
// than the engine's step under load (profiled: ~40 % of the server with persistence on).

import Database from 'better-sqlite3';
import { sqliteFile } from '@/server/db-path';
import { sqlDateTime } from '@/server/inspector/query';
import type { BatchWriter, RecordOp } from './recorder';

export function openSqliteWriter(url: string): BatchWriter & { close(): void } {
  const file = sqliteFile(url);
  if (!file) throw new Error(`the SQLite writer needs a file: URL, got "${url}"`);
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // WAL: one append per commit. synchronous=NORMAL keeps every commit across a process crash
  // (kill -9); only a power loss could drop the last ones (the app's setting, server/db.ts).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');

  // Prepared on the first write, so a store that is not migrated fails that write (the waiting
  // requests get EXECUTION_ERROR, as with Prisma) rather than the process.
  let statements: ReturnType<typeof prepare> | null = null;
  const prepare = () => ({
    createEpisode: db.prepare(
      `INSERT INTO "Episode" ("id","createdAt","updatedAt","envId","d","seed","engineVersion","journeyEnvs","rewardRevision",
        "axisOverrides","axes","weights","catalogId","player","turn","status","terminationReason","reward","isCorrect",
        "breakdown","hiddenGoal","eventCount") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    ),
    insertEvent: db.prepare(
      'INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload") VALUES (?,?,?,?,?)',
    ),
    insertAction: db.prepare(
      'INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt","stepKey","eventEnd") VALUES (?,?,?,?,?,?,?,?)',
    ),
    updateEpisode: db.prepare(
      `UPDATE "Episode" SET "updatedAt"=?,"turn"=?,"status"=?,"terminationReason"=?,"reward"=?,"isCorrect"=?,
        "breakdown"=?,"hiddenGoal"=?,"eventCount"=? WHERE "id"=?`,
    ),
  });
  const bool = (b: boolean | null) => (b === null ? null : b ? 1 : 0);
  // The Episode columns a create and a step both write, in the statements' order.
  const progress = (u: RecordOp['update']) => [
    u.turn,
    u.status,
    u.terminationReason,
    u.reward,
    bool(u.isCorrect),
    u.breakdown,
    u.hiddenGoal,
    u.eventCount,
  ];

  const writeBatch = db.transaction((ops: RecordOp[]) => {
    const { createEpisode, insertEvent, insertAction, updateEpisode } = (statements ??= prepare());
    const now = sqlDateTime(new Date());
    for (const op of ops) {
      const u = op.update;
      if (op.kind === 'create') {
        const c = op.create;
        createEpisode.run(
          op.id,
          now,
          now,
          c.envId,
          c.d,
          c.seed,
          c.engineVersion,
          c.journeyEnvs,
          c.rewardRevision,
          c.axisOverrides,
          c.axes,
          c.weights,
          c.catalogId,
          c.player,
          ...progress(u),
        );
      } else {
        const a = op.action;
        insertAction.run(op.id, a.seq, a.turn, a.format, a.raw, now, a.stepKey, a.eventEnd);
      }
      for (const e of op.events) insertEvent.run(op.id, e.seq, e.turn, e.kind, e.payload);
      if (op.kind === 'step') {
        const r = updateEpisode.run(now, ...progress(u), op.id);
        if (r.changes !== 1) throw new Error(`episode "${op.id}" is not in the store`);
      }
    }
  });

  return {
    write: (ops) => writeBatch(ops),
    close: () => db.close(),
  };
}
