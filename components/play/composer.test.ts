// The composer offers "Send with answer (go on)" where the engine keeps a done: false answer
// (listEnvs' keepsGoOnAnswers), and nowhere else: elsewhere the button would lose the answer.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { listEnvs } from '@/server/engine';
import { Composer } from './Composer';
import type { JsonSchema } from './schema-form';

const render = (env: ReturnType<typeof listEnvs>[number]) =>
  renderToStaticMarkup(
    createElement(Composer, {
      envId: env.id,
      answerSchema: env.answerSchema as JsonSchema,
      keepsGoOnAnswers: env.keepsGoOnAnswers,
      pending: false,
      onSend: () => {},
    }),
  );

describe('Composer', () => {
  it.each(listEnvs().map((e) => [e.id, e] as const))('%s: the go-on button follows the engine', (_, env) => {
    const html = render(env);
    expect(html).toContain('data-testid="send-finish"');
    // CART has no answer fields: nothing to send with done: false either way
    const offered = env.keepsGoOnAnswers && Object.keys(env.answerSchema.properties ?? {}).length > 0;
    expect(html.includes('data-testid="send-answer"')).toBe(offered);
  });

  it('offers it in JOURNEY, and in an env the engine would say keeps go-on answers', () => {
    const [journey, pd] = ['JOURNEY', 'PD'].map((id) => listEnvs().find((e) => e.id === id)!);
    expect(render(journey)).toContain('data-testid="send-answer"');
    expect(render(pd)).not.toContain('data-testid="send-answer"');
    // the flag decides, not the env's name
    expect(render({ ...pd, keepsGoOnAnswers: true })).toContain('data-testid="send-answer"');
    expect(render({ ...journey, keepsGoOnAnswers: false })).not.toContain('data-testid="send-answer"');
  });
});
