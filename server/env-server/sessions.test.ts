import { describe, expect, it } from 'vitest';
import { newEpisodeId } from './sessions';

describe('newEpisodeId', () => {
  it('gives "ep_" and 16 base64url characters, never the same twice across refills of its random pool', () => {
    const ids = Array.from({ length: 2000 }, newEpisodeId);
    for (const id of ids) expect(id).toMatch(/^ep_[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // 96 random bits each: over 2,000 ids every base64url character shows up in every position
    for (let i = 3; i < 19; i++) expect(new Set(ids.map((id) => id[i])).size).toBe(64);
  });
});
