import { describe, expect, it } from 'vitest';
import { createHeuristicAgent, playEpisode } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { expandCells, formatBatchTable, progressBar, runBatch, summarizeBatch, type BatchRow } from './batch';
import { parseConnection } from './connection';
import { useHeuristicAgentServer } from './test/agent-server-fixture';
import { startFakeEndpoint } from './test/fake-endpoint';

const agentServer = useHeuristicAgentServer();
const fakes = agentServer.fakes;

const heuristic = () =>
  parseConnection({ name: 'h', baseUrl: agentServer.baseUrl, model: 'heuristic', maxRetries: 0 }, {});

describe('batch runs', () => {
  it('plays every cell with a concurrency limit, in grid order, with in-process rewards', async () => {
    const cells = expandCells(['STATUS', 'POLICY'], [0, 6], [1, 2]);
    const progress: number[] = [];
    const run = await runBatch(cells, testCatalog(), heuristic(), {
      concurrency: 3,
      onProgress: (done) => progress.push(done),
    });
    expect(run.cancelled).toBe(false);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(run.rows.map((r) => `${r.envId}${r.d}/${r.seed}`)).toEqual(cells.map((c) => `${c.envId}${c.d}/${c.seed}`));
    for (const row of run.rows) {
      const local = playEpisode(
        { envId: row.envId, d: row.d, seed: row.seed },
        testCatalog(),
        createHeuristicAgent(),
      ).episode;
      expect(row.reward).toBe(local.breakdown!.total);
      expect(row.pass).toBe(local.breakdown!.isCorrect);
    }
  });

  it('keeps infrastructure failures out of the rewards', async () => {
    // every other request fails for good (no retries): some episodes complete, the rest are infra errors
    let n = 0;
    const fake = await startFakeEndpoint([
      {
        kind: 'fn',
        fn: () =>
          n++ % 2 === 0
            ? {
                kind: 'reply',
                content: '',
                toolCalls: [{ name: 'submit_answer', arguments: '{"recommended_product_ids":[]}' }],
              }
            : { kind: 'status', status: 502 },
      },
    ]);
    fakes.push(fake);
    const connection = parseConnection({ name: 'flaky', baseUrl: fake.baseUrl, model: 'fake', maxRetries: 0 }, {});
    const run = await runBatch(expandCells(['PD'], [0], [1, 2, 3, 4]), testCatalog(), connection, { concurrency: 1 });
    expect(run.rows.map((r) => r.status)).toEqual(['completed', 'infra_error', 'completed', 'infra_error']);
    expect(run.rows[1]).toMatchObject({ reward: null, pass: null, turns: 0, infra: { kind: 'http', turn: 1 } });
    const [cell] = summarizeBatch(run.rows);
    expect(cell).toMatchObject({ n: 2, infraFailures: 2 });
    expect(cell.meanReward).toBe((run.rows[0].reward! + run.rows[2].reward!) / 2);
  });

  it('stops on cancel: running episodes end, no new ones start', async () => {
    const fake = await startFakeEndpoint([{ kind: 'hang' }]);
    fakes.push(fake);
    const connection = parseConnection({ name: 'slow', baseUrl: fake.baseUrl, model: 'fake', timeoutMs: 10_000 }, {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const run = await runBatch(expandCells(['PD'], [0], [1, 2, 3, 4, 5, 6]), testCatalog(), connection, {
      concurrency: 2,
      signal: controller.signal,
    });
    expect(run.cancelled).toBe(true);
    expect(run.rows).toEqual([]);
    expect(fake.requests.length).toBeLessThanOrEqual(2);
  });

  it('summarizes and formats hand-computed cells', () => {
    const row = (
      envId: 'PD' | 'CART',
      d: number,
      status: BatchRow['status'],
      reward: number | null,
      pass: boolean | null,
    ): BatchRow => ({
      envId,
      d,
      seed: 1,
      status,
      reward,
      pass,
      termination: null,
      turns: 1,
      actions: [],
    });
    const summary = summarizeBatch([
      row('PD', 0, 'completed', 0.5, true),
      row('PD', 0, 'completed', -0.5, false),
      row('PD', 0, 'infra_error', null, null),
      row('CART', 3, 'infra_error', null, null),
    ]);
    expect(summary).toEqual([
      { envId: 'PD', d: 0, n: 2, meanReward: 0, passRate: 0.5, infraFailures: 1 },
      { envId: 'CART', d: 3, n: 0, meanReward: null, passRate: null, infraFailures: 1 },
    ]);
    const table = formatBatchTable(summary);
    expect(table.split('\n')).toEqual([
      'mean reward and pass rate (scored episodes only)',
      'env             d=0        d=3',
      'PD         0.00 50%          —',
      'CART              —          —',
      '',
      'infrastructure failures (not scored): 2',
      'env             d=0        d=3',
      'PD                1          0',
      'CART              0          1',
    ]);
    expect(progressBar(5, 20, 1, 2, 10)).toBe('[###.......] 5/20 25%  2.5 ep/s  infra 1');
  });
});
