// The browser's mutations (once server actions), with auth on: which role reaches each, one
// precise BAD_REQUEST for malformed input from a caller who may ask, and the cookies they set
// (the episode's capability scoped to its playground, the admin's session), never readable by
// page scripts. roles.test.ts holds the role of every procedure with a generic input; these
// rows call each with the input the browser sends.
import { beforeAll, describe, expect, it } from 'vitest';
import { authOnForFile } from '@/server/auth/test/auth-on';
import { callerWith, useTestCaller, type TestCaller } from './test/caller';

useTestCaller();
const ADMIN = 'admin-secret-token';
authOnForFile(ADMIN);
const auth = { enabled: true, adminToken: ADMIN };

type Caller = 'anonymous' | 'agent' | 'admin';
type Outcome = 'refused' | 'reached';

/** How a call ended for the role check: only UNAUTHORIZED counts as refused (bad input still reached the procedure). */
async function outcome(call: () => Promise<unknown>): Promise<Outcome> {
  return call().then(
    () => 'reached',
    (e: { code?: string }) => (e.code === 'UNAUTHORIZED' ? 'refused' : 'reached'),
  );
}

const cookiesOf = (h: Headers) => h.getSetCookie();

describe('roles per browser mutation (auth on)', () => {
  let episodeId = '';
  let agentToken = '';
  beforeAll(async () => {
    const { episodeService } = await import('@/server/episodes');
    const ep = await episodeService.startEpisode({ envId: 'CART', d: 1, seed: 3 });
    episodeId = ep.id;
    agentToken = ep.capabilityToken;
    // nothing listens on port 9: a voice that is called falls back to the template at once
    const { prisma } = await import('@/server/db');
    const { createPrismaConnectionStore } = await import('@/server/models/prisma-connection-store');
    const connections = createPrismaConnectionStore(prisma);
    const conn = { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0, timeoutMs: 500 };
    await connections.save({ name: 'private-voice', ...conn });
    await connections.save({ name: 'public-voice', ...conn, public: true });
  });
  const as: Record<Caller, () => Promise<TestCaller>> = {
    anonymous: () => callerWith({ auth, headers: {} }),
    agent: () => callerWith({ auth, headers: { 'x-episode-token': agentToken } }),
    admin: () => callerWith({ auth, headers: { authorization: `Bearer ${ADMIN}` } }),
  };

  // procedure → [what the browser sends, the role it needs]
  const ROWS: Array<[string, (c: TestCaller) => Promise<unknown>, 'public' | 'agent' | 'admin']> = [
    ['play.start (default axes)', (c) => c.play.start({ envId: 'CART', d: 1 }), 'public'],
    ['play.start (axis overrides)', (c) => c.play.start({ envId: 'CART', d: 1, axisOverrides: { top_k: 5 } }), 'admin'],
    [
      'play.start (a private connection as the customer voice)',
      (c) => c.play.start({ envId: 'CART', d: 1, customerVoice: 'private-voice' }),
      'admin',
    ],
    [
      'play.start (a public connection as the customer voice)',
      (c) => c.play.start({ envId: 'CART', d: 1, customerVoice: 'public-voice' }),
      'public',
    ],
    [
      'play.start (an unknown connection as the customer voice: answered as a private one)',
      (c) => c.play.start({ envId: 'CART', d: 1, customerVoice: 'no-such-voice' }),
      'admin',
    ],
    ['seat.reveal', (c) => c.seat.reveal({ id: episodeId }), 'agent'],
    ['replay.rescore', (c) => c.replay.rescore({ id: episodeId }), 'admin'],
    ['replay.fork', (c) => c.replay.fork({ id: episodeId, turn: 0 }), 'admin'],
    ['models.connections', (c) => c.models.connections(), 'admin'],
    ['models.save', (c) => c.models.save({}), 'admin'],
    ['models.delete', (c) => c.models.delete({ name: 'none' }), 'admin'],
    ['models.players', (c) => c.models.players(), 'public'],
    ['runs.list', (c) => c.runs.list(), 'admin'],
    ['runs.start', (c) => c.runs.start({} as never), 'admin'],
    ['runs.cancel', (c) => c.runs.cancel({ id: 'none' }), 'admin'],
    ['runs.stats', (c) => c.runs.stats({ id: 'none' }), 'admin'],
    ['runs.flipped', (c) => c.runs.flipped({ a: 'a', b: 'b' }), 'admin'],
    ['auth.signIn (with the admin token: anyone may try it)', (c) => c.auth.signIn({ token: ADMIN }), 'public'],
  ];

  const reaches = (need: 'public' | 'agent' | 'admin', who: Caller) =>
    need === 'public' || who === 'admin' || (need === 'agent' && who === 'agent');

  it.each(ROWS.map(([name, call, need]) => [name, need, call] as const))('%s needs %s', async (_name, need, call) => {
    const got: Record<string, Outcome> = {};
    const want: Record<string, Outcome> = {};
    // the admin last: seat.reveal as the agent then changes nothing the other rows read
    for (const who of ['anonymous', 'agent', 'admin'] as const) {
      const caller = await as[who]();
      got[who] = await outcome(() => call(caller));
      want[who] = reaches(need, who) ? 'reached' : 'refused';
    }
    expect(got).toEqual(want);
  });

  it('auth.signIn is throttled per address: after 10 wrong tokens even the right one waits (429)', async () => {
    const from = (address: string) => callerWith({ auth, headers: { 'x-forwarded-for': address } });
    const guesser = await from('203.0.113.9');
    for (let i = 0; i < 10; i++)
      await expect(guesser.auth.signIn({ token: `guess-${i}` })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(guesser.auth.signIn({ token: ADMIN })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: expect.stringMatching(/^too many wrong admin tokens; try again in \d+ s$/),
    });
    await expect((await from('203.0.113.10')).auth.signIn({ token: ADMIN })).resolves.toEqual({ admin: true });
  });

  it('models.players shows a non-admin the public connections only', async () => {
    expect((await (await as.anonymous()).models.players()).connections).toEqual(['public-voice']);
    expect((await (await as.agent()).models.players()).connections).toEqual(['public-voice']);
    expect((await (await as.admin()).models.players()).connections).toEqual(['private-voice', 'public-voice']);
  });

  it('refuses a caller without the role before it looks at the input', async () => {
    const anon = await as.anonymous();
    await expect(anon.runs.start(7 as never)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/^this admin operation needs the admin token/),
    });
  });

  it('malformed input from a caller who may ask gets one precise error, never an internal one', async () => {
    const admin = await as.admin();
    const garbage: Array<[string, () => Promise<unknown>]> = [
      ['play.start', () => admin.play.start(null as never)],
      ['seat.reveal', () => admin.seat.reveal(42 as never)],
      ['replay.rescore', () => admin.replay.rescore({} as never)],
      ['replay.fork', () => admin.replay.fork({ id: episodeId, turn: 'two' } as never)],
      ['models.save', () => admin.models.save('x')],
      ['models.delete', () => admin.models.delete(null as never)],
      ['runs.start', () => admin.runs.start({} as never)],
      ['runs.start', () => admin.runs.start({ player: 'agent:oracle', envs: 'CART' } as never)],
      ['runs.stats', () => admin.runs.stats(7 as never)],
      ['runs.cancel', () => admin.runs.cancel({} as never)],
      ['runs.flipped', () => admin.runs.flipped({ a: null, b: 'b' } as never)],
      ['auth.signIn', () => admin.auth.signIn({} as never)],
    ];
    for (const [name, call] of garbage) {
      const code = await call().then(
        () => 'ok',
        (e: { code?: string }) => e.code ?? 'thrown',
      );
      expect({ name, code }).toEqual({ name, code: 'BAD_REQUEST' });
    }
    await expect(admin.runs.start({} as never)).rejects.toMatchObject({
      message: 'batch run: player: Invalid input: expected string, received undefined',
    });
    await expect(admin.play.start(null as never)).rejects.toMatchObject({
      message: 'start episode: Invalid input: expected object, received null',
    });
  });

  it('runs.start refuses what it once dropped or clamped, with the precise problem', async () => {
    const admin = await as.admin();
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
      [{ rolloutsPerSeed: 0 }, 'rolloutsPerSeed: a whole number from 1 to 16'],
      [{ rolloutsPerSeed: 2.5 }, 'rolloutsPerSeed: a whole number from 1 to 16'],
      [{ temperature: -0.1 }, 'temperature: a number from 0 to 2'],
      [{ temperature: 2.5 }, 'temperature: a number from 0 to 2'],
      [{ temperature: 'hot' }, 'temperature: a number from 0 to 2'],
      [{ player: '' }, 'player: choose who plays'],
      [{ extra: 1 }, 'Unrecognized key: "extra"'],
    ];
    for (const [change, message] of cases)
      await expect(admin.runs.start({ ...ok, ...change } as never), message).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: `batch run: ${message}`,
      });
  });
});

describe('cookies the browser mutations set (auth on)', () => {
  it("play.start hands the episode's capability over as an HttpOnly cookie scoped to its playground, not in the body", async () => {
    const resHeaders = new Headers();
    const anon = await callerWith({ auth, headers: {}, resHeaders });
    const started = await anon.play.start({ envId: 'PD', d: 1, seed: 4 });
    expect(Object.keys(started)).toEqual(['id']);
    const [cookie] = cookiesOf(resHeaders);
    expect(cookie).toMatch(
      new RegExp(
        `^ecomrlve_ep_${started.id}=ept1\\.${started.id}\\.[A-Za-z0-9_-]{43}; Path=/play/${started.id}; Max-Age=\\d+; HttpOnly; SameSite=Strict$`,
      ),
    );
    expect(cookiesOf(resHeaders)).toHaveLength(1);
    // the cookie opens this episode's seat, and only this one's
    const seat = await callerWith({ auth, headers: { cookie: cookie.split(';')[0] } });
    await expect(seat.seat.get({ id: started.id })).resolves.toMatchObject({ id: started.id, hiddenGoal: null });
    const other = await anon.play.start({ envId: 'PD', d: 1, seed: 5 });
    await expect(seat.seat.get({ id: other.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    // player "human" unless the form names one
    const { episodeService } = await import('@/server/episodes');
    expect((await episodeService.getEpisode(started.id)).player).toBe('human');
  });

  it('replay.fork hands the fork its own seat cookie', async () => {
    const admin = await callerWith({ auth, headers: { authorization: `Bearer ${ADMIN}` } });
    const parent = await admin.play.start({ envId: 'CART', d: 1, seed: 6 });
    const resHeaders = new Headers();
    const forker = await callerWith({ auth, headers: { authorization: `Bearer ${ADMIN}` }, resHeaders });
    const fork = await forker.replay.fork({ id: parent.id, turn: 0 });
    expect(fork.id).not.toBe(parent.id);
    expect(cookiesOf(resHeaders)[0]).toMatch(new RegExp(`^ecomrlve_ep_${fork.id}=[^;]+; Path=/play/${fork.id};`));
  });

  it('auth.signIn keeps a digest of the admin token (Secure behind HTTPS); a wrong token sets nothing', async () => {
    const { ADMIN_COOKIE, adminCookieValue } = await import('@/server/auth');
    const wrongHeaders = new Headers();
    const wrong = await callerWith({ auth, headers: {}, resHeaders: wrongHeaders });
    await expect(wrong.auth.signIn({ token: 'not-it' })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'that is not the admin token',
    });
    expect(cookiesOf(wrongHeaders)).toEqual([]);
    const resHeaders = new Headers();
    const c = await callerWith({ auth, headers: { 'x-forwarded-proto': 'https' }, resHeaders });
    await expect(c.auth.signIn({ token: ` ${ADMIN} ` })).resolves.toEqual({ admin: true });
    const [cookie] = cookiesOf(resHeaders);
    expect(cookie).toBe(
      `${ADMIN_COOKIE}=${adminCookieValue(ADMIN)}; Path=/; Max-Age=${7 * 24 * 3600}; HttpOnly; SameSite=Strict; Secure`,
    );
    expect(cookie).not.toContain(ADMIN);
    // the cookie is the admin's session
    const session = await callerWith({ auth, headers: { cookie: cookie.split(';')[0] } });
    await expect(session.auth.session()).resolves.toEqual({ admin: true });
    await expect((await callerWith({ auth, headers: {} })).auth.session()).resolves.toEqual({ admin: false });
  });

  it('auth on without an admin token: sign-in says what to set', async () => {
    const c = await callerWith({ auth: { enabled: true, adminToken: null }, headers: {} });
    await expect(c.auth.signIn({ token: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'this server has no admin token: set ECOMRLVE_ADMIN_TOKEN and restart it',
    });
  });
});
