import { expect, test, type Browser, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SHOTS, watchProblems } from './play-helpers';

// The demo bundle: a batch run's episodes downloaded from /runs as one HTML file, opened from
// disk with every request outside the file blocked, stepped through turn by turn; each
// episode's reward is the one the server's replay shows. From the replay page, the hidden goal
// is in the file only when its box is ticked.
const OUT = path.resolve('test-results/bundle');

async function download(page: Page, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bundle-download').click()]);
  const to = path.join(OUT, name);
  await file.saveAs(to);
  return to;
}

/** The file in a fresh page, offline: anything but the file itself is aborted and counted. */
async function openFromDisk(browser: Browser, file: string, width = 1440) {
  const page = await browser.newPage({ viewport: { width, height: 1000 } });
  const problems = watchProblems(page);
  const blocked: string[] = [];
  await page.route('**', (route) => {
    if (route.request().url().startsWith('file:')) return route.continue();
    blocked.push(route.request().url());
    return route.abort();
  });
  await page.goto(pathToFileURL(file).href);
  return { page, problems, blocked };
}

test.beforeAll(() => mkdirSync(OUT, { recursive: true }));

test('a run as one HTML file: offline, every turn, the replay’s rewards; the goal only when asked', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  // ---- a small run of the built-in heuristic: the eight envs at d = 3, one seed
  await page.goto('/runs');
  await page.getByTestId('run-d-from').fill('3');
  await page.getByTestId('run-d-to').fill('3');
  await page.getByTestId('run-seeds').fill('1');
  await expect(page.getByTestId('run-size')).toHaveText('8 envs × 1 d × 1 seed = 8 episodes');
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('runs')).toContainText('finished', { timeout: 90_000 });
  await page.screenshot({ path: `${SHOTS}/bundle-runs-button-1440.png` });
  const runFile = await download(page, 'run.html');
  const html = readFileSync(runFile, 'utf8');
  expect(html).toContain('"withGoal":false');

  // ---- opened from disk: nothing requested outside the file, every turn of every episode
  const disk = await openFromDisk(browser, runFile);
  const d = disk.page;
  await expect(d.locator('#bundle-goal')).toHaveText('hidden goal not included');
  const rewards = new Map<string, string>();
  for (let ep = 0; ep < 8; ep++) {
    const id = (await d.getByTestId('bundle-episode-id').textContent())!;
    await expect(d.getByTestId('turn-position')).toHaveText(/^Opening · \d+ turns?$/);
    const last = Number((await d.getByTestId('turn-position').textContent())!.match(/(\d+) turns?$/)![1]);
    expect(last).toBeGreaterThan(0);
    for (let t = 1; t <= last; t++) {
      await d.keyboard.press('ArrowRight');
      await expect(d.getByTestId('turn-position')).toHaveText(`Turn ${t} of ${last}`);
      await expect(d.locator(`section[data-turn="${t}"]`)).toBeVisible();
      await expect(d.locator('#world h3')).toHaveText(`World after turn ${t}`);
    }
    await expect(d.locator('section[data-turn]')).toHaveCount(last + 1);
    rewards.set(id, (await d.getByTestId('bundle-reward').textContent())!.replace(/^reward /, ''));
    if (ep === 3) {
      for (const width of [1440, 800]) {
        await d.setViewportSize({ width, height: 1000 });
        await d.screenshot({ path: `${SHOTS}/bundle-run-${width}.png` });
      }
      await d.setViewportSize({ width: 1440, height: 1000 });
    }
    if (ep < 7) await d.keyboard.press('ArrowRight'); // on into the next episode's opening
  }
  expect(rewards.size).toBe(8);
  // ← goes back into the previous episode's last turn
  await d.keyboard.press('ArrowLeft');
  await expect(d.getByTestId('turn-position')).toHaveText(/^Turn \d+ of \d+$/);
  // autoplay: space starts it, the turn moves without a key, space stops it
  await d.locator('select[aria-label="episode"]').selectOption('0'); // re-rendered: the focus is back on the page
  await expect(d.getByTestId('turn-position')).toHaveText(/^Opening · /);
  await d.keyboard.press(' ');
  await expect(d.getByTestId('autoplay')).toHaveText('❚❚ pause');
  await expect(d.getByTestId('turn-position')).toHaveText(/^Turn 1 of/, { timeout: 5_000 });
  await d.keyboard.press(' ');
  await expect(d.getByTestId('autoplay')).toHaveText('▶ autoplay');
  expect(disk.blocked).toEqual([]);
  expect(disk.problems).toEqual([]);
  await d.close();

  // ---- the same reward as the server's replay, episode by episode
  for (const [id, shown] of rewards) {
    await page.goto(`/episodes/${id}`);
    await expect(page.getByTestId('reward-summary-link')).toHaveText(
      new RegExp(`^reward ${shown.replace('+', '\\+')} · `),
    );
  }

  // ---- from the replay page: without the goal, then with it
  const [id] = [...rewards.keys()];
  await page.goto(`/episodes/${id}`);
  const goal = JSON.parse(await (await page.request.get(`/api/inspector/export?ids=${id}`)).text()).hiddenGoal as {
    summary: string[];
  };
  const plain = readFileSync(await download(page, 'one.html'), 'utf8');
  for (const line of goal.summary) expect(plain).not.toContain(JSON.stringify(line).slice(1, -1));
  await page.getByTestId('bundle-with-goal').check();
  await page.screenshot({ path: `${SHOTS}/bundle-replay-button-1440.png` });
  const withGoalFile = await download(page, 'one-with-goal.html');
  const open = await openFromDisk(browser, withGoalFile, 800);
  await expect(open.page.locator('#bundle-goal')).toHaveText('hidden goal included');
  await expect(open.page.locator('#goal li').first()).toHaveText(goal.summary[0]);
  await open.page.keyboard.press('ArrowRight');
  await open.page.screenshot({ path: `${SHOTS}/bundle-goal-800.png` });
  expect(open.blocked).toEqual([]);
  expect(open.problems).toEqual([]);
  await open.page.close();
});
