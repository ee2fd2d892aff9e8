// Runs once when the server starts: starts loading large catalogs, and gives a clear message when
// the database cannot be used (missing directory that cannot be created, read-only file, no tables
// yet, or migrations not applied after an upgrade). Nothing here stands between a request and Next.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // large catalogs are read in a worker thread: a request never waits on a 265 MB file (docs/security.md)
  const { loadCatalogsOffThread } = await import('@/server/catalogs');
  loadCatalogsOffThread();
  const { prisma, databaseUrl } = await import('@/server/db'); // opens nothing until used
  const url = databaseUrl();
  // an empty SQLite file (a fresh clone) is migrated; one that cannot serve stops the server
  const { DatabaseRefused, readySqliteDatabase } = await import('@/server/lib/database-ready');
  try {
    if (readySqliteDatabase(url) === 'migrated') console.log(`[ecomrlve] migrated the empty database ${url}`);
  } catch (e) {
    if (!(e instanceof DatabaseRefused)) throw e;
    console.error(`[ecomrlve] ${e.message}`);
    process.exit(1);
  }
  const problem = await databaseProblem(prisma, url);
  if (problem) {
    console.error(
      `[ecomrlve] the database ${url} is unusable: ${problem}. Pages that read episodes will fail until this is fixed.`,
    );
    return;
  }
  // episodes stored before provenance get the player their turns' actors give (once; docs/inspector.md)
  const [{ backfillPlayers }, { sqlDbOf }] = await Promise.all([
    import('@/server/episodes/player-backfill'),
    import('@/server/episodes/service'),
  ]);
  const changed = await backfillPlayers(sqlDbOf(prisma)).catch((e: Error) => {
    console.error(`[ecomrlve] the player backfill failed: ${e.message}`);
    return 0;
  });
  if (changed) console.log(`[ecomrlve] derived the player of ${changed} episode(s) stored before provenance`);
}

const MIGRATE_HINT = 'run `npx prisma migrate deploy` (npm run app does it)';

/** Why the database cannot serve the app (no tables, read-only, migrations missing), or null. */
async function databaseProblem(
  prisma: { episode: { count(): Promise<number> }; $queryRawUnsafe<T>(sql: string): Promise<T> },
  url: string,
): Promise<string | null> {
  try {
    await prisma.episode.count();
  } catch (e) {
    const text = String((e as Error)?.message ?? e);
    return /no such table|does not exist in the current database/i.test(text)
      ? `its tables are missing: ${MIGRATE_HINT}`
      : /readonly|read-only/i.test(text)
        ? 'it is read-only for this process'
        : 'it cannot be opened';
  }
  try {
    const { pendingMigrations } = await import('@/server/db/path');
    const { databaseKind } = await import('@/server/db/url');
    const rows = await prisma.$queryRawUnsafe<Array<{ name: string }>>(
      'SELECT "migration_name" AS "name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL',
    );
    const dir = databaseKind(url) === 'postgresql' ? 'prisma/pg/migrations' : 'prisma/migrations';
    const pending = pendingMigrations(
      rows.map((r) => r.name),
      dir,
    );
    return pending.length
      ? `${pending.length} migration(s) not applied (${pending.join(', ')}): ${MIGRATE_HINT}`
      : null;
  } catch {
    return null; // no migration table or folder (a database made another way): the count above passed
  }
}
