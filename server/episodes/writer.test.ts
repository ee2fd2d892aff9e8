// The one episode writer: rows Prisma reads back with the schema's defaults, a step that all goes
// in or none of it, and a stale step refused without writing anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from './test/db';
import { episodeStatements, eventRows, StaleEpisodeWrite, type EpisodeInsert } from './writer';

let db: TestDb;
beforeAll(() => {
  db = createTestDb();
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

const row = (id: string): EpisodeInsert => ({
  id,
  createdAt: new Date('2026-12-01T10:00:00.123Z'),
  envId: 'PD',
  d: 2,
  seed: 7,
  axisOverrides: '{}',
  axes: '{"T_max":10}',
  weights: null,
  catalogId: 'cat',
  player: 'human',
  turn: 0,
  status: 'active',
  terminationReason: null,
  reward: null,
  isCorrect: null,
  breakdown: null,
  hiddenGoal: '{"envId":"PD"}',
  eventCount: 1,
});
const opening = [{ kind: 'customer_message', turn: 0, text: 'I need a lamp.' }] as never;
const reply = [{ kind: 'agent_message', turn: 1, text: 'Here is one.' }] as never;

describe('the episode writer', () => {
  it('writes a new episode that Prisma reads back, with the schema defaults for what it leaves out', async () => {
    const w = episodeStatements(db.sql);
    await db.sql.batch(w.newEpisode(row('ep_w1'), eventRows(opening, 0)));
    const stored = await db.prisma.episode.findUniqueOrThrow({ where: { id: 'ep_w1' }, include: { events: true } });
    expect(stored).toMatchObject({
      createdAt: new Date('2026-12-01T10:00:00.123Z'),
      updatedAt: new Date('2026-12-01T10:00:00.123Z'),
      engineVersion: 1,
      rewardRevision: 1,
      origin: 'engine',
      goalRevealed: false,
      toolCalls: 0,
      storedBytes: 0,
      revealedAt: null,
    });
    expect(stored.events.map((e) => [e.seq, e.kind, JSON.parse(e.payload).text])).toEqual([
      [0, 'customer_message', 'I need a lamp.'],
    ]);
  });

  it('stores a step whole, and refuses a step from a stale event count without writing any of it', async () => {
    const w = episodeStatements(db.sql);
    await db.sql.batch(w.newEpisode(row('ep_w2'), eventRows(opening, 0)));
    const step = (prevEventCount: number, seq: number) =>
      w.step({
        episodeId: 'ep_w2',
        prevEventCount,
        action: { seq, turn: seq, format: 'text', raw: 'Here is one.', eventEnd: prevEventCount + 1 },
        events: eventRows(reply, prevEventCount),
        progress: {
          turn: seq + 1,
          status: 'active',
          terminationReason: null,
          reward: null,
          isCorrect: null,
          breakdown: null,
          hiddenGoal: null,
          eventCount: prevEventCount + 1,
        },
        addedBytes: 12,
      });
    await db.sql.batch(step(1, 0));
    const err = await db.sql.batch(step(1, 1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StaleEpisodeWrite);
    expect((err as StaleEpisodeWrite).code).toBe('P2025');
    const stored = await db.prisma.episode.findUniqueOrThrow({
      where: { id: 'ep_w2' },
      include: { events: true, actions: true },
    });
    expect([stored.turn, stored.eventCount, stored.storedBytes, stored.hiddenGoal]).toEqual([
      1,
      2,
      12,
      '{"envId":"PD"}',
    ]);
    expect(stored.actions.map((a) => [a.seq, a.eventEnd])).toEqual([[0, 2]]);
    expect(stored.events).toHaveLength(2);
  });

  it('rolls a whole batch back when a later statement fails', async () => {
    const w = episodeStatements(db.sql);
    const failing = [...w.newEpisode(row('ep_w3'), eventRows(opening, 0)), ...w.newEpisode(row('ep_w3'), [])];
    await expect(db.sql.batch(failing)).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(await db.prisma.episode.count({ where: { id: 'ep_w3' } })).toBe(0);
    expect(await db.prisma.episodeEvent.count({ where: { episodeId: 'ep_w3' } })).toBe(0);
  });
});
