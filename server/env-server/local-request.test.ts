// serve:env answers only to its own names (DNS rebinding) and refuses cross-site writes, on
// HTTP and on the WebSocket upgrade (issue 29, "local means local").
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { startEnvServer, type RunningEnvServer } from './server';
import { testConfig } from './test/helpers';

let server: RunningEnvServer;
beforeAll(async () => {
  server = await startEnvServer(testConfig(), testCatalog());
});
afterAll(() => server?.close());

function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function upgrade(headers: Record<string, string>) {
  return new Promise<string>((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { headers });
    ws.on('open', () => (ws.close(), resolve('open')));
    ws.on('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
    ws.on('error', (e) => resolve(`error ${e.message}`));
  });
}

describe('serve:env: local means local', () => {
  it('refuses a foreign Host with a 403 and one sentence; its own host is served', async () => {
    const foreign = await send('GET', '/health', { host: 'rebound.example:8000' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error).toEqual({
      code: 'FOREIGN_HOST',
      message:
        'this server does not answer to the host name "rebound.example"; the operator lists public names in ECOMRLVE_PUBLIC_HOSTS',
    });
    expect((await send('GET', '/health', { host: `127.0.0.1:${server.port}` })).status).toBe(200);
  });

  it('refuses a cross-site reset (a web page posting text/plain), not a program’s', async () => {
    const body = JSON.stringify({ env: 'PD', seed: 1 });
    const page = await send('POST', '/reset', { 'content-type': 'text/plain', origin: 'http://evil.example' }, body);
    expect(page.status).toBe(403);
    expect((await send('POST', '/reset', { 'content-type': 'application/json' }, body)).status).toBe(200);
  });

  it('refuses the WebSocket upgrade from a foreign Host or another site’s page', async () => {
    expect(await upgrade({ host: 'rebound.example' })).toBe('refused 403');
    expect(await upgrade({ origin: 'http://evil.example' })).toBe('refused 403');
    expect(await upgrade({})).toBe('open');
  });
});
