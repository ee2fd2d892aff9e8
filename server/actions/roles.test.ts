// Which role reaches which server action, with auth on: one row per exported action, like
// server/trpc/roles.test.ts for tRPC. Next's request functions are replaced by the request
// headers a test sets, so the actions' own checks decide (not a page or a route around them).
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { authOnForFile } from '@/server/auth/test-auth-on';
import { appDatabaseForFile } from '@/server/episodes/test-app-db';

let requestHeaders = new Headers();
vi.mock('next/headers', () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({ set: () => {}, get: () => undefined }),
}));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
vi.mock('next/navigation', () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error(`redirect ${to}`), { redirectedTo: to });
  },
}));

appDatabaseForFile();
const episodes = await import('./episodes');
const models = await import('./models');
const rescore = await import('./rescore');
const { rescoreEpisodeAction } = rescore;
const auth = await import('./auth');
const { episodeService } = await import('@/server/episodes');
const { prisma } = await import('@/server/db');
const { createPrismaConnectionStore } = await import('@/server/models/prisma-connection-store');

const ADMIN = 'admin-secret-token';
authOnForFile(ADMIN);

type Caller = 'anonymous' | 'agent' | 'admin';
type Outcome = 'refused' | 'reached';

/** How a call ended for the role check: only UNAUTHORIZED counts as refused (bad input still reached the action). */
async function outcome(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    const r = (await call()) as { ok: boolean; code?: string; error?: string };
    return !r.ok && (r.code === 'UNAUTHORIZED' || /needs (its capability|the admin) token/.test(r.error ?? ''))
      ? 'refused'
      : 'reached';
  } catch (e) {
    if ((e as { redirectedTo?: string }).redirectedTo) return 'reached';
    throw e;
  }
}

describe('roles per server action (auth on)', () => {
  let episodeId = '';
  let agentToken = '';
  beforeAll(async () => {
    const ep = await episodeService.startEpisode({ envId: 'CART', d: 1, seed: 3 });
    episodeId = ep.id;
    agentToken = ep.capabilityToken;
    // nothing listens on port 9: a voice that is called falls back to the template at once
    const connections = createPrismaConnectionStore(prisma);
    const conn = { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0, timeoutMs: 500 };
    await connections.save({ name: 'private-voice', ...conn });
    await connections.save({ name: 'public-voice', ...conn, public: true });
  });
  const as: Record<Caller, () => Headers> = {
    anonymous: () => new Headers(),
    agent: () => new Headers({ 'x-episode-token': agentToken }),
    admin: () => new Headers({ authorization: `Bearer ${ADMIN}` }),
  };

  // action → [who calls it, the role it needs]
  const ROWS: Array<[string, () => Promise<unknown>, 'public' | 'agent' | 'admin']> = [
    ['startEpisodeAction (default axes)', () => episodes.startEpisodeAction({ envId: 'CART', d: 1 }), 'public'],
    [
      'startEpisodeAction (axis overrides)',
      () => episodes.startEpisodeAction({ envId: 'CART', d: 1, axisOverrides: { top_k: 5 } }),
      'admin',
    ],
    [
      'startEpisodeAction (a private connection as the customer voice)',
      () => episodes.startEpisodeAction({ envId: 'CART', d: 1, customerVoice: 'private-voice' }),
      'admin',
    ],
    [
      'startEpisodeAction (a public connection as the customer voice)',
      () => episodes.startEpisodeAction({ envId: 'CART', d: 1, customerVoice: 'public-voice' }),
      'public',
    ],
    ['revealGoalAction', () => episodes.revealGoalAction(episodeId), 'agent'],
    ['rescoreEpisodeAction', () => rescoreEpisodeAction(episodeId), 'admin'],
    ['listConnectionsAction', () => models.listConnectionsAction(), 'admin'],
    ['saveConnectionAction', () => models.saveConnectionAction({}), 'admin'],
    ['deleteConnectionAction', () => models.deleteConnectionAction('none'), 'admin'],
    ['tablePlayersAction', () => models.tablePlayersAction(), 'public'],
    ['forkEpisodeAction', () => models.forkEpisodeAction(episodeId, 0), 'admin'],
    ['listRunsAction', () => models.listRunsAction(), 'admin'],
    ['startRunAction', () => models.startRunAction({} as never), 'admin'],
    ['cancelRunAction', () => models.cancelRunAction('none'), 'admin'],
    ['runStatsAction', () => models.runStatsAction('none'), 'admin'],
    ['flippedTasksAction', () => models.flippedTasksAction('a', 'b'), 'admin'],
    ['signInAction (with the admin token: anyone may try it)', () => auth.signInAction(ADMIN), 'public'],
  ];

  it('has a row for every exported action of the action files', () => {
    const exported = [episodes, models, rescore, auth]
      .flatMap((m) => Object.keys(m))
      .filter((k) => k.endsWith('Action'));
    const rows = new Set(ROWS.map(([name]) => name.split(' ')[0]));
    expect(exported.filter((k) => !rows.has(k))).toEqual([]);
  });

  const reaches = (need: 'public' | 'agent' | 'admin', who: Caller) =>
    need === 'public' || who === 'admin' || (need === 'agent' && who === 'agent');

  it.each(ROWS.map(([name, call, need]) => [name, need, call] as const))('%s needs %s', async (_name, need, call) => {
    const got: Record<string, Outcome> = {};
    const want: Record<string, Outcome> = {};
    // the admin last: revealGoalAction as the agent then changes nothing the other rows read
    for (const who of ['anonymous', 'agent', 'admin'] as const) {
      requestHeaders = as[who]();
      got[who] = await outcome(call);
      want[who] = reaches(need, who) ? 'reached' : 'refused';
    }
    expect(got).toEqual(want);
  });

  it('signInAction is throttled per address: after 10 wrong tokens even the right one waits (429)', async () => {
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.9' });
    for (let i = 0; i < 10; i++) expect(await auth.signInAction(`guess-${i}`)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await auth.signInAction(ADMIN)).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.10' });
    expect(await auth.signInAction(ADMIN)).toEqual({ ok: true, data: true });
  });

  it('tablePlayersAction shows a non-admin the public connections only', async () => {
    requestHeaders = as.anonymous();
    expect(await models.tablePlayersAction()).toMatchObject({ ok: true, data: { connections: ['public-voice'] } });
    requestHeaders = as.admin();
    expect(await models.tablePlayersAction()).toMatchObject({
      ok: true,
      data: { connections: ['private-voice', 'public-voice'] },
    });
  });

  it('malformed input from a caller who may ask gets one precise error, never an internal one', async () => {
    requestHeaders = as.admin();
    const garbage: Array<[string, () => Promise<unknown>]> = [
      ['startEpisodeAction', () => episodes.startEpisodeAction(null as never)],
      ['revealGoalAction', () => episodes.revealGoalAction(42 as never)],
      ['rescoreEpisodeAction', () => rescoreEpisodeAction({} as never)],
      ['saveConnectionAction', () => models.saveConnectionAction('x')],
      ['deleteConnectionAction', () => models.deleteConnectionAction(null as never)],
      ['forkEpisodeAction', () => models.forkEpisodeAction(episodeId, 'two' as never)],
      ['startRunAction', () => models.startRunAction({} as never)],
      ['startRunAction', () => models.startRunAction({ player: 'agent:oracle', envs: 'CART' } as never)],
      ['runStatsAction', () => models.runStatsAction(7 as never)],
      ['cancelRunAction', () => models.cancelRunAction({} as never)],
      ['flippedTasksAction', () => models.flippedTasksAction(null as never, 'b')],
      ['signInAction', () => auth.signInAction({} as never)],
    ];
    for (const [name, call] of garbage) {
      const r = (await call().catch((e: Error) => ({ ok: false, code: 'THROWN', error: e.message }))) as {
        ok: boolean;
        code?: string;
        error?: string;
      };
      expect({ name, ok: r.ok, internal: r.code === 'INTERNAL' || r.code === 'THROWN' }).toEqual({
        name,
        ok: false,
        internal: false,
      });
    }
    const run = (await models.startRunAction({} as never)) as { error?: string };
    expect(run.error).toBe('batch run: player: Invalid input: expected string, received undefined');
  });

  it('startRunAction refuses what it once dropped or clamped, with the precise problem', async () => {
    requestHeaders = as.admin();
    const ok = { player: 'agent:oracle', envs: ['CART'], dFrom: 0, dTo: 1, seeds: 2, concurrency: 2 } as const;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ envs: ['CART', 'NOPE'] }, 'envs.1: unknown environment "NOPE"'],
      [{ envs: [] }, 'envs: choose at least one environment (PD, SUB, CART, RETURN, STATUS, POLICY, BUNDLE, JOURNEY)'],
      [{ envs: ['CART', 'CART'] }, 'envs: an environment is named twice'],
      [{ dFrom: 1.5 }, 'dFrom: a whole number from 0 to 12'],
      [{ dTo: 13 }, 'dTo: a whole number from 0 to 12'],
      [{ dFrom: 3, dTo: 2 }, 'dTo: the difficulty range is empty: d from is above d to'],
      [{ seeds: 0 }, 'seeds: a whole number from 1 to 50'],
      [{ seeds: 51 }, 'seeds: a whole number from 1 to 50'],
      [{ concurrency: 0 }, 'concurrency: a whole number from 1 to 8'],
      [{ concurrency: 20 }, 'concurrency: a whole number from 1 to 8'],
      [{ player: '' }, 'player: choose who plays'],
      [{ extra: 1 }, 'Unrecognized key: "extra"'],
    ];
    for (const [change, message] of cases)
      expect(await models.startRunAction({ ...ok, ...change } as never)).toEqual({
        ok: false,
        code: 'BAD_INPUT',
        error: `batch run: ${message}`,
      });
  });
});
