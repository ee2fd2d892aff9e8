// `next build` imports every route to collect page data; a fresh clone has no database then.
// Importing the process-wide services must open no database file; using one opens it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyObject } from './lazy';

describe('lazyObject', () => {
  it('makes its object on the first read, once, and forwards methods bound to it', () => {
    let made = 0;
    const counter = lazyObject(() => {
      made++;
      return {
        n: 1,
        bump() {
          return ++this.n;
        },
      };
    });
    expect(made).toBe(0);
    const { bump } = counter; // a detached method still acts on the made object
    expect(bump()).toBe(2);
    expect(counter.n).toBe(2);
    expect('bump' in counter).toBe(true);
    expect(made).toBe(1);
  });
});

describe('the process-wide services', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-import-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('open no database when imported, and the file when first used', async () => {
    const file = path.join(dir, 'never.db');
    process.env.DATABASE_URL = `file:${file}`;
    const { episodeService } = await import('@/server/episodes');
    await import('@/server/curriculum');
    await import('@/server/inspector');
    await new Promise((r) => setTimeout(r, 200)); // room for an eager connection to open the file
    expect(existsSync(file)).toBe(false);
    await expect(async () => episodeService.listEpisodes({ limit: 1 })).rejects.toThrow(
      /no such table|table `main.Episode` does not exist/,
    ); // Prisma words SQLite's error its own way
    expect(existsSync(file)).toBe(true);
  });
});
