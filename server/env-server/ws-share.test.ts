// 64 idle WebSocket sessions from one client leave room for another (issue 29): when the server
// is full, a client holding fewer sessions takes the place of the largest holder's least
// recently active one (client-share.ts). Two clients: 127.0.0.1 and 127.0.0.2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { startEnvServer, type RunningEnvServer } from './server';
import { testConfig } from './test/helpers';

let server: RunningEnvServer;
beforeAll(async () => {
  server = await startEnvServer(testConfig({ maxSessions: 64 }), testCatalog());
});
afterAll(() => server?.close());

function connect(localAddress: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { localAddress });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const frames: string[] = [];
  ws.on('message', (m) => frames.push(m.toString()));
  return { ws, closed, frames, open: new Promise((r, e) => (ws.once('open', r), ws.once('error', e))) };
}

describe('WebSocket sessions shared between clients', () => {
  it('64 idle sessions from one client leave room for another; the hog loses its least recently active one', async () => {
    const hog = Array.from({ length: 64 }, () => connect('127.0.0.1'));
    await Promise.all(hog.map((h) => h.open));
    // the first socket stays busy; the others idle
    hog[0].ws.send(JSON.stringify({ type: 'reset', data: { env: 'PD', seed: 1 } }));
    await new Promise((r) => setTimeout(r, 50));
    const other = connect('127.0.0.2');
    await other.open;
    const reset = new Promise<string>((r) => other.ws.once('message', (m) => r(m.toString())));
    other.ws.send(JSON.stringify({ type: 'reset', data: { env: 'PD', seed: 2 } }));
    const answer = await Promise.race([reset, other.closed.then((code) => `{"type":"closed ${code}"}`)]);
    expect(JSON.parse(answer).type).toBe('observation');
    expect(await hog[1].closed).toBe(1013); // the least recently active of the hog's
    expect(JSON.parse(hog[1].frames[0]).data.code).toBe('CAPACITY_REACHED');
    expect(hog[0].ws.readyState).toBe(WebSocket.OPEN);
    // the hog cannot take the place back: it already holds the larger share
    const again = connect('127.0.0.1');
    expect(await again.closed).toBe(1013);
    for (const h of [...hog, other]) h.ws.close();
  });
});
