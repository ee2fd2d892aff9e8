// The hidden goal stays off the model path, over whole episodes: the heuristic behind the agent
// server (real HTTP, streamed) plays stored episodes of all eight envs through the playground's
// turn stream. Every request body sent to the model (every turn, read off the wire) and every
// byte streamed back to the browser while the episode is active holds no goal value beyond
// what the agent seat legitimately saw (the customer's words and its own tool results).

import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_IDS, listEnvs, toolSpecsFor } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { fieldNames, leakedValues, secretValues } from '@/server/episodes/test/goal-scan';
import { toSeatView } from '@/server/episodes/seat';
import { createEpisodeService, type EpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { createAgentServer, listen } from '@/scripts/agent-server/server';
import { createMemoryConnectionStore } from './test/memory-connection-store';
import { systemPrompt } from './prompt';
import { playTableTurn } from './table';
import { resolveTablePlayer, turnEventStream } from './turn-stream';

let db: TestDb;
let service: EpisodeService;
let server: Server;
let port: number;
const realFetch = globalThis.fetch;
const wire: string[] = []; // every body sent to the model

beforeAll(async () => {
  db = createTestDb();
  service = createEpisodeService({ prisma: db.prisma, getCatalog: testCatalog, defaultCatalogId: testCatalog().id });
  server = createAgentServer({ agent: 'heuristic', port: 0 });
  port = await listen(server, 0);
  globalThis.fetch = ((url: string | URL | Request, init?: RequestInit) => {
    if (String(url).includes(`127.0.0.1:${port}/`)) wire.push(String(init?.body));
    return realFetch(url, init);
  }) as typeof fetch;
}, 120_000);
afterAll(async () => {
  globalThis.fetch = realFetch;
  server?.close();
  await db?.cleanup();
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('the model path carries no hidden goal', () => {
  it('requests (all turns) and streamed responses, 8 envs × d 3, 8 × seeds 1–2, tool mode', async () => {
    const store = createMemoryConnectionStore({});
    await store.save({ name: 'local', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'heuristic', maxRetries: 0 });
    const player = await resolveTablePlayer(store, { player: { connection: 'local' } }, () => {});
    let episodes = 0;
    for (const envId of ENV_IDS)
      for (const d of [3, 8])
        for (const seed of [1, 2]) {
          const ep = await service.startEpisode({ envId, d, seed });
          const firstRequest = wire.length;
          const responses: string[] = [];
          let finalResponse = '';
          for (let turns = 0; turns < 60; turns++) {
            const body = await readAll(
              turnEventStream(
                (onPartial) => playTableTurn(service, testCatalog, ep.id, player, { onPartial }),
                (e) => ({ error: (e as Error).message, code: 'INTERNAL' }),
              ),
            );
            if ((await service.getEpisode(ep.id)).status === 'done') {
              finalResponse = body;
              break;
            }
            responses.push(body);
          }
          const full = await service.getEpisode(ep.id);
          expect(full.status, `${envId} d=${d} seed=${seed} finished`).toBe('done');
          expect(full.infraError).toBeNull();
          const requests = wire.slice(firstRequest);
          // one request a turn, more if a turn failed in transport on this loaded machine and was taken again
          expect(requests.length).toBeGreaterThanOrEqual(full.turn);

          // what the agent seat legitimately saw while playing (world changes stay hidden)
          const seat = toSeatView({ ...full, status: 'active', revealed: false });
          const publicText = [
            JSON.stringify(seat.events),
            JSON.stringify(toolSpecsFor(envId)),
            JSON.stringify(listEnvs().find((e) => e.id === envId)),
            systemPrompt(envId, full.budgets, 'tools'),
            fieldNames(JSON.parse(requests[0])),
            ep.id,
          ].join('\n');
          const secrets = secretValues(full.hiddenGoal, publicText);
          expect(secrets.length, `${envId} d=${d} seed=${seed} has goal values to look for`).toBeGreaterThan(0);
          for (const [i, r] of requests.entries())
            expect(leakedValues(r, secrets), `${envId} d=${d} seed=${seed} request ${i + 1}`).toEqual([]);
          for (const [i, r] of responses.entries())
            expect(leakedValues(r, secrets), `${envId} d=${d} seed=${seed} response ${i + 1}`).toEqual([]);
          // the scan does find them once the goal may leave: the finished episode's view carries it
          expect(leakedValues(finalResponse, secrets).length).toBeGreaterThan(0);
          episodes++;
        }
    expect(episodes).toBe(32);
  }, 600_000);
});
