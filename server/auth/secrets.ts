// The token primitives every seat check shares: the web app's auth (server/auth), the episode
// service's capability check (server/episodes) and the trainer API's tokens (server/env-server).
// Node-only, no Next imports.
import { createHash, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

/** Constant-time equality of two secrets (compared as SHA-256 digests, so neither length leaks). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** Constant-time equality of two hex digests. */
export function sameDigest(hexA: string, hexB: string): boolean {
  const a = Buffer.from(hexA, 'hex');
  const b = Buffer.from(hexB, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer …` header value; null when absent, malformed or over maxLength. */
export function bearerToken(header: string | null | undefined, maxLength = Infinity): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec((header ?? '').trim());
  return m && m[1].length <= maxLength ? m[1] : null;
}
