// Server settings: defaults, then environment variables, then command-line flags (flags win).
// Bad values stop the server with one sentence naming the setting.

import { availableParallelism } from 'node:os';
import { capabilitySecret } from '@/server/episodes/tokens';
import { serveEnvBudgetLimits, type ClientBudgetLimits } from '@/server/lib/client-budget';

export type ServerMode = 'simulation' | 'production';

export interface EnvServerConfig {
  /** simulation: full control (admin state with the hidden goal, axis overrides). production: hidden. */
  mode: ServerMode;
  host: string;
  /** 0 picks a free port (printed when listening). */
  port: number;
  /** Episodes held in memory at once (finished ones are evicted first when full); also caps WebSocket connections. */
  maxSessions: number;
  /** WebSocket sessions one client (remote address) may hold at once, so one client cannot take every slot. */
  maxSessionsPerClient: number;
  /** An episode or WebSocket untouched this long is dropped. */
  idleTimeoutMs: number;
  /** Largest request body / WebSocket message accepted. */
  maxBodyBytes: number;
  /** Catalog every episode of this server is generated from. */
  catalogId: string;
  /** Record every episode in the app's database (DATABASE_URL), acknowledging only what is committed. */
  persist: boolean;
  /**
   * What an acknowledgement survives (SQLite store): "process" = a crash or kill -9 of the server
   * (WAL, synchronous=NORMAL; a power loss may drop the last commits since the last checkpoint,
   * never corrupting the file); "power" = also a power loss or OS crash (each group commit waits
   * for fsync: synchronous=FULL). PostgreSQL commits are durable either way.
   */
  durability: 'process' | 'power';
  /**
   * Processes serving the port (node cluster); a WebSocket session stays on the worker that
   * accepted it. Default: one per core with persistence on (a worker rebuilds any episode from
   * the store), one with it off (an episode kept only in memory lives in the worker that reset it).
   */
  workers: number;
  adminToken?: string;
  tokenSecret?: string;
  /** Per-client request, upload and storage budgets (server/lib/client-budget.ts); null: not counted. */
  clientBudget?: ClientBudgetLimits | null;
}

export const DEFAULTS = {
  mode: 'simulation',
  host: '127.0.0.1',
  port: 3141,
  maxSessions: 1024,
  maxSessionsPerClient: 512,
  idleTimeoutMs: 15 * 60_000,
  maxBodyBytes: 256 * 1024,
  persist: true,
  durability: 'process',
} as const;

/** The default number of workers (see EnvServerConfig.workers). */
export const defaultWorkers = (persist: boolean) => (persist ? availableParallelism() : 1);

type Source = Record<string, string | undefined>;

const SETTINGS = [
  { key: 'mode', env: 'ECOMRLVE_ENV_MODE', flag: '--mode' },
  { key: 'host', env: 'ECOMRLVE_ENV_HOST', flag: '--host' },
  { key: 'port', env: 'ECOMRLVE_ENV_PORT', flag: '--port' },
  { key: 'maxSessions', env: 'ECOMRLVE_MAX_SESSIONS', flag: '--max-sessions' },
  { key: 'maxSessionsPerClient', env: 'ECOMRLVE_MAX_SESSIONS_PER_CLIENT', flag: '--max-sessions-per-client' },
  { key: 'idleTimeoutS', env: 'ECOMRLVE_IDLE_TIMEOUT_S', flag: '--idle-timeout' },
  { key: 'maxBodyBytes', env: 'ECOMRLVE_MAX_BODY_BYTES', flag: '--max-body-bytes' },
  { key: 'catalogId', env: 'ECOMRLVE_CATALOG', flag: '--catalog' },
  { key: 'persist', env: 'ECOMRLVE_PERSIST', flag: '--persist' },
  { key: 'durability', env: 'ECOMRLVE_DURABILITY', flag: '--durability' },
  { key: 'workers', env: 'ECOMRLVE_WORKERS', flag: '--workers' },
] as const;

export class ConfigError extends Error {}

/** `serve:env --help`: every option with its environment variable and default. */
export function helpText(): string {
  const defaults: Record<string, unknown> = { ...DEFAULTS, idleTimeoutS: DEFAULTS.idleTimeoutMs / 1000 };
  const described: Record<string, string> = {
    catalogId: 'the default catalog',
    persist: 'on',
    workers: `one per core (${defaultWorkers(true)}) with persistence on, 1 off`,
  };
  const rows = SETTINGS.map((s) => {
    const d = described[s.key] ?? String(defaults[s.key]);
    return `  ${`${s.flag} <value>`.padEnd(28)}${s.env.padEnd(30)}default ${d}`;
  });
  return [
    'usage: npm run serve:env -- [options]   (the trainer API: docs/env-server.md)',
    '',
    `  ${'option'.padEnd(28)}${'environment variable'.padEnd(30)}`,
    ...rows,
    `  ${'--help'.padEnd(28)}${''.padEnd(30)}this text`,
    '',
    'Also: ECOMRLVE_ADMIN_TOKEN (admin state), ECOMRLVE_TOKEN_SECRET (signs episode tokens),',
    'ECOMRLVE_PUBLIC_HOSTS (host names it answers to besides loopback and --host), DATABASE_URL.',
  ].join('\n');
}

function portNumber(raw: string, name: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`${name} must be a port number from 0 to 65535 (0 = any free port), got "${raw}"`);
  return n;
}

function positiveInt(raw: string, name: string, min = 1): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

/** Reads settings from environment variables and `--flag value` arguments. */
export function loadConfig(env: Source, argv: string[], defaultCatalogId: string): EnvServerConfig {
  const raw: Record<string, { value: string; name: string }> = {};
  for (const s of SETTINGS)
    if (env[s.env] !== undefined && env[s.env] !== '') raw[s.key] = { value: env[s.env]!, name: s.env };
  for (let i = 0; i < argv.length; i++) {
    const setting = SETTINGS.find((s) => s.flag === argv[i]);
    if (!setting)
      throw new ConfigError(
        `unknown option "${argv[i]}"; options: ${SETTINGS.map((s) => s.flag).join(', ')} (--help explains them)`,
      );
    const value = argv[++i];
    if (value === undefined) throw new ConfigError(`${setting.flag} needs a value`);
    raw[setting.key] = { value, name: setting.flag };
  }
  const mode = raw.mode?.value ?? DEFAULTS.mode;
  if (mode !== 'simulation' && mode !== 'production')
    throw new ConfigError(`${raw.mode!.name} must be "simulation" or "production", got "${mode}"`);
  const persist = raw.persist?.value ?? (DEFAULTS.persist ? 'on' : 'off');
  if (!['on', 'off', '1', '0', 'true', 'false'].includes(persist))
    throw new ConfigError(`${raw.persist!.name} must be on or off, got "${persist}"`);
  const durability = raw.durability?.value ?? DEFAULTS.durability;
  if (durability !== 'process' && durability !== 'power')
    throw new ConfigError(`${raw.durability!.name} must be "process" or "power", got "${durability}"`);
  const host = raw.host?.value ?? DEFAULTS.host;
  const persisting = ['on', '1', 'true'].includes(persist);
  return {
    mode,
    host,
    port: raw.port ? portNumber(raw.port.value, raw.port.name) : DEFAULTS.port,
    maxSessions: raw.maxSessions ? positiveInt(raw.maxSessions.value, raw.maxSessions.name) : DEFAULTS.maxSessions,
    maxSessionsPerClient: raw.maxSessionsPerClient
      ? positiveInt(raw.maxSessionsPerClient.value, raw.maxSessionsPerClient.name)
      : DEFAULTS.maxSessionsPerClient,
    idleTimeoutMs: raw.idleTimeoutS
      ? positiveInt(raw.idleTimeoutS.value, raw.idleTimeoutS.name) * 1000
      : DEFAULTS.idleTimeoutMs,
    maxBodyBytes: raw.maxBodyBytes
      ? positiveInt(raw.maxBodyBytes.value, raw.maxBodyBytes.name, 1024)
      : DEFAULTS.maxBodyBytes,
    catalogId: raw.catalogId?.value ?? defaultCatalogId,
    persist: persisting,
    durability,
    workers: raw.workers ? positiveInt(raw.workers.value, raw.workers.name) : defaultWorkers(persisting),
    adminToken: env.ECOMRLVE_ADMIN_TOKEN || undefined,
    // the episode service's secret (server/episodes/tokens.ts): a token opens its episode on either
    tokenSecret: capabilitySecret(env),
    clientBudget: serveEnvBudgetLimits(host, env),
  };
}
