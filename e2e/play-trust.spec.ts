// Play-testing you can trust (issue 31): nothing a person stages is lost on reload, a raw action
// that does not parse asks first, the seat's labels say who is playing (and survive a reload),
// long messages are refused with the limit, a JOURNEY is answered from the result cards alone,
// a policy card fills POLICY's answer, and an import shows its files before it runs and its two
// rewards side by side. Screenshots at 1440 and 800 px.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import {
  callTool,
  expectPass,
  idealIds,
  readGoal,
  send,
  SHOTS,
  startEpisode,
  toolCall,
  watchProblems,
} from './play-helpers';
import { SEEDS, searchMatching, type PdGoal, type PolicyGoal, type StatusGoal } from './env-journeys';

const OUT = 'test-results/play-trust';

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1440, 800]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/trust-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 1000 });
}

test('a draft survives a reload; a bad raw action asks first; an overlong message is refused', async ({ page }) => {
  const problems = watchProblems(page);
  await startEpisode(page, 'PD', SEEDS.PD);
  await callTool(page, 'catalog.search', async () => {
    await page.locator('#tool-query').fill('draft query');
  });
  await page.locator('#assistant-message').fill('Looking into it.');
  await page.reload();
  await expect(page.getByTestId('queued-calls')).toContainText('draft query');
  await expect(page.locator('#assistant-message')).toHaveValue('Looking into it.');

  // the cap: one character over is refused with the limit, nothing is sent
  await page.locator('#assistant-message').fill('x'.repeat(4001));
  await expect(page.getByTestId('message-length')).toContainText('4,001 / 4,000');
  await page.getByTestId('send-turn').click();
  await expect(page.getByTestId('message-error')).toContainText("the playground's limit is 4,000");
  await expect(page.getByTestId('budgets')).toContainText('Turn 1 of');

  // sent: the draft is gone, also after a reload
  await send(page, 'Let me look that up.');
  await page.reload();
  await expect(page.getByTestId('budgets')).toContainText('Turn 2 of');
  await expect(page.locator('#assistant-message')).toHaveValue('');
  await expect(page.getByTestId('queued-calls')).toHaveCount(0);

  // raw text that does not parse asks before it is sent; keep editing leaves the episode alone
  await page.getByText('Send raw agent text instead').click();
  await page.getByTestId('raw-text').fill('{"assistant_message": "hi", "tool_calls": [');
  await page.getByTestId('raw-send').click();
  const confirm = page.getByTestId('raw-confirm');
  await expect(confirm).toContainText('not valid JSON');
  await expect(confirm).toContainText('reward −1');
  await shoot(page, 'raw-confirm');
  await page.getByTestId('raw-keep-editing').click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('budgets')).toContainText('Turn 2 of');
  // the bad-action path is one click further
  await page.getByTestId('raw-send').click();
  await page.getByTestId('raw-send-anyway').click();
  await expect(page.getByTestId('reward-breakdown')).toBeVisible();
  await expect(page.getByTestId('reward-total')).toHaveText('−1.000');
  // r_eff with its formula, in the playground's breakdown
  await expect(page.getByTestId('reward-breakdown').getByTestId('efficiency-line')).toContainText('r_eff = ');
  await shoot(page, 'bad-action-breakdown');
  expect(problems).toEqual([]);
});

test('the seat says who is playing, and a reload keeps it', async ({ page }) => {
  await startEpisode(page, 'STATUS', SEEDS.STATUS);
  const state = page.getByTestId('model-seat').getByTestId('seat-state');
  await expect(state).toHaveText('you are playing');
  await send(page, 'Let me check.');
  // a person's own turns: plain "Play", not "Hand back" (nothing was handed over)
  await expect(page.getByTestId('model-play')).toHaveText('Play');
  await page.getByTestId('model-player').selectOption('agent:heuristic');
  await page.getByTestId('model-step').click();
  await expect(page.getByTestId('budgets')).toContainText('Turn 3 of');
  await expect(state).toHaveText('heuristic paused');
  await expect(page.getByTestId('composer')).toHaveCount(0);
  await page.reload();
  await expect(state).toHaveText('heuristic paused');
  await expect(page.getByTestId('model-player')).toHaveValue('agent:heuristic');
  await expect(page.getByTestId('composer')).toHaveCount(0);
  await page.getByTestId('take-over').click();
  await expect(state).toHaveText('you are playing');
  await expect(page.getByTestId('model-play')).toHaveText('Hand back and play');
  await page.reload();
  await expect(state).toHaveText('you are playing');
  await expect(page.getByTestId('composer')).toBeVisible();
  await shoot(page, 'seat');
});

test('JOURNEY answered from the cards alone: each button starts the sub-answer of its env', async ({ page }) => {
  test.slow();
  await startEpisode(page, 'JOURNEY', SEEDS.JOURNEY);
  const goal = await readGoal<{ subtasks: Array<{ envId: string; goal: unknown }> }>(page);
  expect(goal.subtasks.map((s) => s.envId)).toEqual(['STATUS', 'PD']);
  const status = goal.subtasks[0].goal as StatusGoal;
  const pd = goal.subtasks[1].goal as PdGoal;
  const ids = idealIds(pd.rec);

  await callTool(page, 'order.list', async () => {
    await page.locator('#tool-days').fill('90');
  });
  await send(page, 'Let me look up your orders.');
  const order = toolCall(page, 'order.list').locator(`[data-testid="order-card"][data-order-id="${status.orderId}"]`);
  // no item added, no env picked: the order card's button starts the STATUS sub-answer
  await order.getByRole('button', { name: `Use order (${status.status}) in answer (STATUS (new))` }).click();
  await expect(page.locator('#answer-subtasks-0-env')).toHaveValue('STATUS');
  await expect(page.locator('#answer-subtasks-0-selected_order_id')).toHaveValue(status.orderId);
  await expect(page.locator('#answer-subtasks-0-order_status')).toHaveValue(status.status);
  await shoot(page, 'journey-from-cards');
  await send(page, `Your order ${status.orderId} is ${status.status.toLowerCase()}.`, 'answer');
  await expect(page.getByTestId('form-item')).toHaveCount(0);

  await searchMatching(page, pd.noun, pd.rec, ids, 50, 'Let me look for those.');
  const search = toolCall(page, 'catalog.search');
  const card = (id: string) => search.locator(`[data-testid="product-card"][data-product-id="${id}"]`);
  // the first product starts the PD sub-answer; the next ones join its list
  await card(ids[0]).getByRole('button', { name: '+ PD (new)' }).click();
  await expect(page.locator('#answer-subtasks-0-env')).toHaveValue('PD');
  for (const id of ids.slice(1)) await card(id).getByTestId('add-to-answer').click();
  const list = page.getByTestId('list-subtasks.0.recommended_product_ids').getByTestId('list-item');
  await expect(list).toHaveCount(ids.length);
  await send(page, `I recommend these, best first: ${ids.join(', ')}.`, 'finish');
  await expectPass(page);
});

test('POLICY: "Use in answer" on the rule card fills the answer', async ({ page }) => {
  await startEpisode(page, 'POLICY', SEEDS.POLICY);
  const goal = await readGoal<PolicyGoal>(page);
  await callTool(page, 'policy.search', async () => {
    await page.locator('#tool-query').fill(goal.question);
    await page.locator('#tool-top_k').fill('20');
  });
  await send(page, 'Let me check our policy.');
  const hit = toolCall(page, 'policy.search').locator(`[data-testid="policy-hit"][data-rule-id="${goal.ruleId}"]`);
  await hit.getByTestId('use-rule-in-answer').click();
  await expect(page.locator('#answer-policy_answer')).toHaveValue(String(goal.answer));
  await expect(hit.getByTestId('use-rule-in-answer')).toHaveText('✓ in answer');
  await send(page, `The answer is ${goal.answer}.`, 'finish');
  await expectPass(page);
});

test('import: the chosen files are listed and nothing happens before "Import"; both rewards side by side', async ({
  page,
}) => {
  // a played episode, exported, its recorded reward made to differ in r_eff as another engine would
  const id = await startEpisode(page, 'STATUS', SEEDS.STATUS);
  const goal = await readGoal<StatusGoal>(page);
  await callTool(page, 'order.get_status', async () => {
    await page.locator('#tool-order_id').fill(goal.orderId);
  });
  await send(page, 'Let me check that order.');
  await page.locator('#answer-selected_order_id').fill(goal.orderId);
  await page.locator('#answer-order_status').selectOption(goal.status);
  await send(page, `Your order is ${goal.status.toLowerCase()}.`, 'finish');
  await expectPass(page);
  const line = JSON.parse(await (await page.request.get(`/api/inspector/export?ids=${id}`)).text());
  const b = line.breakdown;
  line.id = `${id}-elsewhere`;
  line.reward = Math.round((b.total - 0.1) * 1000) / 1000;
  line.breakdown = { ...b, total: line.reward, rEff: b.rEff - 2 / 3 };
  mkdirSync(OUT, { recursive: true });
  const file = `${OUT}/elsewhere.jsonl`;
  writeFileSync(file, JSON.stringify(line) + '\n');

  await page.goto('/episodes');
  await page
    .getByTestId('import-panel')
    .getByRole('button', { name: /Import episodes/ })
    .click();
  await page.getByTestId('import-input').setInputFiles(file);
  const confirm = page.getByTestId('import-confirm');
  await expect(confirm).toContainText('Import 1 file?');
  await expect(page.getByTestId('import-file-list')).toContainText('elsewhere.jsonl');
  await expect(page.getByTestId('import-report')).toHaveCount(0);
  await shoot(page, 'import-confirm');
  await page.getByTestId('import-cancel').click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('import-report')).toHaveCount(0);
  await page.getByTestId('import-input').setInputFiles(file);
  await page.getByTestId('import-go').click();
  await expect(page.getByTestId('import-report')).toContainText('1 of 1 imported');

  await page.goto(`/episodes/${line.id}`);
  const panel = page.getByTestId('rescore-panel');
  await expect(panel.getByTestId('recorded-reward')).toHaveText(new RegExp(String(line.reward).replace('.', '\\.')));
  await expect(panel.getByTestId('rescore-differs')).toContainText('r_eff');
  await expect(page.getByTestId('summary-rescored')).toContainText('r_eff differs');
  // the re-score panel comes before the breakdown in the aside
  const aside = page.getByTestId('replay-aside');
  await expect(aside.locator('> *').first()).toHaveAttribute('data-testid', 'rescore-panel');
  await shoot(page, 'import-replay');

  await page.goto('/episodes');
  await expect(page.getByTestId('list-rescored').first()).toContainText('r_eff differs');
  await shoot(page, 'import-list');
});
