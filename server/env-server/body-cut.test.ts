// serve:env answers an oversized body with 413 at the limit, without reading the rest (issue 29:
// it read a whole 1 GB body before answering).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { startEnvServer, type RunningEnvServer } from './server';
import { testConfig } from './test/helpers';

let server: RunningEnvServer;
beforeAll(async () => {
  server = await startEnvServer(testConfig(), testCatalog());
});
afterAll(() => server?.close());

/** Streams up to `total` bytes until the server answers; how many were written by then. */
function upload(headers: Record<string, string | number>, total: number) {
  return new Promise<{ status: number; written: number }>((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/step', headers }, (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, written });
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

describe('serve:env body limit', () => {
  it('answers 413 long before a 1 GB body (declared or chunked) has been sent', async () => {
    const GB = 1024 ** 3;
    const declared = await upload({ 'content-type': 'application/json', 'content-length': GB }, GB);
    expect(declared.status).toBe(413);
    expect(declared.written).toBeLessThan(64 * 1024 * 1024);
    const chunked = await upload({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, GB);
    expect(chunked.status).toBe(413);
    expect(chunked.written).toBeLessThan(64 * 1024 * 1024);
  });
});
