// Capability tokens, one scheme for every seat: starting an episode (the playground, a connected
// model, a trainer's reset) hands back a token that lets its holder act on that episode and read
// its agent-visible state, and nothing else. Tokens are HMAC-signed (nothing stored), so any
// process that shares the secret accepts them: ECOMRLVE_TOKEN_SECRET, else one derived from
// ECOMRLVE_ADMIN_TOKEN (so an exposed app's tokens survive a restart), else a random one per
// process. The admin token reads every episode's full state, hidden goal included; without it
// set, there is no admin.

import { createHmac, createSecretKey, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sameSecret } from '@/server/auth/secrets';

export { bearerToken } from '@/server/auth/secrets';

const PREFIX = 'ept1';

export interface TokenService {
  /** The capability token for one episode. */
  issue(episodeId: string): string;
  /** Whether the token is this episode's capability. */
  allows(token: string | null, episodeId: string): boolean;
  /** Whether the token is the admin token (always false when no admin token is configured). */
  isAdmin(token: string | null): boolean;
  readonly adminEnabled: boolean;
}

export interface TokenOptions {
  /** Signing secret; a random one per process when absent (tokens then die with the process). */
  secret?: string;
  adminToken?: string;
}

/** The signing secret of this process's capability tokens (see above); undefined: a random one. */
export function capabilitySecret(env: Record<string, string | undefined> = process.env): string | undefined {
  const set = env.ECOMRLVE_TOKEN_SECRET?.trim();
  if (set) return set;
  const admin = env.ECOMRLVE_ADMIN_TOKEN?.trim();
  return admin ? createHmac('sha256', admin).update('ecomrlve capability tokens').digest('hex') : undefined;
}

const g = globalThis as unknown as { __ecomTokens?: TokenService };
/** The process's token service (its secret from the environment, see above). */
export function processTokens(): TokenService {
  return (g.__ecomTokens ??= createTokenService({
    secret: capabilitySecret(),
    adminToken: process.env.ECOMRLVE_ADMIN_TOKEN?.trim() || undefined,
  }));
}

export function createTokenService(options: TokenOptions = {}): TokenService {
  const secret = options.secret && options.secret.length > 0 ? options.secret : randomBytes(32).toString('hex');
  const admin = options.adminToken && options.adminToken.length > 0 ? options.adminToken : null;
  // the key prepared once: an HMAC from the secret string prepared it again on every token (~30 % more)
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const sign = (episodeId: string) => createHmac('sha256', key).update(`${PREFIX}.${episodeId}`).digest('base64url');
  return {
    adminEnabled: admin !== null,
    issue: (episodeId) => `${PREFIX}.${episodeId}.${sign(episodeId)}`,
    allows: (token, episodeId) => !!token && sameSecret(token, `${PREFIX}.${episodeId}.${sign(episodeId)}`),
    isAdmin: (token) => admin !== null && !!token && sameSecret(token, admin),
  };
}

/**
 * A verified token's SHA-256: a live episode keeps it, so checking the same token again costs
 * one hash instead of an HMAC and two hashes (every step sends the token).
 */
export const tokenDigest = (token: string): Buffer => hash('sha256', token, 'buffer');

/** Constant-time: whether the token's digest is this one. */
export const matchesDigest = (token: string, digest: Buffer): boolean => timingSafeEqual(tokenDigest(token), digest);
