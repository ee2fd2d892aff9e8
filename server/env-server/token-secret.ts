// The secret that signs trainer episode tokens (tokens.ts) when ECOMRLVE_TOKEN_SECRET is not set.
// Decision (issue 29): a recorded server keeps it in a file beside its SQLite database
// (`<db>.token-secret`, owner-only), created once, so a restart accepts the tokens it issued
// before and in-flight trainer episodes go on (they are rebuilt from the store). Without
// persistence the episodes live in memory and end with the process: a fresh secret is right.
// With PostgreSQL there is no file beside the store: production mode refuses to start without
// the variable, simulation warns (scripts/serve-env.ts).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

export const tokenSecretFile = (dbFile: string) => `${dbFile}.token-secret`;

export function persistedTokenSecret(dbFile: string): string {
  const file = tokenSecretFile(dbFile);
  const read = () => readFileSync(file, 'utf8').trim();
  try {
    const existing = read();
    if (existing.length >= 32) return existing;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const secret = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (e) {
    // another worker of the same server wrote it first: use theirs
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw e;
  }
}
