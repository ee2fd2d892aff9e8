// With auth off everyone is "the admin", the person playing included: every read that carries an
// active episode's goal or seed is refused or withholds them until the episode ends or its goal
// is revealed (a recorded reveal), so an unrevealed pass is an honest one (issue 29).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestCaller } from '@/server/trpc/test/caller';

const caller = useTestCaller(); // auth off (the default for a local tool)
let active = '';
let seed = 0;
let done = '';

beforeAll(async () => {
  const { episodeService } = await import('@/server/episodes');
  const a = await episodeService.startEpisode({ envId: 'CART', d: 2, seed: 71 });
  active = a.id;
  seed = a.seed;
  const d = await episodeService.startEpisode({ envId: 'CART', d: 0, seed: 72 });
  await episodeService.submitAction(d.id, {
    assistant_message: 'Done.',
    tool_calls: [],
    answer: { env: 'CART', done: true },
  });
  done = d.id;
});

const text = (v: unknown) => JSON.stringify(v);

describe('goal-bearing reads of an active, unrevealed episode (auth off)', () => {
  it('episodes.get withholds goal, seed and world changes; episodes.world is refused', async () => {
    const got = await caller().episodes.get({ id: active });
    expect({ goal: got.hiddenGoal, seed: got.seed }).toEqual({ goal: null, seed: null });
    expect(got.events.some((e) => e.kind === 'world_change')).toBe(false);
    await expect(caller().episodes.world({ id: active })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await caller().episodes.get({ id: done })).seed).toBe(72);
  });

  it('episodes.list and inspector.list show it without its seed', async () => {
    const items = (await caller().episodes.list({ limit: 10 })).items;
    expect(items.find((e) => e.id === active)!.seed).toBeNull();
    expect(items.find((e) => e.id === done)!.seed).toBe(72);
    const rows = (await caller().inspector.list({})).rows;
    expect(rows.find((e) => e.id === active)!.seed).toBeNull();
    expect(rows.find((e) => e.id === done)!.seed).toBe(72);
  });

  it('inspector.sameSeed is refused (it names the seed and an oracle that passes it)', async () => {
    await expect(caller().inspector.sameSeed({ id: active })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(caller().inspector.sameSeed({ id: done })).resolves.toMatchObject({ seed: 72 });
  });

  it('the export, in its three forms, leaves it out', async () => {
    const { GET } = await import('@/app/api/inspector/export/route');
    for (const query of [`ids=${active},${done}`, 'env=CART', `ids=${active},${done}&kind=chat`]) {
      const res = await GET(new Request(`http://127.0.0.1/api/inspector/export?${query}`));
      const body = await res.text();
      expect(body, query).not.toContain(active);
      expect(body, query).toContain(done);
    }
  });

  it('the replay page data (replay.page, /episodes/<id>) carries neither goal nor seed; its world is refused', async () => {
    const page = await caller().replay.page({ id: active });
    expect(page.guarded).toBe(true);
    expect({ goal: page.ep.hiddenGoal, seed: page.ep.seed }).toEqual({ goal: null, seed: null });
    expect(text(page)).not.toContain(`"seed":${seed}`);
    await expect(caller().inspector.worldAt({ id: active, turn: 0 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await caller().replay.page({ id: done })).ep.seed).toBe(72);
  });

  it('after a recorded reveal everything is open, and the episode is marked revealed', async () => {
    const { episodeService } = await import('@/server/episodes');
    await episodeService.revealGoal(active);
    const got = await caller().episodes.get({ id: active });
    expect(got.seed).toBe(71);
    expect(got.hiddenGoal).not.toBeNull();
    expect(got.revealed).toBe(true);
    await expect(caller().inspector.sameSeed({ id: active })).resolves.toMatchObject({ seed: 71 });
    expect((await caller().inspector.list({})).rows.find((e) => e.id === active)!.seed).toBe(71);
  });
});
