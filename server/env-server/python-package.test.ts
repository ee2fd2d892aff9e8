// The Python package (clients/python) against a live serve:env: its unittest suite (typed client
// over WS and HTTP, the WS client's MCP, the TRL environment class, the GRPO group example),
// imported from the folder with no install; and `pip install --no-build-isolation` offline.

import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEnvServer, type SpawnedServer } from './test/spawn';

const run = promisify(execFile);
const PACKAGE = path.resolve(__dirname, '../../clients/python');
let server: SpawnedServer;
let dir: string;

beforeAll(async () => {
  server = await spawnEnvServer(['--persist', 'off']);
  dir = mkdtempSync(path.join(os.tmpdir(), 'ecomrlve-pkg-'));
}, 180_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the ecomrlve Python package', () => {
  it('passes its tests against serve:env, imported from clients/python', async () => {
    const { stderr } = await run(
      'python3',
      ['-m', 'unittest', 'discover', '-v', '-s', path.join(PACKAGE, 'tests'), '-p', 'test_*.py'],
      { env: { ...process.env, ECOMRLVE_URL: server.url }, timeout: 240_000 },
    );
    const ran = Number(/Ran (\d+) tests/.exec(stderr)?.[1]);
    expect(ran).toBeGreaterThanOrEqual(11);
    expect(stderr).toMatch(/\nOK\s*$/);
    for (const name of [
      'test_the_shape_trl_expects',
      'test_one_group_of_one_seed_with_rewards_and_advantages',
      'test_reset_records_run_train_step_and_group_over_both_transports',
      'test_reset_sends_run_train_step_and_group_from_defaults_and_rows',
    ])
      expect(stderr).toContain(`${name} `);
  }, 300_000);

  it('installs offline with pip --no-build-isolation (Debian python3) and imports from the target', async () => {
    const src = path.join(dir, 'src');
    const target = path.join(dir, 'site');
    cpSync(PACKAGE, src, { recursive: true, filter: (p) => !/(__pycache__|\.egg-info|[\\/]build)$/.test(p) });
    await run(
      '/usr/bin/python3',
      ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-index', '--target', target, src],
      { env: { ...process.env, PIP_NO_INDEX: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' }, timeout: 180_000 },
    );
    const { stdout } = await run(
      '/usr/bin/python3',
      ['-c', 'import ecomrlve; print(ecomrlve.__file__); print(sorted(ecomrlve.__all__))'],
      { cwd: dir, env: { ...process.env, PYTHONPATH: target } },
    );
    const [file, names] = stdout.trim().split('\n');
    expect(file.startsWith(target)).toBe(true);
    expect(names).toContain('EcomRLVEToolEnv');
  }, 240_000);
});
