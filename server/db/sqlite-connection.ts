// Every SQLite connection of the app server is opened here, with one set of pragmas:
//
// - WAL: readers do not wait for the writer, and a commit is one append. The mode is stored in
//   the file, so whichever connection opens it first sets it (best effort: a locked or read-only
//   file keeps its mode; Prisma's connection sets it too, server/db/index.ts).
// - synchronous=NORMAL: every commit survives a process crash (kill -9); only a power loss could
//   drop the last ones. It is also what better-sqlite3 gives a connection to a file already in
//   WAL (SQLITE_DEFAULT_WAL_SYNCHRONOUS=1); set here so a fresh file behaves the same.
// - busy timeout: how long a statement waits for another connection's lock (5 s; 0 fails at once).
//   It is set last: the setup itself waits up to the driver's 5 s (switching a fresh file to WAL
//   needs the lock for a moment; Prisma's connection may be doing the same at start-up).
// - a bounded page cache. better-sqlite3 is built with SQLITE_DEFAULT_CACHE_SIZE=-16000: each
//   connection may keep 16 MB of pages, in small blocks of the server thread's malloc heap. The
//   server had several connections to one file, and a stored 1000-episode curriculum filled
//   them: that was most of the ~80 MB the heap kept after a burst
//   (docs/security.md, "Memory after a burst"). Giving the pages back later does not work:
//   `PRAGMA shrink_memory` left the heap's resident size unchanged in a probe (freed blocks among
//   live ones stay resident with glibc). So each connection is bounded from the start, to SQLite's
//   own default; a page not cached is read from the OS page cache.
import Database from 'better-sqlite3';

export const SQLITE_CACHE_KIB = 2000;

export interface SqliteConnectionOptions {
  /** ms a statement waits for another connection's lock (default 5000); 0 fails at once with SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /** default NORMAL (see above); FULL also survives a power loss, OFF is for benches. */
  synchronous?: 'NORMAL' | 'FULL' | 'OFF';
  /** open the file read-only: no journal mode or durability pragmas (those are a writer's). */
  readonly?: boolean;
  /** 'bounded' (default): SQLITE_CACHE_KIB; 'driver-default': better-sqlite3's 16 MB. */
  pageCache?: 'bounded' | 'driver-default';
}

/** The pragmas of a connection, in the order they are set (the busy timeout last, see above). */
export function sqliteConnectionPragmas(options: SqliteConnectionOptions = {}): string[] {
  const pragmas = ['foreign_keys = ON'];
  if (options.pageCache !== 'driver-default') pragmas.push(`cache_size = -${SQLITE_CACHE_KIB}`);
  if (!options.readonly) pragmas.push('journal_mode = WAL', `synchronous = ${options.synchronous ?? 'NORMAL'}`);
  pragmas.push(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  return pragmas;
}

/** Opens a connection of the app server to the SQLite file at `file` (a path, not a URL). */
export function openSqliteConnection(file: string, options: SqliteConnectionOptions = {}): Database.Database {
  const readonly = options.readonly ?? false;
  const db = new Database(file, { readonly, fileMustExist: readonly, timeout: 5000 }); // the setup's wait
  for (const pragma of sqliteConnectionPragmas(options)) {
    try {
      db.pragma(pragma);
    } catch (e) {
      if (!pragma.startsWith('journal_mode')) throw e; // the mode is the file's: another connection sets it
    }
  }
  return db;
}
