import { D_RANGE } from './difficulty';
import { describe, expect, it } from 'vitest';
import {
  COLLECTION_IDS,
  COLLECTIONS,
  createCurriculum,
  formatWindows,
  hTimeline,
  nextTask,
  parseCurriculumState,
  recordResult,
  summarize,
  type CurriculumState,
} from './curriculum';
import { Rng } from './random';
import { ENV_IDS, type EnvId } from './types';

/** Records `n` results for one env at d, passing the first `passes` of them. */
function feed(state: CurriculumState, envId: EnvId, d: number, n: number, passes = n): CurriculumState {
  let s = state;
  for (let i = 0; i < n; i++) s = recordResult(s, { envId, d, passed: i < passes }).state;
  return s;
}
const win = (s: CurriculumState, envId: EnvId) => s.envs.find((e) => e.envId === envId)!;

describe('collections', () => {
  it('C8 (the SPEC name) is an alias of ALL: accepted, stored as ALL, not offered twice', () => {
    expect(createCurriculum('C8').collection).toBe('ALL');
    expect(createCurriculum('C8').envs).toEqual(createCurriculum('ALL').envs);
    expect(COLLECTION_IDS).toEqual(['C1', 'C2', 'C4', 'ALL']);
  });

  it('C1 ⊂ C2 ⊂ C4 ⊂ ALL (C8) with the envs SPEC names', () => {
    expect(COLLECTIONS.C1).toEqual(['PD']);
    expect(COLLECTIONS.C2).toEqual(['PD', 'SUB']);
    expect(COLLECTIONS.C4).toEqual(['PD', 'SUB', 'CART', 'RETURN']);
    expect([...COLLECTIONS.ALL].sort()).toEqual([...ENV_IDS].sort());
    expect(createCurriculum('C4').envs.map((e) => [e.envId, e.l, e.h])).toEqual([
      ['PD', 0, 0],
      ['SUB', 0, 0],
      ['CART', 0, 0],
      ['RETURN', 0, 0],
    ]);
  });

  it('rejects unknown collections and bad options', () => {
    expect(() => createCurriculum('C3' as never)).toThrow(/unknown collection "C3"/);
    expect(() => createCurriculum('C1', { batch: 0 })).toThrow(/batch/);
    expect(() => createCurriculum('C1', { threshold: 1.5 })).toThrow(/threshold/);
  });
});

describe('window rules', () => {
  it('31 passes at h change nothing; the 32nd raises h and resets the counters', () => {
    let s = feed(createCurriculum('C1'), 'PD', 0, 31);
    expect(win(s, 'PD')).toMatchObject({ l: 0, h: 0, counted: 31, passed: 31, checks: 0 });
    const out = recordResult(s, { envId: 'PD', d: 0, passed: true, at: '2026-01-01T00:00:00.000Z' });
    s = out.state;
    expect(out.moved).toBe(true);
    expect(out.check).toMatchObject({ episode: 32, h: 0, counted: 32, passed: 32, moved: true });
    expect(win(s, 'PD')).toMatchObject({ l: 0, h: 1, counted: 0, passed: 0, checks: 1 });
    expect(win(s, 'PD').history).toEqual([
      { episode: 0, l: 0, h: 0, at: null },
      { episode: 32, l: 0, h: 1, at: '2026-01-01T00:00:00.000Z' },
    ]);
  });

  it('exactly 90 % is enough; 28/32 = 87.5 % is not, and the counters still reset', () => {
    // 29/32 = 90.6 % ≥ 90 %
    let s = feed(createCurriculum('C1'), 'PD', 0, 32, 29);
    expect(win(s, 'PD').h).toBe(1);
    // 28/32 = 87.5 % < 90 %: no move, counters reset
    const before = feed(s, 'PD', 1, 31, 28);
    expect(win(before, 'PD')).toMatchObject({ counted: 31, passed: 28 });
    const out = recordResult(before, { envId: 'PD', d: 1, passed: false });
    expect(out.moved).toBe(false);
    expect(out.check).toMatchObject({ h: 1, counted: 32, passed: 28, moved: false });
    s = out.state;
    expect(win(s, 'PD')).toMatchObject({ l: 0, h: 1, counted: 0, passed: 0, checks: 2 });
    // a fresh batch of 32 at h = 1 then moves it: nothing carried over from the failed batch
    s = feed(s, 'PD', 1, 32, 29);
    expect(win(s, 'PD')).toMatchObject({ h: 2, counted: 0, passed: 0 });
    // a threshold of exactly 0.9 × 10 = 9 passes with batch 10
    const t = feed(createCurriculum('C1', { batch: 10 }), 'PD', 0, 10, 9);
    expect(win(t, 'PD').h).toBe(1);
  });

  it('l follows h − 4 once h passes 4', () => {
    let s = createCurriculum('C1');
    const seen: Array<[number, number]> = [];
    for (let h = 0; h < 8; h++) {
      s = feed(s, 'PD', h, 32);
      seen.push([win(s, 'PD').l, win(s, 'PD').h]);
    }
    expect(seen).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [1, 5],
      [2, 6],
      [3, 7],
      [4, 8],
    ]);
    expect(win(s, 'PD').history.map((c) => c.h)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('episodes below h (or above it) do not count', () => {
    let s = feed(createCurriculum('C1'), 'PD', 0, 32); // h = 1
    s = feed(s, 'PD', 0, 100); // below h: 100 passes, no effect on the window
    expect(win(s, 'PD')).toMatchObject({ l: 0, h: 1, counted: 0, passed: 0, played: 132, passedTotal: 132 });
    s = feed(s, 'PD', 5, 40); // above h (a stale task): not counted either
    expect(win(s, 'PD')).toMatchObject({ h: 1, counted: 0 });
    const out = recordResult(s, { envId: 'PD', d: 1, passed: true });
    expect(out.counted).toBe(true);
    expect(win(out.state, 'PD')).toMatchObject({ counted: 1, passed: 1 });
  });

  it('each env has its own window and counters', () => {
    let s = createCurriculum('C2');
    s = feed(s, 'PD', 0, 20);
    s = feed(s, 'SUB', 0, 32);
    s = feed(s, 'PD', 0, 12);
    expect(win(s, 'PD')).toMatchObject({ h: 1, counted: 0 });
    expect(win(s, 'SUB')).toMatchObject({ h: 1, counted: 0 });
    expect(s.episodes).toBe(64);
    expect(() => recordResult(s, { envId: 'CART', d: 0, passed: true })).toThrow(/not in collection C2/);
    expect(() => recordResult(s, { envId: 'PD', d: -1, passed: true })).toThrow(/d must be/);
  });

  it('recordResult never modifies its input', () => {
    const s = feed(createCurriculum('C1'), 'PD', 0, 31);
    const copy = JSON.parse(JSON.stringify(s));
    recordResult(s, { envId: 'PD', d: 0, passed: true });
    expect(s).toEqual(copy);
  });

  it('keeps the last 50 results for the recent pass rate', () => {
    let s = feed(createCurriculum('C1'), 'PD', 0, 40, 0); // 40 fails
    s = feed(s, 'PD', 0, 30); // 30 passes
    const [pd] = summarize(s);
    expect(pd.recentN).toBe(50);
    expect(pd.recentPassRate).toBeCloseTo(30 / 50);
    expect(win(s, 'PD').recent).toHaveLength(50);
    expect(summarize(createCurriculum('C1'))[0].recentPassRate).toBeNull();
  });
});

describe('sampling', () => {
  it('d covers exactly l..h', () => {
    let s = createCurriculum('C1');
    for (let h = 0; h < 7; h++) s = feed(s, 'PD', h, 32); // window [3, 7]
    expect([win(s, 'PD').l, win(s, 'PD').h]).toEqual([3, 7]);
    const rng = new Rng(7);
    const counts = new Map<number, number>();
    for (let i = 0; i < 5000; i++) {
      const t = nextTask(s, rng);
      expect(t.envId).toBe('PD');
      counts.set(t.d, (counts.get(t.d) ?? 0) + 1);
    }
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7]);
    for (const n of counts.values()) expect(n / 5000).toBeGreaterThan(0.17); // ≈ 0.2 each
  });

  it('uniform env choice covers the collection evenly; `only` restricts it', () => {
    const s = createCurriculum('C8');
    const rng = new Rng(1);
    const counts = new Map<string, number>();
    for (let i = 0; i < 8000; i++) {
      const t = nextTask(s, rng);
      counts.set(t.envId, (counts.get(t.envId) ?? 0) + 1);
      expect(t.d).toBe(0);
    }
    expect(counts.size).toBe(8);
    for (const n of counts.values()) expect(n / 8000).toBeGreaterThan(0.1);
    for (let i = 0; i < 50; i++) expect(['CART', 'RETURN']).toContain(nextTask(s, rng, ['CART', 'RETURN']).envId);
    expect(() => nextTask(createCurriculum('C1'), rng, ['CART'])).toThrow(/no environment to play/);
  });

  it('round-robin cycles through the collection by episode index', () => {
    let s = createCurriculum('C4', { sampling: 'round_robin' });
    const rng = new Rng(3);
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      const t = nextTask(s, rng);
      order.push(t.envId);
      s = recordResult(s, { ...t, passed: true }).state;
    }
    expect(order).toEqual(['PD', 'SUB', 'CART', 'RETURN', 'PD', 'SUB', 'CART', 'RETURN']);
  });

  it('is deterministic: the same seed and results give the same run', () => {
    const run = (seed: number) => {
      let s = createCurriculum('C4');
      const rng = new Rng(seed);
      const tasks: string[] = [];
      for (let i = 0; i < 2000; i++) {
        const t = nextTask(s, rng);
        tasks.push(`${t.envId}@${t.d}`);
        // a made-up agent: always right below d = 3, 80 % right above
        s = recordResult(s, { ...t, passed: t.d < 3 || rng.bernoulli(0.8) }).state;
      }
      return { tasks, state: s };
    };
    const a = run(11);
    const b = run(11);
    expect(a.tasks).toEqual(b.tasks);
    expect(a.state).toEqual(b.state);
    expect(run(12).tasks).not.toEqual(a.tasks);
    // that agent climbs to h = 3 and stalls there (80 % < 90 %)
    for (const e of a.state.envs) expect(e.h).toBe(3);
  });
});

describe('views and storage', () => {
  it('hTimeline gives each env’s h at every change point', () => {
    let s = createCurriculum('C2');
    s = feed(s, 'PD', 0, 32); // episode 32: PD → 1
    s = feed(s, 'SUB', 0, 32); // episode 64: SUB → 1
    s = feed(s, 'PD', 1, 32); // episode 96: PD → 2
    s = feed(s, 'PD', 2, 8, 6); // 8 more at the new h, 6 passed
    expect(hTimeline(s)).toEqual([
      { episode: 0, PD: 0, SUB: 0 },
      { episode: 32, PD: 1, SUB: 0 },
      { episode: 64, PD: 1, SUB: 1 },
      { episode: 96, PD: 2, SUB: 1 },
      { episode: 104, PD: 2, SUB: 1 },
    ]);
    expect(formatWindows(s)).toMatch(/PD\s+\[0, 2\]\s+at h: {2}8\/32 counted, {2}6 passed/);
  });

  it('survives a JSON round trip and rejects what is not a state', () => {
    const s = feed(createCurriculum('C4', { sampling: 'round_robin' }), 'CART', 0, 40);
    const back = parseCurriculumState(JSON.parse(JSON.stringify(s)));
    expect(back).toEqual(s);
    expect(() => parseCurriculumState({ version: 2 })).toThrow(/not a curriculum state/);
    expect(() => parseCurriculumState({ ...s, envs: [{ envId: 'NOPE', l: 0, h: 0, history: [] }] })).toThrow(
      /malformed/,
    );
  });
});

describe('the top of the dial', () => {
  it('h stops at the largest supported difficulty (D_RANGE.max): a perfect record at h = 30 keeps h = 30', () => {
    let s = createCurriculum('C1');
    for (let h = 0; h < D_RANGE.max; h++) s = feed(s, 'PD', h, 32);
    expect(win(s, 'PD')).toMatchObject({ h: D_RANGE.max, l: D_RANGE.max - 4 });
    const out = recordResult(feed(s, 'PD', D_RANGE.max, 31), { envId: 'PD', d: D_RANGE.max, passed: true });
    expect(out.moved).toBe(false);
    expect(win(out.state, 'PD')).toMatchObject({ h: D_RANGE.max, counted: 0, passed: 0 });
  });
});
