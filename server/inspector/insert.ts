// Writing whole episodes (imports, bench seeding): the Episode row, its events and actions in
// one SQLite transaction, so an episode is either stored completely or not at all.
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
    "recorded","rescored","prompts") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  const ev = db.prepare('INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload") VALUES (?,?,?,?,?)');
  const act = db.prepare(
    'INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt") VALUES (?,?,?,?,?,?)',
  );

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
    );
    r.events.forEach((e, seq) => ev.run(id, seq, e.turn, e.kind, JSON.stringify(e)));
    r.actions.forEach((a, seq) => act.run(id, seq, a.turn, a.format, a.raw, created));
    return id;
  };

  return {
    exists: (id: string) => exists.get(id) !== undefined,
    /** One episode, in its own transaction. */
    insert: db.transaction(insertOne),
    /** Many episodes in one transaction (bench seeding). */
    insertMany: db.transaction((rs: EpisodeRecord[]) => rs.map(insertOne)),
  };
}
