import { describe, expect, it } from 'vitest';
import { expandGrid, parseCount, parseDifficulties, parseEnvs, UsageError } from './grid';

describe('parseDifficulties', () => {
  it('reads inclusive ranges, lists and mixes, sorted and deduplicated', () => {
    expect(parseDifficulties('0..3')).toEqual([0, 1, 2, 3]);
    expect(parseDifficulties('6,0,3')).toEqual([0, 3, 6]);
    expect(parseDifficulties('0..2,1,10..11')).toEqual([0, 1, 2, 10, 11]);
    expect(parseDifficulties(' 5 ')).toEqual([5]);
  });

  it('rejects what is not a difficulty, precisely', () => {
    expect(() => parseDifficulties('3..1')).toThrow('--d range "3..1" is empty: 3 > 1');
    expect(() => parseDifficulties('-1')).toThrow('--d: "-1" is not a difficulty');
    expect(() => parseDifficulties('0..x')).toThrow(UsageError);
    expect(() => parseDifficulties('')).toThrow('--d needs a value');
  });
});

describe('parseEnvs', () => {
  const available = ['PD', 'CART', 'JOURNEY'] as const;
  it('expands all and reads lists case-insensitively, without repeats', () => {
    expect(parseEnvs('all', available)).toEqual(['PD', 'CART', 'JOURNEY']);
    expect(parseEnvs('cart, PD,cart', available)).toEqual(['CART', 'PD']);
  });
  it('names the unknown env and the available ones', () => {
    expect(() => parseEnvs('CART,XYZ', available)).toThrow(
      '--envs: unknown or unavailable environment "XYZ"; available: PD, CART, JOURNEY',
    );
  });
});

describe('parseCount', () => {
  it('accepts integers at or above the minimum', () => {
    expect(parseCount('--seeds', '50', 1)).toBe(50);
  });
  it('rejects the rest', () => {
    expect(() => parseCount('--seeds', '0', 1)).toThrow('--seeds must be an integer ≥ 1, got 0');
    expect(() => parseCount('--seeds', '2.5', 1)).toThrow('--seeds must be an integer ≥ 1, got "2.5"');
  });
});

describe('expandGrid', () => {
  it('lists every (env, d, seed), env-major', () => {
    expect(expandGrid(['PD', 'CART'], [0, 3], 10, 2)).toEqual([
      { envId: 'PD', d: 0, seed: 10 },
      { envId: 'PD', d: 0, seed: 11 },
      { envId: 'PD', d: 3, seed: 10 },
      { envId: 'PD', d: 3, seed: 11 },
      { envId: 'CART', d: 0, seed: 10 },
      { envId: 'CART', d: 0, seed: 11 },
      { envId: 'CART', d: 3, seed: 10 },
      { envId: 'CART', d: 3, seed: 11 },
    ]);
  });
});
