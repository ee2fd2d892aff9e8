// Capability tokens. Resetting an episode hands back a token that lets its holder step it and
// read its agent-visible state, and nothing else. Tokens are HMAC-signed (no storage), so any
// worker that shares ECOMRLVE_TOKEN_SECRET accepts them. The admin token (ECOMRLVE_ADMIN_TOKEN)
// reads every episode's full state, hidden goal included; without it set, there is no admin.

import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
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

export function createTokenService(options: TokenOptions = {}): TokenService {
  const secret = options.secret && options.secret.length > 0 ? options.secret : randomBytes(32).toString('hex');
  const admin = options.adminToken && options.adminToken.length > 0 ? options.adminToken : null;
  const sign = (episodeId: string) => createHmac('sha256', secret).update(`${PREFIX}.${episodeId}`).digest('base64url');
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
