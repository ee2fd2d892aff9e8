import { describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { checkConformance } from './conformance';
import { publicConnection } from './connection';
import { createMemoryConnectionStore } from './test/memory-connection-store';
import { useHeuristicAgentServer } from './test/agent-server-fixture';

const agentServer = useHeuristicAgentServer();

// What the models router does on save and list (server/trpc/models.ts), with a memory store.
describe('saving and listing connections', () => {
  it('a saved connection passes the conformance check; the browser view says whether the key is set, never the key', async () => {
    const marker = 'sk-MARKER-service-77';
    const env = { LOCAL_API_KEY: marker };
    const store = createMemoryConnectionStore(env);
    const connection = await store.save({
      name: 'local',
      baseUrl: agentServer.baseUrl,
      model: 'heuristic',
      apiKeyEnv: 'LOCAL_API_KEY',
    });
    const saved = {
      connection: publicConnection(connection, env),
      conformance: await checkConformance(connection, testCatalog(), { env }),
    };
    expect(saved.conformance.ok).toBe(true);
    expect(saved.connection.apiKeySet).toBe(true);
    const listed = (await store.list()).map((c) => publicConnection(c, {}));
    expect(listed[0]).toMatchObject({ name: 'local', apiKeyEnv: 'LOCAL_API_KEY', apiKeySet: false });
    for (const payload of [saved, listed]) expect(JSON.stringify(payload)).not.toContain(marker);
  });
});
