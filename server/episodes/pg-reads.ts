// The replay's reads on PostgreSQL (an episode's row, events and model records), through `pg`
// directly instead of Prisma. Why: a 500-turn episode is 1,544 event rows (1.5 MB); through
// Prisma's query compiler and adapter they cost ~45 ms of CPU a read more than through `pg`, and
// even the row costs several ms through Prisma; the replay page reads the row five times and the
// events and records once per request. Plain reads of committed rows, the same values Prisma
// returns (pg-parity.test.ts compares them). Writes stay on Prisma.
import pg from 'pg';
import { databaseKind, pgConnectionConfig } from '@/server/db-url';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import type { EpisodeStore } from './store';

export type PgReads = Pick<EpisodeStore, 'getRow' | 'getEvents' | 'getModelRecords'>;

// Prisma's DateTime columns are `timestamp(3)` holding UTC; pg would read them as local time.
const TIMESTAMP_OID = 1114;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP_OID
      ? (s: string) => new Date(`${s.replace(' ', 'T')}Z`)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** The reads for a DATABASE_URL, or null when it is not PostgreSQL. */
export function pgReadsFor(url: string | undefined): PgReads | null {
  if (!url || databaseKind(url) !== 'postgresql') return null;
  let pool: pg.Pool | null = null;
  // Opened on first use (a CLI that never reads an episode opens no connection); idle connections let the process exit.
  const open = () => {
    const p = new pg.Pool({ ...pgConnectionConfig(url), max: 2, allowExitOnIdle: true, types });
    p.on('error', () => undefined); // an idle connection lost (server restart): the next query opens another
    return p;
  };
  const query = async <T extends pg.QueryResultRow>(text: string, id: string) =>
    (await (pool ??= open()).query<T>(text, [id])).rows;
  return {
    getRow: async (id) => (await query<EpisodeRow>('SELECT * FROM "Episode" WHERE "id" = $1', id))[0] ?? null,
    getEvents: (id) =>
      query<{ seq: number; payload: string }>(
        'SELECT "seq", "payload" FROM "EpisodeEvent" WHERE "episodeId" = $1 ORDER BY "seq"',
        id,
      ),
    getModelRecords: (id) =>
      query<{ seq: number; actor: string | null; modelRecord: string | null }>(
        'SELECT "seq", "actor", "modelRecord" FROM "EpisodeAction" WHERE "episodeId" = $1 ORDER BY "seq"',
        id,
      ),
  };
}
