// A ninth env added through the documented steps compiles only once it is registered
// everywhere it must be, and then checkEnv passes on it. Runs tsc (and checkEnv, through tsx)
// on a scratch copy of the engine with ECHO added (scripts/ninth-env-fixture.ts).

import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENV_FILE, ENV_ID_EDIT, REGISTERED_IN, REGISTRATIONS, type Edit } from './ninth-env-fixture';

const root = path.resolve(__dirname, '..');
const scratch = mkdtempSync(path.join(tmpdir(), 'ninth-env-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
  writeFileSync(path.join(scratch, file), text);
}

function edit({ path: file, after, insert }: Edit) {
  const text = readFileSync(path.join(scratch, file), 'utf8');
  const at = text.indexOf(after);
  if (at < 0 || text.indexOf(after, at + 1) >= 0)
    throw new Error(`fixture out of date: "${after.trim()}" is not once in ${file}`);
  writeFileSync(path.join(scratch, file), text.slice(0, at + after.length) + insert + text.slice(at + after.length));
}

/** tsc over the scratch copy: the files it reports errors in (empty when it compiles). */
function typeErrors(): string[] {
  try {
    execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', path.join(scratch, 'tsconfig.json')], {
      cwd: scratch,
      stdio: 'pipe',
    });
    return [];
  } catch (e) {
    const out = String((e as { stdout?: Buffer }).stdout ?? e);
    return out.split('\n').flatMap((line) => line.match(/^([\w/.-]+\.ts)\(\d+,\d+\): error/)?.slice(1) ?? []);
  }
}

// the engine (without its tests) and the one app file keyed by EnvId
cpSync(path.join(root, 'server/engine'), path.join(scratch, 'server/engine'), {
  recursive: true,
  filter: (f) => !f.endsWith('.test.ts'),
});
write('components/curriculum/colors.ts', readFileSync(path.join(root, 'components/curriculum/colors.ts'), 'utf8'));
symlinkSync(path.join(root, 'node_modules'), path.join(scratch, 'node_modules'));
write(
  'tsconfig.json',
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      lib: ['esnext'],
      strict: true,
      noEmit: true,
      // the three runs differ by a few files: later runs re-check only what changed
      incremental: true,
      tsBuildInfoFile: './.tsbuildinfo',
      skipLibCheck: true,
      module: 'esnext',
      moduleResolution: 'bundler',
      isolatedModules: true,
      types: ['node'],
      paths: { '@/*': ['./*'] },
    },
    include: ['server/**/*.ts', 'components/**/*.ts'],
  }),
);

describe('a ninth environment', () => {
  it('the scratch copy compiles as it is', () => {
    expect(typeErrors()).toEqual([]);
  }, 600_000);

  it('with its file and its id in ENV_IDS but no registration, every place that must name it fails to compile', () => {
    write(ENV_FILE.path, ENV_FILE.text);
    edit(ENV_ID_EDIT);
    const files = new Set(typeErrors());
    for (const file of REGISTERED_IN)
      expect(files, `${file} should fail to compile until ECHO is registered in it`).toContain(file);
  }, 600_000);

  it('registered everywhere, it compiles and checkEnv passes on it', () => {
    for (const step of REGISTRATIONS) {
      for (const f of step.files) write(f.path, f.text);
      for (const e of step.edits) edit(e);
    }
    expect(typeErrors()).toEqual([]);
    write(
      'check-echo.ts',
      `import { getEnv } from './server/engine/envs/registry';
import { checkEnv } from './server/engine/testing/check-env';
import { testCatalog } from './server/engine/testing/catalog-fixture';
console.log(JSON.stringify(checkEnv(getEnv('ECHO'), { catalog: testCatalog(), oracleSeeds: 1, randomEpisodes: 6 })));
`,
    );
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'check-echo.ts'], {
      cwd: scratch,
      stdio: 'pipe',
    }).toString();
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual([]);
  }, 600_000);
});
