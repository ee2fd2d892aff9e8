import { describe, expect, it } from 'vitest';
import { parseEvalArgs } from './args';

const envs = ['PD', 'CART'] as const;

describe('parseEvalArgs', () => {
  it('reads every flag, with = or a separate value', () => {
    const o = parseEvalArgs(
      [
        '--agent',
        'heuristic',
        '--envs=CART',
        '--d',
        '0,6',
        '--seeds',
        '5',
        '--seed-start=100',
        '--catalog-size',
        '5000',
        '--out',
        'x.json',
      ],
      envs,
    );
    expect(o).toMatchObject({
      agent: 'heuristic',
      envs: ['CART'],
      ds: [0, 6],
      seeds: 5,
      seedStart: 100,
      catalogSize: 5000,
      out: 'x.json',
      help: false,
    });
  });

  it('has defaults: all envs, d 0..12, 20 seeds from 0, catalog 20000', () => {
    const o = parseEvalArgs(['--agent', 'oracle'], envs);
    expect(o).toMatchObject({
      envs: ['PD', 'CART'],
      ds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      seeds: 20,
      seedStart: 0,
      catalogSize: 20000,
      out: null,
    });
  });

  it('says precisely what is wrong', () => {
    expect(() => parseEvalArgs([], envs)).toThrow('--agent is required: one of oracle, heuristic, random, empty');
    expect(() => parseEvalArgs(['--agent', 'smart'], envs)).toThrow('--agent "smart" is not a built-in agent');
    expect(() => parseEvalArgs(['--agent', 'random', '--seed', '3'], envs)).toThrow(
      'unknown flag --seed; known flags:',
    );
    expect(() => parseEvalArgs(['--agent', 'random', '--seeds'], envs)).toThrow('--seeds needs a value');
    expect(() => parseEvalArgs(['--agent', 'random', '--seeds', '--d', '1'], envs)).toThrow('--seeds needs a value');
    expect(() => parseEvalArgs(['--agent', 'random', 'heuristic'], envs)).toThrow('unexpected argument "heuristic"');
    expect(() => parseEvalArgs(['--agent', 'random', '--agent', 'oracle'], envs)).toThrow('--agent was given twice');
    expect(() => parseEvalArgs(['--agent', 'random', '--catalog-size', '10'], envs)).toThrow(
      '--catalog-size must be an integer ≥ 100, got 10',
    );
  });

  it('accepts --help without an agent', () => {
    expect(parseEvalArgs(['--help'], envs).help).toBe(true);
  });
});
