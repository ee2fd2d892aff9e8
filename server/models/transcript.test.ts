// Hand-made cases for the chat format both ends share: history → messages → the
// agent server's reconstruction, and a reply → one engine action.

import { describe, expect, it } from 'vitest';
import { toolSpecsFor, type Action, type Observation } from '@/server/engine';
import { reconstruct } from '@/scripts/agent-server/reconstruct';
import type { ChatRequest } from './openai';
import { answerParameters, openAiTools, parseGymLine, systemPrompt } from './prompt';
import { actionFromReply, buildMessages, stripCodeFence } from './transcript';

const obs = (
  turn: number,
  customerMessage: string | null,
  toolResults: Observation['toolResults'] = [],
): Observation => ({
  envId: 'PD',
  turn,
  customerMessage,
  toolResults,
  tools: toolSpecsFor('PD'),
  budgets: { T_max: 6, B_tool: 2 },
  done: false,
});

const action: Action = {
  assistant_message: 'Searching.',
  tool_calls: [
    { name: 'catalog.search', args: { query: 'usb-c charger' } },
    { name: 'catalog.get_product', args: { product_id: 'p9' } },
  ],
  answer: null,
};
const history = {
  observations: [
    obs(0, 'I need a usb-c charger under $30.'),
    obs(1, 'Anything rated 4+?', [
      { name: 'catalog.search', args: { query: 'usb-c charger' }, result: [{ product_id: 'p1' }], error: null },
      {
        name: 'catalog.get_product',
        args: { product_id: 'p9' },
        result: null,
        error: 'catalog.get_product: unknown product_id "p9"',
      },
    ]),
  ],
  actions: [action],
};

describe('messages for a history', () => {
  it('tool mode: system, opening, the assistant turn with its calls, one tool message per call, the customer', () => {
    const messages = buildMessages(history, 'tools');
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: 'Searching.',
      tool_calls: [
        {
          id: 'call_1_0',
          type: 'function',
          function: { name: 'catalog_search', arguments: '{"query":"usb-c charger"}' },
        },
        {
          id: 'call_1_1',
          type: 'function',
          function: { name: 'catalog_get_product', arguments: '{"product_id":"p9"}' },
        },
      ],
    });
    expect(messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1_0',
      content: '{"result":[{"product_id":"p1"}]}',
    });
    expect(messages[4]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1_1',
      content: '{"error":"catalog.get_product: unknown product_id \\"p9\\""}',
    });
    expect(messages[5]).toEqual({ role: 'user', content: 'Anything rated 4+?' });
  });

  it('JSON mode: observations as JSON user messages, actions as JSON text', () => {
    const messages = buildMessages(history, 'json');
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(JSON.parse(messages[1].content as string)).toEqual({
      customer_message: 'I need a usb-c charger under $30.',
      tool_results: [],
    });
    expect(JSON.parse(messages[2].content as string)).toEqual(action);
    expect(JSON.parse(messages[3].content as string).tool_results[1].error).toMatch(/unknown product_id/);
  });

  it('the agent server reads the same observations and actions back, in both modes', () => {
    for (const mode of ['tools', 'json'] as const) {
      const request: ChatRequest = {
        model: 'heuristic',
        messages: buildMessages(history, mode),
        ...(mode === 'tools' ? { tools: openAiTools('PD') } : {}),
      };
      const back = reconstruct(request);
      expect(back.mode).toBe(mode);
      expect(back.observations).toEqual(history.observations);
      expect(mode === 'json' ? JSON.parse(back.actions[0] as string) : back.actions[0]).toEqual(action);
    }
  });

  it('the system prompt ends with the line the server reads budgets from; JSON mode lists the tools', () => {
    const text = systemPrompt('PD', { T_max: 6, B_tool: 2 }, 'json');
    expect(parseGymLine(text)).toEqual({ envId: 'PD', budgets: { T_max: 6, B_tool: 2 } });
    expect(text).toContain('- catalog.search:');
    expect(systemPrompt('PD', { T_max: 6, B_tool: 2 }, 'tools')).not.toContain('- catalog.search:');
    expect(parseGymLine('You are helpful.')).toBeNull();
  });

  it("the answer tool takes the env's answer schema plus done", () => {
    const params = answerParameters('PD') as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(params.properties)).toEqual(['recommended_product_ids', 'done']);
    expect(params.required).toEqual(['recommended_product_ids']);
    expect(openAiTools('PD').at(-1)!.function.name).toBe('submit_answer');
  });
});

describe('a reply as one action', () => {
  const call = (name: string, args: string) => ({
    id: 'x',
    type: 'function' as const,
    function: { name, arguments: args },
  });

  it('maps function names back, keeps unknown ones, and turns submit_answer into the answer', () => {
    const a = actionFromReply('JOURNEY', 'tools', {
      content: 'On it.',
      tool_calls: [
        call('order_list', '{"days":60}'),
        call('web_search', '{}'),
        call('submit_answer', '{"subtasks":[],"done":false}'),
      ],
    });
    expect(a).toEqual({
      assistant_message: 'On it.',
      tool_calls: [
        { name: 'order.list', args: { days: 60 } },
        { name: 'web_search', args: {} },
      ],
      answer: { subtasks: [], done: false, env: 'JOURNEY' },
    });
  });

  it('fills an empty message, defaults done to true, keeps unparseable arguments as text', () => {
    expect(
      actionFromReply('PD', 'tools', {
        content: null,
        tool_calls: [call('submit_answer', '{"recommended_product_ids":["p1"]}')],
      }),
    ).toEqual({
      assistant_message: 'Here is my answer.',
      tool_calls: [],
      answer: { recommended_product_ids: ['p1'], env: 'PD', done: true },
    });
    // an action object holds objects only: this one goes to the engine (and the store) as its text
    const unparsed = actionFromReply('PD', 'tools', {
      content: '',
      tool_calls: [call('catalog_search', '{"query": ')],
    });
    expect(typeof unparsed).toBe('string');
    expect(JSON.parse(unparsed as string)).toEqual({
      assistant_message: 'Let me check that for you.',
      tool_calls: [{ name: 'catalog.search', args: '{"query": ' }],
      answer: null,
    });
  });

  it('text that is not an answer stays a message; JSON with foreign keys is not taken for an answer', () => {
    expect(actionFromReply('PD', 'tools', { content: 'Which colour?' })).toEqual({
      assistant_message: 'Which colour?',
      tool_calls: [],
      answer: null,
    });
    expect(actionFromReply('PD', 'tools', { content: '{"colour": "red"}' })).toEqual({
      assistant_message: '{"colour": "red"}',
      tool_calls: [],
      answer: null,
    });
  });

  it('JSON mode hands the text to the engine, without a surrounding code fence', () => {
    expect(actionFromReply('PD', 'json', { content: '```json\n{"a":1}\n```' })).toBe('{"a":1}');
    expect(actionFromReply('PD', 'json', { content: 'not json' })).toBe('not json');
    expect(stripCodeFence('```\nx\n```')).toBe('x');
  });
});

describe("the agent server's driver cache", () => {
  it('keys drivers by the observations read, hands each out once, and evicts the oldest', async () => {
    const { DriverCache } = await import('@/scripts/agent-server/driver-cache');
    const cache = new DriverCache(2);
    const driver = () => ({ assistant_message: 'x', tool_calls: [], answer: null });
    const other = () => ({ assistant_message: 'y', tool_calls: [], answer: null });
    cache.put([obs(0, 'a')], driver);
    expect(cache.take([obs(0, 'b')])).toBeUndefined(); // other observations, another key
    expect(cache.take([obs(0, 'a')])).toBe(driver); // equal observations, the same key
    expect(cache.take([obs(0, 'a')])).toBeUndefined(); // handed out once
    cache.put([obs(0, 'a')], driver);
    cache.put([obs(0, 'b')], other);
    cache.put([obs(0, 'c')], driver);
    expect(cache.take([obs(0, 'a')])).toBeUndefined(); // the oldest was evicted
    expect(cache.take([obs(0, 'b')])).toBe(other);
    const none = new DriverCache(0);
    none.put([obs(0, 'a')], driver);
    expect(none.take([obs(0, 'a')])).toBeUndefined();
  });
});
