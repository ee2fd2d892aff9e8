// A small node:http server for the env protocol: the HTTP routes and, on the same port, the
// WebSocket session at /ws. `npm run serve:env` starts one (scripts/serve-env.ts).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Catalog } from '@/server/engine';
import type { EnvServerConfig } from './config';
import { handleHttp, tooLarge, type HttpResult } from './http';
import { localRequestRefusal } from '@/server/lib/local-request';
import { createEnvService, type EnvService } from './protocol';
import { createPrismaClient, DEFAULT_DATABASE_URL, type PrismaClient } from '@/server/db';
import { sqliteFile } from '@/server/db-path';
import { prismaEpisodeLog } from './live-episodes';
import { Recorder, type BatchWriter } from './recorder';
import { openSqliteWriter, openSqliteWriterThread } from './sqlite-writer';
import { startIdleMaterialiser, type LogStore } from './idle-materialiser';
import { FinishedLogs } from './finished-logs';
import type { EventStoreDb } from '@/server/episodes/materialise';
import { prismaSqlDb } from '@/server/episodes/prisma-sql';
import { openSqlite, sqliteInspectorDb } from '@/server/inspector/db';
import { SessionStore } from './sessions';
import { createTokenService } from './tokens';
import { wireBytes } from './wire-json';
import { createWsGateway } from './ws';

export interface RunningEnvServer {
  url: string;
  port: number;
  service: EnvService;
  close(): Promise<void>;
}

/**
 * Where the recorder writes: a given Prisma client (the Next mount shares the app's), else a
 * SQLite file through its own prepared statements (the fast path), else a Prisma client for
 * DATABASE_URL (any other database Prisma serves).
 */
function recordTarget(
  prisma: PrismaClient | undefined,
  upkeep: 'inline' | 'elsewhere',
  writerThread: boolean,
  durability: EnvServerConfig['durability'],
): {
  target: PrismaClient | BatchWriter;
  /** Reads stored episodes back (a worker rebuilding one it does not hold). */
  reader: PrismaClient;
  /** Where the idle materialiser replays events (a SQLite connection of its own, else Prisma's). */
  sql: EventStoreDb;
  /** Where finished episodes' logs are written (SQLite: the writer's own connection); absent: `sql`. */
  storeLogs?: LogStore;
  close(): Promise<void>;
} {
  if (prisma) return { target: prisma, reader: prisma, sql: prismaSqlDb(prisma), close: async () => {} };
  const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const client = createPrismaClient(url);
  if (sqliteFile(url)) {
    const options = { upkeep, synchronous: durability === 'power' ? ('FULL' as const) : ('NORMAL' as const) };
    const writer = writerThread ? openSqliteWriterThread(url, options) : openSqliteWriter(url, options);
    const sqlite = openSqlite(url);
    // like the writer's: with the upkeep thread, this connection only appends to the WAL
    if (upkeep === 'elsewhere') sqlite.pragma('wal_autocheckpoint = 0');
    return {
      target: writer,
      reader: client,
      sql: sqliteInspectorDb(sqlite),
      storeLogs: (logs) => writer.storeLogs(logs),
      close: async () => {
        await writer.close();
        sqlite.close();
        await client.$disconnect();
      },
    };
  }
  return { target: client, reader: client, sql: prismaSqlDb(client), close: () => client.$disconnect() };
}

/** How the server runs beside others. */
export interface EnvServerOptions {
  /** A Prisma client to record through (the Next mount shares the app's). */
  prisma?: PrismaClient;
  /**
   * SQLite store upkeep (search indexing, WAL checkpoints): 'inline' (default) in this process;
   * 'elsewhere' when serve:env runs the upkeep thread for all its workers (store-upkeep.ts).
   */
  storeUpkeep?: 'inline' | 'elsewhere';
  /**
   * A SQLite store's writes: 'thread' (serve:env) runs each group commit on a writer thread of
   * this process, off the serving event loop; 'inline' (default: tests, embeddings) on it.
   */
  sqliteWriter?: 'inline' | 'thread';
  /** Materialise recorded episodes' events when the recorder idles (default true; tests that look at the deferred rows turn it off). */
  idleMaterialise?: boolean;
  /**
   * When idle, also replay the waiting episodes this worker holds no log of (default true).
   * serve:env --workers N: only the first worker does (two would replay the same episodes);
   * every worker writes out its own finished episodes' logs.
   */
  idleReplay?: boolean;
}

/** The service with its token service, session store and (when persisting) recorder, as configured. */
export function buildEnvService(config: EnvServerConfig, catalog: Catalog, options: EnvServerOptions = {}) {
  const tokens = createTokenService({ secret: config.tokenSecret, adminToken: config.adminToken });
  const store = config.persist
    ? recordTarget(
        options.prisma,
        options.storeUpkeep ?? 'inline',
        options.sqliteWriter === 'thread',
        config.durability,
      )
    : null;
  // With a store, the session map is an LRU cache of live episodes: any of them can be rebuilt
  // from the store (stateless workers), so a running one may be evicted to make room.
  const sessions = new SessionStore({
    maxSessions: config.maxSessions,
    idleTimeoutMs: config.idleTimeoutMs,
    evictRunning: store !== null,
  });
  // By default per step only the action and the row's progress are stored; the events are
  // materialised when this worker idles (idle-materialiser.ts) or when a reader asks (materialise.ts).
  const idleMaterialise = store !== null && config.events === 'deferred' && options.idleMaterialise !== false;
  // Finished episodes' logs, written out by the idle materialiser without a replay (finished-logs.ts).
  const finishedLogs =
    idleMaterialise && config.finishedLogs > 0 && config.finishedLogsMb > 0
      ? new FinishedLogs({ maxEpisodes: config.finishedLogs, maxBytes: config.finishedLogsMb * 1024 * 1024 })
      : null;
  const recorder = store
    ? new Recorder(store.target, {
        events: config.events,
        finishedLogs,
        commitWindow: { minOps: config.commitMinOps, maxWaitMs: config.commitWindowMs },
      })
    : null;
  const log = store ? prismaEpisodeLog(store.reader) : null;
  const idle =
    store && recorder && idleMaterialise
      ? startIdleMaterialiser({
          db: store.sql,
          catalog,
          activity: () => recorder.stats.enqueued,
          logs: finishedLogs,
          storeLogs: store.storeLogs,
          replay: options.idleReplay !== false,
          held: (id) => sessions.peek(id) !== undefined,
        })
      : null;
  return {
    tokens,
    /** Closes the store this built (not a Prisma client it was given). */
    closeStore: async () => {
      await idle?.stop();
      await store?.close();
    },
    /** The finished episodes' logs waiting to be written (null: none kept). */
    finishedLogs,
    service: createEnvService({ config, catalog, tokens, sessions, recorder, log }),
  };
}

function sendJson(res: ServerResponse, result: HttpResult) {
  if (result.body === undefined) {
    res.writeHead(result.status, { 'content-length': 0 });
    return res.end();
  }
  const bytes = wireBytes(result.body);
  res.writeHead(result.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length,
  });
  res.end(bytes);
}

/**
 * Reads the body up to the limit; null as soon as it is over (declared or counted): the rest is
 * never read, the caller answers 413 and closes the connection.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) return resolve(null);
    let size = 0;
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(null);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A foreign Host or a cross-site write (or WebSocket), refused before anything is read (server/lib/local-request.ts). */
function localRefusal(req: IncomingMessage, bind: string, upgrade = false): HttpResult | null {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;
  const refusal = localRequestRefusal(
    {
      // a WebSocket session acts (reset, step): another site's page may not open one
      method: upgrade ? 'UPGRADE' : (req.method ?? 'GET'),
      host: one(req.headers.host),
      origin: one(req.headers.origin),
      secFetchSite: one(req.headers['sec-fetch-site']),
    },
    bind,
    process.env,
  );
  return (
    refusal && {
      status: refusal.status,
      body: { episode_id: null, error: { code: refusal.code, message: refusal.message } },
    }
  );
}

export async function startEnvServer(
  config: EnvServerConfig,
  catalog: Catalog,
  options: EnvServerOptions = {},
): Promise<RunningEnvServer> {
  const { tokens, closeStore, service } = buildEnvService(config, catalog, options);
  const gateway = createWsGateway(service, tokens);

  const server: Server = createServer(async (req, res) => {
    const refusal = localRefusal(req, config.host);
    if (refusal) return sendJson(res, refusal);
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = await readBody(req, config.maxBodyBytes);
      if (body === null) {
        // the rest of an oversized body is not read: answer, then close the connection
        res.shouldKeepAlive = false;
        res.once('finish', () => req.destroy());
        return sendJson(res, tooLarge(config.maxBodyBytes));
      }
      sendJson(
        res,
        await handleHttp(service, {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          authorization: req.headers.authorization ?? null,
          body,
          client: req.socket.remoteAddress ?? null,
        }),
      );
    } catch (e) {
      if (!res.headersSent)
        sendJson(res, {
          status: 500,
          body: { episode_id: null, error: { code: 'EXECUTION_ERROR', message: (e as Error).message } },
        });
    }
  });
  server.keepAliveTimeout = 65_000;
  server.on('upgrade', (req, socket, head) => {
    const refusal = localRefusal(req, config.host, true);
    if (refusal) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(refusal.body)}`);
      return;
    }
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\r\nWebSocket sessions are at /ws\n');
      return;
    }
    gateway.handleUpgrade(req, socket, head);
  });

  const sweeper = setInterval(
    () => service.sessions.sweep(),
    Math.min(30_000, Math.max(1000, config.idleTimeoutMs / 4)),
  );
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${config.host}:${port}`,
    port,
    service,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweeper);
        gateway.close();
        server.closeAllConnections();
        server.close(() => {
          void (async () => {
            await service.recorder?.drain();
            await closeStore();
            resolve();
          })();
        });
      }),
  };
}
