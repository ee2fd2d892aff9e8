import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { startEnvServer, type RunningEnvServer } from '@/server/env-server/server';
import { testConfig } from '@/server/env-server/test/helpers';
import {
  cpuBudgetPer1k,
  cpuCeiling,
  httpSession,
  median,
  quantile,
  recordScript,
  wsSession,
  type ReplaySession,
} from './bench-api-lib';

// The bench's light clients must speak the protocol for real: every recorded episode, replayed
// through them against a running server, ends with the reward it had in-process.
describe('bench:api sessions', () => {
  let server: RunningEnvServer;
  beforeAll(async () => {
    server = await startEnvServer(testConfig({ host: '127.0.0.1' }), testCatalog());
  });
  afterAll(() => server.close());

  for (const [name, open] of [
    ['HTTP', httpSession],
    ['WebSocket', wsSession],
  ] as const)
    it(`${name}: replays recorded heuristic and oracle episodes of every env to their in-process rewards`, async () => {
      const session: ReplaySession = await open(server.url);
      const timings: string[] = [];
      try {
        for (const agent of ['heuristic', 'oracle'] as const)
          for (let n = 0; n < 8; n++) {
            const script = recordScript(testCatalog(), agent, 3, n);
            expect(await session.play(script, (kind) => timings.push(kind))).toBe(script.reward);
          }
      } finally {
        session.close();
      }
      expect(timings.filter((k) => k === 'reset')).toHaveLength(16);
      expect(timings.filter((k) => k === 'step').length).toBeGreaterThan(16);
    });
});

describe('the CPU-bound ceiling printed beside each row', () => {
  it('is the cores over the CPU a step costs, server and client together', () => {
    // 2 cores, 0.80 s + 0.10 s per 1k steps = 0.9 ms a step: 2 / 0.0009 = 2,222.2 steps/s
    expect(cpuCeiling(2, 0.8, 0.1)).toBeCloseTo(2222.22, 1);
    // 4 cores at 0.5 ms a step: 8,000
    expect(cpuCeiling(4, 0.45, 0.05)).toBeCloseTo(8000, 6);
    // the server's CPU not measured (no --pid): no ceiling rather than a client-only one
    expect(cpuCeiling(2, NaN, 0.1)).toBeNaN();
    expect(cpuCeiling(2, 0, 0)).toBeNaN();
  });

  it('gives the budget a target leaves: 3,000 steps/s on 2 cores is 0.667 s per 1k steps in all', () => {
    expect(cpuBudgetPer1k(2, 3000)).toBeCloseTo(0.6667, 4);
    expect(cpuCeiling(2, cpuBudgetPer1k(2, 3000), 0)).toBeCloseTo(3000, 6);
  });
});

describe('medians and quantiles of the rows', () => {
  it('takes the middle row, or the mean of the two middle rows', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([1490, 1741])).toBe(1615.5);
    expect(median([0.93, 1.08, 1.25, 1.66])).toBeCloseTo(1.165, 10);
    expect(median([])).toBeNaN();
  });

  it('gives latency quantiles as the sorted sample at index ⌊q·n⌋ (p99 of 100 samples is the largest)', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted on purpose
    expect(quantile(xs, 0.5)).toBe(51);
    expect(quantile(xs, 0.99)).toBe(100);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
