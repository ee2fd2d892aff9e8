// The rules every server action gets from `serverAction` (one wrapper instead of a check per
// action): the role before the arguments, one BAD_INPUT naming the argument, public errors only.
// Which role each real action needs is roles.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { authOnForFile } from '@/server/auth/test-auth-on';
import { AppError } from '@/server/lib/errors';
import { ConnectionError } from '@/server/models/connection';

let requestHeaders = new Headers();
vi.mock('next/headers', () => ({ headers: async () => requestHeaders }));
// the agent seat's check: episode "e1" opens with token "t1" only
vi.mock('@/server/episodes', () => ({
  episodeService: { checkCapability: async (id: string, token: string) => id === 'e1' && token === 't1' },
}));
const { serverAction } = await import('./server-action');

const ADMIN = 'admin-token-for-server-action';
authOnForFile(ADMIN);
const admin = () => new Headers({ authorization: `Bearer ${ADMIN}` });

const run = z.object({ player: z.string(), seeds: z.number() }).describe('batch run');
const adminAction = (id: string, r: z.input<typeof run>) =>
  serverAction({ admin: 'batch runs' }, [z.string().describe('run id'), run], [id, r], async (checked, given) => ({
    id: checked,
    seeds: given.seeds,
  }));

describe('serverAction', () => {
  it('refuses a caller without the role before it looks at the arguments', async () => {
    requestHeaders = new Headers();
    expect(await adminAction(7 as never, null as never)).toEqual({
      ok: false,
      code: 'UNAUTHORIZED',
      error: expect.stringMatching(/^batch runs needs the admin token/),
    });
  });

  it('gives one BAD_INPUT naming the argument, the path inside it and the first problem', async () => {
    requestHeaders = admin();
    expect(await adminAction(7 as never, { player: 'p', seeds: 1 })).toEqual({
      ok: false,
      code: 'BAD_INPUT',
      error: 'run id: Invalid input: expected string, received number',
    });
    expect(await adminAction('r1', { player: 3, seeds: 'x' } as never)).toEqual({
      ok: false,
      code: 'BAD_INPUT',
      error: 'batch run: player: Invalid input: expected string, received number',
    });
    expect(await adminAction('r1', { player: 'p', seeds: 2 })).toEqual({ ok: true, data: { id: 'r1', seeds: 2 } });
  });

  it('words a nested path as the episode service does (one parse for both)', async () => {
    requestHeaders = new Headers();
    const tags = z.object({ tags: z.array(z.string()) }).describe('labels');
    const label = (given: unknown) => serverAction('public', [tags], [given], async (t) => t.tags.length);
    expect(await label({ tags: ['a', 2, 3] })).toEqual({
      ok: false,
      code: 'BAD_INPUT',
      error: 'labels: tags.1: Invalid input: expected string, received number',
    });
    expect(await label({ tags: ['a'] })).toEqual({ ok: true, data: 1 });
  });

  it('checks the agent seat on the parsed episode id (the admin passes too)', async () => {
    const reveal = (id: string) =>
      serverAction({ agentOf: 0 }, [z.string().describe('episode id')], [id], async (checked) => `seat of ${checked}`);
    requestHeaders = new Headers({ 'x-episode-token': 't1' });
    expect(await reveal('e1')).toEqual({ ok: true, data: 'seat of e1' });
    expect(await reveal('e2')).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    expect(await reveal(42 as never)).toMatchObject({ ok: false, code: 'BAD_INPUT', error: /^episode id: / });
    requestHeaders = admin();
    expect(await reveal('e2')).toEqual({ ok: true, data: 'seat of e2' });
  });

  it('hands back an app error as it is and any other only by its log id', async () => {
    requestHeaders = new Headers();
    const failing = (what: string) =>
      serverAction('public', [], [], async () => {
        if (what === 'app') throw new AppError('CONFLICT', 'moved on');
        if (what === 'connection') throw new ConnectionError('base URL "x" is not a URL');
        throw new Error('secret internal detail');
      });
    expect(await failing('app')).toEqual({ ok: false, code: 'CONFLICT', error: 'moved on' });
    expect(await failing('connection')).toEqual({ ok: false, code: 'BAD_INPUT', error: 'base URL "x" is not a URL' });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const internal = await failing('other');
    expect(internal).toEqual({
      ok: false,
      code: 'INTERNAL',
      error: expect.stringMatching(/^internal error \(id \w+\)/),
    });
    expect(JSON.stringify(internal)).not.toContain('secret');
    log.mockRestore();
  });
});
