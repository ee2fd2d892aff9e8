// The bench scripts' shared option parser (scripts/bench-options.ts): defaults, both spellings,
// and one precise message for a misspelt option or a value its option refuses.
import { describe, expect, it } from 'vitest';
import { benchHelp, count, listOf, oneOf, parseBenchOptions, positive, text } from './bench-options';

const spec = {
  episodes: positive(256, 'episodes', true),
  seconds: positive(10, 'seconds'),
  warmup: count(1500, 'warm-up steps'),
  layer: oneOf(['seq', 'json'] as const, 'json', 'layer'),
  persist: listOf(['off', 'on'] as const, 'off,on', 'modes'),
  url: text('', 'server'),
};
const read = (...args: string[]) => parseBenchOptions(args, spec);

describe('bench options', () => {
  it('gives the defaults, read like typed values, when nothing is given', () => {
    const r = read();
    expect(r.values).toEqual({
      episodes: 256,
      seconds: 10,
      warmup: 1500,
      layer: 'json',
      persist: ['off', 'on'],
      url: '',
    });
    expect([r.given('episodes'), r.help]).toEqual([false, false]);
  });

  it('reads --name value and --name=value alike, and says what was given', () => {
    const r = read(
      '--episodes',
      '12',
      '--seconds=2.5',
      '--warmup',
      '0',
      '--layer=seq',
      '--persist',
      'on',
      '--url',
      'http://h:1',
    );
    expect(r.values).toEqual({
      episodes: 12,
      seconds: 2.5,
      warmup: 0,
      layer: 'seq',
      persist: ['on'],
      url: 'http://h:1',
    });
    expect([r.given('episodes'), r.given('url'), read('--help').help]).toEqual([true, true, true]);
  });

  it('refuses a misspelt option, a missing value and a value its option refuses, naming it', () => {
    expect(() => read('--episode', '3')).toThrow(/Unknown option '--episode'/);
    expect(() => read('--episodes')).toThrow(/--episodes/);
    expect(() => read('--episodes', '2.5')).toThrow('--episodes needs a positive whole number, got "2.5"');
    expect(() => read('--episodes', '0')).toThrow('--episodes needs a positive whole number, got "0"');
    expect(() => read('--seconds', 'ten')).toThrow('--seconds needs a positive number, got "ten"');
    expect(() => read('--warmup=-1')).toThrow('--warmup needs a non-negative whole number, got "-1"');
    expect(() => read('--layer', 'held')).toThrow('--layer: unknown "held"; choose from seq, json');
    expect(() => read('--persist', 'on,of')).toThrow('--persist: unknown "of"; choose from off, on');
  });

  it('lists every option with its default in --help', () => {
    expect(benchHelp('npm run bench:x [-- options]', spec).split('\n')).toEqual([
      'npm run bench:x [-- options]',
      '  --episodes  episodes [256]',
      '  --seconds   seconds [10]',
      '  --warmup    warm-up steps [1500]',
      '  --layer     layer (seq | json) [json]',
      '  --persist   modes (from off, on) [off,on]',
      '  --url       server',
    ]);
  });
});
