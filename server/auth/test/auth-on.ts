// For a test file that runs with auth on: sets ECOMRLVE_AUTH=on and the admin token before its
// tests and restores both afterwards, so the files sharing a worker see their own settings.
import { afterAll, beforeAll } from 'vitest';

export function authOnForFile(adminToken: string): void {
  const saved = { auth: process.env.ECOMRLVE_AUTH, token: process.env.ECOMRLVE_ADMIN_TOKEN };
  beforeAll(() => {
    process.env.ECOMRLVE_AUTH = 'on';
    process.env.ECOMRLVE_ADMIN_TOKEN = adminToken;
  });
  afterAll(() => {
    if (saved.auth === undefined) delete process.env.ECOMRLVE_AUTH;
    else process.env.ECOMRLVE_AUTH = saved.auth;
    if (saved.token === undefined) delete process.env.ECOMRLVE_ADMIN_TOKEN;
    else process.env.ECOMRLVE_ADMIN_TOKEN = saved.token;
  });
}
