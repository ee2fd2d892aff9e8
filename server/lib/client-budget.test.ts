import { describe, expect, it } from 'vitest';
import { createClientBudget } from './client-budget';

const MB = 1024 * 1024;

describe('client write budgets', () => {
  it('refuses a client past its writes a minute with 429, and lets it go on once the minute has passed', () => {
    let now = 0;
    const b = createClientBudget(
      { writesPerMinute: 3, mbPerHour: 64, allWritesPerMinute: 100, allMbPerHour: 640 },
      () => now,
    );
    for (let i = 0; i < 3; i++) expect(b.charge('a', 100)).toBeNull();
    expect(b.charge('a', 100)).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterS: 60 });
    expect(b.charge('b', 100)).toBeNull(); // another client is not held back
    now = 60_001;
    expect(b.charge('a', 100)).toBeNull();
  });

  it('stops a client’s bytes at its quota with 413 (what it can make the server store)', () => {
    const b = createClientBudget(
      { writesPerMinute: 1000, mbPerHour: 2, allWritesPerMinute: 10_000, allMbPerHour: 20 },
      () => 0,
    );
    expect(b.charge('a', MB)).toBeNull();
    expect(b.charge('a', MB)).toBeNull();
    expect(b.charge('a', 1)).toMatchObject({ status: 413, code: 'QUOTA' });
    expect(b.charge('b', MB)).toBeNull();
  });

  it('holds all clients together to the total (forged addresses)', () => {
    const b = createClientBudget(
      { writesPerMinute: 5, mbPerHour: 64, allWritesPerMinute: 10, allMbPerHour: 640 },
      () => 0,
    );
    for (let i = 0; i < 10; i++) expect(b.charge(`forged-${i}`, 10)).toBeNull();
    expect(b.charge('fresh', 10)).toMatchObject({ status: 429 });
  });
});
