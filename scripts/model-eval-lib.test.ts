import { describe, expect, it } from 'vitest';
import { cellStats } from '@/server/models/run-play';
import { formatTable, parseModelEvalArgs, progressBar } from './model-eval-lib';

describe('model-eval arguments', () => {
  it('reads the documented command', () => {
    const o = parseModelEvalArgs([
      '--model',
      'http://127.0.0.1:8011/v1',
      '--envs',
      'all',
      '--d',
      '0..12',
      '--seeds',
      '5',
      '--concurrency',
      '4',
    ]);
    expect(o).toMatchObject({ model: 'http://127.0.0.1:8011/v1', seeds: 5, concurrency: 4, seedStart: 1 });
    expect(o.envs).toHaveLength(8);
    expect(o.ds).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('reads lists, single values and modes', () => {
    const o = parseModelEvalArgs([
      '--model',
      'heuristic',
      '--envs',
      'pd,Cart',
      '--d',
      '0,4,4,8',
      '--mode',
      'json',
      '--stream',
    ]);
    expect(o).toMatchObject({ envs: ['PD', 'CART'], ds: [0, 4, 8], mode: 'json', stream: true });
    expect(parseModelEvalArgs(['--model', 'x', '--d', '3']).ds).toEqual([3]);
  });

  it('one precise error per mistake', () => {
    expect(() => parseModelEvalArgs([])).toThrow('--model is required');
    expect(() => parseModelEvalArgs(['--model', 'x', '--envs', 'PD,SHOP'])).toThrow(
      '--envs: unknown environment(s) SHOP',
    );
    expect(() => parseModelEvalArgs(['--model', 'x', '--d', '5..2'])).toThrow('the range is empty (5 > 2)');
    expect(() => parseModelEvalArgs(['--model', 'x', '--d', 'easy'])).toThrow(
      '--d must look like 0..12, 0,4,8 or 3, got "easy"',
    );
    expect(() => parseModelEvalArgs(['--model', 'x', '--concurrency', '0'])).toThrow(
      '--concurrency must be a whole number ≥ 1, got "0"',
    );
    expect(() => parseModelEvalArgs(['--model', 'x', '--mode', 'xml'])).toThrow('--mode must be tools or json');
    expect(() => parseModelEvalArgs(['--model', '--seeds'])).toThrow('--model needs a value');
    expect(() => parseModelEvalArgs(['--model', 'x', '--fast'])).toThrow('unknown option "--fast"');
  });
});

describe('model-eval table', () => {
  it('formats hand-computed cells: scored episodes only, infrastructure failures apart', () => {
    const outcome = (envId: string, d: number, infra: boolean, reward: number | null, pass = false) => ({
      envId,
      d,
      infra,
      reward,
      pass,
    });
    const stats = cellStats([
      outcome('PD', 0, false, 0.5, true),
      outcome('PD', 0, false, -0.5),
      outcome('PD', 0, true, null),
      outcome('CART', 3, true, null),
    ]);
    expect(stats).toEqual([
      { envId: 'CART', d: 3, episodes: 1, scored: 0, meanReward: null, passRate: null, infraFailures: 1 },
      { envId: 'PD', d: 0, episodes: 3, scored: 2, meanReward: 0, passRate: 0.5, infraFailures: 1 },
    ]);
    expect(formatTable(stats).split('\n')).toEqual([
      'mean reward and pass rate (scored episodes only)',
      'env             d=0        d=3',
      'CART              —          —',
      'PD         0.00 50%          —',
      '',
      'infrastructure failures (not scored): 2',
      'env             d=0        d=3',
      'CART              0          1',
      'PD                1          0',
    ]);
    expect(progressBar(5, 20, 1, 2, 10)).toBe('[###.......] 5/20 25%  2.5 ep/s  infra 1');
  });
});
