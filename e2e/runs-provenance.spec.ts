import { expect, test, type Page } from '@playwright/test';
import { createServer, type AddressInfo } from 'node:net';
import { send, shot, startEpisode, watchProblems } from './play-helpers';

// Issue 31: honest provenance and runs as linkable things. The inspector lets the oracle play
// from the playground: the stored player says so and "human turns only" leaves it out. Two batch
// runs of the same grid are named, selected and compared by URL, cell by cell.

async function shots(page: Page, name: string) {
  await shot(page, `${name}-1440`);
  await page.setViewportSize({ width: 800, height: 1000 });
  await shot(page, `${name}-800`);
  await page.setViewportSize({ width: 1440, height: 1000 });
}

/** The inspector list's row of an episode. */
const row = (page: Page, id: string) => page.locator(`[data-testid="episode-row"][data-episode-id="${id}"]`);

/** Lets the oracle play the open episode to its end. */
async function oraclePlays(page: Page) {
  const seat = page.getByTestId('model-player');
  await expect(seat).toBeEnabled();
  await expect(seat.locator('optgroup[label="inspector only"] option')).toHaveAttribute('value', 'agent:oracle');
  await seat.selectOption('agent:oracle');
  await page.getByTestId('model-speed').selectOption({ label: 'fast' });
  await page.getByTestId('model-play').click();
  await expect(page.getByTestId('open-replay')).toBeVisible({ timeout: 60_000 });
}

test('the oracle played from the playground is stored as such, and the human filter leaves it out', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const problems = watchProblems(page);

  // a person's turn only
  const human = await startEpisode(page, 'PD', 21);
  await send(page, 'Hello! Could you tell me a bit more about what you need?');
  // the oracle alone
  const oracle = await startEpisode(page, 'PD', 22);
  await oraclePlays(page);
  await expect(page.getByTestId('episode-player')).toHaveText('player oracle');
  await expect(page.getByText('oracle · spoiled')).toBeVisible();
  await shots(page, 'provenance-play-oracle');
  // a person, then the oracle
  const mixed = await startEpisode(page, 'PD', 23);
  await send(page, 'Hello! Let me look into that for you.');
  await oraclePlays(page);
  await expect(page.getByTestId('episode-player')).toHaveText('player mixed:human+oracle');

  // the stored players, as the inspector lists them
  await page.goto('/episodes?env=PD');
  await expect(row(page, human)).toContainText('human');
  await expect(row(page, human).getByTestId('spoiled-badge')).toHaveCount(0);
  await expect(row(page, oracle).getByTestId('spoiled-badge')).toBeVisible();
  await expect(row(page, mixed)).toContainText('mixed (human, oracle)');
  await expect(row(page, mixed).getByTestId('spoiled-badge')).toBeVisible();

  // "human turns only": the person's episode stays, both the oracle ever touched go
  await page.getByLabel('turns by').selectOption('human');
  await expect(page).toHaveURL(/turns=human/);
  await expect(row(page, human)).toBeVisible();
  await expect(row(page, oracle)).toHaveCount(0);
  await expect(row(page, mixed)).toHaveCount(0);
  await shots(page, 'provenance-human-filter');
  expect(problems).toEqual([]);
});

test('two batch runs of the same grid: named, linked by URL, compared cell by cell', async ({ page }) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  const startRun = async (name: string) => {
    await page.goto('/runs');
    // the form is usable once hydrated: a choice made earlier could not be lost
    await expect(page.getByTestId('run-player')).toBeEnabled();
    await expect(page.getByTestId('run-player')).toHaveValue('agent:heuristic');
    for (const box of await page.getByRole('checkbox').all()) {
      const env = await box.evaluate((el) => el.parentElement?.textContent?.trim());
      if (env === 'PD' || env === 'CART') await box.check();
      else await box.uncheck();
    }
    await page.getByTestId('run-d-from').fill('0');
    await page.getByTestId('run-d-to').fill('1');
    await page.getByTestId('run-seeds').fill('2');
    await expect(page.getByTestId('run-name')).toHaveAttribute('placeholder', 'heuristic × PD+CART × d0–1 × 2 seeds');
    if (name) await page.getByTestId('run-name').fill(name);
    await page.getByTestId('run-start').click();
    await page.waitForURL(/\/runs\?run=[^&]+$/);
    const id = new URL(page.url()).searchParams.get('run')!;
    await expect(page.locator(`[data-testid="runs"] [data-run-id="${id}"]`)).toContainText('8/8 · finished', {
      timeout: 90_000,
    });
    return id;
  };
  const first = await startRun('baseline grid');
  const second = await startRun('');
  await expect(page.getByTestId('runs')).toContainText('baseline grid');
  await expect(page.getByTestId('runs')).toContainText('heuristic × PD+CART × d0–1 × 2 seeds');

  // compare: the choice goes to the URL, and the URL alone opens it again
  await page.getByTestId('run-compare').selectOption(first);
  await expect(page).toHaveURL(`/runs?run=${second}&vs=${first}`);
  await expect(page.getByTestId('run-flips')).toContainText('0 task(s) flipped');
  await page.reload();
  await expect(page.getByTestId('run-compare')).toHaveValue(first);
  await expect(page.getByTestId('run-heatmap')).toBeVisible();
  await shots(page, 'runs-selected');

  // run-vs-run compare aligns on (env, d, seed): every cell paired
  await page.getByTestId('run-compare-link').click();
  await page.waitForURL(/\/episodes\/compare\?ra=run%3Abatch%3A.+&rb=run%3Abatch%3A.+/);
  const table = page.getByTestId('run-compare-table');
  await expect(table.locator('tbody tr')).toHaveCount(4);
  for (const cell of await table.locator('tbody tr').all()) await expect(cell.locator('td').nth(2)).toHaveText('2');
  await expect(page.getByText('A = batch run “baseline grid”')).toBeVisible();
  await shots(page, 'runs-compare');

  // the run card's episodes link keeps the run filter
  await page.goto(`/runs?run=${first}`);
  await page.getByTestId('run-episodes-link').click();
  await expect(page).toHaveURL(`/episodes?run=batch%3A${first}`);
  await expect(page.getByTestId('episode-row')).toHaveCount(8);
  await expect(page.getByLabel('run')).toHaveValue(`batch:${first}`);
  await expect(page.getByLabel('run').locator('option:checked')).toHaveText('batch: baseline grid');
  await shots(page, 'runs-episodes');
  expect(problems).toEqual([]);
});

test('a run whose model is unreachable ends its episodes infrastructure-aborted, badged', async ({ page }) => {
  test.setTimeout(150_000);
  const problems = watchProblems(page);
  // a port that was free a moment ago: nothing answers there
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as AddressInfo;
      probe.close(() => resolve(p));
    });
  });
  await page.goto('/models');
  await page.getByTestId('conn-name').fill('unreachable');
  await page.getByTestId('conn-base-url').fill(`http://127.0.0.1:${port}/v1`);
  await page.getByTestId('conn-model').fill('heuristic');
  await page.getByTestId('conn-save').click();
  await expect(
    page.locator('[data-testid="connection-row"][data-name="unreachable"]').getByTestId('conformance-reasons'),
  ).toBeVisible({ timeout: 60_000 });

  await page.goto('/runs');
  await expect(page.getByTestId('run-player')).toBeEnabled();
  await page.getByTestId('run-player').selectOption('connection:unreachable');
  for (const box of await page.getByRole('checkbox').all()) {
    const env = await box.evaluate((el) => el.parentElement?.textContent?.trim());
    if (env === 'PD') await box.check();
    else await box.uncheck();
  }
  await page.getByTestId('run-d-from').fill('0');
  await page.getByTestId('run-d-to').fill('0');
  await page.getByTestId('run-seeds').fill('2');
  await page.getByTestId('run-start').click();
  await page.waitForURL(/\/runs\?run=[^&]+$/);
  const id = new URL(page.url()).searchParams.get('run')!;
  const card = page.locator(`[data-testid="runs"] [data-run-id="${id}"]`);
  await expect(card).toContainText('2/2 · finished', { timeout: 90_000 });
  await expect(card).toContainText('2 infrastructure failures');
  await expect(card).toContainText('unreachable × PD × d0 × 2 seeds');

  await page.getByTestId('run-episodes-link').click();
  await expect(page.getByTestId('episode-row')).toHaveCount(2);
  for (const r of await page.getByTestId('episode-row').all()) {
    await expect(r.getByTestId('infra-badge')).toHaveText('infrastructure-aborted');
    await expect(r).not.toContainText('active');
  }
  await shots(page, 'runs-infra-aborted');
  // its replay opens (the stored events; no reward)
  await page.getByTestId('replay-link').first().click();
  await page.waitForURL(/\/episodes\/[^/?]+/);
  await expect(page.getByTestId('episode-player')).toHaveText('player model:unreachable');
  expect(problems).toEqual([]);
});
