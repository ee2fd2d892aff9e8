import { describe, expect, it } from 'vitest';
import { AppError, isAppError, toPublicError } from './errors';
import { EpisodeServiceError } from '@/server/episodes/types';

describe('error taxonomy', () => {
  it('recognises app errors by brand and code, also as plain copies from another bundle chunk', () => {
    expect(isAppError(new AppError('NOT_FOUND', 'no episode'))).toBe(true);
    expect(isAppError(new EpisodeServiceError('EPISODE_DONE', 'finished'))).toBe(true);
    // what a class from another chunk looks like to this one: same fields, different prototype
    const foreign = Object.assign(new Error('no episode with id "x"'), { brand: 'ecomrlve.error', code: 'NOT_FOUND' });
    expect(isAppError(foreign)).toBe(true);
    expect(isAppError(Object.assign(new Error('x'), { code: 'NOT_FOUND' }))).toBe(false); // Prisma-style codes are not ours
    expect(isAppError(Object.assign(new Error('x'), { brand: 'ecomrlve.error', code: 'WHATEVER' }))).toBe(false);
    expect(isAppError(null)).toBe(false);
  });

  it('passes app errors through and replaces anything else by an id that the log also has', () => {
    expect(toPublicError(new AppError('BAD_INPUT', 'd: too big'))).toEqual({
      code: 'BAD_INPUT',
      message: 'd: too big',
    });
    const logged: string[] = [];
    const pub = toPublicError(new TypeError("Cannot read properties of null (reading 'player')"), (line) =>
      logged.push(line),
    );
    expect(pub.code).toBe('INTERNAL');
    expect(pub.message).not.toMatch(/player|null/);
    const id = /id ([0-9a-f]{8})/.exec(pub.message)?.[1];
    expect(id).toBeTruthy();
    expect(logged).toEqual([`[ecomrlve] internal error ${id}`]);
  });
});
