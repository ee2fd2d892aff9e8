import { describe, expect, it } from 'vitest';
import { bodyLimitFor, MAX_IMPORT_BODY_BYTES, withCappedBody } from './body-limit';

function streamOf(total: number, chunk = 1000) {
  let sent = 0;
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      pulls++;
      if (sent >= total) return ctrl.close();
      ctrl.enqueue(new Uint8Array(chunk).fill(97));
      sent += chunk;
    },
  });
  return { stream, pulls: () => pulls };
}

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/api/trpc/seat.step', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('request body cap', () => {
  it('refuses a declared length over the cap without reading', async () => {
    const { stream, pulls } = streamOf(10_000);
    const res = await withCappedBody(post(stream, { 'content-length': '300000000' }), 1000);
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(413);
    expect(await (res as Response).json()).toEqual({
      error: {
        code: 'TOO_LARGE',
        message: 'request body is 300000000 bytes; the limit is 1000 bytes. Nothing was read or run.',
      },
    });
    expect(pulls()).toBeLessThanOrEqual(1); // at most the stream's initial pull
    expect((res as Response).headers.get('connection')).toBe('close'); // and the upload is cut off
  });

  it('stops reading a body without a length at the cap', async () => {
    const { stream, pulls } = streamOf(1_000_000);
    const res = await withCappedBody(post(stream), 5000);
    expect((res as Response).status).toBe(413);
    expect(pulls()).toBeLessThan(10); // 1,000 chunks were offered; about 6 were read
  });

  it('passes a body under the cap through intact, and GETs untouched', async () => {
    const req = await withCappedBody(post('{"id":"x"}'), 1000);
    expect(req).toBeInstanceOf(Request);
    expect(await (req as Request).text()).toBe('{"id":"x"}');
    const get = new Request('http://127.0.0.1/api/trpc/envs.list');
    expect(await withCappedBody(get, 10)).toBe(get);
  });
});

describe('bodyLimitFor', () => {
  it('gives the import procedure its own cap and every other path the default', () => {
    expect(bodyLimitFor('/api/trpc/inspector.import', 1)).toBe(MAX_IMPORT_BODY_BYTES);
    expect(bodyLimitFor('/api/trpc/episodes.list,inspector.import', 1)).toBe(MAX_IMPORT_BODY_BYTES);
    expect(bodyLimitFor('/api/trpc/seat.step', 7)).toBe(7);
    expect(bodyLimitFor('/api/trpc/inspector.importX', 7)).toBe(7);
    expect(bodyLimitFor('/play/abc', 7)).toBe(7);
  });
});
