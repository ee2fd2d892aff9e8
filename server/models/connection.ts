// A model connection: where an OpenAI-compatible chat-completions endpoint lives
// and how to sample from it. The API key itself is never part of a connection —
// only the name of the environment variable that holds it, read at call time.

import { z } from 'zod';
import { AppError } from '@/server/lib/errors';

/** Environment variables (process.env by default; tests pass their own). */
export type Env = Record<string, string | undefined>;

export const ACTION_MODES = ['tools', 'json'] as const;
export type ActionMode = (typeof ACTION_MODES)[number];

export const ConnectionSchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    /** Ends in /v1 for most servers (vLLM, Ollama, llama.cpp): requests go to `${baseUrl}/chat/completions`. */
    baseUrl: z.string().url(),
    model: z.string().trim().min(1).max(200),
    temperature: z.number().min(0).max(2).default(0),
    topP: z.number().gt(0).max(1).default(1),
    maxTokens: z.number().int().min(1).max(65_536).default(1024),
    seed: z.number().int().optional(),
    /** One request's deadline; a request past it is an infrastructure failure. */
    timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
    actionMode: z.enum(ACTION_MODES).default('tools'),
    /** Name of the environment variable that holds the API key (never the key). */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name such as OPENAI_API_KEY')
      .optional(),
    /** Ask for a streamed reply (server-sent events); the driver assembles it. */
    stream: z.boolean().default(false),
    /** Retries after an infrastructure failure (so at most maxRetries + 1 attempts per turn). */
    maxRetries: z.number().int().min(0).max(10).default(3),
    /**
     * Send the episode's public config (env, d, seed) in the X-EcomRLVE-Episode header. Only for the
     * local agent server (its oracle and seeded random agent need it); off for real models.
     */
    sendEpisodeHeader: z.boolean().default(false),
    /**
     * With auth on, anyone may play this connection or let it voice the customer (spending its
     * key); otherwise only the admin may, and only the admin sees its name (server/models/access.ts).
     */
    public: z.boolean().default(false),
  })
  .strict();

export type Connection = z.output<typeof ConnectionSchema>;
export type ConnectionInput = z.input<typeof ConnectionSchema>;

/** A connection that is not valid here: bad input, in a sentence that never echoes a secret. */
export class ConnectionError extends AppError {
  constructor(message: string) {
    super('BAD_INPUT', message);
  }
}

const KEY_FIELDS = ['apiKey', 'api_key', 'key', 'token', 'authorization', 'Authorization'];

/** Validates a connection; one precise sentence on failure, never echoing a value that could be a secret. */
export function parseConnection(input: unknown, env: Env = process.env): Connection {
  if (input && typeof input === 'object') {
    const keyField = KEY_FIELDS.find((k) => k in (input as object));
    if (keyField)
      throw new ConnectionError(
        `connection field "${keyField}" is not accepted: API keys are never stored; put the key in an environment variable and give its name as "apiKeyEnv"`,
      );
  }
  const parsed = ConnectionSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? `"${issue.path.join('.')}"` : 'connection';
    const what =
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`
        : issue.message;
    throw new ConnectionError(`invalid connection: ${where}: ${what}`);
  }
  assertAllowedBaseUrl(parsed.data.baseUrl, env);
  if (parsed.data.apiKeyEnv) assertKeyVariable(parsed.data.apiKeyEnv, env, '"apiKeyEnv": ');
  return parsed.data;
}

// ---------- base-URL allow-list ----------

/** Loopback only, unless the admin sets ECOMRLVE_MODEL_HOSTS. */
export const DEFAULT_MODEL_HOSTS = ['loopback'];

/**
 * Entries of ECOMRLVE_MODEL_HOSTS (comma-separated): `loopback` (127.0.0.0/8, ::1, localhost),
 * a hostname (`api.openai.com`), a host with port (`gpu-box:8000`) or a suffix (`*.example.com`).
 */
export function allowedHosts(env: Env = process.env): string[] {
  const raw = env.ECOMRLVE_MODEL_HOSTS?.trim();
  if (!raw) return DEFAULT_MODEL_HOSTS;
  return raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);

function matches(entry: string, host: string, port: string): boolean {
  if (entry === 'loopback') return isLoopback(host);
  if (entry.startsWith('*.')) return host.endsWith(entry.slice(1));
  const [entryHost, entryPort] = entry.startsWith('[')
    ? [entry.slice(0, entry.indexOf(']') + 1), entry.split(']:')[1]]
    : entry.split(':');
  return entryHost === host && (entryPort === undefined || entryPort === port);
}

export function assertAllowedBaseUrl(baseUrl: string, env: Env = process.env): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConnectionError(`base URL "${baseUrl}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConnectionError(`base URL must be http or https, got ${url.protocol.replace(':', '')}`);
  if (url.username || url.password)
    throw new ConnectionError(
      'base URL must not contain credentials; give the name of an environment variable holding the key as "apiKeyEnv"',
    );
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const hosts = allowedHosts(env);
  if (!hosts.some((entry) => matches(entry, host, port)))
    throw new ConnectionError(
      `base URL host "${host}" is not allowed; allowed: ${hosts.join(', ')} (the admin sets ECOMRLVE_MODEL_HOSTS)`,
    );
  return url;
}

// ---------- API key ----------

/**
 * Only variables meant to hold a model key may be sent as one: names ending in _API_KEY, or the
 * ones the operator lists in ECOMRLVE_MODEL_KEY_VARS (comma-separated). Anything else
 * (DATABASE_URL, ECOMRLVE_ADMIN_TOKEN, PATH) would hand a server secret to the endpoint.
 */
export function isKeyVariable(name: string, env: Env = process.env): boolean {
  if (name.endsWith('_API_KEY')) return true;
  const listed = (env.ECOMRLVE_MODEL_KEY_VARS ?? '').split(',').map((v) => v.trim());
  return listed.includes(name);
}

function assertKeyVariable(name: string, env: Env, prefix = ''): void {
  if (!isKeyVariable(name, env))
    throw new ConnectionError(
      `${prefix}${name} is not a key variable: use a name ending in _API_KEY, or one the operator lists in ECOMRLVE_MODEL_KEY_VARS`,
    );
}

/** The key, read from its environment variable now. Errors name the variable, never a value. */
export function resolveApiKey(connection: Pick<Connection, 'apiKeyEnv'>, env: Env = process.env): string | null {
  if (!connection.apiKeyEnv) return null;
  assertKeyVariable(connection.apiKeyEnv, env, 'apiKeyEnv ');
  const value = env[connection.apiKeyEnv];
  if (value === undefined || value === '')
    throw new ConnectionError(`environment variable ${connection.apiKeyEnv} (the API key) is not set on the server`);
  return value;
}

/** Replaces every occurrence of the secret in a text (error bodies from a server may echo it). */
export function redact(text: string, secret: string | null): string {
  if (!secret) return text;
  return text.split(secret).join('[redacted]');
}

/** A connection as the browser may see it: apiKeySet says whether its key's variable is set (null: no key). */
export type PublicConnection = Connection & { apiKeySet: boolean | null };

export const publicConnection = (connection: Connection, env: Env = process.env): PublicConnection => ({
  ...connection,
  apiKeySet: connection.apiKeyEnv ? Boolean(env[connection.apiKeyEnv]) : null,
});

/** Where connections live: Prisma in the app (prisma-connection-store.ts), memory in tests (test/). */
export interface ConnectionStore {
  list(): Promise<Connection[]>;
  get(name: string): Promise<Connection | null>;
  /** Validates, then inserts or replaces by name. */
  save(input: unknown): Promise<Connection>;
  remove(name: string): Promise<boolean>;
}
