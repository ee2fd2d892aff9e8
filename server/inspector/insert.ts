// Writing whole episodes (imports, bench seeding): the Episode row, its events and actions in
// one SQLite transaction, so an episode is either stored completely or not at all. Inside
// `bulk`, the per-event triggers stand aside and the new events are indexed for full-text
// search in one statement at the end (migration 20261130150000_inspector_bulk_load says why).
import { randomBytes } from 'node:crypto';
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { EpisodeSetup, HiddenGoal } from '@/server/episodes/types';
import type { Sqlite } from './db';
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

export function createInserter(db: Sqlite) {
  const exists = db.prepare('SELECT 1 FROM "Episode" WHERE "id" = ?');
  const ep =
    db.prepare(`INSERT INTO "Episode" ("id","createdAt","updatedAt","envId","d","seed","axisOverrides","axes","weights","catalogId",
    "status","terminationReason","reward","isCorrect","breakdown","turn","player","hiddenGoal","eventCount","goalRevealed","origin","runLabel",
    "recorded","rescored","prompts","toolCalls") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  const ev = db.prepare('INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload") VALUES (?,?,?,?,?)');
  const act = db.prepare(
    'INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt") VALUES (?,?,?,?,?,?)',
  );

  const maxEventId = db.prepare('SELECT coalesce(max("id"), 0) AS m FROM "EpisodeEvent"').pluck();
  const bulkOn = db.prepare('INSERT INTO "InspectorBulkLoad" ("on") VALUES (1)');
  const bulkOff = db.prepare('DELETE FROM "InspectorBulkLoad"');
  const indexOwners = db.prepare(
    `INSERT INTO "EpisodeTextOwner" ("rowid", "episodeId") SELECT "id", "episodeId" FROM "EpisodeEvent"
     WHERE "id" > ? AND "kind" IN ('customer_message', 'agent_message', 'tool_call')`,
  );
  // The same text as the EpisodeText_insert trigger's.
  const indexText = db.prepare(
    `INSERT INTO "EpisodeText" (rowid, body) SELECT "id", CASE "kind"
       WHEN 'tool_call' THEN
         coalesce(json_extract("payload", '$.name'), '') || ' ' || coalesce(json_extract("payload", '$.args'), '') || ' ' ||
         coalesce(json_extract("payload", '$.result'), '') || ' ' || coalesce(json_extract("payload", '$.error'), '')
       ELSE coalesce(json_extract("payload", '$.text'), '') END
     FROM "EpisodeEvent" WHERE "id" > ? AND "kind" IN ('customer_message', 'agent_message', 'tool_call')`,
  );
  let inBulk = false;

  const insertOne = (r: EpisodeRecord): string => {
    const id = r.id ?? newEpisodeId();
    const created = r.createdAt ? sqlDateTime(new Date(r.createdAt)) : sqlDateTime(new Date());
    ep.run(
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
      r.isCorrect === null ? null : r.isCorrect ? 1 : 0,
      json(r.breakdown),
      r.turn,
      r.player,
      JSON.stringify(r.hiddenGoal),
      r.events.length,
      r.goalRevealed ? 1 : 0,
      r.origin,
      r.runLabel,
      json(r.recorded),
      json(r.rescored),
      json(r.prompts),
      // Outside bulk the trigger counts tool calls as their events go in.
      inBulk ? r.events.filter((e) => e.kind === 'tool_call').length : 0,
    );
    r.events.forEach((e, seq) => ev.run(id, seq, e.turn, e.kind, JSON.stringify(e)));
    r.actions.forEach((a, seq) => act.run(id, seq, a.turn, a.format, a.raw, created));
    return id;
  };

  /** Runs `write` in one transaction with the triggers aside, then indexes what it wrote. */
  const bulk = <T>(write: () => T): T =>
    db.transaction(() => {
      if (inBulk) return write();
      const after = maxEventId.get() as number;
      bulkOn.run();
      inBulk = true;
      try {
        const out = write();
        bulkOff.run();
        indexOwners.run(after);
        indexText.run(after);
        return out;
      } finally {
        inBulk = false;
      }
    })();

  return {
    exists: (id: string) => exists.get(id) !== undefined,
    /** One episode, in its own transaction (a savepoint inside `bulk`). */
    insert: db.transaction(insertOne),
    /** Many episodes in one bulk transaction (bench seeding). */
    insertMany: (rs: EpisodeRecord[]) => bulk(() => rs.map(insertOne)),
    bulk,
  };
}
