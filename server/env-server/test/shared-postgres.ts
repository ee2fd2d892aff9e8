// One PostgreSQL server per vitest run for the test files that need one. initdb, the start and
// above all `prisma migrate deploy` (a Node process and the schema engine: ~3 s of CPU, 30 s of
// wall time at load 18) were paid by each file. Now the first file to ask starts the server in
// the directory vitest's globalSetup provides (postgres-global.ts, which also stops it at the
// end) and migrates one template database; every file gets its own database copied from it, so
// files stay isolated. A cross-process lock (a directory) makes the other workers wait for that.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { clusterTool, createDatabase, migratePostgres, startCluster, startTempPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared server's directory (postgres-global.ts); the server starts on first use. */
    postgresDir?: string;
  }
}

export interface TestPostgres {
  url: string;
  /** Drops this file's database (the shared server stops when the run ends). */
  drop(): Promise<void>;
}

const TEMPLATE = 'migrated_template';

async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(dir, 'lock');
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (Date.now() > deadline) throw new Error(`waited 5 minutes for ${lock}; a run killed while starting leaves it`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The server's base URL and a migrated template with this collation, made once per run. */
async function sharedTemplate(dir: string, icuLocale?: string): Promise<{ base: string; template: string }> {
  const template = icuLocale ? `${TEMPLATE}_icu_${icuLocale.replace(/\W/g, '_').toLowerCase()}` : TEMPLATE;
  const baseFile = path.join(dir, 'base-url');
  const templateFile = path.join(dir, `${template}.ready`);
  return withLock(dir, async () => {
    if (!existsSync(baseFile)) {
      const cluster = await startCluster(dir);
      await createDatabase(cluster.base, TEMPLATE);
      migratePostgres(`${cluster.base}/${TEMPLATE}`);
      writeFileSync(baseFile, cluster.base);
      writeFileSync(path.join(dir, `${TEMPLATE}.ready`), '');
    }
    const base = readFileSync(baseFile, 'utf8');
    if (!existsSync(templateFile)) {
      // a database of another collation cannot be copied from the template: the migrated
      // schema (and prisma's record of the migrations) is restored into it instead
      await createDatabase(base, template, { icuLocale });
      const run = clusterTool(dir);
      const port = new URL(base).port;
      const conn = ['-h', '127.0.0.1', '-p', port, '-U', 'postgres'];
      run('psql', [...conn, '-q', '-v', 'ON_ERROR_STOP=1', '-d', template], run('pg_dump', [...conn, '-d', TEMPLATE]));
      writeFileSync(templateFile, '');
    }
    return { base, template };
  });
}

/**
 * A fresh database migrated with the committed PostgreSQL migrations, on the run's shared
 * server; `icuLocale` (e.g. 'en-US') gives it that ICU collation, so text sorts as a production
 * database's would. Outside a vitest run with postgres-global.ts, a server of its own.
 */
export async function testPostgres(database: string, opts: { icuLocale?: string } = {}): Promise<TestPostgres> {
  const dir = inject('postgresDir');
  if (!dir) {
    const own = await startTempPostgres(database, opts);
    return { url: own.url, drop: async () => own.stop() };
  }
  const { base, template } = await sharedTemplate(dir, opts.icuLocale);
  const name = `${database}_${process.pid}_${Date.now()}`;
  await createDatabase(base, name, { template });
  return {
    url: `${base}/${name}`,
    async drop() {
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ connectionString: `${base}/postgres` });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
