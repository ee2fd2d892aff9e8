import { expect, test } from '@playwright/test';
import { shot, watchProblems } from './play-helpers';

// Issue 30, item 1: a curriculum run samples groups. A person plays C2 with the heuristic, G = 4
// rollouts per task at temperature 1, then reads the run as groups: the run view's figures, the
// curriculum window, a group's four rollouts of one task.

test('a curriculum run plays G rollouts per task and its run view reads them as groups', async ({ page }) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  await page.goto('/curriculum');
  await page.locator('#run-name').fill('groups on C2');
  await page.locator('#run-collection').selectOption('C2');
  await page.getByTestId('create-run').click();
  await page.waitForURL(/\/curriculum\?run=[A-Za-z0-9_-]+$/);
  const runId = new URL(page.url()).searchParams.get('run')!;

  // ---- bounds are said on the page; nothing is played
  await page.getByTestId('play-episodes').fill('30');
  await page.getByTestId('play-rollouts').fill('17');
  await page.getByTestId('play-run').click();
  await expect(page.getByTestId('play-error')).toHaveText('Rollouts per task: a whole number from 1 to 16.');
  await page.getByTestId('play-rollouts').fill('4');
  await page.getByTestId('play-temperature').fill('2.5');
  await page.getByTestId('play-run').click();
  await expect(page.getByTestId('play-error')).toContainText('Temperature: a number from 0 to 2');
  await expect(page.getByTestId('run-episodes')).toHaveText('0');

  // ---- 30 episodes in groups of 4: rounded up to 8 whole groups
  await page.getByTestId('play-temperature').fill('1');
  await page.getByTestId('play-agent').selectOption('heuristic');
  await page.getByTestId('play-run').click();
  await expect(page.getByTestId('play-result')).toContainText('Played 32 episodes', { timeout: 90_000 });
  await expect(page.getByTestId('run-episodes')).toHaveText('32');
  await shot(page, 'curriculum-groups-1440');

  // ---- the run view: 32 rollouts in 8 groups of one task each, and the curriculum's window
  await page.getByTestId('curriculum-run-view').click();
  await page.waitForURL(new RegExp(`/runs/curriculum%3A${runId}$`));
  const figures = page.getByTestId('run-figures');
  await expect(figures).toContainText('rollouts32');
  await expect(figures).toContainText('groups8');
  await expect(page.getByTestId('run-effective')).toContainText(/\d+%/);
  await expect(page.getByText('Curriculum window (upper end h per env) over the run')).toBeVisible();
  await expect(page.getByTestId('step-curves')).toBeVisible();
  await shot(page, 'curriculum-groups-runview-1440');
  await page.setViewportSize({ width: 800, height: 1000 });
  await shot(page, 'curriculum-groups-runview-800');

  // ---- a group: four rollouts of one task, side by side
  await page.getByTestId('group-link').first().click();
  await page.waitForURL(/\/groups\/g%3Atask-\d+$/);
  await expect(page.getByTestId('group-title')).toContainText(/^task-\d+: (PD|SUB) d \d+ seed \d+ · step 0$/);
  await expect(page.getByTestId('group-rollouts').locator('thead th')).toHaveCount(5);
  await shot(page, 'curriculum-groups-group-800');
  expect(problems).toEqual([]);
});
