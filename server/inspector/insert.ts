// Writing whole episodes (imports, bench seeding): the Episode row, its events and actions in
// one transaction, so an episode is either stored completely or not at all. Inside `bulk` on
// SQLite, the per-event triggers stand aside and the new events are indexed for full-text
// search in one statement at the end (migration 20261130150000_inspector_bulk_load says why).
import { randomBytes } from 'node:crypto';
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { EpisodeSetup, HiddenGoal } from '@/server/episodes/types';
import type { InspectorDb } from './db';
import { sqlDateTime } from './query';

export interface EpisodeRecord extends EpisodeSetup {
  id?: string;
  createdAt?: string;
  status: 'active' | 'done';
  terminationReason: string | null;
  reward: number | null;
  isCorrect: boolean | null;
  breakdown: RewardBreakdown | null;
  turn: number;
  player: string;
  hiddenGoal: HiddenGoal;
  events: EpisodeEvent[];
  actions: Array<{ format: 'text' | 'json'; raw: string; turn: number }>;
  goalRevealed: boolean;
  origin: string;
  runLabel: string | null;
  recorded: unknown;
  rescored: unknown;
  prompts: Array<string | null> | null;
}

export const newEpisodeId = () => `ep${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

const EPISODE_SQL = `INSERT INTO "Episode" ("id","createdAt","updatedAt","envId","d","seed","axisOverrides","axes","weights","catalogId",
  "status","terminationReason","reward","isCorrect","breakdown","turn","player","hiddenGoal","eventCount","goalRevealed","origin","runLabel",
  "recorded","rescored","prompts","toolCalls") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`;
const EVENT_SQL = 'INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload") VALUES (?,?,?,?,?)';
const ACTION_SQL =
  'INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt") VALUES (?,?,?,?,?,?)';
// PostgreSQL: an episode's events (and actions) in one statement each, one round trip.
const PG_EVENTS_SQL = `INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload")
  SELECT ?::text, s, t, k, p FROM unnest(?::int[], ?::int[], ?::text[], ?::text[]) AS u(s, t, k, p)`;
const PG_ACTIONS_SQL = `INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt")
  SELECT ?::text, s, t, f, r, ?::timestamp(3) FROM unnest(?::int[], ?::int[], ?::text[], ?::text[]) AS u(s, t, f, r)`;

// SQLite bulk load: the triggers stand aside while a row is in InspectorBulkLoad, and the new
// events are indexed for search in one statement each at the end (the same text as the
// EpisodeText_insert trigger's).
const INDEX_OWNERS_SQL = `INSERT INTO "EpisodeTextOwner" ("rowid", "episodeId") SELECT "id", "episodeId" FROM "EpisodeEvent"
  WHERE "id" > ? AND "kind" IN ('customer_message', 'agent_message', 'tool_call')`;
const INDEX_TEXT_SQL = `INSERT INTO "EpisodeText" (rowid, body) SELECT "id", CASE "kind"
    WHEN 'tool_call' THEN
      coalesce(json_extract("payload", '$.name'), '') || ' ' || coalesce(json_extract("payload", '$.args'), '') || ' ' ||
      coalesce(json_extract("payload", '$.result'), '') || ' ' || coalesce(json_extract("payload", '$.error'), '')
    ELSE coalesce(json_extract("payload", '$.text'), '') END
  FROM "EpisodeEvent" WHERE "id" > ? AND "kind" IN ('customer_message', 'agent_message', 'tool_call')`;

/**
 * Writes whole episodes on either store. `tx` is the transaction an episode goes into; on
 * PostgreSQL the triggers count tool calls and queue events for the search index.
 */
export function createInserter(db: InspectorDb) {
  const sqlite = db.dialect === 'sqlite';
  let inBulk = false;

  const insertOne = async (tx: InspectorDb, r: EpisodeRecord): Promise<string> => {
    const id = r.id ?? newEpisodeId();
    const created = r.createdAt ? sqlDateTime(new Date(r.createdAt)) : sqlDateTime(new Date());
    await tx.run(EPISODE_SQL, [
      id,
      created,
      created,
      r.envId,
      r.d,
      r.seed,
      JSON.stringify(r.axisOverrides),
      JSON.stringify(r.axes),
      json(r.weights),
      r.catalogId,
      r.status,
      r.terminationReason,
      r.reward,
      r.isCorrect,
      json(r.breakdown),
      r.turn,
      r.player,
      JSON.stringify(r.hiddenGoal),
      r.events.length,
      r.goalRevealed,
      r.origin,
      r.runLabel,
      json(r.recorded),
      json(r.rescored),
      json(r.prompts),
      // Outside a SQLite bulk load a trigger counts tool calls as their events go in.
      sqlite && inBulk ? r.events.filter((e) => e.kind === 'tool_call').length : 0,
    ]);
    if (sqlite) {
      for (const [seq, e] of r.events.entries()) await tx.run(EVENT_SQL, [id, seq, e.turn, e.kind, JSON.stringify(e)]);
      for (const [seq, a] of r.actions.entries()) await tx.run(ACTION_SQL, [id, seq, a.turn, a.format, a.raw, created]);
      return id;
    }
    if (r.events.length)
      await tx.run(PG_EVENTS_SQL, [
        id,
        r.events.map((_, seq) => seq),
        r.events.map((e) => e.turn),
        r.events.map((e) => e.kind),
        r.events.map((e) => JSON.stringify(e)),
      ]);
    if (r.actions.length)
      await tx.run(PG_ACTIONS_SQL, [
        id,
        created,
        r.actions.map((_, seq) => seq),
        r.actions.map((a) => a.turn),
        r.actions.map((a) => a.format),
        r.actions.map((a) => a.raw),
      ]);
    return id;
  };

  /** Runs `write` in one transaction; on SQLite with the triggers aside, then indexes what it wrote. */
  const bulk = <T>(write: (tx: InspectorDb) => Promise<T>): Promise<T> =>
    db.transaction(async (tx) => {
      if (!sqlite || inBulk) return write(tx);
      const after = (await tx.get<{ m: number }>('SELECT coalesce(max("id"), 0) AS "m" FROM "EpisodeEvent"'))!.m;
      await tx.run('INSERT INTO "InspectorBulkLoad" ("on") VALUES (1)');
      inBulk = true;
      try {
        const out = await write(tx);
        await tx.run('DELETE FROM "InspectorBulkLoad"');
        await tx.run(INDEX_OWNERS_SQL, [after]);
        await tx.run(INDEX_TEXT_SQL, [after]);
        return out;
      } finally {
        inBulk = false;
      }
    });

  return {
    exists: async (tx: InspectorDb, id: string) =>
      (await tx.get('SELECT 1 AS "one" FROM "Episode" WHERE "id" = ?', [id])) !== undefined,
    /** One episode in its own transaction (a savepoint inside `bulk`): stored whole or not at all. */
    insert: (tx: InspectorDb, r: EpisodeRecord) => tx.transaction((t) => insertOne(t, r)),
    /** Many episodes in one bulk transaction (bench seeding). */
    insertMany: (rs: EpisodeRecord[]) =>
      bulk(async (tx) => {
        const ids: string[] = [];
        for (const r of rs) ids.push(await insertOne(tx, r));
        return ids;
      }),
    bulk,
  };
}
