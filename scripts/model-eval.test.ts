// The model-eval CLI end to end against the scripted fake endpoint, with a marker API key:
// the key reaches the endpoint as a header and nowhere else (stdout, stderr, the JSON file).

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeEndpoint, type FakeEndpoint } from '../server/models/test/fake-endpoint';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'model-eval-'));
const fakes: FakeEndpoint[] = [];
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  rmSync(dir, { recursive: true, force: true });
});

const MARKER = 'sk-MARKER-cli-5512';

async function modelEval(fake: FakeEndpoint, out: string, extra: string[] = []) {
  const args = [
    '--import',
    'tsx',
    'scripts/model-eval.ts',
    '--model',
    fake.baseUrl,
    '--model-name',
    'fake',
    '--api-key-env',
    'MARKER_API_KEY',
    '--envs',
    'PD',
    '--d',
    '0',
    '--seeds',
    '2',
    '--catalog-size',
    '2000',
    '--out',
    out,
    ...extra,
  ];
  const { stdout, stderr } = await run('node', args, {
    cwd: root,
    env: { ...process.env, MARKER_API_KEY: MARKER },
    timeout: 120_000,
  });
  return { stdout, stderr, file: readFileSync(out, 'utf8') };
}

describe('npm run model-eval', () => {
  it('plays the grid, prints the table, and the key appears only in the Authorization header', async () => {
    const fake = await startFakeEndpoint([
      { kind: 'status', status: 500, body: (req) => `rejected ${req.headers.authorization}` },
      {
        kind: 'reply',
        content: 'Here.',
        toolCalls: [{ name: 'submit_answer', arguments: '{"recommended_product_ids":[]}' }],
      },
    ]);
    fakes.push(fake);
    const out = await modelEval(fake, path.join(dir, 'ok.json'), ['--retries', '1', '--records']);
    expect(out.stdout).toContain('fake: 2 of 2 episodes');
    expect(out.stdout).toMatch(/PD\s+-?\d\.\d\d \d+%/);
    expect(out.stdout).toContain('infrastructure failures: none');
    expect(out.stderr).toMatch(/\[#+\] 2\/2 100%/);
    expect(fake.requests.every((r) => r.headers.authorization === `Bearer ${MARKER}`)).toBe(true);
    // the echoed key was in the first attempt's error, kept in --records, and redacted there
    expect(out.file).toContain('rejected Bearer [redacted]');
    for (const text of [out.stdout, out.stderr, out.file]) expect(text).not.toContain(MARKER);
  }, 150_000);

  it('reports infrastructure failures apart from rewards, with their messages redacted', async () => {
    const fake = await startFakeEndpoint([
      { kind: 'status', status: 503, body: (req) => `down ${req.headers.authorization}` },
    ]);
    fakes.push(fake);
    const out = await modelEval(fake, path.join(dir, 'down.json'), ['--retries', '0']);
    expect(out.stdout).toContain('infrastructure failures (not scored): 2');
    expect(out.stdout).toMatch(/PD d=0 seed=1 turn 1: http: HTTP 503 .*down Bearer \[redacted\]/);
    const json = JSON.parse(out.file);
    expect(json.rows.map((r: { status: string; reward: number | null }) => [r.status, r.reward])).toEqual([
      ['infra_error', null],
      ['infra_error', null],
    ]);
    for (const text of [out.stdout, out.stderr, out.file]) expect(text).not.toContain(MARKER);
  }, 150_000);
});
