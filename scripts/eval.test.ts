// The eval CLI end to end: bad flags exit 2 with one precise line; a small run
// writes the JSON report.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const run = (...args: string[]) =>
  spawnSync('npx', ['tsx', 'scripts/eval.ts', ...args], { encoding: 'utf8', cwd: join(__dirname, '..') });

describe('npm run eval', () => {
  it('exits 2 with a precise message on a bad flag', () => {
    const r = run('--agent', 'heuristic', '--d', '5..2');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('eval: --d range "5..2" is empty: 5 > 2');
    expect(run('--agent', 'genius').stderr).toContain('--agent "genius" is not a built-in agent');
  });

  it('plays a small grid and writes rows and the summary as JSON', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'eval-')), 'report.json');
    const r = run(
      '--agent',
      'oracle',
      '--envs',
      'CART,POLICY',
      '--d',
      '0,6',
      '--seeds',
      '2',
      '--catalog-size',
      '3000',
      '--out',
      out,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/mean reward\s+d=0\s+d=6/);
    expect(r.stdout).toMatch(/CART\s+n=\s+4/);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.rows).toHaveLength(8);
    expect(report.rows[0]).toEqual(
      expect.objectContaining({ env: 'CART', d: 0, seed: 0, isCorrect: true, termination: 'answered' }),
    );
    expect(report.summary.perEnv.map((e: { env: string }) => e.env)).toEqual(['CART', 'POLICY']);
    expect(report.catalog).toBe('synthetic-s1-n3000');
  });
});
