// kill -9 during a burst of steps: every acknowledged step is stored, and the episode
// continues and replays identically.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCatalog, DEFAULT_CATALOG_ID } from '@/server/catalogs';
import { replayEpisode } from '@/server/engine';
import { createEpisodeService } from './service';
import { actionArgument } from './store';
import { createTestDb, type TestDb } from './test/db';

let db: TestDb;
beforeAll(() => {
  db = createTestDb();
}, 120_000);
afterAll(async () => db?.cleanup());

describe('crash safety', () => {
  it('kill -9 mid-burst loses no acknowledged step; the episode continues and replays identically', async () => {
    const service = createEpisodeService({ prisma: db.prisma, getCatalog, defaultCatalogId: DEFAULT_CATALOG_ID });
    const ep = await service.startEpisode({ envId: 'PD', d: 3, seed: 21, axisOverrides: { T_max: 60 } });

    const root = path.resolve(__dirname, '../..');
    // node itself (not the tsx CLI, which runs the script in a second process the kill would miss)
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/episodes/test/crash-child.ts', db.url, ep.id], {
      cwd: root,
    });
    let acked = 0;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        acked = (out.match(/^ack \d+$/gm) ?? []).length;
        if (acked >= 3 && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', (code, signal) =>
        signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited (${code}) before the kill`)),
      );
    });
    await new Promise((r) => child.once('close', r));

    service.clearLive(); // as a restarted server: nothing in memory
    const stored = await service.getActions(ep.id);
    expect(stored.length).toBeGreaterThanOrEqual(acked); // every acknowledged step is there
    const before = await service.getEpisode(ep.id);
    expect(before.turn).toBe(stored.length);
    expect(before.status).toBe('active'); // killed mid-burst, not after the last turn

    // it continues (the rebuild by replay checks every stored event) …
    const next = await service.submitAction(ep.id, {
      assistant_message: 'And one more?',
      tool_calls: [],
      answer: null,
    });
    expect(next.turn).toBe(stored.length + 1);
    // … and replays identically from its config and actions
    const actions = await service.getActions(ep.id);
    const replayed = replayEpisode(
      { envId: 'PD', d: 3, seed: ep.seed, axisOverrides: { T_max: 60 } },
      getCatalog(DEFAULT_CATALOG_ID),
      actions.map(actionArgument),
    );
    expect(replayed.events).toEqual((await service.getEpisode(ep.id)).events);
  }, 180_000);
});
