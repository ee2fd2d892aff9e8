// For the models tests: the built-in heuristic agent served over HTTP for the whole file, and the
// fake endpoints a test starts (closed after the file).
import type { Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createAgentServer, listen } from '@/scripts/agent-server/server';
import type { FakeEndpoint } from './fake-endpoint';

export function useHeuristicAgentServer(): { readonly baseUrl: string; fakes: FakeEndpoint[] } {
  let server: Server;
  let port = 0;
  const fakes: FakeEndpoint[] = [];
  beforeAll(async () => {
    testCatalog();
    server = createAgentServer({ agent: 'heuristic', port: 0 });
    port = await listen(server, 0);
  });
  afterAll(async () => {
    server.close();
    await Promise.all(fakes.map((f) => f.close()));
  });
  return {
    get baseUrl() {
      return `http://127.0.0.1:${port}/v1`;
    },
    fakes,
  };
}
