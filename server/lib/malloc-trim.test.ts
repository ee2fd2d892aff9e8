import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mallocTrim } from './malloc-trim';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'malloc-trim-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('mallocTrim', () => {
  it('is a no-op (false) without the addon', () => {
    expect(mallocTrim(path.join(dir, 'absent.node'))).toBe(false);
  });

  it('the build script compiles an addon that releases free heap pages', () => {
    const file = path.join(dir, 'malloc-trim.node');
    const said = execFileSync('node', ['scripts/build-malloc-trim.mjs', file]).toString();
    expect(said).toContain('built the malloc_trim addon'); // this machine has cc and Node's headers
    // In a fresh process: 96 MB of 16 KB native blocks, every other one freed, then a trim. The
    // freed blocks sit between live ones, so only malloc_trim can return their pages.
    const script = `
      const addon = { exports: {} };
      process.dlopen(addon, ${JSON.stringify(file)});
      const rss = () => process.memoryUsage().rss;
      const blocks = [];
      for (let i = 0; i < 6000; i++) blocks.push(Buffer.allocUnsafeSlow(16000).fill(1));
      for (let i = 0; i < blocks.length; i += 2) blocks[i] = null;
      gc();
      setTimeout(() => { // V8 frees array buffers' memory after the collection, on its own schedule
        const before = rss();
        const released = addon.exports.mallocTrim();
        console.log(JSON.stringify({ released, mb: (before - rss()) / 1048576, kept: blocks.length }));
      }, 300);`;
    const out = JSON.parse(execFileSync('node', ['--expose-gc', '-e', script]).toString()) as {
      released: boolean;
      mb: number;
    };
    expect(out.released).toBe(true);
    expect(out.mb).toBeGreaterThan(20); // 48 MB freed in 16 KB holes: their whole pages come back
  });
});
