// An OpenAI chat transcript in the form this project's models are sent (models/transcript.ts,
// tool-calling mode: wire tool names, the answer as a submit_answer call) imports and re-scores
// by replay to the reward the episode was played to.
import { describe, expect, it } from 'vitest';
import { oracleAgent, playEpisode } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { buildMessages, seatHistory } from '@/server/models/transcript';
import { chatLineSchema, chatToRecord } from './import-openai';

const catalog = testCatalog();

describe('chatToRecord', () => {
  it('reads the answer of a submit_answer call, as the table names it', () => {
    const config = { envId: 'CART' as const, d: 2, seed: 5 };
    const { episode, actions } = playEpisode(config, catalog, oracleAgent);
    const budgets = { T_max: episode.axes.T_max, B_tool: episode.axes.B_tool };
    const history = seatHistory({ envId: 'CART', events: [...episode.events], budgets }, actions);
    const messages = buildMessages(history, 'tools');
    expect(JSON.stringify(messages)).toContain('"submit_answer"');
    const line = chatLineSchema.parse({ messages, metadata: { env_id: 'CART', d: 2, seed: 5 } });
    const record = chatToRecord(line, () => catalog, catalog.id, null);
    expect(record.events.filter((e) => e.kind === 'answer')).toHaveLength(1);
    expect(record.rescored).toMatchObject({ method: 'replay', reward: episode.breakdown!.total });
  });
});
