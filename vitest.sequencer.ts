// Longest files first, so the run does not end with one core idle while the other finishes a
// long file. Vitest orders by the durations it cached on the last run, but CI starts from a fresh
// machine without that cache and falls back to file size: in round 10's CI order the 81 s
// heuristic-dial (a 56-line file) started 3 min in and ran alone for the last ~25 s.
// Projects still run one after the other (engine files share a worker's module cache only while
// the next file in the queue is an engine file too).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per file in the run of 1 Dec 2026 13:38 (load ≈ 8); only the order matters. */
export const KNOWN_SLOW: Record<string, number> = {
  'server/engine/agents/heuristic-dial.test.ts': 81,
  'server/engine/envs/shared/pool-equivalence.test.ts': 38,
  'server/models/goal-scan.test.ts': 31,
  'scripts/ninth-env.test.ts': 27,
  'server/models/agent-server/parity.test.ts': 22,
  'server/models/run-worker.test.ts': 17,
  'server/engine/agents/exploits/ceilings.test.ts': 17,
  'server/env-server/served-crash.test.ts': 14,
  'server/engine/catalog/synthetic.test.ts': 13,
  'server/engine/catalog/search.test.ts': 9,
  'server/env-server/pg-workers.test.ts': 8,
  'server/engine/envs/pd.test.ts': 8,
  'server/models/customer-voice.test.ts': 8,
  'server/env-server/served.test.ts': 7,
  'scripts/eval.test.ts': 7,
  'server/engine/envs/journey.test.ts': 6,
  'server/inspector/pg-parity.test.ts': 6,
};

export class SlowFirstSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files); // projects in turn; within one, the cache's or size order
    const root = this.ctx.config.root + '/';
    const seconds = (f: TestSpecification) => KNOWN_SLOW[f.moduleId.replace(root, '')] ?? 0;
    const position = new Map(base.map((f, i) => [f, i]));
    const projectStart = new Map<string, number>();
    base.forEach((f, i) => {
      if (!projectStart.has(f.project.name)) projectStart.set(f.project.name, i);
    });
    return [...base].sort(
      (a, b) =>
        projectStart.get(a.project.name)! - projectStart.get(b.project.name)! ||
        seconds(b) - seconds(a) ||
        position.get(a)! - position.get(b)!,
    );
  }
}
