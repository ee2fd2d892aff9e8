import { describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { parseConnection, type ConnectionInput } from './connection';
import { checkConformance } from './conformance';
import { useHeuristicAgentServer } from './test/agent-server-fixture';
import { startFakeEndpoint, type FakeStep } from './test/fake-endpoint';

const agentServer = useHeuristicAgentServer();
const endpoints = agentServer.fakes;

const connection = (baseUrl: string, extra: Partial<ConnectionInput> = {}) =>
  parseConnection({ name: 'c', baseUrl, model: 'heuristic', timeoutMs: 2000, ...extra }, {});

async function checkFake(steps: FakeStep[]) {
  const fake = await startFakeEndpoint(steps);
  endpoints.push(fake);
  return checkConformance(connection(fake.baseUrl), testCatalog());
}

const search = (query: string) => ({ name: 'catalog_search', arguments: JSON.stringify({ query }) });

describe('conformance check', () => {
  it('the heuristic behind agent:serve passes every check', async () => {
    const report = await checkConformance(connection(agentServer.baseUrl), testCatalog());
    expect(report.checks.map((c) => [c.id, c.ok, c.detail])).toEqual([
      ['answers', true, expect.stringContaining('text:')],
      ['tools', true, expect.stringMatching(/1 tool call\(s\): catalog_search/)],
      ['tool_choice_required', true, expect.any(String)],
      ['parallel_tool_calls', true, expect.stringMatching(/2 tool call\(s\)/)],
      ['json', true, expect.any(String)],
    ]);
    expect(report).toMatchObject({ ok: true, failing: [] });
  });

  it('an endpoint that only ever writes prose fails tools, required and parallel, and JSON', async () => {
    const report = await checkFake([{ kind: 'reply', content: 'Sure, I can help you find a charger!' }]);
    expect(report.failing).toEqual(['tools', 'tool_choice_required', 'parallel_tool_calls', 'json']);
    expect(report.checks.find((c) => c.id === 'tool_choice_required')!.detail).toBe(
      'tool_choice "required" was not honoured: the reply has no tool call',
    );
    expect(report.checks.find((c) => c.id === 'json')!.detail).toMatch(/^the text is not JSON/);
  });

  it('one call per reply fails only the parallel check; fenced JSON passes the JSON check', async () => {
    const action = '```json\n{"assistant_message": "Looking.", "tool_calls": [], "answer": null}\n```';
    // the probes run in order: answers, tools, required, parallel, json
    const report = await checkFake([
      { kind: 'reply', content: action },
      { kind: 'reply', toolCalls: [search('charger')] },
      { kind: 'reply', toolCalls: [search('charger')] },
      { kind: 'reply', toolCalls: [search('charger')] },
      { kind: 'reply', content: action },
    ]);
    expect(report.failing).toEqual(['parallel_tool_calls']);
    expect(report.checks[3].detail).toBe('1 tool call(s) in the reply; parallel calls need two or more');
  });

  it('names unknown functions and bad arguments', async () => {
    const report = await checkFake([
      { kind: 'reply', content: '{}' },
      { kind: 'reply', toolCalls: [{ name: 'web_search', arguments: '{}' }] },
      { kind: 'reply', toolCalls: [{ name: 'catalog_search', arguments: '{"query": ' }] },
      { kind: 'reply', toolCalls: [search('a'), { name: 'catalog_search', arguments: '[1]' }] },
      { kind: 'reply', content: '[1, 2]' },
    ]);
    expect(report.checks.map((c) => c.detail)).toEqual([
      'text: "{}"',
      'called "web_search", which was not offered (e.g. catalog_search)',
      expect.stringMatching(/^the arguments of catalog_search are not valid JSON/),
      'the arguments of catalog_search are not a JSON object',
      'the JSON is not an object',
    ]);
  });

  it('an endpoint that fails with 500 fails every check with the HTTP error', async () => {
    const report = await checkFake([{ kind: 'status', status: 500, body: 'boom' }]);
    expect(report.failing).toEqual(['answers', 'tools', 'tool_choice_required', 'parallel_tool_calls', 'json']);
    expect(report.checks[0].detail).toMatch(/HTTP 500 .*boom/);
  });
});
