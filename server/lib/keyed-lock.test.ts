import { describe, expect, it } from 'vitest';
import { createKeyedLock } from './keyed-lock';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createKeyedLock', () => {
  it('runs calls for one key one at a time, in order, and other keys in parallel', async () => {
    const withLock = createKeyedLock();
    const log: string[] = [];
    const job = (name: string, ms: number) => async () => {
      log.push(`${name}:start`);
      await tick(ms);
      log.push(`${name}:end`);
      return name;
    };
    const results = await Promise.all([
      withLock('a', job('a1', 20)),
      withLock('a', job('a2', 1)),
      withLock('b', job('b1', 5)),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a1:end')).toBeLessThan(log.indexOf('a2:start'));
    expect(log.indexOf('b1:start')).toBeLessThan(log.indexOf('a1:end'));
  });

  it('lets the next call run after a failure', async () => {
    const withLock = createKeyedLock();
    const failed = withLock('k', async () => {
      throw new Error('boom');
    });
    await expect(failed).rejects.toThrow('boom');
    await expect(withLock('k', async () => 'ok')).resolves.toBe('ok');
  });
});
