// Evidence that does not mislead (round 11), over real episodes of every env: the oracle, the
// heuristic and the random agent at several d. Each property is one of the defects fixed:
// a ✓ beside a failing verdict it contributes to, "0.45·-1", and the decisive line not first.
import { describe, expect, it } from 'vitest';
import { createHeuristicAgent } from './agents/heuristic';
import { oracleAgent } from './agents/oracle';
import { createRandomAgent } from './agents/random';
import type { Agent } from './agents/types';
import { Episode } from './episode';
import { decisiveFirst } from './evidence';
import { testCatalog } from './testing';
import { ENV_IDS, type EnvId, type EvidenceItem, type RewardBreakdown } from './types';

interface Played {
  label: string;
  b: RewardBreakdown;
  answered: boolean;
}

function play(envId: EnvId, d: number, seed: number, agentName: string, agent: Agent): Played {
  const episode = new Episode({ envId, d, seed }, testCatalog());
  let observation = episode.reset().observation;
  while (!episode.done) observation = episode.step(agent.act(observation, episode)).observation;
  const b = episode.breakdown!;
  return {
    label: `${envId} d${d} seed ${seed} ${agentName}`,
    b,
    answered: b.task.evidence.some((e) => e.role === 'verdict'),
  };
}

const episodes: Played[] = [];
for (const envId of ENV_IDS)
  for (const d of [0, 2, 5, 9])
    for (const seed of [1, 2, 3]) {
      episodes.push(play(envId, d, seed, 'oracle', oracleAgent));
      episodes.push(play(envId, d, seed, 'heuristic', createHeuristicAgent()));
      episodes.push(play(envId, d, seed, 'random', createRandomAgent({ seed, pPartialAnswer: 0.2 })));
    }

// RETURN at d = 1 where the heuristic's r_task reaches 0.95 but its replacement fails (seeds 0, 1, 8)
for (let seed = 0; seed <= 8; seed++) episodes.push(play('RETURN', 1, seed, 'heuristic', createHeuristicAgent()));

const all = (b: RewardBreakdown): EvidenceItem[] => [...b.evidence.task, ...b.evidence.eff, ...b.evidence.hall];
const outerVerdicts = (items: EvidenceItem[]) => items.filter((e) => e.role === 'verdict' && (e.depth ?? 0) === 0);

describe('evidence lines over real episodes of every env', () => {
  it('covers passes and fails of every env', () => {
    for (const envId of ENV_IDS) {
      const mine = episodes.filter((p) => p.label.startsWith(`${envId} `));
      expect(
        mine.some((p) => p.b.task.isCorrect),
        envId,
      ).toBe(true);
      expect(
        mine.some((p) => !p.b.task.isCorrect && p.b.hardFail === null),
        envId,
      ).toBe(true);
    }
    // the round-10 defect's shape: r_task ≥ 0.95 and still a fail
    expect(episodes.some((p) => p.b.rTask >= 0.95 && !p.b.task.isCorrect)).toBe(true);
  });

  it("the task's verdict line is one line whose ✓ is the env's pass, and says pass or fail", () => {
    for (const { label, b } of episodes) {
      const verdicts = outerVerdicts(b.evidence.task);
      expect(verdicts, label).toHaveLength(1);
      expect(verdicts[0].ok, label).toBe(b.task.isCorrect);
      expect(verdicts[0].text, label).toMatch(b.task.isCorrect ? / → pass$/ : / → fail(: .+)?$/);
    }
  });

  it('a failed task has a failing component line, and every ✓ component line lost nothing', () => {
    for (const { label, b } of episodes) {
      const parts = b.evidence.task.filter((e) => e.role === 'part' && (e.depth ?? 0) === 0);
      // (CART's and POLICY's verdict line states their one component: F1, the answer's score)
      if (!b.task.isCorrect && parts.length > 0)
        expect(
          parts.some((e) => !e.ok),
          label,
        ).toBe(true);
      for (const e of parts.filter((x) => x.ok)) {
        // "→ r_x = v": a ✓ component is at its best (RETURN's r_rep: the replacement passes on its own)
        const m = /→ (r_\w+) = (\S+)$/.exec(e.text);
        if (m && m[1] !== 'r_rep') expect(m[2], `${label}: ${e.text}`).toMatch(/^1(\.0+)?$/);
        if (/\(pass\)$/.test(e.text)) expect(e.text, label).toMatch(/^sub-task \d+ \(\w+\): r_task/);
      }
    }
  });

  it('prints no negative number with a hyphen ("0.45·-1", "= -1", "→ -1.000")', () => {
    for (const { label, b } of episodes) for (const e of all(b)) expect(e.text, label).not.toMatch(/(^|[\s=·(→,])-\d/);
  });

  it('puts the decisive line first: the failing verdict, then the failing components', () => {
    let checked = 0;
    for (const { label, b } of episodes) {
      if (b.isCorrect || b.hardFail !== null) continue;
      const reasons = decisiveFirst([...b.evidence.task, ...b.evidence.hall].filter((e) => !e.ok));
      const outer = outerVerdicts(reasons);
      expect(outer.length, label).toBeGreaterThan(0);
      expect(reasons[0], label).toBe(outer[0]);
      const firstDetail = reasons.findIndex((e) => e.role === undefined);
      const lastOuterPart = reasons.findLastIndex((e) => e.role === 'part' && (e.depth ?? 0) === 0);
      if (firstDetail >= 0) expect(lastOuterPart, label).toBeLessThan(firstDetail);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});
