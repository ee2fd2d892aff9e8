// Pages take no body and GETs none: the guard in front of Next answers at once and closes the
// connection, so an upload stops where the socket's buffers are (issue 29: a 300 MB upload to a
// page was answered without reading it but cut off ~6 s later; a GET with a body skipped the proxy).
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPageBodyGuard, pageBodyRefusal } from './page-body-guard';

let server: Server;
let port: number;
const reached: string[] = [];
beforeAll(async () => {
  // Next's behaviour for a page: it answers without reading the body
  server = createServer((req, res) => {
    reached.push(`${req.method} ${req.url}`);
    res.end('page');
  });
  installPageBodyGuard(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => server.close(r)));

/** Streams up to `total` bytes until the answer arrives: its status, body, and the bytes written by then. */
function upload(method: string, path: string, headers: Record<string, string | number>, total: number) {
  return new Promise<{ status: number; body: string; written: number; closed: boolean }>((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          written,
          closed: res.headers.connection === 'close',
        }),
      );
    });
    req.on('error', (e) => (answered ? undefined : reject(e)));
    const chunk = Buffer.alloc(64 * 1024, 120);
    const pump = () => {
      while (!answered && !req.destroyed && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (written >= total) req.end();
    };
    pump();
  });
}

describe('the page body guard', () => {
  it('answers a 300 MB upload to a page with 413 before it is sent (declared or chunked), and the page never runs', async () => {
    const MB300 = 300 * 1024 * 1024;
    const declared = await upload('POST', '/episodes', { 'content-length': MB300 }, MB300);
    expect(declared).toMatchObject({ status: 413, closed: true });
    expect(declared.written).toBeLessThan(64 * 1024 * 1024);
    expect(JSON.parse(declared.body).error.message).toContain('a page takes no body');
    const chunked = await upload('POST', '/play/ep1', { 'transfer-encoding': 'chunked' }, MB300);
    expect(chunked.status).toBe(413);
    expect(chunked.written).toBeLessThan(64 * 1024 * 1024);
    expect(reached).toEqual([]);
  });

  it('refuses a GET with a body (the export route) with 400 and any page body with 413; lets body-less requests through', async () => {
    const get = await upload('GET', '/api/inspector/export?ids=a', { 'content-length': 10 }, 10);
    expect(get.status).toBe(400);
    expect(JSON.parse(get.body).error.message).toContain('a GET request carries no body');
    expect((await upload('GET', '/api/inspector/export?ids=a', {}, 0)).status).toBe(200);
    expect((await upload('POST', '/episodes', {}, 0)).status).toBe(200);
    // a small body from a foreign Host: it would skip proxy.ts's Host check
    expect((await upload('POST', '/', { 'content-length': 2, host: 'rebound.example' }, 2)).status).toBe(413);
    expect(reached).toEqual(['GET /api/inspector/export?ids=a', 'POST /episodes']);
  });

  it('leaves the routes that read a body to their own limit', () => {
    const big = { method: 'POST', headers: { 'content-length': String(10 * 1024 * 1024) } };
    for (const url of [
      '/api/trpc/inspector.import',
      '/api/env/step',
      '/play/ep1/trpc/seat.step',
      '/play/ep1/model-turn',
    ])
      expect(pageBodyRefusal({ ...big, url }), url).toBeNull();
    expect(pageBodyRefusal({ ...big, url: '/play/ep1' })?.status).toBe(413);
    expect(pageBodyRefusal({ ...big, url: '/play/ep1/trpcx' })?.status).toBe(413);
  });
});
