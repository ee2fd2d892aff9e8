// The agent seat over tRPC: what it receives never holds the hidden goal while the episode is
// active (all eight environments, every turn), reveals are recorded, step keys make retries
// idempotent, and each procedure admits exactly the roles it should.
import { describe, expect, it } from 'vitest';
import { listEnvs, toolSpecsFor } from '@/server/engine';
import { fieldNames, leakedValues, secretValues } from '@/server/episodes/test/goal-scan';
import type { AuthConfig } from '@/server/auth';
import { callerWith, useTestCaller } from './test/caller';

const getCaller = useTestCaller();
const chat = { assistant_message: 'Could you tell me a bit more?', tool_calls: [], answer: null };

describe('agent seat', () => {
  it('never sends the goal of an active episode, for all eight envs; the finished episode carries it', async () => {
    const { episodeService } = await import('@/server/episodes');
    const envs = listEnvs();
    expect(envs.map((e) => e.id).sort()).toEqual([
      'BUNDLE',
      'CART',
      'JOURNEY',
      'PD',
      'POLICY',
      'RETURN',
      'STATUS',
      'SUB',
    ]);
    for (const env of envs) {
      for (const seed of [1, 2]) {
        const started = await getCaller().seat.start({ envId: env.id, d: 6, seed });
        expect(started.episode.hiddenGoal).toBeNull();
        expect(started.episode.seed).toBeNull();
        const goal = (await episodeService.getEpisode(started.episode.id)).hiddenGoal;
        const payloads: string[] = [JSON.stringify(started)];
        let seat = started.episode;
        while (seat.status === 'active') {
          payloads.push(JSON.stringify(await getCaller().seat.get({ id: seat.id })));
          const stepKey = `turn-${seat.turn + 1}`;
          seat = await getCaller().seat.step({ id: seat.id, action: chat, stepKey });
          if (seat.status === 'active') {
            // a retried key is answered from the held row: scanned too
            const retry = await getCaller().seat.step({ id: seat.id, action: chat, stepKey });
            payloads.push(JSON.stringify(seat), JSON.stringify(retry));
          }
        }
        const customerText = seat.events.map((e) => (e.kind === 'customer_message' ? e.text : '')).join('\n');
        const publicText = [
          fieldNames(seat),
          customerText,
          JSON.stringify(toolSpecsFor(env.id)),
          JSON.stringify(env),
          chat.assistant_message,
          seat.id,
          seat.catalogId,
        ].join('\n');
        const secrets = secretValues(goal, publicText);
        expect(secrets.length, `${env.id} seed ${seed} has goal values to look for`).toBeGreaterThan(0);
        for (const p of payloads) expect(leakedValues(p, secrets), `${env.id} seed ${seed}`).toEqual([]);
        // the scan finds them once the goal may leave: the finished episode's view carries it
        expect(leakedValues(JSON.stringify(seat), secrets).length).toBeGreaterThan(0);
        expect(seat.hiddenGoal).toEqual((await episodeService.getEpisode(seat.id)).hiddenGoal); // JOURNEY's goal moves on
      }
    }
  }, 300_000);

  it('the world panel holds only what the agent retrieved', async () => {
    const start = await getCaller().seat.start({ envId: 'STATUS', d: 6, seed: 3 });
    expect(start.episode.world).toEqual({ orders: [], placedOrders: [], returns: [], exchanges: [] });
    const seat = await getCaller().seat.step({
      id: start.episode.id,
      action: {
        assistant_message: 'Let me look.',
        tool_calls: [{ name: 'order.list', args: { days: 7 } }],
        answer: null,
      },
    });
    const { episodeService } = await import('@/server/episodes');
    const full = await episodeService.getWorld(seat.id);
    const listed = (
      seat.events.find((e) => e.kind === 'tool_call')! as { result: { orders: Array<{ order_id: string }> } }
    ).result.orders;
    const ids = (seat.world.orders as Array<{ order_id: string }>).map((o) => o.order_id);
    expect(ids).toEqual(listed.map((o) => o.order_id));
    // the database holds more orders than a 7-day look-up returned; the seat shows only those
    expect((full.orders as unknown[]).length).toBeGreaterThan(ids.length);
    expect(typeof seat.world.today).toBe('string');
  });

  it('a reveal is recorded and sends the goal; the list marks the episode', async () => {
    const start = await getCaller().seat.start({ envId: 'PD', d: 2, seed: 5 });
    const revealed = await getCaller().seat.reveal({ id: start.episode.id });
    expect(revealed.revealed).toBe(true);
    expect(revealed.hiddenGoal?.summary.length).toBeGreaterThan(0);
    expect(revealed.seed).toBe(5);
    const list = await getCaller().episodes.list({ limit: 5 });
    expect(list.items.find((e) => e.id === start.episode.id)?.revealed).toBe(true);
  });

  it('a retried step with the same key returns the stored result instead of taking another turn', async () => {
    const start = await getCaller().seat.start({ envId: 'CART', d: 4, seed: 9 });
    const id = start.episode.id;
    const first = await getCaller().seat.step({ id, action: chat, stepKey: 'turn-1' });
    const retry = await getCaller().seat.step({ id, action: chat, stepKey: 'turn-1' });
    expect(retry).toEqual(first);
    expect(first.turn).toBe(1);
    const second = await getCaller().seat.step({ id, action: chat, stepKey: 'turn-2' });
    expect(second.turn).toBe(2);
    // an old key after a newer turn still returns its own turn's result
    const late = await getCaller().seat.step({ id, action: chat, stepKey: 'turn-1' });
    expect(late.turn).toBe(1);
    expect(late.events).toEqual(first.events);
    const { episodeService } = await import('@/server/episodes');
    expect(await episodeService.getActions(id)).toHaveLength(2);
  });
});

describe('roles (auth on)', () => {
  const auth: AuthConfig = { enabled: true, adminToken: 'admin-secret-token' };
  const anon = () => callerWith({ auth, headers: {} });
  const admin = () => callerWith({ auth, headers: { authorization: 'Bearer admin-secret-token' } });
  const agent = (token: string) => callerWith({ auth, headers: { 'x-episode-token': token } });

  it('public: descriptions and starting with default axes; not the inspector, overrides or curriculum', async () => {
    const c = await anon();
    await expect(c.envs.list()).resolves.toHaveLength(8);
    await expect(c.tools.list({ envId: 'PD' })).resolves.not.toHaveLength(0);
    await expect(c.difficulty.preview({ d: 3 })).resolves.toHaveLength(12);
    await expect(c.catalog.list()).resolves.not.toHaveLength(0);
    const started = await c.seat.start({ envId: 'PD', d: 1, seed: 1 });
    expect(started.capabilityToken).toMatch(new RegExp(`^ept1\\.${started.episode.id}\\.[A-Za-z0-9_-]{43}$`));
    const denied = { code: 'UNAUTHORIZED' };
    await expect(c.seat.start({ envId: 'PD', d: 1, axisOverrides: { T_max: 3 } })).rejects.toMatchObject(denied);
    await expect(c.episodes.list({})).rejects.toMatchObject(denied);
    await expect(c.episodes.get({ id: started.episode.id })).rejects.toMatchObject(denied);
    await expect(c.episodes.world({ id: started.episode.id })).rejects.toMatchObject(denied);
    await expect(c.seat.get({ id: started.episode.id })).rejects.toMatchObject(denied);
    await expect(c.seat.step({ id: started.episode.id, action: chat })).rejects.toMatchObject(denied);
    await expect(c.seat.reveal({ id: started.episode.id })).rejects.toMatchObject(denied);
    await expect(c.curriculum.list()).rejects.toMatchObject(denied);
    await expect(c.curriculum.meta()).rejects.toMatchObject(denied);
    await expect(c.curriculum.create({ collection: 'C1' })).rejects.toMatchObject(denied);
  });

  it("agent: its own episode's seat only", async () => {
    const a = await (await anon()).seat.start({ envId: 'CART', d: 1, seed: 2 });
    const b = await (await anon()).seat.start({ envId: 'CART', d: 1, seed: 3 });
    const c = await agent(a.capabilityToken);
    await expect(c.seat.get({ id: a.episode.id })).resolves.toMatchObject({ id: a.episode.id, hiddenGoal: null });
    await expect(c.seat.step({ id: a.episode.id, action: chat })).resolves.toMatchObject({ turn: 1 });
    await expect(c.seat.get({ id: b.episode.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(c.seat.step({ id: b.episode.id, action: chat })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(c.episodes.get({ id: a.episode.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(c.episodes.world({ id: a.episode.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect((await agent('forged-token')).seat.get({ id: a.episode.id })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('admin: the inspector, overrides and the curriculum', async () => {
    const c = await admin();
    const started = await c.seat.start({ envId: 'PD', d: 1, seed: 4, axisOverrides: { T_max: 3 } });
    await expect(c.episodes.get({ id: started.episode.id })).resolves.toMatchObject({ axes: { T_max: 3 } });
    await expect(c.episodes.list({})).resolves.toMatchObject({ items: expect.any(Array) });
    await expect(c.seat.get({ id: started.episode.id })).resolves.toMatchObject({ id: started.episode.id });
    await expect(c.curriculum.meta()).resolves.toMatchObject({ players: { agents: expect.any(Array) } });
  });

  it('auth on without an admin token: nobody is admin, and the message says what to set', async () => {
    const c = await callerWith({
      auth: { enabled: true, adminToken: null },
      headers: { authorization: 'Bearer anything' },
    });
    await expect(c.episodes.list({})).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/set ECOMRLVE_ADMIN_TOKEN/),
    });
  });
});
