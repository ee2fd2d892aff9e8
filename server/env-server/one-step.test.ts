// One step for every seat (server/episodes/step.ts): a trainer's step on a playground episode is
// the playground's step, so it records the LLM customer's rewrite and the player its actors give,
// and the playground's next step reads nothing stale.
import { describe, expect, it } from 'vitest';
import type { CustomerVoice } from '@/server/episodes/types';
import { catalog, searchAction, serviceWith, setupServiceTests } from '@/server/episodes/test/service-kit';
import { createEnvService } from './protocol';
import { testConfig } from './test/helpers';

setupServiceTests();

/** A customer voice that rewrites every message the same way (no model called). */
const voice: CustomerVoice = {
  check: async () => {},
  rewrite: async (_name, template) => ({ text: `Hey! ${template}`, by: 'model:voice' }),
};

describe('a trainer step on a playground episode', { timeout: 120_000 }, () => {
  it('records the customer voice and the trainer as an actor, as a playground step does', async () => {
    const service = serviceWith({ customerVoice: voice });
    const trainer = createEnvService({
      config: testConfig({ persist: true, catalogId: catalog.id }),
      catalog,
      sessions: service.sessions,
    });
    const started = await service.startEpisode({ envId: 'PD', d: 2, seed: 11, customerVoice: 'voice' });
    await service.submitAction(started.id, searchAction('lamp'), { actor: 'human' });
    const chat = { assistant_message: 'What is your budget?', tool_calls: [], answer: null };
    const stepped = await trainer.stepEpisode(started.id, started.capabilityToken, chat, null);
    expect(stepped.observation.turn).toBe(2);

    const view = await service.getEpisode(started.id);
    const customerTurns = view.events.filter((e) => e.kind === 'customer_message').map((e) => e.turn);
    expect(customerTurns).toContain(2); // the customer answered the trainer's turn
    expect(view.customerRewrites!.map((r) => r.turn)).toEqual(customerTurns); // each one rewritten
    expect(view.player).toBe('mixed:human+trainer:unnamed');

    // the playground continues from the row the trainer's step left (no CONFLICT, nothing stale)
    const next = await service.submitAction(started.id, searchAction('desk'), { actor: 'human' });
    expect(next.turn).toBe(3);
    expect(next.player).toBe('mixed:human+trainer:unnamed');
  });
});
