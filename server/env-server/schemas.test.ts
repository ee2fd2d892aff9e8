import { describe, expect, it } from 'vitest';
import { MAX_SEED, plainResetRequest, resetRequestSchema } from './schemas';

// Values for each key: [valid ones (edges included), invalid ones].
const VALUES: Record<string, [unknown[], unknown[]]> = {
  env: [
    ['PD', 'JOURNEY'],
    ['pd', 'NOPE', '', 3, null, ['PD']],
  ],
  d: [
    [0, 7, 100],
    [101, -1, 2.5, '3', null, Number.NaN, 1e21],
  ],
  seed: [
    [0, 42, MAX_SEED],
    [MAX_SEED + 1, -1, 1.5, '7', null, Number.MAX_SAFE_INTEGER + 2],
  ],
  episode_id: [
    ['ep_1', 'a'.repeat(64), 'A-_9'],
    ['a'.repeat(65), '', 'bad id', 'é', 5],
  ],
  run: [
    ['grpo-7', 'x', 'r'.repeat(100)],
    ['r'.repeat(101), '', 9],
  ],
  axis_overrides: [[{}, { catalog_breadth: 2 }], [{ nope: 1 }]],
  sed: [[], [1]],
};

/** A small deterministic generator (the bodies must be the same on every run). */
function* bodies(count: number): Generator<unknown> {
  let x = 12345;
  const next = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n);
  yield {};
  yield null;
  yield 'PD';
  yield [];
  for (let i = 0; i < count; i++) {
    const body: Record<string, unknown> = {};
    for (const [key, [valid, invalid]] of Object.entries(VALUES)) {
      // extra keys and axis overrides rarely, the plain keys often; mostly valid values
      const chance = key === 'sed' || key === 'axis_overrides' ? 10 : 2;
      if (next(chance) !== 0) continue;
      const values = valid.length > 0 && next(10) < 8 ? valid : invalid;
      body[key] = values[next(values.length)];
    }
    yield body;
  }
}

describe('plainResetRequest (the reset body checked without zod)', () => {
  it('returns exactly what the schema returns, and leaves every body the schema refuses to it', () => {
    let fast = 0;
    let refused = 0;
    for (const body of bodies(3000)) {
      const plain = plainResetRequest(body);
      const parsed = resetRequestSchema.safeParse(body);
      if (plain !== null) {
        fast++;
        expect(parsed.success, JSON.stringify(body)).toBe(true);
        expect(plain, JSON.stringify(body)).toStrictEqual(parsed.data);
      } else if (!parsed.success) refused++;
    }
    // both branches were exercised many times, so the comparison means something
    expect(fast).toBeGreaterThan(200);
    expect(refused).toBeGreaterThan(500);
  });
});
