// Is this error SQLite saying another connection holds the lock? (better-sqlite3's error codes.)
// Callers retry from the event loop instead of waiting inside a synchronous call.
//
// One rule for every caller: the primary codes SQLITE_BUSY and SQLITE_LOCKED and each of their
// extended codes (SQLITE_BUSY_RECOVERY, _SNAPSHOT, _TIMEOUT; SQLITE_LOCKED_SHAREDCACHE, _VTAB),
// recognised by prefix so a code a later SQLite adds is covered too. Codes that merely mention a
// lock (SQLITE_IOERR_LOCK, SQLITE_IOERR_RDLOCK) are I/O failures, not contention: never retried.
const BUSY_CODE = /^SQLITE_(BUSY|LOCKED)(_[A-Z0-9]+)*$/;

export function isSqliteBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && BUSY_CODE.test(code);
}
