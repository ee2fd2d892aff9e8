// PostgreSQL: many prepared episodes (an import's) written in one statement per table, their
// search rows (per event and per episode) made from the text the parsing worker computed
// (PreparedEpisode.texts) instead of queued for the drain to parse the events' JSON again.
// The per-row triggers step aside inside it (`ecomrlve.copying`, as for copies, pg-copy.ts):
// the batch writes the tool-call count and the search rows they would have written.
import type { InspectorDb } from './db';
import type { PreparedEpisode } from './insert';
import { JSON_COLUMNS, OWN } from './pg-copy';
import { tsvectorLiteral, wordsLiteral } from './pg-search';
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
  SELECT ev."id", ev."episodeId", u."doc"::tsvector FROM ev
  JOIN ${unnestOf(['text', 'int', 'text'])} AS u("episodeId", "seq", "doc") ON u."episodeId" = ev."episodeId" AND u."seq" = ev."seq"
  ORDER BY ev."id"`;

const INSERT_ACTIONS = `INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt")
  SELECT * FROM ${unnestOf(['text', 'int', 'int', 'text', 'text', 'timestamp(3)'])}`;

const INSERT_EPISODE_SEARCH = `INSERT INTO "EpisodeSearchDoc" ("episodeId", "doc")
  SELECT ep, doc::tsvector FROM ${unnestOf(['text', 'text'])} AS u(ep, doc)`;

/** An episode's search rows as tsvector literals: each event's (null: not searched) and the episode's (null: nothing searched). */
export interface PgSearchRows {
  events: Array<string | null>;
  episode: string | null;
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
    return tsvectorLiteral(w);
  });
  return { events, episode: searched ? wordsLiteral(words) : null };
}

/** Writes the episodes inside the caller's transaction (all or none: the caller's savepoint). */
export async function writeEpisodesPg(tx: InspectorDb, episodes: PreparedEpisode[]): Promise<void> {
  const rows = episodes.map((p) => ({ ...p.row, updatedAt: p.row.createdAt }));
  const events = {
    ep: [] as string[],
    seq: [] as number[],
    turn: [] as number[],
    kind: [] as string[],
    payload: [] as string[],
  };
  const search = { ep: [] as string[], seq: [] as number[], doc: [] as string[] };
  const docs = { ep: [] as string[], doc: [] as string[] };
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
  await tx.run(`SET LOCAL ecomrlve.copying = 'on'`);
  await tx.run(INSERT_EPISODES, [
    ...COLUMNS.map(([c]) => rows.map((r) => (r as unknown as Record<string, unknown>)[c] ?? null)),
    episodes.map((p) => p.row.toolCalls ?? p.events.filter((e) => e.kind === 'tool_call').length),
  ]);
  if (events.ep.length)
    await tx.run(INSERT_EVENTS, [
      events.ep,
      events.seq,
      events.turn,
      events.kind,
      events.payload,
      search.ep,
      search.seq,
      search.doc,
    ]);
  if (actions.ep.length)
    await tx.run(INSERT_ACTIONS, [actions.ep, actions.seq, actions.turn, actions.format, actions.raw, actions.at]);
  if (docs.ep.length) await tx.run(INSERT_EPISODE_SEARCH, [docs.ep, docs.doc]);
  await tx.run(`SET LOCAL ecomrlve.copying = 'off'`);
}
