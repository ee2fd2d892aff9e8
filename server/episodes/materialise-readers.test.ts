// Every reader of stored events goes through the materialiser first (materialise.ts): a trainer
// episode's events are stored later than its actions, so a reader that reads EpisodeEvent rows
// without `materialiseEvents` (or the service's `materialisingReads`) would show a partial log.
// A new file that reads events must materialise, or be listed here with the reason it need not.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const READS_EVENTS = /FROM "EpisodeEvent"|JOIN "EpisodeEvent"|episodeEvent\.find|\.getEvents\(/;
const MATERIALISES = /\bmaterialiseEvents\(|\bmaterialisingReads\(/;

/** Files that read event rows without materialising, and why that is right. */
const EXEMPT: Record<string, string> = {
  'server/episodes/materialise.ts': 'the materialiser itself',
  'server/episodes/store.ts': 'the raw reads the service and re-score wrap in materialisingReads',
  'server/episodes/pg-reads.ts': 'the raw PostgreSQL reads the service wraps in materialisingReads',
  'server/env-server/live-episodes.ts':
    'a worker rebuilding its own copy replays the actions anyway; it checks the row’s event count and the stored prefix',
  'server/episodes/sqlite-store/text-index.ts':
    'indexes what is stored; its query callers (pg-search.ts indexCommitted) materialise first, and materialised events get new ids above the mark',
  'server/episodes/sqlite-store/rows.ts': 'copyLog copies stored rows for bench seeding (SQL to SQL)',
  'server/inspector/pg-copy.ts': 'bench seeding copies stored rows on PostgreSQL (SQL to SQL)',
  'server/episodes/service-test-kit.ts': 'test helper',
};

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'generated' || d.name === 'node_modules' ? [] : sources(rel);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [rel] : [];
  });
}

describe('readers of events', () => {
  it('materialise first, or are listed with their reason', () => {
    const readers = ['server', 'app', 'lib', 'scripts'].flatMap(sources).filter((f) => {
      const text = readFileSync(path.join(ROOT, f), 'utf8');
      return READS_EVENTS.test(text);
    });
    const unrouted = readers.filter((f) => !EXEMPT[f] && !MATERIALISES.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(unrouted).toEqual([]);
    // the scan finds the readers it should (it would pass vacuously on a wrong pattern)
    expect(readers).toEqual(
      expect.arrayContaining([
        'server/inspector/episode-data.ts',
        'server/inspector/export.ts',
        'server/inspector/pg-search.ts',
        'server/episodes/service.ts',
      ]),
    );
    // an exemption for a file that no longer reads events is stale
    expect(Object.keys(EXEMPT).filter((f) => !readers.includes(f))).toEqual([]);
  });
});
