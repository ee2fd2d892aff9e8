// Steps a person takes in the playground, shared by the environment journeys.
import { expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

export const SHOTS = 'test-results/screenshots';

export async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Page errors and console errors, to assert none happened. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()} (${m.location().url})`);
  });
  return problems;
}

/** Home → pick the environment in the list, d = 0, a fixed seed → the playground. */
export async function startEpisode(page: Page, envId: string, seed: number): Promise<string> {
  await page.goto('/');
  await page.getByLabel('Environment').selectOption(envId);
  await expect(page.getByTestId('d-value')).toHaveText('d = 0');
  await page.getByTestId('seed-random').uncheck();
  await page.getByLabel('seed').fill(String(seed));
  await page.getByTestId('start-episode').click();
  await page.waitForURL(/\/play\/[^/]+$/);
  await expect(page.getByTestId('customer-message').first()).toContainText('opening');
  await expect(page.getByTestId('budgets')).toContainText('Turn 1 of');
  return page.url().split('/').pop()!;
}

/** Play-testing: reveal the hidden goal and read its JSON. */
export async function readGoal<T>(page: Page): Promise<T> {
  await page.getByTestId('reveal-goal').click();
  await expect(page.getByTestId('hidden-goal')).toBeVisible();
  return JSON.parse((await page.getByTestId('hidden-goal-json').textContent())!) as T;
}

/** Choose a tool, fill its generated form, add the call to this turn. */
export async function callTool(page: Page, tool: string, fill: () => Promise<void> = async () => {}) {
  await page.getByTestId(`tool-${tool}`).click();
  await expect(page.getByTestId('tool-form')).toHaveAttribute('data-tool', tool);
  await fill();
  await queueFilledTool(page, tool);
}

/** Add the tool form as it is (e.g. prefilled from a result card) to this turn. */
export async function queueFilledTool(page: Page, tool: string) {
  await expect(page.getByTestId('tool-form')).toHaveAttribute('data-tool', tool);
  await page.getByTestId('queue-call').click();
  await expect(page.getByTestId('queued-calls')).toContainText(tool);
}

/** Type into a list box (ids, comma-separated) and commit with Enter. */
export async function fillList(page: Page, selector: string, items: string[]) {
  const box = page.locator(selector);
  await box.fill(items.join(', '));
  await box.press('Enter');
  await expect(box).toHaveValue('');
}

/**
 * Write the message and send: a plain turn, the answer with done: false ("go on"), or the
 * answer with done: true (finish). Waits for the customer's reply or the reward.
 */
export async function send(page: Page, message: string, how: 'turn' | 'answer' | 'finish' = 'turn') {
  const replies = await page.getByTestId('customer-message').count();
  await page.locator('#assistant-message').fill(message);
  await page.getByTestId(how === 'turn' ? 'send-turn' : how === 'answer' ? 'send-answer' : 'send-finish').click();
  // done, or the error the page shows (so a failure says why)
  await expect
    .poll(
      async () => {
        const error = page.getByTestId('answer-errors').or(page.getByTestId('turn-error'));
        if ((await error.count()) > 0) return `error: ${await error.first().textContent()}`;
        if (how === 'finish') return (await page.getByTestId('reward-breakdown').count()) > 0 ? 'done' : 'waiting';
        return (await page.getByTestId('customer-message').count()) > replies ? 'done' : 'waiting';
      },
      { timeout: 30_000 },
    )
    .toBe('done');
}

/** The tool call of this name in the given turn (the last one when turn is omitted). */
export function toolCall(page: Page, tool: string, turn?: number) {
  const scope = turn === undefined ? page : page.locator(`section[data-turn="${turn}"]`);
  return scope.locator(`[data-testid="tool-call"][data-tool="${tool}"]`).last();
}

/** A reward as the UI prints it ("+0.850", "−1.000" with a real minus) as a number. */
export function rewardValue(text: string | null): number {
  return Number(text!.replace('+', '').replace('\u2212', '-'));
}

/** The episode passed: the breakdown and the header say so. */
export async function expectPass(page: Page) {
  const breakdown = page.getByTestId('reward-breakdown');
  await expect(breakdown).toBeVisible();
  await expect(breakdown.getByText('pass', { exact: true })).toBeVisible();
  await expect(breakdown).toContainText('answered');
  const total = rewardValue(await page.getByTestId('reward-total').textContent());
  expect(total).toBeGreaterThan(0.5);
  expect(total).toBeLessThanOrEqual(0.9);
  return total;
}

export async function openReplay(page: Page, episodeId: string) {
  await page.getByTestId('open-replay').click();
  await page.waitForURL(new RegExp(`/episodes/${episodeId}$`));
  await expect(page.getByTestId('reward-breakdown')).toBeVisible();
  await expect(page.getByTestId('world-panel')).toBeVisible();
}

/** Best in-stock pool items, as the hidden goal lists them (PD, SUB, RETURN's replacement). */
export interface RecGoal {
  k: number;
  category: string;
  pool: Array<{ id: string; rel: number; stock: number }>;
  constraints: Array<{ attr: string; op: string; value: string | number }>;
}

export const idealIds = (rec: RecGoal) =>
  rec.pool
    .filter((e) => e.rel > 0 && e.stock > 0)
    .slice(0, rec.k)
    .map((e) => e.id);
