// Which indexes of the Episode table each progress update writes. SQLite maintains an index on
// UPDATE only when the SET list names one of its columns; the running-step update exists to
// leave the search-filter index alone. Read from the
// statements' compiled programs: which opened index cursors an IdxInsert / IdxDelete uses.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { copyMigratedSqlite } from '@/server/lib/migrated-sqlite';
import { listEnvs, oracleAgent, playEpisode, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing';
import { eventRows, UPDATE_PROGRESS_SQL, UPDATE_RUNNING_SQL } from './rows';

const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-rows-'));
const file = path.join(dir, 'rows.db');
copyMigratedSqlite(file);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function indexesWritten(sql: string): string[] {
  const db = new Database(file);
  try {
    const rootNames = new Map(
      (
        db.prepare(`SELECT name, rootpage FROM sqlite_master WHERE tbl_name = 'Episode'`).all() as {
          name: string;
          rootpage: number;
        }[]
      ).map((r) => [r.rootpage, r.name]),
    );
    // EXPLAIN compiles without running; its parameters still need values
    const params = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1], null]));
    const program = db.prepare(`EXPLAIN ${sql}`).all(params) as { opcode: string; p1: number; p2: number }[];
    // cursor → index it opens; an index is written where an IdxInsert or IdxDelete uses its cursor
    const opened = new Map(program.filter((o) => o.opcode === 'OpenWrite').map((o) => [o.p1, rootNames.get(o.p2)]));
    const written = program.filter((o) => o.opcode === 'IdxInsert' || o.opcode === 'IdxDelete');
    return [...new Set(written.map((o) => opened.get(o.p1) ?? '?'))].sort();
  } finally {
    db.close();
  }
}

describe('Episode progress updates', () => {
  // The pending-events index (its WHERE reads eventCount) is small: only episodes whose events
  // wait, at the end of the id order, so a batch's entries share a page or two.
  it('a running step writes the inspector covering index (it follows the turn) and the pending list, not the search filter', () => {
    expect(indexesWritten(UPDATE_RUNNING_SQL)).toEqual(['Episode_events_pending_idx', 'Episode_inspector_cover_idx']);
  });

  it('a full progress update writes both covering indexes (status, reward, … are in both)', () => {
    expect(indexesWritten(UPDATE_PROGRESS_SQL)).toEqual([
      'Episode_events_pending_idx',
      'Episode_inspector_cover_idx',
      'Episode_search_filter_idx',
    ]);
  });
});

describe('event rows', () => {
  it('store JSON.stringify of every event; the reward event reuses the Episode row breakdown text', () => {
    let rewards = 0;
    for (const envId of listEnvs().map((e) => e.id as EnvId)) {
      const { episode } = playEpisode({ envId, d: 4, seed: 21 }, testCatalog(), oracleAgent);
      const b = episode.breakdown!;
      const known = { breakdown: b, json: JSON.stringify(b) };
      const rows = eventRows(episode.events, 7, known);
      expect(rows.map((r) => r.payload)).toEqual(episode.events.map((e) => JSON.stringify(e)));
      expect(rows.map((r) => [r.seq, r.turn, r.kind])).toEqual(episode.events.map((e, i) => [7 + i, e.turn, e.kind]));
      // the splice is what wrote it: a different text for the same breakdown shows through
      const reward = episode.events.findIndex((e) => e.kind === 'reward');
      const turn = episode.events[reward].turn;
      expect(eventRows(episode.events, 0, { breakdown: b, json: '"X"' })[reward].payload).toBe(
        `{"kind":"reward","turn":${turn},"breakdown":"X"}`,
      );
      // another breakdown object (say, a rescore's) is serialised as it is
      expect(eventRows(episode.events, 0, { breakdown: { ...b }, json: '"X"' })[reward].payload).toBe(
        JSON.stringify(episode.events[reward]),
      );
      rewards++;
    }
    expect(rewards).toBe(listEnvs().length);
  });
});
