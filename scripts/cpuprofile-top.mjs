// node scripts/cpuprofile-top.mjs file.cpuprofile [--top 25] [--under reset,step] [--inclusive flush,offer]
// Summarises a V8 CPU profile (node --cpu-prof) by self time per function, so a profile
// can be read without DevTools. Recipe: docs/performance.md.

import fs from 'node:fs';
import path from 'node:path';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/cpuprofile-top.mjs file.cpuprofile [--top 25]');
  process.exit(2);
}
const topAt = process.argv.indexOf('--top');
const top = topAt > 0 ? Number(process.argv[topAt + 1]) : 25;
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// --under f,g: only samples with one of these functions on the stack (e.g. the engine's
// reset and step, leaving out the agent that drives it)
const underAt = process.argv.indexOf('--under');
const under = underAt > 0 ? new Set(process.argv[underAt + 1].split(',')) : null;
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const kept = new Map();
function isKept(id) {
  if (!under) return true;
  if (kept.has(id)) return kept.get(id);
  const p = parent.get(id);
  const yes = under.has(byId.get(id).callFrame.functionName) || (p !== undefined && isKept(p));
  kept.set(id, yes);
  return yes;
}

// A bundle made by esbuild (see docs/performance.md) keeps "// path/to/file.ts" comments
// before each module: map bundle lines back to their source file.
const sourceOf = new Map();
function sourceFile(url, line) {
  const file = url.replace(/^file:\/\//, '');
  if (!sourceOf.has(file)) {
    const marks = [];
    if (file.endsWith('.mjs') && fs.existsSync(file))
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((l, i) => {
          const m = /^\/\/ ((?:server|scripts|lib|node_modules)\/\S+)$/.exec(l);
          if (m) marks.push([i, m[1]]);
        });
    sourceOf.set(file, marks);
  }
  const marks = sourceOf.get(file);
  if (marks.length === 0) return `${path.relative(process.cwd(), file)}:${line + 1}`;
  let found = marks[0];
  for (const m of marks) if (m[0] <= line) found = m;
  return `${found[1]} (bundle line ${line + 1})`;
}
const byFile = new Map();
const self = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  if (!isKept(id)) return;
  total += dt;
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const where = url ? sourceFile(url, lineNumber) : '';
  const key = `${functionName || '(anonymous)'} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + dt);
  const fileKey = where ? where.replace(/[: ].*$/, '') : functionName;
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + dt);
});
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
console.log(`${(total / 1000).toFixed(0)} ms sampled; top ${rows.length} by self time`);
const line = ([key, us]) =>
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
rows.forEach(line);
console.log(`\nby file (self time), top ${Math.min(top, byFile.size)}`);
[...byFile.entries()]
  .sort((a, b) => b[1] - a[1])
  .slice(0, top)
  .forEach(line);

// --inclusive f,g: time with each of these functions anywhere on the stack (a sample counts once
// per function, recursion included), e.g. the recorder's parts on a worker's main thread
const inclusiveAt = process.argv.indexOf('--inclusive');
if (inclusiveAt > 0) {
  const names = process.argv[inclusiveAt + 1].split(',');
  const spent = new Map(names.map((n) => [n, 0]));
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    if (!isKept(id)) return;
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at).callFrame.functionName;
      if (spent.has(name) && !seen.has(name)) {
        seen.add(name);
        spent.set(name, spent.get(name) + dt);
      }
    }
  });
  const busy = total - (self.get('(idle)') ?? 0);
  console.log(`\ninclusive time (share of the ${(busy / 1000).toFixed(0)} ms not idle)`);
  for (const [n, us] of spent)
    console.log(`${((100 * us) / busy).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${n}`);
}
