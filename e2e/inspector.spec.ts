import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { rewardValue } from './play-helpers';

// The inspector across many rollouts: a heuristic agent's CART episodes are imported, the
// failed ones at d ≥ 6 found, one scrubbed and compared with the oracle on the same seed; the
// filtered set is exported and imported into a fresh database unchanged; the 32 reference
// traces are imported with their recorded and re-scored rewards.
const OUT = 'test-results/inspector';
const SHOTS = 'test-results/screenshots';
const REF_DIR = path.resolve('fixtures/reference-traces');
const ENV = { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' };

type Ev = {
  kind: string;
  turn: number;
  name?: string;
  args?: unknown;
  error?: string | null;
  result?: unknown;
  text?: string;
  answer?: unknown;
};

async function shoot(page: Page, name: string) {
  for (const width of [1440, 800]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/inspector-${name}-${width}.png`, fullPage: false });
  }
  await page.setViewportSize({ width: 1440, height: 1000 });
}

async function exported(page: Page, id: string): Promise<{ events: Ev[] }> {
  const text = await (await page.request.get(`/api/inspector/export?ids=${id}`)).text();
  return JSON.parse(text);
}

test.beforeAll(() => {
  mkdirSync(OUT, { recursive: true });
  mkdirSync(SHOTS, { recursive: true });
  execFileSync(
    'npx',
    [
      'tsx',
      'scripts/episodes-play.ts',
      '--agent',
      'heuristic',
      '--envs',
      'CART,PD',
      '--d',
      '6..7',
      '--seeds',
      '4',
      '--out',
      `${OUT}/heuristic.jsonl`,
    ],
    { env: ENV, stdio: 'pipe' },
  );
});

test('find failed CART at d ≥ 6, scrub, compare with the oracle, export and re-import', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/episodes');
  await page.getByRole('button', { name: /Import episodes/ }).click();
  await page.getByTestId('import-input').setInputFiles(`${OUT}/heuristic.jsonl`);
  await page.getByTestId('import-go').click(); // the panel lists the chosen files and asks first
  await expect(page.getByTestId('import-report')).toContainText('16 of 16 imported', { timeout: 120_000 });

  // ---- filter: CART, d ≥ 6, failed; the state is in the URL
  await page.getByTestId('filter-bar').getByRole('button', { name: 'CART', exact: true }).click();
  await page.getByLabel('d from', { exact: true }).fill('6');
  await page.getByLabel('d from', { exact: true }).press('Enter');
  await page.getByLabel('result', { exact: true }).selectOption('fail');
  await expect(page).toHaveURL(/env=CART/);
  await expect(page).toHaveURL(/dMin=6/);
  await expect(page).toHaveURL(/pass=fail/);
  const rows = page.getByTestId('episode-row');
  await expect(rows.first()).toBeVisible();
  // each filter change refetches the list: check the rows as one snapshot, again until a fetch has settled
  let n = 0;
  await expect(async () => {
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        env: tr.children[1]?.textContent,
        d: Number(tr.children[2]?.textContent),
        text: tr.textContent,
      })),
    );
    expect(cells.length).toBeGreaterThan(0);
    n = cells.length;
    for (const c of cells) {
      expect(c.env).toBe('CART');
      expect(c.d).toBeGreaterThanOrEqual(6);
      expect(c.text).toContain('fail');
    }
  }).toPass({ timeout: 15_000 });
  await page.getByTestId('toggle-charts').click();
  await expect(page.getByTestId('chart-heatmap')).toBeVisible();
  await shoot(page, 'list');
  const listUrl = page.url();

  // ---- open one, scrub to turn 2: the cart as it was then
  await rows.first().getByTestId('replay-link').click();
  await page.waitForURL(/\/episodes\/[A-Za-z0-9_-]+\?list=/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  // a failed episode says why first: the pass rule and the failing lines, above the world panel
  const why = page.getByTestId('replay-aside').getByTestId('why-failed');
  await expect(why).toContainText('CART passes when the cart matches');
  expect(await why.locator('li').count()).toBeGreaterThan(0);
  const whyTop = (await why.boundingBox())!.y;
  expect(whyTop).toBeLessThan((await page.getByTestId('world-at-turn').boundingBox())!.y);
  await expect(page.getByTestId('reward-summary-link')).toHaveText(/· fail · why\?$/);
  await expect(page.getByTestId('reward-summary-link')).toHaveAttribute('href', '#reward');
  await page.getByTestId('minimap-turn').filter({ hasText: /^2$/ }).click();
  await expect(page).toHaveURL(/turn=2/);
  await expect(page.getByTestId('world-at-turn')).toHaveAttribute('data-turn', '2');
  const { events } = await exported(page, id);
  const cartAt = (t: number) => {
    const calls = events.filter(
      (e) => e.kind === 'tool_call' && e.turn <= t && e.error === null && e.name!.startsWith('cart.'),
    );
    const last = calls[calls.length - 1]?.result as
      { lines: Array<{ product_id: string; variant_id: string | null }> } | undefined;
    return (last?.lines ?? []).map((l) => l.variant_id ?? l.product_id);
  };
  const expected = cartAt(2);
  const cart = page.getByTestId('world-at-turn').getByTestId('world-cart');
  if (expected.length === 0) await expect(cart).toContainText('The cart is empty.');
  else {
    await expect(cart.locator('tbody tr')).toHaveCount(expected.length);
    for (const key of expected) await expect(cart).toContainText(key);
  }
  // j moves to turn 3 and the world follows
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/turn=3/);
  await expect(page.getByTestId('world-at-turn')).toHaveAttribute('data-turn', '3');
  const expected3 = cartAt(3);
  if (expected3.length > 0) {
    await expect(cart.locator('tbody tr')).toHaveCount(expected3.length);
    for (const key of expected3) await expect(cart).toContainText(key);
  }
  await expect(page.getByTestId('turn-position')).toContainText('Turn 3 of');
  await expect(page.getByTestId('efficiency-line')).toContainText('turns counted → r_eff = 1 − 2·');
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/turn=2/);
  await shoot(page, 'replay');

  // ---- compare with the oracle on the same seed
  await page.getByTestId('compare-link').click();
  await page.getByTestId('play-oracle').click();
  await page.waitForURL(/\/episodes\/compare\?a=.+&b=.+/, { timeout: 120_000 });
  const b = new URL(page.url()).searchParams.get('b')!;
  const other = await exported(page, b);
  const key = (evs: Ev[], t: number) =>
    JSON.stringify(
      evs
        .filter((e) => e.turn === t && ['agent_message', 'tool_call', 'answer', 'customer_message'].includes(e.kind))
        .map((e) => [e.kind, e.text, e.name, e.args, e.answer]),
    );
  let first = 0;
  while (key(events, first) === key(other.events, first)) first++;
  await expect(page.getByTestId('first-divergence')).toContainText(first === 0 ? 'at the opening' : `at turn ${first}`);
  await expect(page.locator(`#cmp-turn-${first}`)).toHaveAttribute('data-same', 'false');
  await expect(page.getByTestId('breakdown-diff')).toContainText('r_task');
  await shoot(page, 'compare');

  // ---- compare the two agents over the same seeds
  await page.goto('/episodes/compare?ra=player%3Aheuristic&rb=player%3Aoracle');
  await expect(page.getByTestId('run-compare-table')).toContainText('CART');
  await shoot(page, 'runs');

  // ---- export the filtered set; import it into a fresh database: identical episodes
  await page.goto(listUrl);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-filtered').click()]);
  const file = `${OUT}/filtered.jsonl`;
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  expect(text.trim().split('\n')).toHaveLength(n);
  const fresh = path.resolve(`${OUT}/fresh.db`);
  rmSync(fresh, { force: true });
  const freshEnv = { ...ENV, DATABASE_URL: `file:${fresh}` };
  execFileSync('npx', ['prisma', 'migrate', 'deploy'], { env: freshEnv, stdio: 'pipe' });
  execFileSync('npx', ['tsx', 'scripts/episodes-import.ts', file], { env: freshEnv, stdio: 'pipe' });
  const again = execFileSync('npx', ['tsx', 'scripts/episodes-export.ts'], {
    env: freshEnv,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const byId = (t: string) =>
    t
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .sort((x, y) => (x.id < y.id ? -1 : 1));
  expect(byId(again)).toEqual(byId(text));
});

test('import the 32 reference traces and see each recorded and re-scored reward', async ({ page }) => {
  test.setTimeout(180_000);
  const names = readdirSync(REF_DIR);
  const table = readFileSync(path.join(REF_DIR, 'README.md'), 'utf8');
  const recorded = new Map<string, number>();
  for (const line of table.split('\n')) {
    const m = line.match(/^\| `(episode_\d+_\w+_d\d+_s\d+\.json)` \|[^|]+\|[^|]+\|[^|]+\|[^|]+\| (-?[\d.]+) \|/);
    if (m) recorded.set(m[1], Number(m[2]));
  }
  expect(recorded.size).toBe(32);
  await page.goto('/episodes');
  await page.getByRole('button', { name: /Import episodes/ }).click();
  await page.getByTestId('import-input').setInputFiles(names.map((n) => path.join(REF_DIR, n)));
  await page.getByTestId('import-go').click();
  const report = page.getByTestId('import-report');
  await expect(report).toContainText('32 of 32 imported', { timeout: 120_000 });
  const rows = report.getByTestId('import-row');
  await expect(rows).toHaveCount(32);
  for (let i = 0; i < 32; i++) {
    const cells = rows.nth(i).locator('td');
    const name = (await cells.nth(0).textContent())!.replace(/:1$/, '');
    const shown = rewardValue(await cells.nth(2).textContent());
    expect(shown).toBeCloseTo(recorded.get(name)!, 3);
    await expect(cells.nth(3)).toHaveText(/^[+\u2212]\d\.\d{3}$/);
  }
  await shoot(page, 'import');
  // PD d=6 oracle: recorded 0.85; SPEC §8 rev. 2 (T_ref = 4) gives r_eff 1/3 → 0.8
  await rows.filter({ hasText: 'episode_000002_PD_d6_s1.json' }).getByRole('link', { name: 'open' }).click();
  await expect(page.getByTestId('recorded-reward')).toHaveText('+0.850');
  await expect(page.getByTestId('rescored-reward')).toHaveText('+0.800');
  await expect(page.getByTestId('rescore-table').locator('tr[data-differs]')).toHaveCount(2); // reward and r_eff
  await shoot(page, 'reference');
});
