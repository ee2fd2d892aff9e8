// The trainer API refuses, before the engine and the recorder, an action the store would not
// give back as sent (1e309, lone surrogates, 100k-deep nesting: server/lib/action-value.ts) or
// one over the stored-action limit, so what is recorded replays exactly (issue 29).
import { describe, expect, it } from 'vitest';
import { EnvServerError } from './errors';
import { makeService } from './test/helpers';

async function refusal(step: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  const e = await step.then(
    () => new Error('expected a refusal, the step was taken'),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EnvServerError);
  const err = e as EnvServerError;
  return { code: err.code, status: err.status, message: err.message };
}

describe('step: actions that would not replay as sent', () => {
  it('refuses them with a 4xx; the episode is not stepped and goes on', async () => {
    const s = makeService();
    const { episode_id: id, token } = s.reset({ env: 'CART', d: 1, seed: 4 }).response;
    const step = (action: unknown) => s.stepEpisode(id, token, action, null);
    const infinite = JSON.parse(
      '{"assistant_message":"Searching.","tool_calls":[{"name":"catalog.search","args":{"limit":1e309}}]}',
    );
    // a transport's structured action meets the published schema first, which names the place
    expect(await refusal(step(infinite))).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 422,
      message: expect.stringMatching(/^step: the action does not match the CART action schema .*tool_calls\.0\.args/),
    });
    expect((await refusal(step({ assistant_message: 'x\ud800' }))).status).toBe(422);
    expect((await refusal(step('lone \udc00'))).status).toBe(422);
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(
      (await refusal(step({ assistant_message: 'Searching.', tool_calls: [{ name: 'x', args: { q: deep } }] }))).status,
    ).toBe(422);
    // over the stored-action limit: refused whole, never stored
    expect(await refusal(step('a'.repeat(250_000)))).toMatchObject({ code: 'BODY_TOO_LARGE', status: 413 });
    expect(await refusal(step({ assistant_message: 'a'.repeat(250_000) }))).toMatchObject({ status: 413 });
    const ok = await step({
      assistant_message: 'Searching.',
      tool_calls: [{ name: 'catalog.search', args: { query: 'lamp' } }],
    });
    expect(ok.done).toBe(false);
  });
});
