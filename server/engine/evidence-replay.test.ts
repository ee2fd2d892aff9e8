// The replay rule: a stored reward event may differ from the replayed one in its evidence
// wording only; every other field and every other event must be the same text.
import { describe, expect, it } from 'vitest';
import { sameEventButEvidence, withoutEvidence, EVIDENCE_LEFT_OUT } from './evidence-replay';
import { act, startEpisode } from './testing';
import type { EpisodeEvent } from './types';

function finishedRewardEvent(): EpisodeEvent {
  const { episode: ep } = startEpisode({ envId: 'STATUS', d: 0, seed: 4 });
  ep.step(act({ answer: { env: 'STATUS', done: true, selected_order_id: 'nope', order_status: 'SHIPPED' } }));
  const reward = ep.events.find((e) => e.kind === 'reward');
  if (!reward) throw new Error('no reward event');
  return reward;
}

/** The stored text of `e` after `edit` changed a plain copy of it. */
const storedAfter = (e: EpisodeEvent, edit: (x: any) => void) => {
  const copy = JSON.parse(JSON.stringify(e));
  edit(copy);
  return JSON.stringify(copy);
};

describe('sameEventButEvidence', () => {
  const reward = finishedRewardEvent();

  it('accepts the same text and a reward event whose evidence is worded or marked differently', () => {
    expect(sameEventButEvidence(reward, JSON.stringify(reward))).toBe(true);
    const reworded = storedAfter(reward, (x) => {
      x.breakdown.evidence.task[0].text = 'an older wording';
      x.breakdown.task.evidence[0].text = 'an older wording';
      x.breakdown.evidence.eff.at(-1).ok = !x.breakdown.evidence.eff.at(-1).ok;
      x.breakdown.evidence.hall.push({ text: 'a line this engine does not write', turns: [], ok: true });
    });
    expect(reworded).not.toBe(JSON.stringify(reward));
    expect(sameEventButEvidence(reward, reworded)).toBe(true);
  });

  it('refuses any other difference in a reward event: a number, the pass, a component, a key', () => {
    const edits: Array<(x: any) => void> = [
      (x) => (x.breakdown.total += 0.001),
      (x) => (x.breakdown.isCorrect = !x.breakdown.isCorrect),
      (x) => (x.breakdown.task.rTask = 0.5),
      (x) => (x.breakdown.task.metrics.rOid = 1),
      (x) => (x.breakdown.tEff += 1),
      (x) => (x.turn += 1),
      (x) => (x.breakdown.extra = 1),
    ];
    for (const edit of edits) expect(sameEventButEvidence(reward, storedAfter(reward, edit))).toBe(false);
  });

  it('refuses a changed event of any other kind, and a stored text that is not JSON', () => {
    const opening = startEpisode({ envId: 'STATUS', d: 0, seed: 4 }).episode.events[0];
    expect(
      sameEventButEvidence(
        opening,
        storedAfter(opening, (x) => (x.text = `${x.text} `)),
      ),
    ).toBe(false);
    expect(sameEventButEvidence(reward, '{not json')).toBe(false);
  });

  it('withoutEvidence leaves out the evidence of breakdowns and task results only', () => {
    const out = withoutEvidence({
      a: { evidence: [1] },
      b: { rTask: 1, evidence: [2] },
      list: [{ rTask: 0, evidence: {} }],
    });
    expect(out).toEqual({
      a: { evidence: [1] },
      b: { rTask: 1, evidence: EVIDENCE_LEFT_OUT },
      list: [{ rTask: 0, evidence: EVIDENCE_LEFT_OUT }],
    });
  });
});
