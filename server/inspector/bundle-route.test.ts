// The demo bundle's route: the inspector's, so the admin's only when auth is on; clear errors for
// nothing to bundle and for more than a bundle holds.
import { describe, expect, it } from 'vitest';
import { authOnForFile } from '@/server/auth/test/auth-on';
import { appDatabaseForFile } from '@/server/episodes/test/app-db';

appDatabaseForFile();
const { GET } = await import('@/app/api/inspector/bundle/route');
authOnForFile('admin-secret-token');
const admin = { headers: { authorization: 'Bearer admin-secret-token' } };

describe('/api/inspector/bundle', () => {
  it('auth on: 401 without the admin token, with the goal or without', async () => {
    for (const q of ['ids=x', 'ids=x&withGoal=1']) {
      const anon = await GET(new Request(`http://app.test/api/inspector/bundle?${q}`));
      expect(anon.status).toBe(401);
      expect(await anon.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    }
  });

  it('says why when there is nothing to bundle or too much', async () => {
    const none = await GET(new Request('http://app.test/api/inspector/bundle?ids=nope', admin));
    expect(none.status).toBe(404);
    expect((await none.json()).error.message).toMatch(/no such episode/);
    const empty = await GET(new Request('http://app.test/api/inspector/bundle?run=no-such-run', admin));
    expect(empty.status).toBe(404);
    const many = Array.from({ length: 201 }, (_, i) => `e${i}`).join(',');
    const tooMany = await GET(new Request(`http://app.test/api/inspector/bundle?ids=${many}`, admin));
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.message).toMatch(/at most 200 episodes/);
  });
});
