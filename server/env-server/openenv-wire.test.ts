// The wire's answers (openenv-wire.ts): the tool specs once per episode, in the reset's answer.
import { describe, expect, it } from 'vitest';
import { listEnvs, toolSpecsFor, type EnvId } from '@/server/engine';
import { wireReset, wireStep } from './openenv-wire';
import { wireResultSchema } from './schemas';
import { makeService, oracleRun } from './test/helpers';

const ENVS = listEnvs().map((e) => e.id as EnvId);

describe('the tools on the wire', () => {
  it.each(ENVS)('%s: an episode’s tools never change, so the reset’s answer lists them and no step’s does', (envId) => {
    // d 12: a JOURNEY of several sub-tasks (each with its own tools in the engine's definition)
    const ref = oracleRun({ envId, d: 12, seed: 21 });
    const toolsOf = (json: string) => JSON.stringify(JSON.parse(json).tools);
    for (const json of ref.observations) expect(toolsOf(json), envId).toBe(toolsOf(ref.observations[0]));

    const s = makeService();
    const { response, live } = s.reset({ env: envId, d: 12, seed: 21 });
    const reset = JSON.parse(JSON.stringify(wireReset(response, 'simulation')));
    expect(JSON.stringify(reset.observation.tools)).toBe(toolsOf(ref.observations[0]));
    for (const action of ref.actions) {
      const answer = wireStep(s.stepLive(live, action));
      expect(wireResultSchema.safeParse(answer).success, envId).toBe(true);
      expect(JSON.parse(JSON.stringify(answer)).observation, envId).not.toHaveProperty('tools');
    }
  });

  it('does not read (deep-copy) the engine’s tools for a step, and sends each other field as the engine gave it', () => {
    const s = makeService();
    const { response, live } = s.reset({ env: 'CART', d: 3, seed: 5 });
    const step = s.stepLive(live, { assistant_message: 'Let me look.', tool_calls: [{ name: 'cart.view', args: {} }] });
    Object.defineProperty(step.observation, 'tools', {
      get: () => {
        throw new Error('the engine’s tools were read');
      },
    });
    const { tools: _, ...rest } = JSON.parse(JSON.stringify(response.observation));
    const sent = JSON.parse(JSON.stringify(wireStep(step).observation));
    expect(Object.keys(sent)).toEqual([...Object.keys(rest), 'metadata']);
    expect(sent.toolResults).toEqual(JSON.parse(JSON.stringify(step.observation.toolResults)));
    expect(sent.metadata).toEqual({ episode_id: live.id, termination: null, reward_parts: null });
  });

  it('lists the engine’s own frozen tool specs (no copy kept or made here), equal to a caller’s copy', () => {
    const { response } = makeService().reset({ env: 'JOURNEY', d: 12, seed: 3 });
    const tools = wireReset(response, 'simulation').observation.tools!;
    expect(tools.every((t) => Object.isFrozen(t) && Object.isFrozen(t.parameters))).toBe(true);
    expect(tools).toEqual(toolSpecsFor('JOURNEY'));
  });

  it('leaves the seed out of a production reset’s answer', () => {
    const { response } = makeService().reset({ env: 'PD', d: 1, seed: 8 });
    expect(JSON.stringify(wireReset(response, 'production'))).not.toMatch(/"seed"/);
    expect(wireReset(response, 'simulation').observation.metadata.seed).toBe(8);
  });
});
