import { describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createMemoryConnectionStore, parseConnection } from './connection';
import {
  batchRunStatus,
  cancelBatchRun,
  expandCells,
  listConnections,
  saveConnection,
  startBatchRun,
  waitForBatchRun,
} from './service';
import { useHeuristicAgentServer } from './test/agent-server-fixture';
import { startFakeEndpoint } from './test/fake-endpoint';

const agentServer = useHeuristicAgentServer();
const fakes = agentServer.fakes;

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

  it('a batch run reports progress, finishes with a summary, and can be cancelled', async () => {
    const connection = parseConnection({ name: 'local', baseUrl: agentServer.baseUrl, model: 'heuristic' }, {});
    const id = startBatchRun(connection, expandCells(['STATUS'], [0, 1], [1, 2]), testCatalog(), { concurrency: 2 });
    expect(batchRunStatus(id)).toMatchObject({ state: 'running', total: 4 });
    const done = await waitForBatchRun(id);
    expect(done).toMatchObject({ state: 'finished', done: 4, infraFailures: 0 });
    expect(done!.summary.map((s) => [s.d, s.n])).toEqual([
      [0, 2],
      [1, 2],
    ]);

    const fake = await startFakeEndpoint([{ kind: 'hang' }]);
    fakes.push(fake);
    const slow = parseConnection({ name: 'slow', baseUrl: fake.baseUrl, model: 'x', timeoutMs: 10_000 }, {});
    const slowId = startBatchRun(slow, expandCells(['PD'], [0], [1, 2, 3]), testCatalog(), { concurrency: 1 });
    await new Promise((r) => setTimeout(r, 200));
    const cancelled = await cancelBatchRun(slowId);
    expect(cancelled).toMatchObject({ state: 'cancelled', done: 0, rows: [] });
    expect(batchRunStatus('nope')).toBeNull();
  });
});
