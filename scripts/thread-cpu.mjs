// node scripts/thread-cpu.mjs <pid> <seconds>
// CPU seconds (user + system, from /proc) each thread of a process and of its children used
// during a window: which thread of serve:env spends what (a worker's main thread, its SQLite
// writer thread, the upkeep thread, V8's GC/compiler threads, libuv's pool). Linux only.
// Node names every thread "node", so a thread is told apart by its id: the main thread's id is
// the process id; the others are listed by how much they used. Recipe: docs/env-server-rounds.md.

import { readFileSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const [pidArg, secondsArg] = process.argv.slice(2);
const root = Number(pidArg);
const seconds = Number(secondsArg ?? 10);
if (!Number.isInteger(root) || !(seconds > 0)) {
  console.error('usage: node scripts/thread-cpu.mjs <pid> <seconds>');
  process.exit(2);
}

const TICK = 100; // USER_HZ
function stat(path) {
  try {
    const text = readFileSync(path, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / TICK };
  } catch {
    return null;
  }
}
const pids = () => [
  root,
  ...readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e) && stat(`/proc/${e}/stat`)?.ppid === root)
    .map(Number),
];
function sample() {
  const out = new Map();
  for (const pid of pids()) {
    let tasks;
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // the process ended meanwhile
    }
    for (const tid of tasks) {
      const s = stat(`/proc/${pid}/task/${tid}/stat`);
      if (s) out.set(`${pid}/${tid}`, s.cpu);
    }
  }
  return out;
}

const before = sample();
await sleep(seconds * 1000);
const after = sample();
const rows = [...after]
  .map(([key, cpu]) => ({ key, cpu: cpu - (before.get(key) ?? 0) }))
  .filter((r) => r.cpu > 0)
  .sort((a, b) => b.cpu - a.cpu);
const total = rows.reduce((n, r) => n + r.cpu, 0);
console.log(
  `CPU seconds per thread over ${seconds} s (pid/tid; a main thread has tid = pid); total ${total.toFixed(2)} s`,
);
for (const r of rows) {
  const [pid, tid] = r.key.split('/');
  console.log(`${r.key.padEnd(14)} ${r.cpu.toFixed(2).padStart(7)} s  ${pid === tid ? 'main' : ''}`);
}
