// The token primitives every seat check shares: the web app's auth (server/auth), the episode
// service's capability check (server/episodes) and the trainer API's tokens (server/env-server).
// Node-only, no Next imports.
import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time equality of two secrets (compared as SHA-256 digests, so neither length leaks). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** The token of an `Authorization: Bearer …` header value; null when absent, malformed or over maxLength. */
export function bearerToken(header: string | null | undefined, maxLength = Infinity): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec((header ?? '').trim());
  return m && m[1].length <= maxLength ? m[1] : null;
}
