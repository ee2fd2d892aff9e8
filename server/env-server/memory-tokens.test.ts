// A memory-only server (persistence off) cannot refuse a chosen episode_id that another process
// holds, so its capability tokens are signed apart from the shared secret's (server.ts).
import { describe, expect, it } from 'vitest';
import { buildEnvService } from './server';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createTokenService } from '@/server/episodes/tokens';
import { testConfig } from './test/helpers';

describe('a memory-only server’s capability tokens', () => {
  it('open its own episodes but not an episode of the same id elsewhere under the shared secret', async () => {
    const config = testConfig({ persist: false, tokenSecret: 'shared-secret' });
    const { service } = buildEnvService(config, testCatalog());
    const id = 'cplaygroundepisode000000001'; // say, the app's playground episode
    const { response } = service.reset({ env: 'CART', d: 1, seed: 3, episode_id: id });
    const chat = { assistant_message: 'One moment.', tool_calls: [], answer: null };
    expect((await service.stepEpisode(id, response.token, chat, null)).observation.turn).toBe(1);
    const app = createTokenService({ secret: 'shared-secret' });
    expect(app.allows(response.token, id)).toBe(false);
    expect(app.allows(app.issue(id), id)).toBe(true);
  });
});
