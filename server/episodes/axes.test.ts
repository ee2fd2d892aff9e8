// The axes table shows the formulas of the rules an episode was played under: a v1/v2 episode's
// top_k (rev 1–2 formula) is not shown as differing from the v3 formula.
import { describe, expect, it } from 'vitest';
import { axesFor } from '@/server/engine/difficulty';
import { axisRows } from './axes';

const topK = (rows: ReturnType<typeof axisRows>) => rows.find((r) => r.name === 'top_k')!;

describe('axisRows', () => {
  it('shows the rev 1–2 top_k formula and value for an episode played under v2', () => {
    const row = topK(axisRows(8, axesFor(8, {}, 2)));
    expect(row).toMatchObject({ formula: 'max(20, 200 − 10·d)', formulaValue: 120, value: 120, overridden: false });
  });
  it('shows the rev 3 formula for an episode played under v3', () => {
    const row = topK(axisRows(8, axesFor(8)));
    expect(row).toMatchObject({ formula: 'max(5, 20 − ⌊5d/4⌋)', formulaValue: 10, value: 10 });
  });
  it('marks an override against the current formula', () => {
    const row = topK(axisRows(8, axesFor(8, { top_k: 7 }), { top_k: 7 }));
    expect(row).toMatchObject({ formulaValue: 10, value: 7, overridden: true });
  });
  it('gives the current formulas when no effective values are stored', () => {
    expect(topK(axisRows(0)).formulaValue).toBe(20);
  });
});
