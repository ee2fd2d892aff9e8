import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { startEnvServer, type RunningEnvServer } from '@/server/env-server/server';
import { testConfig } from '@/server/env-server/test/helpers';
import { httpSession, recordScript, wsSession, type ReplaySession } from './bench-api-lib';

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
