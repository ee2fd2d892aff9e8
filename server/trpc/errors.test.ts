// The one error mapping every procedure gets (server/trpc/init.ts): an app error keeps its own
// message and becomes the matching tRPC code; anything else reaches the caller only by its log
// id; a form's input names the input, the path inside it and the first problem.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { appDatabaseForFile } from '@/server/episodes/test/app-db';

appDatabaseForFile();
const { createContext, described, publicProcedure, router, createCallerFactory } = await import('./init');
const { AppError } = await import('@/server/lib/errors');
const { ConnectionError } = await import('@/server/models/connection');

const failing = router({
  fail: publicProcedure.input(z.enum(['app', 'connection', 'other'])).query(({ input }) => {
    if (input === 'app') throw new AppError('CONFLICT', 'moved on');
    if (input === 'connection') throw new ConnectionError('base URL "x" is not a URL');
    throw new Error('secret internal detail');
  }),
  label: publicProcedure
    .input(described(z.object({ tags: z.array(z.string()) }), 'labels'))
    .query(({ input }) => input.tags.length),
});
const caller = createCallerFactory(failing)(createContext());

describe('tRPC errors', () => {
  it('hands back an app error as it is and any other only by its log id', async () => {
    await expect(caller.fail('app')).rejects.toMatchObject({ code: 'CONFLICT', message: 'moved on' });
    await expect(caller.fail('connection')).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'base URL "x" is not a URL',
    });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const internal = await caller.fail('other').catch((e: Error & { code: string }) => e);
    expect(internal).toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      message: expect.stringMatching(/^internal error \(id \w+\)/),
    });
    expect((internal as Error).message).not.toContain('secret');
    log.mockRestore();
  });

  it('words a form input as the episode service does: the input, the path inside it, the first problem', async () => {
    await expect(caller.label({ tags: ['a', 2, 3] } as never)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'labels: tags.1: Invalid input: expected string, received number',
    });
    await expect(caller.label({ tags: ['a'] })).resolves.toBe(1);
  });
});
