// Plain-text rendering of an eval summary: env × d tables, per-env ρ.

import { BLOCK_SEEDS, type EvalSummary } from './aggregate';

const fmt = (x: number, digits: number) => (Number.isNaN(x) ? '–' : x.toFixed(digits));

function grid(summary: EvalSummary, title: string, value: (env: string, d: number) => string): string {
  const header = [title, ...summary.ds.map((d) => `d=${d}`)];
  const rows = summary.envs.map((env) => [env, ...summary.ds.map((d) => value(env, d))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

export function formatSummary(summary: EvalSummary, extra: { agent: string; seconds: number }): string {
  const cell = (env: string, d: number) => summary.cells.find((c) => c.env === env && c.d === d);
  const reward = grid(summary, 'mean reward', (env, d) => {
    const c = cell(env, d);
    return c ? fmt(c.meanReward, 3) : '';
  });
  const pass = grid(summary, 'pass rate', (env, d) => {
    const c = cell(env, d);
    return c ? fmt(c.passRate, 2) : '';
  });
  // the worst 40-seed block's ρ and where it starts (SPEC §11 rev 3), when the run has blocks
  const blocks = (e: EvalSummary['perEnv'][number]) => {
    const known = e.blockRhos.filter((b) => b.rho !== null) as Array<{ firstSeed: number; rho: number }>;
    if (known.length === 0) return '';
    const worst = known.reduce((a, b) => (b.rho > a.rho ? b : a));
    return `  worst ρ of ${e.blockRhos.length} ${BLOCK_SEEDS}-seed blocks=${worst.rho.toFixed(3)} (seeds ${worst.firstSeed}..${worst.firstSeed + BLOCK_SEEDS - 1})`;
  };
  const envWidth = Math.max(3, ...summary.envs.map((e) => e.length));
  const perEnv = summary.perEnv.map(
    (e) =>
      `${e.env.padEnd(envWidth)}  n=${String(e.n).padStart(5)}  mean=${fmt(e.meanReward, 3).padStart(6)}  pass=${fmt(e.passRate, 2)}  ρ(d, reward)=${e.rho === null ? '–' : e.rho.toFixed(3)}${blocks(e)}`,
  );
  const o = summary.overall;
  const rate = extra.seconds > 0 ? o.n / extra.seconds : Number.NaN;
  return [
    reward,
    '',
    pass,
    '',
    ...perEnv,
    '',
    `${extra.agent}: ${o.n} episodes, mean reward ${fmt(o.meanReward, 3)}, pass rate ${fmt(o.passRate, 2)}, ${extra.seconds.toFixed(1)} s (${fmt(rate, 1)} episodes/s)`,
  ].join('\n');
}

/** One progress line: a bar when the output is a terminal, plain text otherwise. */
export function progressLine(done: number, total: number, seconds: number, width = 30): string {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * width);
  const rate = seconds > 0 ? done / seconds : 0;
  const eta = rate > 0 ? (total - done) / rate : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${(share * 100).toFixed(0)}% ${rate.toFixed(1)} ep/s eta ${eta.toFixed(0)} s`;
}
