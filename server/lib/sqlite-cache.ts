// The page cache every SQLite connection of the app server gets.
//
// better-sqlite3 is built with SQLITE_DEFAULT_CACHE_SIZE=-16000: each connection may keep 16 MB of
// pages, in small blocks of the server thread's malloc heap. The server has several connections
// to one file (Prisma's, the episode hot path with its search indexer, the curriculum's batch
// writer, the inspector's), and a stored 1000-episode curriculum fills them: that was most of the
// ~80 MB the heap kept after a burst (docs/security.md, "Memory after a burst"). Giving the pages
// back later does not work: `PRAGMA shrink_memory` left the heap's resident size unchanged in a
// probe (freed blocks among live ones stay resident with glibc). So each connection is bounded
// from the start, to SQLite's own default; a page not cached is read from the OS page cache.
export const SQLITE_CACHE_KIB = 2000;

/** The PRAGMA that bounds a connection's page cache (for connections reached through SQL only, like Prisma's). */
export const SQLITE_CACHE_PRAGMA = `PRAGMA cache_size = -${SQLITE_CACHE_KIB}`;

/** Bounds a better-sqlite3 connection's page cache; returns it. */
export function boundSqliteCache<T extends { pragma(source: string): unknown }>(db: T): T {
  db.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  return db;
}
