import { describe, expect, it } from 'vitest';
import { summarize, type EpisodeRow } from './aggregate';
import { formatSummary, progressLine } from './table';

const row = (env: 'PD' | 'CART', d: number, seed: number, reward: number, isCorrect = reward > 0.5): EpisodeRow => ({
  env,
  d,
  seed,
  reward,
  isCorrect,
  termination: 'answered',
  turns: 2,
});

const rows: EpisodeRow[] = [
  row('PD', 0, 0, 0.9),
  row('PD', 0, 1, 0.7),
  row('PD', 1, 0, 0.5),
  row('PD', 1, 1, 0.1),
  row('PD', 2, 0, -0.2),
  row('PD', 2, 1, -0.4),
  row('CART', 0, 0, 0.2),
  row('CART', 1, 0, 0.2),
  { ...row('CART', 2, 0, -1), termination: 'user_quit' },
];

describe('summarize', () => {
  const s = summarize(rows);

  it('averages reward and pass rate per env × d', () => {
    expect(s.envs).toEqual(['PD', 'CART']);
    expect(s.ds).toEqual([0, 1, 2]);
    const pd1 = s.cells.find((c) => c.env === 'PD' && c.d === 1)!;
    expect(pd1.n).toBe(2);
    expect(pd1.meanReward).toBeCloseTo(0.3, 12);
    expect(pd1.passRate).toBe(0);
    expect(s.cells.find((c) => c.env === 'PD' && c.d === 0)!.passRate).toBe(1);
  });

  it('gives Spearman ρ per env (ties averaged) and counts terminations', () => {
    const pd = s.perEnv.find((e) => e.env === 'PD')!;
    expect(pd.rho).toBeCloseTo(-1, 12);
    // CART means 0.2, 0.2, −1 → ranks 2.5, 2.5, 1 against d ranks 1, 2, 3: ρ = −√3/2
    const cart = s.perEnv.find((e) => e.env === 'CART')!;
    expect(cart.rho).toBeCloseTo(-Math.sqrt(3) / 2, 12);
    expect(cart.terminations).toEqual({ answered: 2, user_quit: 1 });
  });

  it('reports ρ as null when it is undefined (one d)', () => {
    expect(summarize([row('PD', 4, 0, 0.1), row('PD', 4, 1, 0.2)]).perEnv[0].rho).toBeNull();
  });

  it('sums up overall', () => {
    expect(s.overall.n).toBe(9);
    expect(s.overall.meanReward).toBeCloseTo(1.0 / 9, 12);
  });
});

describe('ρ per block of 40 seeds (SPEC §11 rev 3)', () => {
  // 80 seeds at d 0..2: seeds 0–39 fall with d, seeds 40–79 rise with d
  const blockRows = [0, 1, 2].flatMap((d) =>
    Array.from({ length: 80 }, (_, seed) => row('PD', d, seed, seed < 40 ? 0.5 - 0.1 * d : 0.1 * d)),
  );
  const env = summarize(blockRows).perEnv[0];

  it('computes ρ on each block of consecutive seeds', () => {
    expect(env.blockRhos).toEqual([
      { firstSeed: 0, rho: -1 },
      { firstSeed: 40, rho: 1 },
    ]);
  });

  it('has no blocks below two blocks of seeds, and the report names the worst block', () => {
    expect(summarize(rows).perEnv[0].blockRhos).toEqual([]);
    expect(formatSummary(summarize(blockRows), { agent: 't', seconds: 1 })).toContain(
      'worst ρ of 2 40-seed blocks=1.000 (seeds 40..79)',
    );
  });
});

describe('formatSummary', () => {
  it('prints the reward and pass tables, ρ per env and the speed', () => {
    const text = formatSummary(summarize(rows), { agent: 'test', seconds: 3 });
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^mean reward\s+d=0\s+d=1\s+d=2$/);
    expect(lines[1]).toMatch(/^PD\s+0\.800\s+0\.300\s+-0\.300$/);
    expect(text).toMatch(/pass rate\s+d=0/);
    expect(text).toMatch(/PD\s+n=\s+6\s+mean=\s*0\.267\s+pass=0\.33\s+ρ\(d, reward\)=-1\.000/);
    expect(text).toContain('test: 9 episodes, mean reward 0.111, pass rate 0.22, 3.0 s (3.0 episodes/s)');
  });
});

describe('progressLine', () => {
  it('shows a bar, the count, the share, the rate and the time left', () => {
    expect(progressLine(25, 100, 5, 10)).toBe('[###.......] 25/100 25% 5.0 ep/s eta 15 s');
    expect(progressLine(0, 0, 0, 4)).toBe('[####] 0/0 100% 0.0 ep/s eta 0 s');
  });
});
