import { describe, expect, it } from 'vitest';
import { fmtNumber, fmtReward } from './format';

describe('number formatting', () => {
  it('prints rewards signed, with a real minus and no sign on a value that rounds to zero', () => {
    expect(fmtReward(0.85)).toBe('+0.850');
    expect(fmtReward(-1)).toBe('\u22121.000');
    expect(fmtReward(-0.3333)).toBe('\u22120.333');
    expect(fmtReward(-0.0001)).toBe('+0.000');
    expect(fmtReward(-0)).toBe('+0.000');
    expect(fmtReward(null)).toBe('—');
  });

  it('prints plain numbers with a real minus, trailing zeros dropped', () => {
    expect(fmtNumber(-1)).toBe('\u22121');
    expect(fmtNumber(-0.25)).toBe('\u22120.25');
    expect(fmtNumber(0.5)).toBe('0.5');
    expect(fmtNumber(-0.0004)).toBe('0');
    expect(fmtNumber(12, true)).toBe('12');
  });
});
