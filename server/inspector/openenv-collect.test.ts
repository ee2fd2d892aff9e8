// OpenEnv collect interchange: episodes exported as results.jsonl lines (OpenEnv's EpisodeRecord
// fields, nothing else) and imported back into a fresh store unchanged; a record OpenEnv's own
// collector would write (no extra) is replayed from its task and tool trace.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEpisode, oracleAgent } from '@/server/engine';
import { actionForCall } from '@/server/env-server/mcp';
import { exportJsonl } from './export';
import { importFiles } from './import';
import {
  createInspectorTestDb,
  getTestCatalog,
  testCatalog,
  TEST_CATALOG_ID,
  type InspectorTestDb,
} from './test/helpers';

const RECORD_FIELDS = [
  'artifacts',
  'done',
  'episode_id',
  'extra',
  'messages',
  'metrics',
  'reward',
  'task',
  'tool_trace',
  'verify_metrics',
];
let db: InspectorTestDb;
const ids: string[] = [];
const options = { getCatalog: getTestCatalog, defaultCatalogId: TEST_CATALOG_ID };

beforeAll(async () => {
  db = createInspectorTestDb();
  ids.push(await db.play('CART', 4, 11, 'oracle'), await db.play('STATUS', 3, 2, 'heuristic'));
}, 60_000);
afterAll(async () => db?.cleanup());

describe('OpenEnv collect results.jsonl', () => {
  it('exports EpisodeRecord lines and imports them back unchanged', async () => {
    const text = await exportJsonl(db.store, ids, 'openenv');
    const records = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(2);
    const own = (await exportJsonl(db.store, ids, 'episodes'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const [i, r] of records.entries()) {
      expect(Object.keys(r).sort()).toEqual(RECORD_FIELDS);
      expect(r).toMatchObject({ episode_id: ids[i], reward: own[i].reward, done: true });
      expect(r.task).toEqual({ env: own[i].envId, d: own[i].d, seed: own[i].seed, catalog: TEST_CATALOG_ID });
      // the chat transcript: system, the customer's opening, then assistant turns whose tool calls are answered
      expect(r.messages[0].role).toBe('system');
      expect(r.messages[1]).toEqual({ role: 'user', content: own[i].events[0].text });
      const calls = r.messages.flatMap((m: { tool_calls?: Array<{ id: string }> }) => m.tool_calls ?? []);
      const answered = r.messages
        .filter((m: { role: string }) => m.role === 'tool')
        .map((m: { tool_call_id: string }) => m.tool_call_id);
      expect(answered).toEqual(calls.map((c: { id: string }) => c.id));
      expect(r.tool_trace.length).toBe(calls.length);
      // … exactly as a tool-calling model is sent it at the table: its system prompt, wire names, the answer function
      expect(r.messages[0].content).toMatch(/\[gym\] env=\w+ T_max=\d+ B_tool=\d+$/);
      const names = calls.map((c: { function: { name: string } }) => c.function.name);
      expect(names.at(-1)).toBe('submit_answer');
      expect(names.filter((n: string) => n.includes('.'))).toEqual([]);
      // the agent's view carries no hidden goal; only the carried own-format line does
      const { extra: _, ...agentView } = r;
      expect(JSON.stringify(agentView)).not.toContain(JSON.stringify(own[i].hiddenGoal.data));
    }
    const fresh = createInspectorTestDb();
    try {
      const report = await importFiles(fresh.store, [{ name: 'results.jsonl', text }], options);
      expect(report.map((r) => [r.ok, r.kind])).toEqual([
        [true, 'openenv'],
        [true, 'openenv'],
      ]);
      for (const r of report) expect(r.rescoredReward).toBe(r.recordedReward);
      expect(await exportJsonl(fresh.store, ids, 'episodes')).toBe(await exportJsonl(db.store, ids, 'episodes'));
    } finally {
      await fresh.cleanup();
    }
  });

  it('replays a record without the carried episode (OpenEnv’s collector over MCP) from its task and tool trace', async () => {
    // what OpenEnv's collector writes when it plays CART through /mcp: one tools/call per turn
    const mirror = createEpisode({ envId: 'CART', d: 2, seed: 9 }, testCatalog());
    let observation = mirror.reset().observation;
    const trace: Array<{ tool_name: string; arguments: Record<string, unknown>; result: Record<string, unknown> }> = [];
    while (!mirror.done) {
      const action = oracleAgent.act(observation, mirror);
      const call = action.tool_calls[0]
        ? { tool_name: action.tool_calls[0].name, arguments: { ...action.tool_calls[0].args } }
        : action.answer
          ? {
              tool_name: 'answer',
              arguments: Object.fromEntries(Object.entries(action.answer).filter(([k]) => k !== 'env')),
            }
          : { tool_name: 'reply', arguments: { assistant_message: action.assistant_message } };
      observation = mirror.step(actionForCall('CART', call.tool_name, call.arguments)!).observation;
      trace.push({ ...call, result: { data: null, done: mirror.done, metadata: {}, error: null } });
    }
    const record = {
      episode_id: 'collect-0',
      messages: [],
      reward: mirror.breakdown!.total,
      done: true,
      tool_trace: trace,
      metrics: { turns: mirror.turn },
      verify_metrics: {},
      artifacts: {},
      task: { env: 'CART', d: 2, seed: 9 },
      extra: {},
    };
    const fresh = createInspectorTestDb();
    try {
      const ok = await importFiles(fresh.store, [{ name: 'results.jsonl', text: JSON.stringify(record) }], options);
      expect(ok[0]).toMatchObject({ ok: true, kind: 'openenv', id: 'collect-0' });
      const stored = JSON.parse(await exportJsonl(fresh.store, ['collect-0'], 'episodes'));
      expect(stored).toMatchObject({
        envId: 'CART',
        d: 2,
        seed: 9,
        reward: mirror.breakdown!.total,
        turn: mirror.turn,
      });
      expect(stored.events).toEqual(JSON.parse(JSON.stringify(mirror.events)));
      // a record whose reward the replay does not give is refused
      const wrong = await importFiles(
        fresh.store,
        [
          {
            name: 'bad.jsonl',
            text: JSON.stringify({ ...record, episode_id: 'collect-1', reward: record.reward + 0.5 }),
          },
        ],
        options,
      );
      expect(wrong[0]).toMatchObject({ ok: false, kind: 'openenv' });
      expect(wrong[0].message).toMatch(/is not the record's/);
    } finally {
      await fresh.cleanup();
    }
  });
});
