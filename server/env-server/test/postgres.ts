// A throw-away PostgreSQL server for tests: initdb into a temp dir, started on a free loopback
// port with its socket in that dir, the app's database created and migrated with the committed
// PostgreSQL migrations (prisma/pg/migrations). Binaries: $ECOMRLVE_PG_BIN, else the newest
// /usr/lib/postgresql/<version>/bin (Debian's `postgresql` package; scripts/test-all.sh installs it
// when missing). As root, the server runs as the `postgres` user (initdb refuses root).
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The directory holding initdb and pg_ctl, or why there is none. */
export function findPostgresBin(): { bin: string } | { missing: string } {
  const candidates = process.env.ECOMRLVE_PG_BIN
    ? [process.env.ECOMRLVE_PG_BIN]
    : existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .filter((v) => /^\d+$/.test(v))
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : [];
  const bin = candidates.find((d) => existsSync(path.join(d, 'initdb')) && existsSync(path.join(d, 'pg_ctl')));
  return bin
    ? { bin }
    : {
        missing: `no initdb/pg_ctl in ${candidates.join(', ') || '/usr/lib/postgresql/<version>/bin'} (install the Debian package postgresql)`,
      };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface TempPostgres {
  url: string;
  stop(): void;
  /** True when `keepIn` held a server from an earlier run (its database migrated, data kept). */
  reused: boolean;
}

export interface PostgresCluster {
  /** postgresql://postgres@127.0.0.1:<port> (no database) */
  base: string;
  /** Runs one of PostgreSQL's tools in the cluster's directory (as `postgres` when root). */
  run(tool: string, args: string[], input?: string | Buffer): Buffer;
  stop(): void;
}

/**
 * Starts the server whose data lives in `dir`/data, after an initdb when there is none yet
 * (`fresh` false then). `keep` stops it with a fast shutdown and leaves `dir` in place.
 */
export async function startCluster(dir: string, keep = false): Promise<PostgresCluster & { fresh: boolean }> {
  if (userInfo().uid === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  const run = clusterTool(dir);
  const data = path.join(dir, 'data');
  const fresh = !existsSync(path.join(data, 'PG_VERSION'));
  if (fresh) {
    rmSync(data, { recursive: true, force: true }); // an initdb interrupted earlier
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  }
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-t',
    '120',
    'start',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
  ]);
  const stop = () => stopCluster(dir, run, keep);
  return { base: `postgresql://postgres@127.0.0.1:${port}`, run, stop, fresh };
}

/** Stops the server of `dir` (if it runs) and, unless `keep`, removes the directory. */
export function stopCluster(dir: string, run?: PostgresCluster['run'], keep = false): void {
  try {
    if (existsSync(path.join(dir, 'data', 'postmaster.pid'))) {
      (run ?? clusterTool(dir))('pg_ctl', ['-D', path.join(dir, 'data'), '-m', keep ? 'fast' : 'immediate', 'stop']);
    }
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs one of PostgreSQL's tools in `dir` (as `postgres` when root: initdb refuses root). */
export function clusterTool(dir: string): PostgresCluster['run'] {
  const found = findPostgresBin();
  if ('missing' in found) throw new Error(`PostgreSQL is not installed: ${found.missing}`);
  const asRoot = userInfo().uid === 0;
  return (tool, args, input) =>
    execFileSync(
      asRoot ? 'runuser' : path.join(found.bin, tool),
      asRoot ? ['-u', 'postgres', '--', path.join(found.bin, tool), ...args] : args,
      { stdio: 'pipe', cwd: dir, input, maxBuffer: 64 * 1024 * 1024 },
    );
}

/** CREATE DATABASE, with an ICU collation (e.g. 'en-US') when asked, else from `template`. */
export async function createDatabase(
  base: string,
  database: string,
  opts: { icuLocale?: string; template?: string } = {},
): Promise<void> {
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: `${base}/postgres` });
  await admin.connect();
  try {
    await admin.query(
      opts.icuLocale
        ? `CREATE DATABASE "${database}" TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${opts.icuLocale}' LOCALE 'C.UTF-8'`
        : `CREATE DATABASE "${database}"${opts.template ? ` TEMPLATE "${opts.template}"` : ''}`,
    );
  } finally {
    await admin.end();
  }
}

/** `prisma migrate deploy` with the committed PostgreSQL migrations (seconds of CPU: a Node process and the schema engine). */
export function migratePostgres(url: string): void {
  execFileSync(path.join(ROOT, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
    stdio: 'pipe',
  });
}

/**
 * `icuLocale` creates the database with that ICU collation (e.g. 'en-US'), so text sorts as a
 * production database's would rather than byte-wise as the test machine's C locale does.
 * `keepIn` (a benchmark's) keeps the server's directory there after `stop` and starts the server
 * found there on the next call instead of a new one (a short path: the socket lives in it).
 * Test files use testPostgres (test/shared-postgres.ts): one server per vitest run.
 */
export async function startTempPostgres(
  database = 'app',
  opts: { icuLocale?: string; keepIn?: string } = {},
): Promise<TempPostgres> {
  const keep = opts.keepIn ? path.resolve(opts.keepIn) : null;
  if (keep) mkdirSync(keep, { recursive: true });
  const dir = keep ?? mkdtempSync('/tmp/ecpg-'); // short: the socket path must stay under 108 bytes
  const cluster = await startCluster(dir, keep !== null);
  try {
    const url = `${cluster.base}/${database}`;
    if (cluster.fresh) await createDatabase(cluster.base, database, opts);
    migratePostgres(url);
    return { url, stop: cluster.stop, reused: !cluster.fresh };
  } catch (e) {
    cluster.stop();
    throw e;
  }
}
