// PostgreSQL's copyLog (SQLite's is in server/episodes/sqlite-store/rows.ts): many new episode
// rows, each with the log of a stored episode, copied inside the server by INSERT … SELECT (one
// statement per table for the whole batch, no JSON round trip): bench seeding writes 100,000
// episodes from a few hundred. The copies' search rows are copied too (per event and per
// episode), so the drain (pg-search.ts) does not parse and split their text again; an event of
// the source not indexed yet stays queued for its copy and is indexed as any other.
import { createHash } from 'node:crypto';
import type { EpisodeRowInsert } from '@/server/episodes/sqlite-store/rows';
import type { InspectorDb } from './db';

/** Episode columns a copy sets, with their PostgreSQL types (the rest keep their defaults). */
export const OWN: Array<[keyof EpisodeRowInsert | 'updatedAt', string]> = [
  ['id', 'text'],
  ['createdAt', 'timestamp(3)'],
  ['updatedAt', 'timestamp(3)'],
  ['envId', 'text'],
  ['d', 'int'],
  ['seed', 'int'],
  ['catalogId', 'text'],
  ['status', 'text'],
  ['terminationReason', 'text'],
  ['reward', 'float8'],
  ['isCorrect', 'bool'],
  ['turn', 'int'],
  ['player', 'text'],
  ['eventCount', 'int'],
  ['rewardRevision', 'int'],
  ['goalRevealed', 'bool'],
  ['origin', 'text'],
  ['runLabel', 'text'],
];
/**
 * The JSON columns (tens of KB an episode: the goal, the breakdown, the axes). Sent only when
 * they differ from the source's; a copy whose JSON is the source's (bench seeding) takes it
 * inside the server.
 */
export const JSON_COLUMNS = [
  'axisOverrides',
  'axes',
  'weights',
  'breakdown',
  'hiddenGoal',
  'recorded',
  'rescored',
  'prompts',
] as const satisfies ReadonlyArray<keyof EpisodeRowInsert>;

// One text of a row's JSON columns (NULL kept apart from any text), to compare with the source's.
const jsonKeySql = (alias: string) =>
  `md5(concat_ws(chr(1), ${JSON_COLUMNS.map((c) => `coalesce(${alias}."${c}", chr(2))`).join(', ')}))`;
const jsonKey = (row: EpisodeRowInsert) =>
  createHash('md5')
    .update(JSON_COLUMNS.map((c) => row[c] ?? '\u0002').join('\u0001'))
    .digest('hex');

const INSERT_EPISODES = `INSERT INTO "Episode" (${[...OWN.map(([c]) => c), ...JSON_COLUMNS, 'toolCalls'].map((c) => `"${c}"`).join(',')})
  SELECT ${OWN.map(([c]) => `u."${c}"`).join(', ')},
    ${JSON_COLUMNS.map((c) => `CASE WHEN u."sameJson" THEN src."${c}" ELSE u."${c}" END`).join(', ')}, src."toolCalls"
  FROM unnest(${[...OWN.map(([, t]) => t), ...JSON_COLUMNS.map(() => 'text'), 'bool', 'text'].map((t) => `?::${t}[]`).join(', ')})
    AS u(${[...OWN.map(([c]) => c), ...JSON_COLUMNS, 'sameJson', 'from'].map((c) => `"${c}"`).join(', ')})
  JOIN "Episode" src ON src."id" = u."from"`;

// c(from, to, createdAt, n): the batch's pairs, n keeps the batch's order for the new ids.
const PAIRS = `unnest(?::text[], ?::text[], ?::timestamp(3)[]) WITH ORDINALITY AS c("from", "to", "createdAt", n)`;

const COPY_EVENTS = `INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload")
  SELECT c."to", ev."seq", ev."turn", ev."kind", ev."payload" FROM ${PAIRS}
  JOIN "EpisodeEvent" ev ON ev."episodeId" = c."from" ORDER BY c.n, ev."seq"`;

const COPY_ACTIONS = `INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt")
  SELECT c."to", a."seq", a."turn", a."format", a."raw", c."createdAt" FROM ${PAIRS}
  JOIN "EpisodeAction" a ON a."episodeId" = c."from" ORDER BY c.n, a."seq"`;

// Each copied event as its source is: indexed (its words copied) or still queued (queued too).
const COPIED_EVENTS = `SELECT ne."id" AS "eventId", ne."episodeId", oe."id" AS "sourceId" FROM ${PAIRS}
  JOIN "EpisodeEvent" oe ON oe."episodeId" = c."from"
  JOIN "EpisodeEvent" ne ON ne."episodeId" = c."to" AND ne."seq" = oe."seq"`;
// In the copies' event order: an episode's rows side by side, as an import or the drain writes
// them (a search's check inside one event reads an episode's rows: a page or two, not 25).
const COPY_EVENT_SEARCH = `INSERT INTO "EpisodeSearch" ("eventId", "episodeId", "doc")
  SELECT x."eventId", x."episodeId", s."doc" FROM (${COPIED_EVENTS}) x JOIN "EpisodeSearch" s ON s."eventId" = x."sourceId"
  ORDER BY x."eventId"`;
const COPY_QUEUE = `INSERT INTO "EpisodeSearchPending" ("eventId")
  SELECT x."eventId" FROM (${COPIED_EVENTS}) x JOIN "EpisodeSearchPending" p ON p."eventId" = x."sourceId"`;

const COPY_EPISODE_SEARCH = `INSERT INTO "EpisodeSearchDoc" ("episodeId", "doc")
  SELECT c."to", d."doc" FROM ${PAIRS} JOIN "EpisodeSearchDoc" d ON d."episodeId" = c."from"`;

export interface PgCopy {
  /** the stored episode whose events and actions the copy gets */
  from: string;
  /** the copy's own row */
  row: EpisodeRowInsert;
  /** how many events and actions the copy must get (checked before anything is written) */
  events: number;
  actions: number;
}

/** Writes the copies inside the caller's transaction. Returns their ids. */
export async function copyEpisodesPg(tx: InspectorDb, copies: PgCopy[]): Promise<string[]> {
  if (!copies.length) return [];
  const sources = [...new Set(copies.map((c) => c.from))];
  const counts = new Map(
    (
      await tx.all<{ id: string; events: number; actions: number }>(
        `SELECT e."id",
           (SELECT count(*) FROM "EpisodeEvent" v WHERE v."episodeId" = e."id") AS "events",
           (SELECT count(*) FROM "EpisodeAction" a WHERE a."episodeId" = e."id") AS "actions"
         FROM "Episode" e WHERE e."id" = ANY(?::text[])`,
        [sources],
      )
    ).map((r) => [r.id, r]),
  );
  for (const c of copies) {
    const stored = counts.get(c.from) ?? { events: 0, actions: 0 };
    if (stored.events !== c.events || stored.actions !== c.actions)
      throw new Error(
        `episode "${c.from}" has ${stored.events} events and ${stored.actions} actions; its copy was given ${c.events} and ${c.actions}`,
      );
  }
  const sourceKeys = new Map(
    (
      await tx.all<{ id: string; key: string }>(
        `SELECT e."id", ${jsonKeySql('e')} AS "key" FROM "Episode" e WHERE e."id" = ANY(?::text[])`,
        [sources],
      )
    ).map((r) => [r.id, r.key]),
  );
  const same = copies.map((c) => sourceKeys.get(c.from) === jsonKey(c.row));
  await tx.run(`SET LOCAL ecomrlve.copying = 'on'`); // the triggers step aside: toolCalls and search rows are copied
  await tx.run(INSERT_EPISODES, [
    ...OWN.map(([col]) => copies.map((c) => (col === 'updatedAt' ? c.row.createdAt : (c.row[col] ?? null)))),
    ...JSON_COLUMNS.map((col) => copies.map((c, i) => (same[i] ? null : (c.row[col] ?? null)))),
    same,
    copies.map((c) => c.from),
  ]);
  const pairs = [copies.map((c) => c.from), copies.map((c) => c.row.id), copies.map((c) => c.row.createdAt)];
  for (const sql of [COPY_EVENTS, COPY_ACTIONS, COPY_EVENT_SEARCH, COPY_QUEUE, COPY_EPISODE_SEARCH])
    await tx.run(sql, pairs);
  await tx.run(`SET LOCAL ecomrlve.copying = 'off'`);
  return copies.map((c) => c.row.id);
}
