// POST /play/<id>/model-turn with auth on: the episode's own agent cannot make the server call a
// model endpoint the admin has not made public (issue 29: anyone could spend the admin's key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOnForFile } from '@/server/auth/test/auth-on';
import { appDatabaseForFile } from '@/server/episodes/test/app-db';
import { startFakeEndpoint, type FakeEndpoint } from './test/fake-endpoint';

appDatabaseForFile();
const { POST } = await import('@/app/play/[episodeId]/model-turn/route');
const { episodeService } = await import('@/server/episodes');
const { prisma } = await import('@/server/db');
const { createPrismaConnectionStore } = await import('./prisma-connection-store');
const ADMIN = 'admin-secret-token';
authOnForFile(ADMIN);

let fake: FakeEndpoint;
let episode = { id: '', token: '' };
beforeAll(async () => {
  fake = await startFakeEndpoint([{ kind: 'reply', content: 'Hello.' }]);
  const store = createPrismaConnectionStore(prisma);
  await store.save({ name: 'admins-model', baseUrl: fake.baseUrl, model: 'fake', maxRetries: 0 });
  const ep = await episodeService.startEpisode({ envId: 'CART', d: 1, seed: 9 });
  episode = { id: ep.id, token: ep.capabilityToken };
});
afterAll(() => fake?.close());

const turn = (headers: Record<string, string>, connection = 'admins-model') =>
  POST(
    new Request(`http://127.0.0.1/play/${episode.id}/model-turn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ player: { connection } }),
    }),
    { params: Promise.resolve({ episodeId: episode.id }) },
  );

describe('POST /play/<id>/model-turn (auth on)', () => {
  it('the episode’s agent is refused a private connection (401) and the endpoint is never called', async () => {
    const res = await turn({ 'x-episode-token': episode.token });
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toMatch(
      /playing the model connection "admins-model" needs the admin token/,
    );
    const unknown = await turn({ 'x-episode-token': episode.token }, 'no-such-model');
    expect(unknown.status).toBe(401); // the same answer: names cannot be probed
    expect(fake.requests).toHaveLength(0);
  });

  it('the admin may play it (the endpoint is called)', async () => {
    const res = await turn({ authorization: `Bearer ${ADMIN}` });
    expect(res.status).toBe(200);
    await res.text();
    expect(fake.requests.length).toBeGreaterThan(0);
  });
});
