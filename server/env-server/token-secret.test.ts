import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { persistedTokenSecret, tokenSecretFile } from './token-secret';
import { createTokenService } from '@/server/episodes/tokens';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ecomrlve-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the token secret without ECOMRLVE_TOKEN_SECRET', () => {
  it('is created once beside the database, owner-only, and a restart reads the same one back', () => {
    const db = path.join(dir, 'dev.db');
    const first = persistedTokenSecret(db);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(tokenSecretFile(db)).mode & 0o777).toBe(0o600);
    expect(persistedTokenSecret(db)).toBe(first);
    // a token issued before the restart is accepted after it
    const before = createTokenService({ secret: first });
    const after = createTokenService({ secret: persistedTokenSecret(db) });
    const token = before.issue('ep_1');
    expect(after.allows(token, 'ep_1')).toBe(true);
    expect(createTokenService({}).allows(token, 'ep_1')).toBe(false); // what a fresh random secret did
  });
});
