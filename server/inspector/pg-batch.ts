// PostgreSQL: many prepared episodes (an import's) written in one statement per table, their
// search rows (per event and per episode) made from the text the parsing worker computed
// (PreparedEpisode.texts) instead of queued for the drain to parse the events' JSON again.
// The per-row triggers step aside inside it (`ecomrlve.copying`, as for copies, pg-copy.ts):
// the batch writes the tool-call count and the search rows they would have written.
import type { InspectorDb } from './db';
import type { PreparedEpisode } from './insert';
import { intArray, textArray, tsvectorArray, tsvectorBinary } from './pg-binary';
import { JSON_COLUMNS, OWN } from './pg-copy';
import { searchWords } from './search-text';

const COLUMNS: Array<[string, string]> = [...OWN, ...JSON_COLUMNS.map((c): [string, string] => [c, 'text'])];
const unnestOf = (types: string[]) => `unnest(${types.map((t) => `?::${t}[]`).join(', ')})`;

const INSERT_EPISODES = `INSERT INTO "Episode" (${[...COLUMNS.map(([c]) => c), 'toolCalls'].map((c) => `"${c}"`).join(',')})
  SELECT * FROM ${unnestOf([...COLUMNS.map(([, t]) => t), 'int'])}`;

// The events, then each searchable one's row (joined on the new events by episode and seq).
const INSERT_EVENTS = `WITH ev AS (
    INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload")
    SELECT * FROM ${unnestOf(['text', 'int', 'int', 'text', 'text'])} RETURNING "id", "episodeId", "seq")
  INSERT INTO "EpisodeSearch" ("eventId", "episodeId", "doc")
  SELECT ev."id", ev."episodeId", u."doc" FROM ev
  JOIN ${unnestOf(['text', 'int', 'tsvector'])} AS u("episodeId", "seq", "doc") ON u."episodeId" = ev."episodeId" AND u."seq" = ev."seq"
  ORDER BY ev."id"`;

const INSERT_ACTIONS = `INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt")
  SELECT * FROM ${unnestOf(['text', 'int', 'int', 'text', 'text', 'timestamp(3)'])}`;

const INSERT_EPISODE_SEARCH = `INSERT INTO "EpisodeSearchDoc" ("episodeId", "doc")
  SELECT ep, doc FROM ${unnestOf(['text', 'tsvector'])} AS u(ep, doc)`;

/**
 * An episode's search rows as tsvectors in PostgreSQL's binary format (pg-binary.ts): each
 * event's (null: not searched) and the episode's (null: nothing searched). The same values the
 * drain writes from literals (pg-search.ts).
 */
export interface PgSearchRows {
  events: Array<Uint8Array | null>;
  episode: Uint8Array | null;
}

/** The search rows from the events' text (the parsing worker makes them for a PostgreSQL import, beside its other work). */
export function pgSearchRows({ texts }: Pick<PreparedEpisode, 'texts'>): PgSearchRows {
  const words: string[] = [];
  let searched = false;
  const events = texts.map((text) => {
    if (text === null) return null;
    const w = searchWords(text);
    for (const x of w) words.push(x);
    searched = true;
    return tsvectorBinary(w, true);
  });
  return { events, episode: searched ? tsvectorBinary(words, false) : null };
}

/** A batch's statement parameters, made before its turn to be written (pg-batch's caller makes the next while the server writes one). */
export interface EncodedBatch {
  episodes: unknown[];
  events: unknown[] | null;
  actions: unknown[] | null;
  docs: unknown[] | null;
}

/** The parameters of the batch's statements (the arrays in PostgreSQL's binary format: pg-binary.ts). */
export function encodeEpisodesPg(episodes: PreparedEpisode[]): EncodedBatch {
  const rows = episodes.map((p) => ({ ...p.row, updatedAt: p.row.createdAt }));
  const events = {
    ep: [] as string[],
    seq: [] as number[],
    turn: [] as number[],
    kind: [] as string[],
    payload: [] as string[],
  };
  const search = { ep: [] as string[], seq: [] as number[], doc: [] as Uint8Array[] };
  const docs = { ep: [] as string[], doc: [] as Uint8Array[] };
  const actions = {
    ep: [] as string[],
    seq: [] as number[],
    turn: [] as number[],
    format: [] as string[],
    raw: [] as string[],
    at: [] as string[],
  };
  for (const p of episodes) {
    const { row, events: evs, actions: acts } = p;
    const rowsOf = p.pgSearch ?? pgSearchRows(p);
    evs.forEach((e, i) => {
      events.ep.push(row.id);
      events.seq.push(e.seq);
      events.turn.push(e.turn);
      events.kind.push(e.kind);
      events.payload.push(e.payload);
      const doc = rowsOf.events[i];
      if (doc === null) return;
      search.ep.push(row.id);
      search.seq.push(e.seq);
      search.doc.push(doc);
    });
    if (rowsOf.episode !== null) {
      docs.ep.push(row.id);
      docs.doc.push(rowsOf.episode);
    }
    acts.forEach((a, seq) => {
      actions.ep.push(row.id);
      actions.seq.push(seq);
      actions.turn.push(a.turn);
      actions.format.push(a.format);
      actions.raw.push(a.raw);
      actions.at.push(row.createdAt);
    });
  }
  return {
    episodes: [
      // text columns (the JSON ones are tens of KB an episode) in binary; the few others as pg writes them
      ...COLUMNS.map(([c, type]) => {
        const values = rows.map((r) => (r as unknown as Record<string, unknown>)[c] ?? null);
        return type === 'text' ? textArray(values as Array<string | null>) : values;
      }),
      episodes.map((p) => p.row.toolCalls ?? p.events.filter((e) => e.kind === 'tool_call').length),
    ],
    events: events.ep.length
      ? [
          textArray(events.ep),
          intArray(events.seq),
          intArray(events.turn),
          textArray(events.kind),
          textArray(events.payload),
          textArray(search.ep),
          intArray(search.seq),
          tsvectorArray(search.doc),
        ]
      : null,
    actions: actions.ep.length
      ? [
          textArray(actions.ep),
          intArray(actions.seq),
          intArray(actions.turn),
          textArray(actions.format),
          textArray(actions.raw),
          actions.at,
        ]
      : null,
    docs: docs.ep.length ? [textArray(docs.ep), tsvectorArray(docs.doc)] : null,
  };
}

/**
 * Settings for the rest of the import's transaction (SET LOCAL). TOAST compression: an event's
 * JSON and an episode's words past ~2 KB are compressed, and pglz was the server's largest cost in
 * an import of 10,000 episodes (17 % of its CPU, perf); LZ4 compresses several times faster and
 * any reader decompresses either (the method is stored with each value). Only where the server
 * was built with it.
 */
export async function importSettingsPg(tx: InspectorDb): Promise<void> {
  const lz4 = await tx.get(
    `SELECT 1 AS "x" FROM pg_settings WHERE "name" = 'default_toast_compression' AND 'lz4' = ANY("enumvals")`,
  );
  if (lz4) await tx.run(`SET LOCAL default_toast_compression = 'lz4'`);
}

/** Writes an encoded batch inside the caller's transaction (all or none: the caller's savepoint). */
export async function writeEncodedPg(tx: InspectorDb, batch: EncodedBatch): Promise<void> {
  await tx.run(`SET LOCAL ecomrlve.copying = 'on'`);
  await tx.run(INSERT_EPISODES, batch.episodes);
  if (batch.events) await tx.run(INSERT_EVENTS, batch.events);
  if (batch.actions) await tx.run(INSERT_ACTIONS, batch.actions);
  if (batch.docs) await tx.run(INSERT_EPISODE_SEARCH, batch.docs);
  await tx.run(`SET LOCAL ecomrlve.copying = 'off'`);
}
