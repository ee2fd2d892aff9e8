// Which role reaches which tRPC procedure, with auth on: one row per procedure. A procedure
// added without a row fails the first test, so every new route gets its role written down here
// (and in docs/security.md). The browser's mutations with the inputs it sends: mutations.test.ts.
// HTTP routes outside tRPC: server/env-server/app-service.test.ts (/api/env),
// server/inspector/export-route.test.ts and server/models/turn-stream.test.ts (/play/<id>/model-turn).
import { describe, expect, it } from 'vitest';
import type { AuthConfig, Role } from '@/server/auth';
import { callerWith, useTestCaller, type TestCaller } from './test/caller';

useTestCaller();

const ROLE: Record<string, Role> = {
  'envs.list': 'public',
  'tools.list': 'public',
  'difficulty.preview': 'public',
  'catalog.list': 'public',
  'catalog.titles': 'public',
  'seat.start': 'public', // default axes; overrides are checked inside (admin), see seat.test.ts
  'seat.get': 'agent',
  'seat.step': 'agent',
  'seat.reveal': 'agent',
  'episodes.list': 'admin',
  'episodes.get': 'admin',
  'episodes.world': 'admin',
  'curriculum.meta': 'admin',
  'curriculum.list': 'admin',
  'curriculum.get': 'admin',
  'curriculum.progress': 'admin',
  'curriculum.cancel': 'admin',
  'curriculum.start': 'admin',
  'curriculum.create': 'admin',
  'curriculum.step': 'admin',
  'inspector.list': 'admin',
  'inspector.facets': 'admin',
  'inspector.charts': 'admin',
  'inspector.delete': 'admin',
  'inspector.worldAt': 'admin',
  'inspector.observationAt': 'admin',
  'inspector.compare': 'admin',
  'inspector.compareRuns': 'admin',
  'inspector.sameSeed': 'admin',
  'inspector.turns': 'admin',
  'inspector.playOracle': 'admin',
  'inspector.import': 'admin',
  'play.start': 'public', // default axes; overrides are checked inside (admin), see mutations.test.ts
  'play.page': 'agent',
  'replay.page': 'admin',
  'replay.fork': 'admin',
  'replay.rescore': 'admin',
  'models.connections': 'admin',
  'models.save': 'admin',
  'models.delete': 'admin',
  'models.players': 'public',
  'runs.list': 'admin',
  'runs.start': 'admin',
  'runs.cancel': 'admin',
  'runs.stats': 'admin',
  'runs.flipped': 'admin',
  'runs.view': 'admin',
  'runs.group': 'admin',
  'runs.versus': 'admin',
  'auth.signIn': 'public',
  'auth.session': 'public',
};

const auth: AuthConfig = { enabled: true, adminToken: 'admin-secret-token' };

/** The error code a call ends with ('ok' when it ran): input errors are fine, only the role matters. */
async function outcome(caller: TestCaller, path: string, input: unknown): Promise<string> {
  const fn = path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], caller) as (
    i: unknown,
  ) => Promise<unknown>;
  return fn(input).then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? 'thrown',
  );
}

describe('roles per tRPC procedure (auth on)', () => {
  it('every procedure has a row', async () => {
    const { appRouter } = await import('@/server/trpc');
    expect(Object.keys(appRouter._def.procedures).sort()).toEqual(Object.keys(ROLE).sort());
  });

  it.each(Object.entries(ROLE))('%s is %s', async (path, role) => {
    const anon = await callerWith({ auth, headers: {} });
    const started = await anon.seat.start({ envId: 'CART', d: 1, seed: 7 });
    const id = started.episode.id;
    // an input naming the episode (agent procedures look for id / episodeId before anything else)
    const input = { id, episodeId: id, a: id, b: id, turn: 1 };
    const agent = await callerWith({ auth, headers: { 'x-episode-token': started.capabilityToken } });
    const admin = await callerWith({ auth, headers: { authorization: 'Bearer admin-secret-token' } });
    const denied = (code: string) => code === 'UNAUTHORIZED';
    expect(denied(await outcome(anon, path, input)), 'anonymous').toBe(role !== 'public');
    expect(denied(await outcome(agent, path, input)), "the episode's agent").toBe(role === 'admin');
    expect(denied(await outcome(admin, path, input)), 'the admin').toBe(false);
  });
});

describe('the oracle is the inspector’s (auth on)', () => {
  it('is offered to the admin only: a player’s playground lists the other built-in agents', async () => {
    const anon = await callerWith({ auth, headers: {} });
    const admin = await callerWith({ auth, headers: { authorization: 'Bearer admin-secret-token' } });
    expect((await anon.models.players()).agents).toEqual(['heuristic', 'random']);
    expect((await admin.models.players()).agents).toEqual(['oracle', 'heuristic', 'random']);
  });
});
