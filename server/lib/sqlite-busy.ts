// Is this error SQLite saying another connection holds the lock? (better-sqlite3's error codes.)
// Callers retry from the event loop instead of waiting inside a synchronous call.
export function isSqliteBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT';
}
