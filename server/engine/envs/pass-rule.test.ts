// What listEnvs tells the app about passing and answering, the engine's own statement of it:
// the replay's "Why it failed" shows passRule, the playground offers "Send with answer (go on)"
// only where keepsGoOnAnswers holds (an atomic env drops a done: false answer: episode.test.ts).
import { describe, expect, it } from 'vitest';
import { ENV_IDS } from '../types';
import { getEnv, listEnvs } from './registry';

describe('pass rules and go-on answers in listEnvs', () => {
  it('states one pass rule per env, one sentence, ending with the reward’s own r_hall = 0 condition', () => {
    const envs = listEnvs();
    expect(envs.map((e) => e.id)).toEqual([...ENV_IDS]);
    for (const e of envs) {
      const own = getEnv(e.id).passRule;
      expect(own.length, e.id).toBeGreaterThan(10);
      expect(own, e.id).not.toMatch(/[.\n]$|\n/);
      expect(e.passRule).toBe(`${own}, and no recommended id the agent never retrieved (r_hall = 0)`);
    }
    expect(getEnv('JOURNEY').passRule).toBe('every sub-task passes by its own rule');
  });

  it('keeps a done: false answer only in the env that answers as it goes (JOURNEY, by its onAnswer)', () => {
    const keeping = listEnvs().filter((e) => e.keepsGoOnAnswers);
    expect(keeping.map((e) => e.id)).toEqual(['JOURNEY']);
    for (const e of listEnvs()) expect(e.keepsGoOnAnswers, e.id).toBe(getEnv(e.id).onAnswer !== undefined);
  });
});
