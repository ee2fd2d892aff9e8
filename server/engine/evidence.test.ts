// How evidence prints numbers and orders its lines (evidence.ts), by hand-computed cases.
import { describe, expect, it } from 'vitest';
import { decisiveFirst, exact, factor, nested, num, verdict } from './evidence';
import type { EvidenceItem } from './types';

describe('evidence numbers', () => {
  it('uses a real minus sign, never "-", and no sign on a value that rounds to zero', () => {
    expect(num(-1)).toBe('−1');
    expect(num(-0.8, 3)).toBe('−0.800');
    expect(num(-0.33333)).toBe('−0.333');
    expect(num(0.952)).toBe('0.952');
    expect(num(1, 3)).toBe('1.000');
    expect(num(-0.0004)).toBe('0');
    expect(num(-0.0004, 3)).toBe('0.000');
    expect(num(-1e-12, 4)).toBe('0.0000');
    expect(exact(-5)).toBe('−5');
    expect(exact(3.55)).toBe('3.55');
  });

  it('puts a negative factor of a product in parentheses: "0.45·(−1)", not "0.45·-1"', () => {
    expect(`0.45·${factor(-1)}`).toBe('0.45·(−1)');
    expect(`0.10·${factor(-0.8191, 3)}`).toBe('0.10·(−0.819)');
    expect(`0.45·${factor(1)}`).toBe('0.45·1');
    expect(factor(-0.0001)).toBe('0');
  });

  it('states a verdict with its reasons', () => {
    expect(verdict(true)).toBe(' → pass');
    expect(verdict(false)).toBe(' → fail');
    expect(verdict(false, ['r_sel = −1', 'r_ret = −1'])).toBe(' → fail: r_sel = −1; r_ret = −1');
  });
});

const line = (text: string, ok: boolean, extra: Partial<EvidenceItem> = {}): EvidenceItem => ({
  text,
  ok,
  turns: [],
  ...extra,
});

describe('decisiveFirst', () => {
  it('orders outer before nested, then verdict, component, item; the engine order within each', () => {
    const items = [
      line('#1 A: out of stock', false),
      ...nested(
        [
          line('#2 B: s = 0', false),
          line('r_rank = −1', false, { role: 'part' }),
          line('r_task … → fail', false, { role: 'verdict' }),
        ],
        'replacement: ',
      ),
      line('the replacement does not pass on its own → r_rep = 0.2', false, { role: 'part' }),
      line('r_task = … = 0.952 → fail: the replacement does not pass on its own', false, { role: 'verdict' }),
      line('→ r_sel = −1', false, { role: 'part' }),
    ];
    expect(decisiveFirst(items).map((e) => e.text)).toEqual([
      'r_task = … = 0.952 → fail: the replacement does not pass on its own',
      'the replacement does not pass on its own → r_rep = 0.2',
      '→ r_sel = −1',
      '#1 A: out of stock',
      'replacement: r_task … → fail',
      'replacement: r_rank = −1',
      'replacement: #2 B: s = 0',
    ]);
  });

  it('nests twice for a RETURN inside a JOURNEY, and leaves the items it was given unchanged', () => {
    const inner = nested([line('r_task … → fail', false, { role: 'verdict' })], 'replacement: ');
    const outer = nested(inner, '  sub-task 2 (RETURN): ');
    expect(outer[0]).toEqual({
      text: '  sub-task 2 (RETURN): replacement: r_task … → fail',
      ok: false,
      turns: [],
      role: 'verdict',
      depth: 2,
    });
    expect(inner[0].depth).toBe(1);
  });

  it('ranks evidence stored without roles by its wording: derivations (→, "(fail)") first, indented lines last', () => {
    const legacy = [
      line('  sub-task 1 (PD): #1 syn_1 "Lamp": s = 0.5', false),
      line('syn_7 was recommended but never retrieved', false),
      line('sub-task 1 (PD): r_task 0.400 (fail)', false),
      line('  sub-task 1 (PD): nDCG@3 = 0 → r_rank = -1', false),
    ];
    expect(decisiveFirst(legacy).map((e) => e.text)).toEqual([
      legacy[2].text,
      legacy[1].text,
      legacy[3].text,
      legacy[0].text,
    ]);
  });
});
