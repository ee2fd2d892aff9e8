// Engine v2 episodes still replay exactly (issue 27): the golden episodes of the 1k and 20k
// catalogs as the v2 engine played them (v2-play.json, digests computed on that engine) replay
// under engineVersion 2 to the same observations, events and termination; only the final reward
// event may differ, since reward revision 3 re-scores them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../catalog/synthetic';
import type { Catalog } from '../catalog/types';
import { REWARD_REVISION } from '../reward';
import type { Action, EpisodeConfig } from '../types';
import { createHash } from 'node:crypto';
import { compactTranscript, replayRecord, type GoldenRecord, type Transcript } from './golden';

/**
 * The digest of what the play produced outside the reward: the observations (without the tool
 * specs) and the events but the final reward event. An older engine version's episodes keep it
 * exactly while a newer reward revision re-scores them.
 */
function playDigestOf(t: Transcript): string {
  const c = compactTranscript(t);
  const events = (c.events as Array<{ kind: string }>).filter((e) => e.kind !== 'reward');
  return createHash('sha256')
    .update(JSON.stringify({ observations: c.observations, events }))
    .digest('hex');
}

interface V2Record {
  catalogSize: number;
  config: EpisodeConfig;
  agent: GoldenRecord['agent'];
  actions: Action[];
  termination: string;
  playDigest: string;
}
const file = JSON.parse(fs.readFileSync(path.join(__dirname, 'v2-play.json'), 'utf8')) as { records: V2Record[] };
const catalogs = new Map<number, Catalog>();
const catalogOf = (size: number) => {
  let c = catalogs.get(size);
  if (!c) catalogs.set(size, (c = createSyntheticCatalog({ seed: 1, size })));
  return c;
};

describe('engine v2 episodes replay exactly under engineVersion 2', () => {
  it('cover every env and both catalogs', () => {
    expect(file.records.length).toBe(288);
    expect(new Set(file.records.map((r) => r.config.envId)).size).toBe(8);
  });

  for (const size of [1_000, 20_000])
    it(
      `every v2 episode on the ${size.toLocaleString('en-US')}-product catalog plays as recorded`,
      { timeout: 300_000 },
      () => {
        const diverged: string[] = [];
        for (const r of file.records.filter((x) => x.catalogSize === size)) {
          const record = { ...r, config: { ...r.config, engineVersion: 2 } } as unknown as GoldenRecord;
          const { episode, transcript } = replayRecord(record, catalogOf(size));
          const label = `${r.config.envId} d${r.config.d} seed ${r.config.seed} ${r.agent}`;
          if (!episode.done) diverged.push(`${label}: not finished`);
          else if (episode.termination !== r.termination)
            diverged.push(`${label}: ${episode.termination} ≠ ${r.termination}`);
          else if (playDigestOf(transcript) !== r.playDigest) diverged.push(`${label}: play digest differs`);
          else expect(episode.breakdown!.revision).toBe(REWARD_REVISION);
        }
        expect(diverged).toEqual([]);
      },
    );

  it('the same actions under the current engine play differently (the v3 rules are in force)', () => {
    let differs = 0;
    for (const r of file.records.filter((x) => x.catalogSize === 1_000 && x.agent === 'oracle')) {
      try {
        const { transcript } = replayRecord(r as unknown as GoldenRecord, catalogOf(1_000));
        if (playDigestOf(transcript) !== r.playDigest) differs++;
      } catch {
        differs++;
      }
    }
    expect(differs).toBeGreaterThan(10);
  });
});
