import { expect, test, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { startFakeEndpoint, type FakeEndpoint } from '../server/models/test/fake-endpoint';
import { shot, watchProblems } from './play-helpers';

// Models at the table (issue 9), end to end over real HTTP: the heuristic behind
// `npm run agent:serve` is registered on /models, passes the conformance check, plays a PD
// episode at d = 3 to the end; another is taken over by a person after two model turns; the
// replay says who took each turn; a fork at turn 2 shows the parent's first two turns.
const AGENT_PORT = Number(process.env.E2E_AGENT_PORT ?? 8021);
const FAKE_PORT = Number(process.env.E2E_FAKE_PORT ?? AGENT_PORT + 1);
let agent: ChildProcess | undefined;
let fake: FakeEndpoint | undefined;

test.beforeAll(async () => {
  agent = spawn('npm', ['run', '-s', 'agent:serve', '--', '--agent', 'heuristic', '--port', String(AGENT_PORT)], {
    stdio: 'ignore',
    detached: true,
  });
  for (let i = 0; i < 120; i++) {
    const up = await fetch(`http://127.0.0.1:${AGENT_PORT}/v1/models`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the agent server did not start on port ${AGENT_PORT}`);
});
test.afterAll(async () => {
  if (agent?.pid) process.kill(-agent.pid, 'SIGTERM'); // its own process group: npm and the server
  await fake?.close();
});

/** The page at 1440 px (the default) and at 800 px. */
async function shots(page: Page, name: string) {
  await shot(page, name);
  await page.setViewportSize({ width: 800, height: 1000 });
  await shot(page, `${name}-800`);
  await page.setViewportSize({ width: 1440, height: 1000 });
}

async function startPD(page: Page, seed: number) {
  await page.goto('/');
  await page.getByLabel('Environment').selectOption('PD');
  await page.locator('#difficulty').fill('3');
  await expect(page.getByTestId('d-value')).toHaveText('d = 3');
  await page.getByTestId('seed-random').uncheck();
  await page.getByLabel('seed').fill(String(seed));
  await page.getByTestId('start-episode').click();
  await page.waitForURL(/\/play\/[^/]+$/);
  return page.url().split('/').pop()!;
}

test('register the local agent server, let it play, take over, inspect and fork', async ({ page }) => {
  test.setTimeout(240_000);
  const problems = watchProblems(page);

  // ---- /models: register, conformance passes
  await page.goto('/models');
  await page.getByTestId('conn-name').fill('local-heuristic');
  await page.getByTestId('conn-base-url').fill(`http://127.0.0.1:${AGENT_PORT}/v1`);
  await page.getByTestId('conn-model').fill('heuristic');
  await page.getByTestId('conn-save').click();
  const row = page.locator('[data-testid="connection-row"][data-name="local-heuristic"]');
  await expect(row.getByTestId('conformance-ok')).toBeVisible({ timeout: 60_000 });
  await shots(page, 'models');

  // ---- a model plays PD d = 3 to the end
  await startPD(page, 5);
  // other journeys register connections in the same database: choose this one by name
  await page.getByTestId('model-player').selectOption('connection:local-heuristic');
  await expect(page.getByTestId('model-player')).toHaveValue('connection:local-heuristic');
  await page.getByTestId('model-speed').selectOption({ label: 'fast' });
  await page.getByTestId('model-play').click();
  await expect(page.getByTestId('open-replay')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('turn-actor').first()).toHaveText('model local-heuristic');
  await shot(page, 'play-model');
  const finished = page.url().split('/').pop()!;

  // ---- another: two model turns, take over, finish by hand
  const second = await startPD(page, 9);
  await page.getByTestId('model-player').selectOption('connection:local-heuristic');
  await page.getByTestId('model-step').click();
  await expect(page.locator('[data-turn="1"] [data-testid="turn-actor"]')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('model-step').click();
  await expect(page.locator('[data-turn="2"] [data-testid="turn-actor"]')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('take-over').click();
  await expect(page.getByTestId('composer')).toBeVisible();
  for (let i = 0; i < 20 && !(await page.getByTestId('open-replay').isVisible()); i++) {
    const turnsBefore = await page.locator('[data-testid="turn-actor"]').count();
    await page.getByLabel(/message to the customer/i).fill('Could you tell me a bit more about what you need?');
    await page.getByTestId('send-turn').click();
    await expect(async () => {
      const done = await page.getByTestId('open-replay').isVisible();
      expect(done || (await page.locator('[data-testid="turn-actor"]').count()) > turnsBefore).toBe(true);
    }).toPass({ timeout: 20_000 });
  }
  await page.getByTestId('open-replay').click();
  await page.waitForURL(`**/episodes/${second}`);
  // the replay renders on the client (it reads the URL's turn): wait for its transcript
  await expect(page.locator('[data-testid="turn-actor"]').first()).toBeVisible();
  const actors = await page
    .locator('[data-testid="turn-actor"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-actor')));
  expect(actors.slice(0, 2)).toEqual(['model:local-heuristic', 'model:local-heuristic']);
  expect(actors.length).toBeGreaterThan(2);
  expect(actors.slice(2).every((a) => a === 'human')).toBe(true);
  await expect(page.getByTestId('model-turn-panel')).toHaveCount(2);
  // the player is derived from who took the turns: the model, then the person (issue 31)
  await expect(page.getByTestId('episode-player')).toHaveText('player mixed:human+model:local-heuristic');
  await expect(page.getByTestId('other-actor')).toHaveCount(0);

  // ---- fork the finished (taken-over) episode at turn 2: identical first two turns (both read in the replay)
  const firstTurns = (p: Page) =>
    p
      .locator('[data-turn="0"], [data-turn="1"], [data-turn="2"]')
      .locator('[data-testid="customer-message"], [data-testid="agent-message"], [data-testid="tool-call"]')
      .allTextContents();
  await page.goto(`/episodes/${second}`);
  const parentTurns = await firstTurns(page);
  expect(parentTurns.length).toBeGreaterThan(3);
  await page.getByTestId('fork-turn').fill('2');
  await page.getByTestId('fork').click();
  await page.waitForURL(/\/play\/[^/]+$/);
  const fork = page.url().split('/').pop()!;
  expect(fork).not.toBe(second);
  await expect(page.locator('[data-turn="3"]')).toHaveCount(0);
  await page.goto(`/episodes/${fork}`);
  expect(await firstTurns(page)).toEqual(parentTurns);
  await expect(page.getByTestId('family-parent')).toHaveText(second);
  expect(finished).not.toBe(second);

  // ---- /runs: a small run of the built-in heuristic
  await page.goto('/runs');
  await page.getByTestId('run-d-from').fill('0');
  await page.getByTestId('run-d-to').fill('2');
  await page.getByTestId('run-seeds').fill('1');
  // the form says how many episodes it starts, and the run's progress counts the same
  await expect(page.getByTestId('run-size')).toHaveText('8 envs × 3 d × 1 seed = 24 episodes');
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('runs')).toContainText('finished', { timeout: 90_000 });
  await expect(page.getByTestId('runs')).toContainText('24/24');
  await expect(page.getByTestId('run-heatmap')).toBeVisible();
  await shots(page, 'runs');

  expect(problems).toEqual([]);
});

test("a model's turn appears as it streams, and is taken only once complete", async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  const search = { name: 'catalog_search', arguments: '{"query":"usb-c charger"}' };
  fake = await startFakeEndpoint([{ kind: 'reply', content: 'Searching.', toolCalls: [search] }], FAKE_PORT);
  await page.goto('/models');
  await page.getByTestId('conn-name').fill('slow-fake');
  await page.getByTestId('conn-base-url').fill(fake.baseUrl);
  await page.getByTestId('conn-model').fill('fake');
  await page.getByTestId('conn-save').click();
  await expect(page.locator('[data-testid="connection-row"][data-name="slow-fake"]')).toBeVisible({ timeout: 60_000 });

  // from now on every reply streams slowly: text in pieces, then the call's arguments in pieces
  fake.script([
    {
      kind: 'stream',
      pieces: ['Let me ', 'look for ', 'a USB-C ', 'charger ', 'for you.'],
      delayMs: 700,
      toolCalls: [search],
    },
  ]);
  await startPD(page, 11);
  await page.getByTestId('model-player').selectOption('connection:slow-fake');
  await page.getByTestId('model-step').click();
  const streamed = page.getByTestId('model-stream-text');
  await expect(streamed).toContainText('Let me look for', { timeout: 20_000 });
  // partial text on screen, turn 1 not taken yet
  expect(await streamed.textContent()).not.toBe('Let me look for a USB-C charger for you.');
  await expect(page.locator('[data-turn="1"]')).toHaveCount(0);
  await expect(page.getByTestId('model-stream-call')).toContainText('catalog_search', { timeout: 20_000 });
  await shots(page, 'play-model-streaming');
  // committed: the turn in the transcript, the streamed preview gone
  await expect(page.locator('[data-turn="1"] [data-testid="agent-message"]')).toHaveText(
    /Let me look for a USB-C charger for you\./,
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('model-stream')).toHaveCount(0);
  await expect(page.locator('[data-turn="1"] [data-testid="turn-actor"]')).toHaveText('model slow-fake');
  expect(fake.requests.at(-1)!.body!.stream).toBe(true);
  expect(problems).toEqual([]);
});

test('an unreachable endpoint says in words why every check failed', async ({ page }) => {
  // a port that was free a moment ago: nothing answers there
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as AddressInfo;
      probe.close(() => resolve(p));
    });
  });
  await page.goto('/models');
  await page.getByTestId('conn-name').fill('nobody-home');
  await page.getByTestId('conn-base-url').fill(`http://127.0.0.1:${port}/v1`);
  await page.getByTestId('conn-model').fill('heuristic');
  await page.getByTestId('conn-save').click();
  const row = page.locator('[data-testid="connection-row"][data-name="nobody-home"]');
  const reasons = row.getByTestId('conformance-reasons');
  await expect(reasons).toContainText(/^All \d+: /, { timeout: 60_000 });
  await expect(reasons).toContainText(String(port));
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
});
