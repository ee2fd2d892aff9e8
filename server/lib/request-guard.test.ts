import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_BODY_BYTES, MAX_POST_BYTES } from './body-limit';
import { installRequestGuard, outerBodyLimit } from './request-guard';

// A server whose handler reads the whole body and reports how much it got, as Next would.
let server: http.Server;
let port: number;
let handlerBytes = 0;
let handled = 0;

beforeAll(async () => {
  installRequestGuard();
  installRequestGuard(); // idempotent: one guard, not two
  server = http.createServer((req, res) => {
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      handlerBytes += c.length;
    });
    req.on('end', () => {
      handled++;
      res.end(JSON.stringify({ bytes: n }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Sends a raw request, uploading up to `bodyBytes` in 64 KB writes until the server answers or closes. */
function upload(head: string, bodyBytes: number, chunked = false) {
  return new Promise<{ answer: string; sent: number; ms: number }>((resolve) => {
    const t = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let over = false;
    const finish = () => {
      if (over) return;
      over = true;
      resolve({ answer, sent, ms: performance.now() - t });
    };
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('close', finish);
    socket.on('error', finish);
    const chunk = Buffer.alloc(64 * 1024, 120);
    socket.write(head);
    const pump = () => {
      while (!over && !socket.destroyed && sent < bodyBytes) {
        const data = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
        const piece = chunked
          ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')])
          : data;
        sent += data.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      if (!over && !socket.destroyed) socket.end(chunked ? '0\r\n\r\n' : '');
    };
    pump();
  });
}

describe('request guard (outer body cap on the raw HTTP server)', () => {
  it('refuses a declared length over the cap before the handler reads a byte, and closes', async () => {
    const before = { bytes: handlerBytes, handled };
    const r = await upload(
      `POST /play/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${300 * 1024 * 1024}\r\n\r\n`,
      300 * 1024 * 1024,
    );
    expect(r.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(r.answer).toMatch(/connection: close/i);
    expect(r.answer).toContain(
      `"message":"request body is ${300 * 1024 * 1024} bytes; the limit is ${MAX_POST_BYTES} bytes. Nothing was read or run."`,
    );
    expect(handlerBytes - before.bytes).toBe(0);
    expect(handled - before.handled).toBe(0);
    expect(r.sent).toBeLessThan(100 * 1024 * 1024); // the upload was cut off, not drained
  });

  it('counts a chunked body and closes the connection at the cap', async () => {
    const before = handlerBytes;
    const r = await upload(
      'POST /play/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
      300 * 1024 * 1024,
      true,
    );
    expect(r.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(r.answer).toContain(`the limit is ${MAX_POST_BYTES} bytes`);
    expect(handlerBytes - before).toBeLessThanOrEqual(MAX_POST_BYTES); // the handler never saw past the cap
    expect(r.sent).toBeLessThan(100 * 1024 * 1024);
  });

  it('passes bodies under the cap through untouched, with or without a length', async () => {
    const n = 200_000;
    const plain = await upload(
      `POST /api/trpc/seat.step HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${n}\r\n\r\n`,
      n,
    );
    expect(plain.answer).toMatch(/^HTTP\/1\.1 200/);
    expect(plain.answer).toContain(`{"bytes":${n}}`);
    const chunked = await upload(
      'POST /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n',
      64 * 1024 * 3,
      true,
    );
    expect(chunked.answer).toContain(`{"bytes":${64 * 1024 * 3}}`);
  });

  it('gives the import procedure and a configured /api/env their larger caps', () => {
    expect(outerBodyLimit('/api/trpc/inspector.import')).toBe(MAX_IMPORT_BODY_BYTES);
    expect(outerBodyLimit('/api/trpc/seat.get,inspector.import')).toBe(MAX_IMPORT_BODY_BYTES);
    expect(outerBodyLimit('/api/trpc/seat.step')).toBe(MAX_POST_BYTES);
    const saved = process.env.ECOMRLVE_MAX_BODY_BYTES;
    process.env.ECOMRLVE_MAX_BODY_BYTES = String(4 * MAX_POST_BYTES);
    try {
      expect(outerBodyLimit('/api/env/step')).toBe(4 * MAX_POST_BYTES);
      expect(outerBodyLimit('/play/x')).toBe(MAX_POST_BYTES);
    } finally {
      if (saved === undefined) delete process.env.ECOMRLVE_MAX_BODY_BYTES;
      else process.env.ECOMRLVE_MAX_BODY_BYTES = saved;
    }
  });
});
