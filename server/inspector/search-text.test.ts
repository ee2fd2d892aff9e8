// The words of full-text search: hand-computed cases, and FTS5's own tokenizer (the one SQLite's
// index uses) as the reference over many generated texts, so PostgreSQL's index, built from
// searchWords, holds the words SQLite's does.
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '@/server/engine/random';
import type { EpisodeEvent } from '@/server/engine/types';
import { lexeme, tsvectorLiteral } from './pg-search';
import { ftsQuery, tsQuery } from '@/server/episodes/queries/search';
import { createHeuristicAgent, ENV_IDS, oracleAgent, playEpisode } from '@/server/engine';
import { SEARCH_TEXT_SQL } from '@/server/episodes/writer';
import { eventSearchText, searchTerms, searchWords } from './search-text';
import { testCatalog } from './test/helpers';

describe('the text of an event', () => {
  it('is a message text, or a tool call name, arguments, result and error', () => {
    const msg = { kind: 'customer_message', turn: 0, text: 'Need a blue mug' } as EpisodeEvent;
    expect(eventSearchText(msg)).toBe('Need a blue mug');
    const call = {
      kind: 'tool_call',
      turn: 1,
      name: 'cart.add',
      args: { product_id: 'syn_000152', qty: 2 },
      result: 'added',
      error: null,
    } as unknown as EpisodeEvent;
    // a string result as itself (no JSON quotes or escapes), objects as JSON, null as nothing
    expect(eventSearchText(call)).toBe('cart.add {"product_id":"syn_000152","qty":2} added ');
    expect(eventSearchText({ kind: 'answer', turn: 2, answer: {} } as unknown as EpisodeEvent)).toBeNull();
  });
});

describe('eventSearchText (and the payload serialised with it) mirrors the SQL the catch-up indexes', () => {
  // Imports index the text computed in TypeScript, every other writer's events get the SQL's:
  // one event must give one text either way, or a search would find an episode by how it was stored.
  it('gives the SQL text for every event of played episodes and for odd values', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE "EpisodeEvent" ("kind" TEXT, "payload" TEXT)');
    const insert = db.prepare('INSERT INTO "EpisodeEvent" VALUES (?, ?)');
    const events: EpisodeEvent[] = [];
    for (const [i, envId] of ENV_IDS.entries())
      events.push(
        ...playEpisode({ envId, d: 2 + i, seed: 7 }, testCatalog(), i % 2 ? oracleAgent : createHeuristicAgent())
          .episode.events,
      );
    const odd = [
      {
        kind: 'tool_call',
        turn: 1,
        name: 'x',
        args: { q: 'a "b" \\ ü 😀', n: 0.1, big: 1e21 },
        result: [1, null, true],
        error: 'E',
      },
      { kind: 'tool_call', turn: 1, name: 'y', args: {}, result: { nested: { deep: [{ v: -3.25 }] } } },
      { kind: 'tool_call', turn: 1, name: 'z', args: { s: '' }, result: 'plain text', error: null },
      { kind: 'customer_message', turn: 2, text: 'Ünïcode\nlines\ttabs' },
      { kind: 'agent_message', turn: 2, text: null },
      // keys JSON.stringify reorders or leaves out, and a key needing escapes
      { kind: 'tool_call', turn: 3, name: 'w', args: { 2: 'b', 1: 'a' }, result: undefined, 'k"\\': 1, 10: 'ten' },
    ] as unknown as EpisodeEvent[];
    events.push(...odd);
    for (const e of events) insert.run(e.kind, JSON.stringify(e));
    const sql = db
      .prepare(
        `SELECT CASE WHEN "kind" IN ('customer_message', 'agent_message', 'tool_call') THEN ${SEARCH_TEXT_SQL} END FROM "EpisodeEvent" ORDER BY rowid`,
      )
      .pluck()
      .all();
    db.close();
    expect(new Set(events.map((e) => e.kind)).size).toBeGreaterThan(4);
    expect(events.filter((e) => e.kind === 'tool_call').length).toBeGreaterThan(20);
    expect(events.map(eventSearchText)).toEqual(sql);
  });
});

describe('words and queries', () => {
  it('splits as FTS5 does: letters and digits, lower case, accents removed', () => {
    expect(searchWords('Héllo, WORLD! syn_000152-v 12.5 naïve Ünïcode')).toEqual([
      'hello',
      'world',
      'syn',
      '000152',
      'v',
      '12',
      '5',
      'naive',
      'unicode',
    ]);
    expect(searchWords(' -_- ')).toEqual([]);
  });

  it('turns the user input into the same terms for both stores', () => {
    expect(searchTerms('red "Blue Mug" syn_000152* -')).toEqual([
      { words: ['red'], prefix: false },
      { words: ['blue', 'mug'], prefix: false },
      { words: ['syn', '000152'], prefix: true },
    ]);
    expect(tsQuery('red "Blue Mug" syn_000152*')).toBe("('red') & ('blue' <-> 'mug') & ('syn' <-> '000152':*)");
    expect(ftsQuery('red "Blue Mug" syn_000152*')).toBe('"red" AND "blue mug" AND "syn 000152"*');
    // quotes, operators and stray symbols never reach the query language
    expect(tsQuery(`' & | ! <-> ( ) :*`)).toBeNull();
    expect(tsQuery('a&b')).toBe("('a' <-> 'b')");
    expect(tsvectorLiteral(['a½z', 'b', 'a½z'])).toBe("'a½z':1 'b':2 'a½z':3");
    expect(lexeme("it's\\")).toBe("'it''s\\\\'");
  });
});

describe('searchWords against FTS5 unicode61 remove_diacritics 2', () => {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 2');
           CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
  afterAll(() => db.close());
  const insert = db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)');
  const tokens = db.prepare('SELECT term FROM v WHERE doc = ? ORDER BY offset').pluck();
  // what tool results and messages hold: ids, prices, JSON, accented and non-Latin names
  const pieces = [
    ...'abcxyzABCXYZ0123456789',
    ...' _-.,:;"{}[]/\\\'!?@#%&*+=<>|~`()\n\t',
    ...'éèêëÉàâäÀçÇñÑöÖüÜïîôûÿåÅ',
    ...'αβγΔΣωЖжЯя日本語中文한국ǅẞıİﬁＡøØæ²½ª',
    '\u00ad',
    '\u200b',
    '\u0301',
    '\ue000',
    '𝐀',
    'syn_000152',
    '"price":12.5',
    '{"product_id":"syn_0011523"}',
    'naïve café',
    'Straße',
  ];

  it('gives the same words for 1,000 generated texts', () => {
    const rng = Rng.from('search-words', 1);
    for (let i = 1; i <= 1000; i++) {
      let text = '';
      const n = 1 + Math.floor(rng.next() * 40);
      for (let k = 0; k < n; k++) text += pieces[Math.floor(rng.next() * pieces.length)];
      insert.run(i, text);
      expect(searchWords(text), JSON.stringify(text)).toEqual(tokens.all(i));
    }
  });
});
