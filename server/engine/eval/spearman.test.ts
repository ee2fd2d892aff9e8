import { describe, expect, it } from 'vitest';
import { averageRanks, spearman } from './spearman';

describe('averageRanks', () => {
  it('ranks distinct values 1..n', () => {
    expect(averageRanks([30, 10, 20])).toEqual([3, 1, 2]);
  });
  it('gives tied values the mean of their ranks', () => {
    // sorted: 1 (rank 1), 2,2 (ranks 2,3 → 2.5), 5 (rank 4)
    expect(averageRanks([2, 5, 1, 2])).toEqual([2.5, 4, 1, 2.5]);
    expect(averageRanks([7, 7, 7])).toEqual([2, 2, 2]);
  });
});

describe('spearman', () => {
  it('is +1 / −1 for monotone series', () => {
    expect(spearman([0, 1, 2, 3], [1, 4, 9, 100])).toBeCloseTo(1, 12);
    expect(spearman([0, 1, 2, 3], [0.9, 0.5, 0.1, -0.7])).toBeCloseTo(-1, 12);
  });

  it('matches 1 − 6Σd²/(n(n²−1)) without ties', () => {
    // x ranks 1..5, y = [2,1,4,3,5] → d = [−1,1,−1,1,0], Σd² = 4 → ρ = 1 − 24/120 = 0.8
    expect(spearman([1, 2, 3, 4, 5], [20, 10, 40, 30, 50])).toBeCloseTo(0.8, 12);
    // y ranks [5,3,4,1,2] → d = [−4,−1,−1,3,3], Σd² = 36 → ρ = 1 − 216/120 = −0.8
    expect(spearman([1, 2, 3, 4, 5], [5, 3, 4, 1, 2])).toBeCloseTo(-0.8, 12);
  });

  it('handles ties by average ranks (Pearson of the ranks)', () => {
    // x ranks [1,2,3,4]; y = [1,2,2,3] → ranks [1,2.5,2.5,4]
    // x̄ = ȳ = 2.5; Σ(x−x̄)(y−ȳ) = 2.25+0+0+2.25 = 4.5; Σ(x−x̄)² = 5; Σ(y−ȳ)² = 4.5
    // ρ = 4.5 / √(5·4.5) = √0.9
    expect(spearman([0, 1, 2, 3], [1, 2, 2, 3])).toBeCloseTo(Math.sqrt(0.9), 12);
    // y = [3,1,1,0] → ranks [4,2.5,2.5,1]: Σ = (−1.5)(1.5)+0+0+(1.5)(−1.5) = −4.5 → −√0.9
    expect(spearman([0, 1, 2, 3], [3, 1, 1, 0])).toBeCloseTo(-Math.sqrt(0.9), 12);
  });

  it('is NaN when a series is constant or too short', () => {
    expect(spearman([0, 1, 2], [5, 5, 5])).toBeNaN();
    expect(spearman([1], [2])).toBeNaN();
  });

  it('rejects series of different lengths', () => {
    expect(() => spearman([1, 2], [1])).toThrow(/2 xs but 1 ys/);
  });
});
