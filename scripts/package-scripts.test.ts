// Every `npm run <name>` the docs tell a user to type must exist: merges once dropped four bench
// scripts from package.json while README still named them.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const scripts = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>);
const docs = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function namedIn(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/npm run (?:-s )?([a-z][\w:-]*)/g)].map((m) => m[1]);
}

describe('package scripts named in the docs', () => {
  it('the docs name at least the benchmarks', () => {
    const all = docs.flatMap(namedIn);
    for (const bench of ['bench:engine', 'bench:web', 'bench:api', 'bench:inspector', 'bench:catalog', 'bench:abuse'])
      expect(all).toContain(bench);
  });
  for (const file of docs)
    it(`${file}: every npm run <name> is a script`, () => {
      const missing = namedIn(file).filter((name) => !scripts.includes(name));
      expect(missing, `${file} names scripts package.json lacks`).toEqual([]);
    });
});
