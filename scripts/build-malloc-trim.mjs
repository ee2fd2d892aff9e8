// Compiles the malloc_trim addon (server/lib/malloc-trim/malloc-trim.c) to
// .next/native/malloc-trim.node (or the path given as the argument) with the system's C compiler and Node's headers. Optional: without
// a compiler, the headers or glibc the server runs without it (freed native memory may then stay
// resident after a burst; docs/security.md, "Memory after a burst").
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const source = 'server/lib/malloc-trim/malloc-trim.c';
const out = process.argv[2] ?? '.next/native/malloc-trim.node';
const headers = [
  path.resolve(path.dirname(process.execPath), '../include/node'),
  '/usr/include/node',
  '/usr/local/include/node',
].find((dir) => fs.existsSync(path.join(dir, 'node_api.h')));
try {
  if (process.platform !== 'linux') throw new Error(`glibc only, this is ${process.platform}`);
  if (!headers) throw new Error("Node's headers (node_api.h) not found");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  execFileSync(process.env.CC || 'cc', ['-O2', '-shared', '-fPIC', `-I${headers}`, source, '-o', out], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  console.log(`› built the malloc_trim addon into ${out}`);
} catch (e) {
  fs.rmSync(out, { force: true });
  const why = (e.stderr?.toString().trim().split('\n')[0] || e.message).slice(0, 200);
  console.log(`› malloc_trim addon not built (${why}): the server runs without it`);
}
