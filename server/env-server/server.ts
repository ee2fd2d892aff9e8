// A small node:http server for the env protocol: the HTTP routes and, on the same port, the
// WebSocket session at /ws. `npm run serve:env` starts one (scripts/serve-env.ts).

import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Catalog } from '@/server/engine';
import type { EnvServerConfig } from './config';
import { EnvServerError } from './errors';
import { handleHttp, tooLarge, type HttpResult } from './http';
import { localRequestRefusal } from '@/server/lib/local-request';
import { createClientBudget } from '@/server/lib/client-budget';
import { bearerAttempt, createLoginThrottle, throttledMessage } from '@/server/auth/login-throttle';
import { catalogSessions, createEnvService, type EnvService } from './protocol';
import { prisma as processPrisma, type PrismaClient } from '@/server/db';
import { sqlDbOf } from '@/server/episodes/service';
import { recorderOf } from '@/server/episodes/recorder';
import type { Sessions } from '@/server/episodes/sessions';
import { LiveEpisodes } from '@/server/episodes/live';
import { episodeReads } from '@/server/episodes/queries';
import { bearerToken, createTokenService } from '@/server/episodes/tokens';
import { createWsGateway } from './ws';

export interface RunningEnvServer {
  url: string;
  port: number;
  service: EnvService;
  close(): Promise<void>;
}

/**
 * The store episodes are recorded in and read from: the one SQL connection of the process (the
 * episode writer's), for a given client (the Next mount shares the app's) or DATABASE_URL.
 */
function openStore(config: EnvServerConfig, options: EnvServerOptions) {
  const { prisma } = options;
  if (prisma) return { db: sqlDbOf(prisma), close: async () => {} };
  // the process's own client (server/db: one per process) and the SQL layer's connection
  const db = sqlDbOf(processPrisma);
  // every group commit waits for fsync: survives a power loss, not only a crash
  if (config.durability === 'power') db.sqlite?.pragma('synchronous = FULL');
  // A commit meeting another worker's write lock waits on the event loop (GroupCommit), not
  // asleep in SQLite. Set on the process's one connection: in serve:env only the recorder's group
  // commit writes through it (its episode reads read through it too; a WAL read takes no write lock).
  db.sqlite?.pragma('busy_timeout = 0');
  if (options.checkpointedByPrimary) db.sqlite?.pragma('wal_autocheckpoint = 0');
  return { db, close: () => db.close() };
}

/** How the server runs beside others. */
export interface EnvServerOptions {
  /** A Prisma client to record through (the Next mount shares the app's). */
  prisma?: PrismaClient;
  /**
   * serve:env's primary checkpoints the SQLite file this worker records into (wal-checkpoints.ts):
   * SQLite's automatic checkpoint, which runs inside a commit on the worker's thread, is turned off.
   */
  checkpointedByPrimary?: boolean;
  /** Live episodes to share when recording (the Next mount: the episode service's, one cache per process). */
  sessions?: Sessions;
}

/** A memory-only server's signing secret: derived from the shared one (undefined stays a random one). */
const memoryOnlySecret = (secret: string | undefined) =>
  secret && createHmac('sha256', secret).update('ecomrlve memory-only capability tokens').digest('hex');

/** The service with its sessions (live episodes, tokens) and (when persisting) recorder, as configured. */
export function buildEnvService(config: EnvServerConfig, catalog: Catalog, options: EnvServerOptions = {}) {
  const store = config.persist ? openStore(config, options) : null;
  // With a store, the live episodes are an LRU cache: any of them can be rebuilt from the store
  // (stateless workers), so a running one may be evicted to make room.
  // A shared cache (the Next mount: the episode service's) drops idle episodes as serve:env's does,
  // so an abandoned HTTP episode frees its client's place (client-share.ts).
  if (store && options.sessions) options.sessions.live.expireIdleAfter(config.idleTimeoutMs);
  const sessions =
    (store && options.sessions) ||
    catalogSessions(
      catalog,
      new LiveEpisodes({
        max: config.maxSessions,
        maxSetting: 'ECOMRLVE_MAX_SESSIONS',
        idleMs: config.idleTimeoutMs,
        evictRunning: store !== null,
      }),
      createTokenService({
        // Without a store nothing refuses a chosen episode_id another process holds (an app's
        // playground episode): a memory-only server's tokens are signed apart, so they open
        // nothing outside it.
        secret: store ? config.tokenSecret : memoryOnlySecret(config.tokenSecret),
        adminToken: config.adminToken,
      }),
      store && { reads: episodeReads(store.db), recorder: recorderOf(store.db) },
    );
  return {
    tokens: sessions.tokens,
    /** Closes the store this built (not a Prisma client it was given). */
    closeStore: async () => {
      await store?.close();
    },
    service: createEnvService({ config, catalog, sessions }),
  };
}

/** Sends the answer; its size in bytes. */
function sendJson(res: ServerResponse, result: HttpResult, headers: Record<string, string> = {}): number {
  if (result.body === undefined) {
    res.writeHead(result.status, { 'content-length': 0, ...headers });
    res.end();
    return 0;
  }
  const text = JSON.stringify(result.body);
  const bytes = Buffer.byteLength(text);
  res.writeHead(result.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes,
    ...headers,
  });
  res.end(text);
  return bytes;
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
  // per-client budgets when exposed (server/lib/client-budget.ts); the admin is not counted
  const budget = config.clientBudget ? createClientBudget(config.clientBudget) : null;
  const gateway = createWsGateway(service, tokens, budget);
  // a wrong admin token as a bearer is a failed sign-in (server/auth/login-throttle.ts): seconds to wait, or 0.
  // Each worker holds the whole bound, so a client sees the same bound whichever worker answers.
  const throttle = createLoginThrottle();
  const guessWait = (req: IncomingMessage) =>
    tokens.adminEnabled
      ? bearerAttempt(throttle, req.socket.remoteAddress ?? '?', bearerToken(req.headers.authorization), tokens.isAdmin)
      : 0;

  const server: Server = createServer(async (req, res) => {
    const refusal = localRefusal(req, config.host);
    if (refusal) return sendJson(res, refusal);
    const wait = guessWait(req);
    if (wait > 0)
      return sendJson(
        res,
        { status: 429, body: new EnvServerError('RATE_LIMITED', throttledMessage(wait)).toBody() },
        { 'retry-after': String(wait) },
      );
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = await readBody(req, config.maxBodyBytes);
      if (body === null) {
        // the rest of an oversized body is not read: answer, then close the connection
        res.shouldKeepAlive = false;
        res.once('finish', () => req.destroy());
        return sendJson(res, tooLarge(config.maxBodyBytes));
      }
      const client = req.socket.remoteAddress ?? '?';
      const counted = budget && req.method === 'POST' && !tokens.isAdmin(bearerToken(req.headers.authorization));
      const bodyBytes = Buffer.byteLength(body);
      const refused = counted ? budget.charge(client, bodyBytes) : null;
      if (refused)
        return sendJson(
          res,
          { status: refused.status, body: new EnvServerError(refused.code, refused.message).toBody() },
          {
            'retry-after': String(refused.retryAfterS),
          },
        );
      const result = await handleHttp(service, {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        authorization: req.headers.authorization ?? null,
        body,
        client,
      });
      const answerBytes = sendJson(res, result);
      // what a write stored: its action or reset (as sent) and the events its answer shows
      if (counted && result.status === 200) budget.stored(client, bodyBytes + answerBytes);
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
    const wait = guessWait(req);
    if (wait > 0) {
      socket.end(
        `HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${wait}\r\nContent-Type: text/plain\r\n\r\n${throttledMessage(wait)}\n`,
      );
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
