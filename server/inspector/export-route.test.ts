// The inspector's export route: episodes with their hidden goals, so the admin's only when auth is on.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb } from '@/server/episodes/test-db';

const db = createTestDb();
process.env.DATABASE_URL = db.url;
const { GET } = await import('@/app/api/inspector/export/route');
const saved = { auth: process.env.ECOMRLVE_AUTH, token: process.env.ECOMRLVE_ADMIN_TOKEN };
afterAll(async () => {
  if (saved.auth === undefined) delete process.env.ECOMRLVE_AUTH;
  else process.env.ECOMRLVE_AUTH = saved.auth;
  if (saved.token === undefined) delete process.env.ECOMRLVE_ADMIN_TOKEN;
  else process.env.ECOMRLVE_ADMIN_TOKEN = saved.token;
  await db.cleanup();
});

describe('/api/inspector/export roles', () => {
  it('auth on: 401 without the admin token, the JSONL with it', async () => {
    process.env.ECOMRLVE_AUTH = 'on';
    process.env.ECOMRLVE_ADMIN_TOKEN = 'admin-secret-token';
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
});
