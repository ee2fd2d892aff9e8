// "Why it failed" shows the pass rule the engine states for the env (listEnvs' passRule), not a copy.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { listEnvs } from '@/server/engine';
import type { EvidenceItem, RewardBreakdown } from '@/server/engine/types';
import { WhyFailed } from './WhyFailed';

const item = (text: string, ok: boolean): EvidenceItem => ({ text, ok, turns: [2] });

function failed(task: EvidenceItem[]): RewardBreakdown {
  return {
    revision: 2,
    total: 0.1,
    preClip: 0.1,
    rTask: 0.2,
    rEff: 0,
    rHall: 0,
    weights: { task: 0.75, eff: 0.15, hall: 0.1 },
    isCorrect: false,
    hardFail: null,
    turns: 2,
    tUser: 0,
    tEff: 2,
    tMax: 4,
    tRef: 4,
    recommendedIds: [],
    hallucinatedIds: [],
    task: { rTask: 0.2, isCorrect: false, metrics: {}, evidence: task },
    evidence: { task, eff: [], hall: [] },
  };
}

// React escapes text; the rules hold "≥" and "(…)" only, which it leaves alone.
const render = (props: Parameters<typeof WhyFailed>[0]) => renderToStaticMarkup(createElement(WhyFailed, props));

describe('WhyFailed', () => {
  it.each(listEnvs().map((e) => [e.id, e.passRule] as const))('%s shows the engine’s pass rule', (envId, rule) => {
    const html = render({
      envId,
      passRule: rule,
      breakdown: failed([item('nDCG@4 = 0.2 → r_rank = -0.6', false)]),
      termination: 'answered',
      episodeId: 'ep1',
    });
    expect(html).toContain(`${envId} passes when</span> ${rule}.`);
    expect(html).toContain('nDCG@4 = 0.2 → r_rank = -0.6');
    expect(html).toContain('href="/episodes/ep1?turn=2#turn-2"');
  });

  it('leaves the rule line out for an env this build does not know, and says nothing for a pass', () => {
    const b = failed([item('x → r_rank = -1', false)]);
    const html = render({ envId: 'PD', passRule: undefined, breakdown: b, termination: 'answered', episodeId: 'e' });
    expect(html).toContain('Why it failed');
    expect(html).not.toContain('data-testid="pass-rule"');
    const passed = { ...b, isCorrect: true };
    expect(render({ envId: 'PD', passRule: 'r', breakdown: passed, termination: 'answered', episodeId: 'e' })).toBe('');
  });
});
