import { expect, test, type Page } from '@playwright/test';
import { shot, watchProblems } from './play-helpers';

// Issue 30: a batch run samples GRPO groups: "rollouts per seed" plays each (env, d, seed) G
// times, and a temperature makes the built-in agent's rollouts differ. The form says how many
// episodes it will play; the run's episodes are listed under its filter.

async function shots(page: Page, name: string) {
  await shot(page, `${name}-1440`);
  await page.setViewportSize({ width: 800, height: 1000 });
  await shot(page, `${name}-800`);
  await page.setViewportSize({ width: 1440, height: 1000 });
}

test('a batch run of groups: G rollouts per seed with a temperature', async ({ page }) => {
  test.setTimeout(150_000);
  const problems = watchProblems(page);
  await page.goto('/runs');
  await expect(page.getByTestId('run-player')).toBeEnabled();
  await page.getByTestId('run-player').selectOption('agent:heuristic');
  for (const box of await page.getByRole('checkbox').all()) {
    const env = await box.evaluate((el) => el.parentElement?.textContent?.trim());
    if (env === 'PD') await box.check();
    else await box.uncheck();
  }
  await page.getByTestId('run-d-from').fill('2');
  await page.getByTestId('run-d-to').fill('2');
  await page.getByTestId('run-seeds').fill('2');
  await page.getByTestId('run-rollouts').fill('3');
  await page.getByTestId('run-temperature').fill('0.8');
  await expect(page.getByTestId('run-size')).toHaveText(
    '1 env × 1 d × 2 seeds × 3 rollouts (groups of 3) = 6 episodes',
  );
  await shots(page, 'runs-groups-form');

  await page.getByTestId('run-start').click();
  await page.waitForURL(/\/runs\?run=[^&]+$/);
  const id = new URL(page.url()).searchParams.get('run')!;
  await expect(page.locator(`[data-testid="runs"] [data-run-id="${id}"]`)).toContainText('6/6 · finished', {
    timeout: 90_000,
  });
  await page.getByTestId('run-episodes-link').click();
  await expect(page).toHaveURL(`/episodes?run=batch%3A${id}`);
  await expect(page.getByTestId('episode-row')).toHaveCount(6);
  expect(problems).toEqual([]);

  // a temperature out of range is refused with the bound (the browser logs the 400), nothing started
  await page.goto('/runs');
  await expect(page.getByTestId('run-player')).toBeEnabled();
  const runs = page.getByTestId('runs').locator('[data-run-id]');
  const before = await runs.count();
  await page.getByTestId('run-temperature').fill('3');
  await page.getByTestId('run-start').click();
  await expect(page.locator('p[role="alert"]')).toHaveText('batch run: temperature: a number from 0 to 2');
  await expect(runs).toHaveCount(before);
});
