// The inspector's export route: episodes with their hidden goals, so the admin's only when auth is on.
import { describe, expect, it } from 'vitest';
import { authOnForFile } from '@/server/auth/test/auth-on';
import { appDatabaseForFile } from '@/server/episodes/test/app-db';

appDatabaseForFile();
const { GET } = await import('@/app/api/inspector/export/route');
authOnForFile('admin-secret-token');

describe('/api/inspector/export roles', () => {
  it('auth on: 401 without the admin token, the JSONL with it', async () => {
    const anon = await GET(new Request('http://app.test/api/inspector/export?ids=x'));
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    const admin = await GET(
      new Request('http://app.test/api/inspector/export?ids=x', {
        headers: { authorization: 'Bearer admin-secret-token' },
      }),
    );
    expect(admin.status).toBe(200);
    expect(admin.headers.get('x-episode-count')).toBe('0');
  });

  it('a GET carrying a body (it skipped the proxy gate) is refused unread: 400, even for the admin', async () => {
    for (const headers of [{ 'content-length': '5' }, { 'transfer-encoding': 'chunked' }] as Record<string, string>[]) {
      const res = await GET(
        new Request('http://evil.example/api/inspector/export?ids=x', {
          headers: { ...headers, authorization: 'Bearer admin-secret-token' },
        }),
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'BAD_INPUT' } });
    }
  });
});
