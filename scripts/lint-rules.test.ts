// The lint rules that guard the architecture fail where they should: a new run-time import
// cycle, the engine importing Next/React/Prisma or the app, lib/ importing components/, and the
// service layer importing Next. Runs ESLint with the project's own eslint.config.mjs.

import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
// ignore: false, because the fixtures are in the config's ignore list (they are broken on purpose)
const eslint = new ESLint({ cwd: root, ignore: false });

async function ruleIds(file: string, code?: string): Promise<string[]> {
  const filePath = path.join(root, file);
  const [result] = code === undefined ? await eslint.lintFiles([filePath]) : await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('lint: import cycles', () => {
  it('reports both files of a run-time cycle', async () => {
    expect(await ruleIds('scripts/lint-fixtures/cycle/a.ts')).toContain('import-x/no-cycle');
    expect(await ruleIds('scripts/lint-fixtures/cycle/b.ts')).toContain('import-x/no-cycle');
  });

  it('allows a cycle that only carries types (erased at run time)', async () => {
    expect(await ruleIds('scripts/lint-fixtures/cycle/type-only.ts')).toEqual([]);
    expect(await ruleIds('scripts/lint-fixtures/cycle/uses-type.ts')).toEqual([]);
  });

  it('reports a cycle introduced into the engine through the @/ alias', async () => {
    // registry.ts imports every env; an env importing the registry back closes a cycle
    const code = "import { getEnv } from '@/server/engine/envs/registry';\nexport const f = () => getEnv('PD');\n";
    expect(await ruleIds('server/engine/envs/pd.ts', code)).toContain('import-x/no-cycle');
  });
});

describe('lint: layering', () => {
  const engineFile = 'server/engine/envs/new-env.ts';
  it.each([
    ["import { notFound } from 'next/navigation';", 'no-restricted-imports'],
    ["import { useState } from 'react';", 'no-restricted-imports'],
    ["import { PrismaClient } from '@prisma/client';", 'no-restricted-imports'],
    ["import { prisma } from '@/server/db';", 'import-x/no-restricted-paths'],
    ["import { fmtReward } from '@/lib/format';", 'import-x/no-restricted-paths'],
    ["import { Transcript } from '@/components/transcript/Transcript';", 'import-x/no-restricted-paths'],
  ])('the engine may not say %s', async (line, rule) => {
    expect(await ruleIds(engineFile, `${line}\nexport const used = [${line.match(/\{ (\w+) \}/)![1]}];\n`)).toContain(
      rule,
    );
  });

  it('the engine may import the engine', async () => {
    expect(await ruleIds(engineFile, "import { Rng } from '../random';\nexport const rng = new Rng(1);\n")).toEqual([]);
  });

  it('lib/ may not import components/', async () => {
    const code = "import { Transcript } from '@/components/transcript/Transcript';\nexport const t = Transcript;\n";
    expect(await ruleIds('lib/new-helper.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it('the episode service may not import Next', async () => {
    const code = "import { notFound } from 'next/navigation';\nexport const nf = notFound;\n";
    expect(await ruleIds('server/episodes/new-helper.ts', code)).toContain('no-restricted-imports');
  });
});
