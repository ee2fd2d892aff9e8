import { expect, test, type Page } from '@playwright/test';
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { createAgentServer, listen } from '../scripts/agent-server/server';
import { shot, watchProblems } from './play-helpers';

// A connected model plays the curriculum (issue 31): the built-in heuristic behind the
// OpenAI-compatible agent server is registered on /models, offered in the curriculum's player
// list beside the built-in agents (no unexplained extras), plays a C1 run over HTTP and is
// stored as the player; an endpoint that does not answer stops the step with a sentence, its
// episode badged infrastructure-aborted and the windows unmoved.
let agent: Server;
let agentPort = 0;

test.beforeAll(async () => {
  agent = createAgentServer({ agent: 'heuristic', port: 0 });
  agentPort = await listen(agent, 0);
});
test.afterAll(() => agent?.close());

async function register(page: Page, name: string, baseUrl: string) {
  await page.goto('/models');
  await page.getByTestId('conn-name').fill(name);
  await page.getByTestId('conn-base-url').fill(baseUrl);
  await page.getByTestId('conn-model').fill('heuristic');
  await page.getByTestId('conn-save').click();
  const row = page.locator(`[data-testid="connection-row"][data-name="${name}"]`);
  await expect(row.getByTestId(/conformance-(ok|reasons)/)).toBeVisible({ timeout: 60_000 });
}

/** A loopback port that was free a moment ago: nothing answers there. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

test('a connected model plays the curriculum; an unreachable one stops the step, unscored', async ({ page }) => {
  test.setTimeout(240_000);
  const problems = watchProblems(page);
  await register(page, 'curriculum-heuristic', `http://127.0.0.1:${agentPort}/v1`);
  await register(page, 'gone-away', `http://127.0.0.1:${await freePort()}/v1`);

  await page.goto('/curriculum');
  await page.locator('#run-name').fill('model on C1');
  await page.locator('#run-collection').selectOption('C1');
  await page.getByTestId('create-run').click();
  await page.waitForURL(/\/curriculum\?run=[A-Za-z0-9_-]+$/);

  // the player list: the three built-in agents with their notes, then the connected models
  const options = page.getByTestId('play-agent').locator('option');
  await expect(options).toHaveText([
    'oracle — reads the hidden goal: an upper bound, not a player',
    'heuristic — plays from what it sees, as a scripted shopper assistant',
    'random — random well-formed actions: a noise baseline',
    'model curriculum-heuristic',
    'model gone-away',
  ]);

  // ---- the model plays 6 episodes over HTTP
  await page.getByTestId('play-episodes').fill('6');
  await page.getByTestId('play-agent').selectOption('connection:curriculum-heuristic');
  await page.getByTestId('play-run').click();
  await expect(page.getByTestId('play-result')).toContainText('Played 6 episodes', { timeout: 120_000 });
  await expect(page.getByTestId('run-episodes')).toHaveText('6');
  const rows = page.getByTestId('episode-row');
  await expect(rows).toHaveCount(6);
  for (const row of await rows.all()) await expect(row).toContainText('model:curriculum-heuristic');
  await shot(page, 'curriculum-model');

  // ---- an endpoint that does not answer: the step stops, says why, the windows stay
  await page.getByTestId('play-episodes').fill('5');
  await page.getByTestId('play-agent').selectOption('connection:gone-away');
  await page.getByTestId('play-run').click();
  await expect(page.getByTestId('play-error')).toContainText(
    /stopped: model "gone-away" failed on \w+ d \d+ \(connection: .*\)\. That episode is stored as infrastructure-aborted and not scored; the windows did not move\./,
    { timeout: 120_000 },
  );
  await expect(page.getByTestId('play-result')).toHaveCount(0); // nothing was played: only the reason shows
  await expect(page.getByTestId('run-episodes')).toHaveText('6');
  await expect(rows.first()).toContainText('model:gone-away');
  await expect(rows.first().getByTestId('infra-badge')).toHaveText('infrastructure-aborted');
  await shot(page, 'curriculum-model-infra');
  await page.setViewportSize({ width: 800, height: 1000 });
  await shot(page, 'curriculum-model-infra-800');
  expect(problems).toEqual([]);
});
