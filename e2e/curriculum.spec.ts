import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';

// A person creates a curriculum run on C4, lets the oracle play 400 then 600 episodes through
// the page, and reads the windows, the chart of h over time and the run's stored episodes.
const SHOTS = 'test-results/screenshots';

test('create a curriculum run, play episodes with the oracle, see windows and the h chart', async ({ page }) => {
  test.setTimeout(180_000); // 1,000 episodes: each oracle turn is chosen as a batch run's (a replay per turn)
  await page.goto('/');
  await page.getByRole('link', { name: 'Curriculum' }).click();
  await page.waitForURL(/\/curriculum$/);
  await expect(page.getByRole('heading', { name: 'Adaptive curriculum' })).toBeVisible();
  await expect(page.getByText('Create a run, or pick one from the list.')).toBeVisible();

  // ---- create a run on C4
  await page.locator('#run-name').fill('oracle on C4');
  await page.locator('#run-collection').selectOption('C4');
  await expect(page.getByText('PD, SUB, CART, RETURN')).toBeVisible();
  await page.getByTestId('create-run').click();
  await page.waitForURL(/\/curriculum\?run=[A-Za-z0-9_-]+$/);
  const runId = new URL(page.url()).searchParams.get('run')!;
  await expect(page.getByTestId('run-name')).toHaveText('oracle on C4');
  await expect(page.getByTestId('run-episodes')).toHaveText('0');
  const rows = page.getByTestId('window-row');
  await expect(rows).toHaveCount(4);
  for (const env of ['PD', 'SUB', 'CART', 'RETURN']) {
    await expect(page.locator(`[data-testid="window-row"][data-env="${env}"] [data-testid="window-range"]`)).toHaveText(
      '[0, 0]',
    );
  }
  await expect(page.getByText('No episodes yet: play some to see h climb.')).toBeVisible();
  await expect(page.getByTestId('run-link').filter({ hasText: 'oracle on C4' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // ---- a bad count is refused on the page, nothing is played
  await page.getByTestId('play-episodes').fill('0');
  await page.getByTestId('play-run').click();
  await expect(page.getByTestId('play-error')).toHaveText('Play 1 to 1000 episodes at a time.');
  await expect(page.getByTestId('run-episodes')).toHaveText('0');

  // ---- play 400 episodes with the oracle
  await page.getByTestId('play-episodes').fill('400');
  await page.getByTestId('play-agent').selectOption('oracle');
  await page.getByTestId('play-run').click();
  await expect(page.getByTestId('play-result')).toContainText('Played 400 episodes', { timeout: 60_000 });
  await expect(page.getByTestId('play-result')).toContainText('400 passed');
  await expect(page.getByTestId('run-episodes')).toHaveText('400');

  // the oracle passes everything, so every playable env's h has risen
  const playable = page.locator('[data-testid="window-row"]:not(:has-text("not playable yet"))');
  expect(await playable.count()).toBeGreaterThan(0);
  for (const row of await playable.all()) {
    const range = (await row.getByTestId('window-range').textContent())!;
    const [, l, h] = /\[(\d+), (\d+)\]/.exec(range)!.map(Number);
    expect(h).toBeGreaterThanOrEqual(1);
    expect(l).toBeGreaterThanOrEqual(Math.max(0, h - 4));
    await expect(row.getByTestId('window-recent')).toContainText('100%');
  }

  // ---- the chart: one step line per env, episode index on x
  const chart = page.getByTestId('h-chart');
  await expect(chart.locator('.recharts-line-curve')).toHaveCount(4);
  await expect(chart.locator('.recharts-legend-item')).toHaveCount(4);
  await expect(chart.getByText('episode', { exact: true })).toBeVisible();

  // ---- the run's episodes are stored, linked to their replays, and listed on /episodes
  const episodeRows = page.getByTestId('episode-row');
  await expect(episodeRows).toHaveCount(10);
  await expect(episodeRows.first()).toContainText('oracle');
  await expect(episodeRows.first()).toContainText('pass');
  await expect(page.getByText('(400 stored)')).toBeVisible();

  // ---- play on: the run continues from its stored state
  await page.getByTestId('play-episodes').fill('600');
  await page.getByTestId('play-run').click();
  await expect(page.getByTestId('play-result')).toContainText('Played 600 episodes', { timeout: 60_000 });
  await expect(page.getByTestId('run-episodes')).toHaveText('1000');
  await expect(page.getByText('(1000 stored)')).toBeVisible();
  const maxH = Math.max(
    ...(await page.getByTestId('window-range').allTextContents()).map((t) => Number(/, (\d+)\]/.exec(t)![1])),
  );
  expect(maxH).toBeGreaterThanOrEqual(3);

  // hovering the chart shows the real (integer) h of each env
  const box = (await chart.locator('.recharts-cartesian-grid').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
  const tooltip = chart.locator('.recharts-tooltip-wrapper');
  await expect(tooltip).toContainText('after episode');
  await expect(tooltip).toContainText(/h = \d+(?!\.)/);
  await page.mouse.move(0, 0);

  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/curriculum.png`, fullPage: true });
  await chart.screenshot({ path: `${SHOTS}/curriculum-chart.png` });

  // ---- the state is in the database: a reload shows the same run
  const before = await page.getByTestId('window-table').textContent();
  await page.reload();
  await expect(page.getByTestId('run-episodes')).toHaveText('1000');
  await expect(page.getByTestId('window-table')).toHaveText(before!);

  const replay = episodeRows.first().getByRole('link', { name: 'replay' });
  await replay.click();
  await page.waitForURL(/\/episodes\/[^/?]+$/);
  await expect(page.getByTestId('reward-breakdown')).toBeVisible();
  await page.goto(`/curriculum?run=${runId}`);
  await expect(page.getByTestId('run-episodes')).toHaveText('1000');
});
