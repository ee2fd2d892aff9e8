import { describe, expect, it } from 'vitest';
import { createRandomAgent, listEnvs, oracleAgent, type EnvId } from '@/server/engine';
import type { StepResponse } from './protocol';
import { makeService } from './test/helpers';
import { wireStep } from './openenv-wire';
import { observationJson, responseJson, wireBytes } from './wire-json';

const ENVS = listEnvs().map((e) => e.id as EnvId);

const toolsIsGetter = (r: StepResponse) => !!Object.getOwnPropertyDescriptor(r.observation, 'tools')?.get;

/** Every answer of one episode (reset first), played by the oracle or a random agent that also sends broken actions. */
function answers(envId: EnvId, d: number, seed: number, agent: 'oracle' | 'random', seen?: (r: StepResponse) => void) {
  const s = makeService();
  const { live, response } = s.reset({ env: envId, d, seed });
  const out: StepResponse[] = [response];
  seen?.(response); // before the agent reads the observation (and its tools)
  const random = createRandomAgent({ seed, pInvalid: 0.3, pPartialAnswer: 0.2 });
  let observation = response.observation;
  for (let turn = 0; !live.episode.done; turn++) {
    const action =
      agent === 'oracle'
        ? oracleAgent.act(observation, live.episode)
        : turn % 4 === 3
          ? '{"assistant_message": "not json'
          : random.act(observation, live.episode);
    const r = s.stepLive(live, action);
    seen?.(r);
    out.push(r);
    observation = r.observation;
  }
  return out;
}

describe('responseJson', () => {
  it('gives JSON.stringify’s bytes for every answer of every env (oracle and a random agent with broken actions), without copying the tool specs', () => {
    let checked = 0;
    const check = (r: StepResponse) => {
      // the OpenEnv shape the transports send (the observation with its metadata) keeps the fast path
      const wire = wireStep(r);
      const fastWire = responseJson(wire);
      expect(toolsIsGetter(wire as unknown as StepResponse)).toBe(true);
      expect(fastWire).toBe(JSON.stringify(wire));
      expect(toolsIsGetter(r)).toBe(true);
      const fast = responseJson(r);
      // the fast path was taken: the tools getter (a deep copy) was never called
      expect(toolsIsGetter(r)).toBe(true);
      expect(fast).toBe(JSON.stringify(r));
      checked++;
    };
    for (const envId of ENVS)
      for (let seed = 1; seed <= 4; seed++)
        for (const agent of ['oracle', 'random'] as const) answers(envId, (seed * 5) % 13, seed, agent, check);
    expect(checked).toBeGreaterThan(200);
  });

  it('serialises an observation whose tools were read or replaced as it now is', () => {
    const [first, second] = answers('CART', 3, 7, 'oracle');
    void first.observation.tools; // read: the getter settles into a plain copy
    expect(toolsIsGetter(first)).toBe(false);
    expect(responseJson(first)).toBe(JSON.stringify(first));
    second.observation.tools = [{ name: 'mine', description: 'changed by the caller', parameters: {} }];
    expect(responseJson(second)).toContain('changed by the caller');
    expect(responseJson(second)).toBe(JSON.stringify(second));
  });

  it('keeps key order and undefined fields as JSON.stringify does, wherever the spliced field sits', () => {
    const [r] = answers('PD', 2, 3, 'oracle');
    const reordered = { reward: r.reward, observation: r.observation, extra: undefined, episode_id: r.episode_id };
    expect(responseJson(reordered)).toBe(JSON.stringify(reordered));
    const observationOnly = { observation: r.observation };
    expect(responseJson(observationOnly)).toBe(JSON.stringify(observationOnly));
    expect(observationJson(r.observation)).toBe(JSON.stringify(r.observation));
  });

  it('serialises anything that is not an engine observation with JSON.stringify', () => {
    for (const body of [
      { episode_id: null, error: { code: 'BAD_TOKEN', message: 'no' } },
      { observation: { envId: 'NOPE', tools: [] } },
      { observation: null },
      [1, 'two'],
      'text',
      null,
    ])
      expect(responseJson(body)).toBe(JSON.stringify(body));
  });
});

describe('wireBytes', () => {
  const utf8 = (x: Buffer | string) => (typeof x === 'string' ? Buffer.from(x, 'utf8') : x);

  it('gives the UTF-8 of JSON.stringify for every answer of every env, wrapped as the WebSocket message, without copying the tool specs', () => {
    let nonAscii = 0;
    // every answer's bytes kept until the end: one answer's buffer never overwrites another's (the slab)
    const sent: [Buffer | string, string][] = [];
    const check = (r: StepResponse) => {
      const fast = wireBytes(r, '{"type":"observation","data":', '}');
      expect(Buffer.isBuffer(fast)).toBe(true); // the fast path was taken…
      expect(toolsIsGetter(r)).toBe(true); // …without reading the tools
      const text = `{"type":"observation","data":${JSON.stringify(r)}}`;
      sent.push([fast, text], [wireBytes(r), JSON.stringify(r)]);
      if (Buffer.byteLength(text) > text.length) nonAscii++;
    };
    for (const envId of ENVS)
      for (let seed = 1; seed <= 4; seed++)
        for (const agent of ['oracle', 'random'] as const) answers(envId, (seed * 5) % 13, seed, agent, check);
    expect(sent.length).toBeGreaterThan(400);
    const wrong = sent.filter(([bytes, text]) => !utf8(bytes).equals(Buffer.from(text, 'utf8')));
    expect(wrong).toEqual([]);
    expect(nonAscii).toBeGreaterThan(0); // multi-byte characters are among them (the specs' "1–365")
  });

  it('encodes multi-byte text around the specs, and falls back to the text for anything else', () => {
    const [r] = answers('STATUS', 4, 11, 'oracle');
    const odd = { note: 'prix: 12 €, “quoted” 🛒', observation: r.observation, tail: 'ü' };
    expect(utf8(wireBytes(odd, '«', '»')).toString('utf8')).toBe(`«${JSON.stringify(odd)}»`);
    void r.observation.tools; // read: no longer the engine's untouched specs
    expect(wireBytes(r, '[', ']')).toBe(`[${JSON.stringify(r)}]`);
    for (const body of [{ episode_id: null, error: { code: 'X', message: 'é' } }, { observation: null }, null])
      expect(wireBytes(body)).toBe(JSON.stringify(body));
  });
});
