// npm run serve:env [-- --port 3141 --mode production --max-sessions 256 --idle-timeout 600 --catalog synthetic-s1-n20000 --persist off --workers 2]
// The trainer-facing env server (OpenEnv shape). Settings: docs/env-server.md.

import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { ConfigError, helpText, loadConfig, type EnvServerConfig } from '../server/env-server/config';
import { startEnvServer } from '../server/env-server/server';
import { persistedTokenSecret } from '../server/env-server/token-secret';
import { walCheckpointer } from '../server/env-server/wal-checkpoints';
import { databaseUrl } from '../server/db';
import { sqliteFile } from '../server/db/path';
import { DatabaseRefused, readySqliteDatabase } from '../server/lib/database-ready';

/** The SQLite file the workers record into (null: persistence off, or another database). */
const recordedSqliteFile = (config: EnvServerConfig) => (config.persist ? sqliteFile(databaseUrl()) : null);

/** Serves the port in this process; a cluster worker tells the primary its address instead of printing it. */
async function serve(config: EnvServerConfig) {
  const t = performance.now();
  const catalog = getCatalog(config.catalogId);
  // a worker's primary checkpoints the file it records into (primary() below)
  const server = await startEnvServer(config, catalog, {
    checkpointedByPrimary: cluster.isWorker && recordedSqliteFile(config) !== null,
  });
  const detail = `mode ${config.mode}, catalog ${catalog.id} loaded in ${Math.round(performance.now() - t)} ms, admin ${config.adminToken ? 'on' : 'off'}, persistence ${config.persist ? 'on' : 'off'}`;
  if (cluster.isWorker) process.send!({ listening: server.url, detail });
  // Tests and scripts read this line for the port (it may have been 0 = any free port).
  else console.log(`env server listening on ${server.url} (${detail})`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * The primary of `--workers N`: forks the workers (they share the listening socket; each
 * accepted connection, so each WebSocket session, stays on one worker) and prints the address
 * once all of them listen. Workers share a token secret so any of them accepts any token.
 */
function primary(config: EnvServerConfig) {
  const secret = config.tokenSecret ?? randomBytes(32).toString('hex');
  // the workers' WAL checkpoints, run here instead of on their threads (serve(): checkpointedByPrimary)
  const sqlite = recordedSqliteFile(config);
  const checkpoints = sqlite ? walCheckpointer(sqlite) : null;
  let listening = 0;
  let stopping = false;
  for (let i = 0; i < config.workers; i++) {
    const worker = cluster.fork({ ECOMRLVE_TOKEN_SECRET: secret });
    worker.on('message', (m: { listening?: string; detail?: string }) => {
      if (m.listening && ++listening === config.workers)
        console.log(`env server listening on ${m.listening} (${config.workers} workers, ${m.detail})`);
    });
  }
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    // A worker lost: its WebSocket sessions and in-memory episodes are gone; say so and stop,
    // rather than serve on with a hole (a supervisor restarts the whole server).
    console.error(`serve:env: worker ${worker.process.pid} exited (${signal ?? code}); stopping`);
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    process.exitCode = 1;
  });
  const stop = () => {
    stopping = true;
    checkpoints?.stop();
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** An empty SQLite database is migrated; one that cannot serve stops the server with one sentence. */
function readyDatabase(url: string) {
  try {
    if (readySqliteDatabase(url) === 'migrated') console.log(`serve:env: migrated the empty database ${url}`);
  } catch (e) {
    if (!(e instanceof DatabaseRefused)) throw e;
    console.error(`serve:env: ${e.message}`);
    process.exit(2);
  }
}

function main() {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(helpText());
    return;
  }
  let config;
  try {
    config = loadConfig(process.env, process.argv.slice(2), DEFAULT_CATALOG_ID);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`serve:env: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  // without ECOMRLVE_TOKEN_SECRET a recorded SQLite server keeps a generated one beside the
  // database, so a restart accepts the tokens it issued (token-secret.ts)
  const dbFile = recordedSqliteFile(config);
  if (!config.tokenSecret && dbFile) config = { ...config, tokenSecret: persistedTokenSecret(dbFile) };
  if (config.persist && !config.tokenSecret && /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '')) {
    if (config.mode === 'production') {
      console.error(
        'serve:env: set ECOMRLVE_TOKEN_SECRET (the same on every worker): in production mode a PostgreSQL-backed server does not start without it, since a restart would strand every episode in flight',
      );
      process.exit(2);
    }
    console.error(
      'serve:env: ECOMRLVE_TOKEN_SECRET is not set, so this worker signs tokens with a secret of its own and other workers will refuse them; give every worker the same secret',
    );
  }
  if (config.persist && cluster.isPrimary) readyDatabase(databaseUrl());
  if (config.workers > 1 && cluster.isPrimary) primary(config);
  else void serve(config);
}

main();
