import { describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createMemoryConnectionStore } from './test/memory-connection-store';
import { listConnections, saveConnection } from './service';
import { useHeuristicAgentServer } from './test/agent-server-fixture';

const agentServer = useHeuristicAgentServer();

describe('models service', () => {
  it('saving a connection runs the conformance check; the browser view says whether the key is set, never the key', async () => {
    const marker = 'sk-MARKER-service-77';
    const env = { LOCAL_API_KEY: marker };
    const store = createMemoryConnectionStore(env);
    const saved = await saveConnection(
      store,
      { name: 'local', baseUrl: agentServer.baseUrl, model: 'heuristic', apiKeyEnv: 'LOCAL_API_KEY' },
      testCatalog(),
      env,
    );
    expect(saved.conformance.ok).toBe(true);
    expect(saved.connection.apiKeySet).toBe(true);
    const listed = await listConnections(store, {});
    expect(listed[0]).toMatchObject({ name: 'local', apiKeyEnv: 'LOCAL_API_KEY', apiKeySet: false });
    for (const payload of [saved, listed]) expect(JSON.stringify(payload)).not.toContain(marker);
  });
});
