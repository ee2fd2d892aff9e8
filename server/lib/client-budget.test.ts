import { describe, expect, it } from 'vitest';
import { createClientBudget, serveEnvBudgetLimits } from './client-budget';

const MB = 1024 * 1024;

describe('client write budgets', () => {
  it('refuses a client past its writes a minute with 429, and lets it go on once the minute has passed', () => {
    let now = 0;
    const b = createClientBudget(
      { writesPerMinute: 3, mbPerHour: 64, storedMbPerDay: 64, allWritesPerMinute: 100, allMbPerHour: 640 },
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
      { writesPerMinute: 1000, mbPerHour: 2, storedMbPerDay: 64, allWritesPerMinute: 10_000, allMbPerHour: 20 },
      () => 0,
    );
    expect(b.charge('a', MB)).toBeNull();
    expect(b.charge('a', MB)).toBeNull();
    expect(b.charge('a', 1)).toMatchObject({ status: 413, code: 'QUOTA' });
    expect(b.charge('b', MB)).toBeNull();
  });

  it('holds all clients together to the total (forged addresses)', () => {
    const b = createClientBudget(
      { writesPerMinute: 5, mbPerHour: 64, storedMbPerDay: 64, allWritesPerMinute: 10, allMbPerHour: 640 },
      () => 0,
    );
    for (let i = 0; i < 10; i++) expect(b.charge(`forged-${i}`, 10)).toBeNull();
    expect(b.charge('fresh', 10)).toMatchObject({ status: 429 });
  });

  it('refuses a client whose stored bytes reached its quota with 413, for a day, and no other client', () => {
    let now = 0;
    const b = createClientBudget(
      { writesPerMinute: 1000, mbPerHour: 64, storedMbPerDay: 1, allWritesPerMinute: 10_000, allMbPerHour: 640 },
      () => now,
    );
    expect(b.charge('a', 10)).toBeNull();
    b.stored('a', MB / 2);
    expect(b.charge('a', 10)).toBeNull();
    b.stored('a', MB / 2);
    expect(b.charge('a', 10)).toMatchObject({
      status: 413,
      code: 'QUOTA',
      message: expect.stringContaining('storage quota'),
    });
    expect(b.charge('b', 10)).toBeNull();
    now = 24 * 3_600_000 + 1;
    expect(b.charge('a', 10)).toBeNull();
  });

  it('is off for serve:env on loopback unless a budget variable is set, on when exposed', () => {
    expect(serveEnvBudgetLimits('127.0.0.1', {})).toBeNull();
    // every loopback address and name counts as loopback, as the Host check has them
    for (const host of ['127.0.0.2', '::1', '[::1]', 'localhost']) expect(serveEnvBudgetLimits(host, {})).toBeNull();
    expect(serveEnvBudgetLimits('127.0.0.1', { ECOMRLVE_CLIENT_STORED_MB_PER_DAY: '5' })).toMatchObject({
      storedMbPerDay: 5,
    });
    expect(serveEnvBudgetLimits('0.0.0.0', {})).toMatchObject({
      writesPerMinute: 600,
      mbPerHour: 64,
      storedMbPerDay: 256,
    });
  });
});
