// The episode service refuses what it must and writes nothing then: a failed step
// transaction, finished episodes, oversized or malformed input, the caps; it serialises
// concurrent steps, bounds the live episodes, and its writer waits out another process's write lock.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ACTION_BYTES } from './service';
import { expectServiceError } from './test/db';
import { db, describeEachStore, searchAction, service, serviceWith, setupServiceTests } from './test/service-kit';

setupServiceTests();

describeEachStore(() => {
  it('steps a held episode reading nothing from the store; a write from another process is a CONFLICT, then play goes on', async () => {
    let reads = 0;
    const counting = (model: object) =>
      new Proxy(model, {
        get(target, key) {
          const v = Reflect.get(target, key) as unknown;
          return typeof v === 'function' ? (...args: unknown[]) => (reads++, v.apply(target, args)) : v;
        },
      });
    const prisma = new Proxy(db.prisma, {
      get: (target, key) =>
        key === 'episode' || key === 'episodeAction' ? counting(Reflect.get(target, key)) : Reflect.get(target, key),
    });
    const svc = serviceWith({ prisma });
    const ep = await svc.startEpisode({ envId: 'PD', d: 0, seed: 5, axisOverrides: { T_max: 20 } });
    reads = 0;
    const one = await svc.submitAction(ep.id, searchAction('lamp'), { stepKey: 'k1' });
    await svc.submitAction(ep.id, searchAction('desk'), { stepKey: 'k2' });
    expect(reads).toBe(0);
    // a retried key answers the view as its step left it, with no new turn
    const retry = await svc.submitAction(ep.id, searchAction('lamp'), { stepKey: 'k1' });
    expect([retry.turn, retry.events]).toEqual([one.turn, one.events]);
    // and the episode stays held as it was: the next step still reads nothing
    reads = 0;
    await svc.submitAction(ep.id, searchAction('shelf'), { stepKey: 'k3' });
    expect(reads).toBe(0);
    // another process (a second service on the same store) takes a turn: this one's copy is stale
    await serviceWith().submitAction(ep.id, searchAction('chair'));
    await expectServiceError(svc.submitAction(ep.id, searchAction('sofa')), 'CONFLICT');
    const after = await svc.submitAction(ep.id, searchAction('sofa'));
    expect(after.turn).toBe(5);
    // a reveal between steps shows in the next step's view
    await svc.revealGoal(ep.id);
    expect((await svc.submitAction(ep.id, searchAction('rug'))).revealed).toBe(true);
  });

  it('a step key stored before a restart, or by another process, is answered as stored, not refused', async () => {
    const first = serviceWith();
    const ep = await first.startEpisode({ envId: 'PD', d: 0, seed: 6, axisOverrides: { T_max: 20 } });
    const one = await first.submitAction(ep.id, searchAction('lamp'), { stepKey: 'k1' });
    // a new process rebuilds the episode on another key's step, then the first key is retried there
    const second = serviceWith();
    await second.submitAction(ep.id, searchAction('desk'), { stepKey: 'k2' });
    const retry = await second.submitAction(ep.id, searchAction('lamp'), { stepKey: 'k1' });
    expect([retry.turn, retry.events]).toEqual([one.turn, one.events]);
    // the first process still holds its copy: another process's key is answered there too
    const theirs = await first.submitAction(ep.id, searchAction('desk'), { stepKey: 'k2' });
    expect(theirs.turn).toBe(2);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(2);
    // and play goes on
    expect((await second.submitAction(ep.id, searchAction('shelf'))).turn).toBe(3);
  });

  it('a held episode deleted meanwhile (the inspector) is NOT_FOUND at its next step, not a conflict', async () => {
    const svc = serviceWith();
    const ep = await svc.startEpisode({ envId: 'PD', d: 0, seed: 7 });
    await svc.submitAction(ep.id, searchAction('lamp'));
    await db.prisma.episode.delete({ where: { id: ep.id } });
    await expectServiceError(svc.submitAction(ep.id, searchAction('desk')), 'NOT_FOUND');
  });

  it('a failure inside the step transaction writes nothing of that turn', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 8 });
    const before = await db.prisma.episode.findUniqueOrThrow({ where: { id: ep.id } });
    const eventsBefore = await db.prisma.episodeEvent.count({ where: { episodeId: ep.id } });
    // Plant a row at the seq the step's second new event will take (as another writer would):
    // the action row and the first new event are written inside the transaction, then the
    // unique index fails, which the one step path reports as a conflict.
    const blocker = await db.prisma.episodeEvent.create({
      data: { episodeId: ep.id, seq: eventsBefore + 1, turn: 99, kind: 'blocker', payload: '{}' },
    });
    const err = await service.submitAction(ep.id, searchAction('lamp')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(String((err as Error)?.message)).toMatch(/changed by another writer/);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(0);
    expect(await db.prisma.episodeEvent.count({ where: { episodeId: ep.id } })).toBe(eventsBefore + 1); // the blocker only
    const after = await db.prisma.episode.findUniqueOrThrow({ where: { id: ep.id } });
    expect({ ...after, updatedAt: null }).toEqual({ ...before, updatedAt: null });
    expect(service.isLive(ep.id)).toBe(false); // the stepped-ahead live copy was dropped

    // Once the fault is gone the same turn goes through, rebuilt from the store.
    await db.prisma.episodeEvent.delete({ where: { id: blocker.id } });
    const ok = await service.submitAction(ep.id, searchAction('lamp'));
    expect(ok.turn).toBe(1);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(1);
  });

  it('rejects actions on finished episodes with a clear error', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 9 });
    await service.submitAction(ep.id, {
      assistant_message: 'Done.',
      tool_calls: [],
      answer: { env: 'CART', done: true },
    });
    await expectServiceError(
      service.submitAction(ep.id, searchAction('x')),
      'EPISODE_DONE',
      /is finished \(answered\)/,
    );
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(1);
  });

  it('rejects oversized action text precisely and writes nothing', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 10 });
    const big = JSON.stringify({ assistant_message: 'x'.repeat(MAX_ACTION_BYTES), tool_calls: [], answer: null });
    await expectServiceError(
      service.submitAction(ep.id, big),
      'TOO_LARGE',
      new RegExp(`is ${Buffer.byteLength(big)} bytes; the limit is 65536 bytes`),
    );
    await expectServiceError(
      service.submitAction(ep.id, { assistant_message: 'é'.repeat(40_000), tool_calls: [], answer: null }),
      'TOO_LARGE',
      /bytes as JSON; the limit is 65536/,
    );
    const view = await service.getEpisode(ep.id);
    expect(view.status).toBe('active');
    expect(view.turn).toBe(0);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(0);
  });

  it('rejects malformed input with precise errors', async () => {
    await expectServiceError(
      service.startEpisode({ envId: 'NOPE', d: 0 }),
      'BAD_INPUT',
      /unknown environment "NOPE"; available: .*CART/,
    );
    await expectServiceError(service.startEpisode({ envId: 'CART', d: -1 }), 'BAD_INPUT', /d: /);
    await expectServiceError(service.startEpisode({ envId: 'CART', d: 1.5 }), 'BAD_INPUT', /d: /);
    await expectServiceError(service.startEpisode({ envId: 'CART', d: 0, seed: -3 }), 'BAD_INPUT', /seed/);
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, axisOverrides: { nope: 1 } as never }),
      'BAD_INPUT',
      /axisOverrides: Unrecognized key: "nope"/,
    );
    // each axis has its range: the top_k 1e9 / B_tool 100 are refused before any work
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, axisOverrides: { top_k: 1e9, B_tool: 100 } }),
      'BAD_INPUT',
      /axisOverrides\.top_k: Too big: expected number to be <=200; axisOverrides\.B_tool: Too big: expected number to be <=20/,
    );
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, axisOverrides: { p_oos: 1.5 } }),
      'BAD_INPUT',
      /p_oos/,
    );
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, axisOverrides: { T_max: 2.5 } }),
      'BAD_INPUT',
      /T_max/,
    );
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, player: 'Robert; DROP' }),
      'BAD_INPUT',
      /player/,
    );
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, catalogId: 'missing' }),
      'BAD_INPUT',
      /unknown catalog/,
    );

    const ep = await service.startEpisode({ envId: 'CART', d: 0 });
    expect(ep.seed).toBeGreaterThanOrEqual(0); // random seed when none is given
    await expectServiceError(
      service.submitAction('no-such-episode', 'hi'),
      'NOT_FOUND',
      /no episode with id "no-such-episode"/,
    );
    await expectServiceError(service.submitAction('bad id!', 'hi'), 'BAD_INPUT', /invalid characters/);
    await expectServiceError(service.submitAction(ep.id, 42 as never), 'BAD_INPUT', /string\) or an action object/);
    await expectServiceError(
      service.submitAction(ep.id, { assistant_message: 'hi', tool_calls: 'catalog.search' } as never),
      'BAD_INPUT',
      /tool_calls/,
    );
    expect((await service.getEpisode(ep.id)).turn).toBe(0);
  });

  it('serialises concurrent steps of one episode', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 4, seed: 13 });
    const results = await Promise.allSettled([
      service.submitAction(ep.id, searchAction('one')),
      service.submitAction(ep.id, searchAction('two')),
      service.submitAction(ep.id, searchAction('three')),
    ]);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const actions = await service.getActions(ep.id);
    expect(actions.map((a) => a.turn)).toEqual([0, 1, 2]);
    service.clearLive();
    await service.getWorld(ep.id); // still replays cleanly
  });

  it('keeps at most maxLive episodes in memory and rebuilds the others on demand', async () => {
    const small = serviceWith({ maxLive: 2 });
    const a = await small.startEpisode({ envId: 'CART', d: 0, seed: 31 });
    const b = await small.startEpisode({ envId: 'CART', d: 0, seed: 32 });
    const c = await small.startEpisode({ envId: 'CART', d: 0, seed: 33 });
    expect([small.isLive(a.id), small.isLive(b.id), small.isLive(c.id)]).toEqual([false, true, true]);
    const next = await small.submitAction(a.id, searchAction('tent'));
    expect(next.turn).toBe(1);
    expect([small.isLive(a.id), small.isLive(b.id), small.isLive(c.id)]).toEqual([true, false, true]);
  });

  it('caps each episode by events and stored bytes; past a cap steps are refused and nothing is written', async () => {
    const byEvents = serviceWith({ maxEvents: 4 });
    const a = await byEvents.startEpisode({ envId: 'CART', d: 0, seed: 41, axisOverrides: { T_max: 20 } });
    await byEvents.submitAction(a.id, searchAction('tent')); // 1 opening + 3 events of this turn = 4
    await expectServiceError(
      byEvents.submitAction(a.id, searchAction('tent')),
      'LIMIT',
      /has reached its size cap \(4 events, \d+ bytes; caps 4 events/,
    );
    expect((await byEvents.getEpisode(a.id)).turn).toBe(1);

    const byBytes = serviceWith({ maxBytes: 2000 });
    const b = await byBytes.startEpisode({ envId: 'CART', d: 0, seed: 42, axisOverrides: { T_max: 20 } });
    const row = await db.prisma.episode.findUniqueOrThrow({ where: { id: b.id } });
    expect(row.storedBytes).toBeGreaterThan(0);
    await byBytes.submitAction(b.id, searchAction('tent')); // search results push it past 2,000 bytes
    expect((await db.prisma.episode.findUniqueOrThrow({ where: { id: b.id } })).storedBytes).toBeGreaterThan(2000);
    await expectServiceError(byBytes.submitAction(b.id, searchAction('tent')), 'LIMIT', /caps \d+ events, 2000 bytes/);
  });
});

describe('the episode writer beside another process', () => {
  it('waits while another connection holds the write lock, then stores the step', async () => {
    const ep = await service.startEpisode({ envId: 'STATUS', d: 2, seed: 5 });
    await service.submitAction(ep.id, searchAction('lamp'));
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const d = new (require('better-sqlite3'))(process.argv[1]); d.prepare('BEGIN IMMEDIATE').run();
         console.log('locked'); setTimeout(() => { d.prepare('COMMIT').run(); d.close(); }, 400);`,
        db.url.slice('file:'.length),
      ],
      { cwd: path.resolve(__dirname, '../..') },
    );
    await new Promise((r) => holder.stdout.once('data', r));
    expect((await service.submitAction(ep.id, searchAction('tent'))).turn).toBe(2);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(2);
    await new Promise((r) => holder.once('close', r));
  });
});
