// Server settings: defaults, then environment variables, then command-line flags (flags win).
// Bad values stop the server with one sentence naming the setting.

import { availableParallelism } from 'node:os';
import { capabilitySecret } from '@/server/episodes/tokens';
import { serveEnvBudgetLimits, type ClientBudgetLimits } from '@/server/lib/client-budget';

export type ServerMode = 'simulation' | 'production';

export class ConfigError extends Error {}

/** Every option: its environment variable, its flag, how its text is read, its default (and as --help shows it). */
const SETTINGS = {
  /** simulation: full control (admin state with the hidden goal, axis overrides). production: hidden. */
  mode: setting('ECOMRLVE_ENV_MODE', '--mode', oneOf<ServerMode>('simulation', 'production'), 'simulation'),
  host: setting('ECOMRLVE_ENV_HOST', '--host', (raw) => raw, '127.0.0.1'),
  /** 0 picks a free port (printed when listening). */
  port: setting(
    'ECOMRLVE_ENV_PORT',
    '--port',
    int(0, 65535, 'a port number from 0 to 65535 (0 = any free port)'),
    3141,
  ),
  /** Episodes held in memory at once (finished ones are evicted first when full); also caps WebSocket connections. */
  maxSessions: setting('ECOMRLVE_MAX_SESSIONS', '--max-sessions', int(1), 1024),
  /** WebSocket sessions one client (remote address) may hold at once, so one client cannot take every slot. */
  maxSessionsPerClient: setting('ECOMRLVE_MAX_SESSIONS_PER_CLIENT', '--max-sessions-per-client', int(1), 512),
  /** An episode or WebSocket untouched this long is dropped (read in seconds). */
  idleTimeoutMs: setting(
    'ECOMRLVE_IDLE_TIMEOUT_S',
    '--idle-timeout',
    (raw, name) => int(1)(raw, name) * 1000,
    900_000,
    '900',
  ),
  /** Largest request body / WebSocket message accepted. */
  maxBodyBytes: setting('ECOMRLVE_MAX_BODY_BYTES', '--max-body-bytes', int(1024), 256 * 1024),
  /** Catalog every episode of this server is generated from. */
  catalogId: setting('ECOMRLVE_CATALOG', '--catalog', (raw) => raw, undefined, 'the default catalog'),
  /** Record every episode in the app's database (DATABASE_URL), acknowledging only what is committed. */
  persist: setting('ECOMRLVE_PERSIST', '--persist', onOff, true, 'on'),
  /**
   * What an acknowledgement survives (SQLite store): "process" = a crash or kill -9 of the server
   * (WAL, synchronous=NORMAL; a power loss may drop the last commits since the last checkpoint,
   * never corrupting the file); "power" = also a power loss or OS crash (each group commit waits
   * for fsync: synchronous=FULL). PostgreSQL commits are durable either way.
   */
  durability: setting('ECOMRLVE_DURABILITY', '--durability', oneOf('process', 'power'), 'process'),
  /**
   * Processes serving the port (node cluster); a WebSocket session stays on the worker that
   * accepted it. Default: one per core with persistence on (a worker rebuilds any episode from
   * the store), one with it off (an episode kept only in memory lives in the worker that reset it).
   */
  workers: setting('ECOMRLVE_WORKERS', '--workers', int(1), undefined, 'one per core with persistence on, 1 off'),
};
type Key = keyof typeof SETTINGS;
type Value<K extends Key> = ReturnType<(typeof SETTINGS)[K]['read']>;

export type EnvServerConfig = { [K in Key]: Value<K> } & {
  adminToken?: string;
  tokenSecret?: string;
  /** Per-client request, upload and storage budgets (server/lib/client-budget.ts); null: not counted. */
  clientBudget?: ClientBudgetLimits | null;
};

function setting<T>(env: string, flag: string, read: (raw: string, name: string) => T, fallback?: T, shown?: string) {
  return { env, flag, read, fallback, shown: shown ?? String(fallback) };
}

function oneOf<T extends string>(...values: T[]) {
  return (raw: string, name: string): T => {
    if (values.includes(raw as T)) return raw as T;
    throw new ConfigError(`${name} must be ${values.map((v) => `"${v}"`).join(' or ')}, got "${raw}"`);
  };
}

function int(min: number, max = Infinity, what = `an integer ≥ ${min}`) {
  return (raw: string, name: string): number => {
    const n = Number(raw);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    throw new ConfigError(`${name} must be ${what}, got "${raw}"`);
  };
}

function onOff(raw: string, name: string): boolean {
  if (['on', '1', 'true'].includes(raw)) return true;
  if (['off', '0', 'false'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${raw}"`);
}

const keys = Object.keys(SETTINGS) as Key[];

/** The options' fixed defaults (the catalog and the workers depend on the rest). */
export const DEFAULTS = Object.fromEntries(
  keys.filter((k) => SETTINGS[k].fallback !== undefined).map((k) => [k, SETTINGS[k].fallback]),
) as Omit<{ [K in Key]: Value<K> }, 'catalogId' | 'workers'>;

/** `serve:env --help`: every option with its environment variable and default. */
export function helpText(): string {
  const row = (a: string, b: string, c: string) => `  ${a.padEnd(28)}${b.padEnd(30)}${c}`;
  return [
    'usage: npm run serve:env -- [options]   (the trainer API: docs/env-server.md)',
    '',
    row('option', 'environment variable', ''),
    ...keys.map((k) => row(`${SETTINGS[k].flag} <value>`, SETTINGS[k].env, `default ${SETTINGS[k].shown}`)),
    row('--help', '', 'this text'),
    '',
    'Also: ECOMRLVE_ADMIN_TOKEN (admin state), ECOMRLVE_TOKEN_SECRET (signs episode tokens),',
    'ECOMRLVE_PUBLIC_HOSTS (host names it answers to besides loopback and --host), DATABASE_URL.',
  ].join('\n');
}

/** Reads settings from environment variables and `--flag value` arguments. */
export function loadConfig(
  env: Record<string, string | undefined>,
  argv: string[],
  defaultCatalogId: string,
): EnvServerConfig {
  const given = new Map<Key, { raw: string; name: string }>();
  for (const k of keys) if (env[SETTINGS[k].env]) given.set(k, { raw: env[SETTINGS[k].env]!, name: SETTINGS[k].env });
  for (let i = 0; i < argv.length; i += 2) {
    const [name, raw] = [argv[i], argv[i + 1]];
    const k = keys.find((key) => SETTINGS[key].flag === name);
    if (!k)
      throw new ConfigError(
        `unknown option "${name}"; options: ${keys.map((key) => SETTINGS[key].flag).join(', ')} (--help explains them)`,
      );
    if (raw === undefined) throw new ConfigError(`${name} needs a value`);
    given.set(k, { raw, name });
  }
  const values = Object.fromEntries(
    keys.map((k) => {
      const g = given.get(k);
      return [k, g ? SETTINGS[k].read(g.raw, g.name) : SETTINGS[k].fallback];
    }),
  ) as { [K in Key]: Value<K> };
  return {
    ...values,
    catalogId: values.catalogId ?? defaultCatalogId,
    workers: values.workers ?? (values.persist ? availableParallelism() : 1),
    adminToken: env.ECOMRLVE_ADMIN_TOKEN || undefined,
    // the episode service's secret (server/episodes/tokens.ts): a token opens its episode on either
    tokenSecret: capabilitySecret(env),
    clientBudget: serveEnvBudgetLimits(values.host, env),
  };
}
