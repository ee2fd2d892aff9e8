import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { shot, watchProblems } from './play-helpers';

// Issue 30: a training run read as groups. A trainer plays G = 4 rollouts of two prompts through
// /api/env under one run name: seed 5 mixed (two unparsable answers, two polite turns until the
// budget), seed 6 flat (four unparsable answers). The journey goes /runs → the run → the flat
// group (why it is flat) → the mixed group → its best and worst rollouts compared, by keyboard.

const RUN = 'e2e-grpo';
const CHAT = { assistant_message: 'Could you tell me a bit more?', tool_calls: [], answer: null };

async function rollout(request: APIRequestContext, seed: number, action: unknown) {
  const reset = await request.post('/api/env/reset', { data: { env: 'PD', d: 1, seed, run: RUN } });
  expect(reset.status(), await reset.text()).toBe(200);
  const wire = (await reset.json()) as {
    done: boolean;
    observation: { metadata: { episode_id: string; token: string } };
  };
  const { episode_id, token } = wire.observation.metadata;
  for (let done = wire.done; !done;) {
    const step = await request.post('/api/env/step', {
      data: { episode_id, action },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(step.status(), await step.text()).toBe(200);
    done = ((await step.json()) as { done: boolean }).done;
  }
}

/** Presses Tab until `target` has the focus (the page reachable by keyboard), then Enter. */
async function tabAndEnter(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`${target} not reached in ${max} tabs`);
}

async function shots(page: Page, name: string) {
  await shot(page, `${name}-1440`);
  await page.setViewportSize({ width: 800, height: 1000 });
  await shot(page, `${name}-800`);
  await page.setViewportSize({ width: 1440, height: 1000 });
}

test('a training run: /runs → run view → group view → best and worst compared, by keyboard', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const problems = watchProblems(page);
  for (const action of ['not json at all', 'not json at all', CHAT, CHAT]) await rollout(request, 5, action);
  for (let i = 0; i < 4; i++) await rollout(request, 6, 'not json at all');

  await page.goto('/runs');
  await tabAndEnter(page, page.getByTestId('run-links').getByRole('link', { name: RUN }));
  await expect(page).toHaveURL(`/runs/${encodeURIComponent(`trainer:${RUN}`)}`);
  await expect(page.getByTestId('run-figures')).toContainText('8');
  // two groups, one with a learning signal
  await expect(page.getByTestId('run-effective')).toContainText('50%');
  await expect(page.getByTestId('zero-all_fail_same_way')).toContainText('1 (50%)');
  await expect(page.getByTestId('reward-histograms')).toBeVisible();
  await shots(page, 'runview-run');

  // worst first: the flat group
  const links = page.getByTestId('group-link');
  await expect(links).toHaveCount(2);
  await expect(links.first()).toContainText('PD d 1 seed 6');
  await tabAndEnter(page, links.first());
  await expect(page.getByTestId('group-title')).toContainText('PD d 1 seed 6');
  await expect(page.getByTestId('group-cause')).toContainText('shared format error');
  await expect(page.getByTestId('divergence')).toContainText('never act differently');
  await expect(page.getByTestId('compare-best-worst')).toContainText('equal rewards'); // no best or worst

  await tabAndEnter(page, page.getByTestId('back-to-run'));
  await tabAndEnter(page, page.getByTestId('group-link').nth(1));
  await expect(page.getByTestId('group-title')).toContainText('PD d 1 seed 5');
  await expect(page.getByTestId('divergence')).toContainText('first act differently at turn 1');
  await expect(page.getByTestId('group-rollouts')).toContainText('advantage');
  await shots(page, 'runview-group');
  await expect(page.getByTestId('compare-best-worst')).toContainText('Compare best');
  await tabAndEnter(page, page.getByTestId('compare-best-worst'));
  await expect(page).toHaveURL(/\/episodes\/compare\?a=.+&b=.+/);
  await expect(page.getByTestId('compare-turn').first()).toBeVisible();
  expect(problems).toEqual([]);
});
