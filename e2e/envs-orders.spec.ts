// Each environment played to a passing reward at d = 0 through the playground: the order and
// policy environments (RETURN, STATUS, POLICY); the others are in envs.spec.ts.
import { expect, test } from '@playwright/test';
import {
  callTool,
  expectPass,
  idealIds,
  openReplay,
  queueFilledTool,
  readGoal,
  send,
  shot,
  SHOTS,
  startEpisode,
  toolCall,
  type RecGoal,
} from './play-helpers';
import {
  SEEDS,
  expectNoProblems,
  searchMatching,
  addToAnswer,
  expectWorldOrder,
  checkReplayAnswer,
  type ReturnGoal,
  type StatusGoal,
  type PolicyGoal,
} from './env-journeys';

expectNoProblems();

test('RETURN: find the order line, check eligibility, start the return, answer with the line', async ({ page }) => {
  const id = await startEpisode(page, 'RETURN', SEEDS.RETURN);
  const goal = await readGoal<ReturnGoal>(page);
  expect(goal.eligible).toBe(true);
  expect(goal.replacement).toBeNull();

  // turn 1: order.list over 90 days
  await callTool(page, 'order.list', async () => {
    await page.locator('#tool-days').fill('90');
  });
  await send(page, 'Let me find that order.');
  const line = toolCall(page, 'order.list').locator(`[data-testid="order-line"][data-line-id="${goal.lineId}"]`);
  await expect(line).toContainText(goal.title);
  await expect(toolCall(page, 'order.list').locator(`[data-order-id="${goal.orderId}"]`)).toHaveAttribute(
    'data-status',
    'DELIVERED',
  );

  // turn 2: eligibility, prefilled from the line; the line goes into the answer
  await line.getByTestId('prefill-check-eligibility').click();
  await expect(page.locator('#tool-line_id')).toHaveValue(goal.lineId);
  await queueFilledTool(page, 'return.check_eligibility');
  await line.getByTestId('use-in-answer').click();
  await expect(page.locator('#answer-selected_order_id')).toHaveValue(goal.orderId);
  await expect(page.locator('#answer-selected_line_id')).toHaveValue(goal.lineId);
  await send(page, 'Let me check that it can still be returned.');
  const eligibility = toolCall(page, 'return.check_eligibility').getByTestId('eligibility-card');
  await expect(eligibility).toHaveAttribute('data-eligible', 'true');
  await expect(eligibility).toContainText('eligible for return');

  // turn 3: start the return from the eligibility card, and finish
  await eligibility.getByTestId('prefill-return').click();
  await page.locator('#tool-reason_code').selectOption(goal.reasonCode);
  await page.locator('#tool-method').selectOption('in_store');
  await queueFilledTool(page, 'return.initiate');
  await send(page, 'I have started the return; you can drop it off at any store.', 'finish');
  await expect(toolCall(page, 'return.initiate').getByTestId('return-record')).toBeVisible();
  await expectPass(page);
  await expect(page.getByTestId('world-returns').getByTestId('return-record')).toContainText(goal.lineId);
  await shot(page, 'return-play');

  await openReplay(page, id);
  await checkReplayAnswer(page, [goal.orderId, goal.lineId]);
  await expect(page.getByTestId('world-returns').getByTestId('return-record')).toBeVisible();
  await expectWorldOrder(page, goal.orderId); // histories hold 5·H_orders + 5 orders: unfold them
  await expect(
    page.getByTestId('world-orders').locator(`[data-testid="order-line"][data-line-id="${goal.lineId}"]`),
  ).toContainText('return RET-');
  await shot(page, 'return-replay');
  await page.getByTestId('eligibility-card').screenshot({ path: `${SHOTS}/return-eligibility.png` });
  await page.getByTestId('world-panel').screenshot({ path: `${SHOTS}/return-world.png` });
});

test('RETURN with a replacement: return the line and recommend replacements from the search cards', async ({
  page,
}) => {
  test.slow(); // a filtered search of 20+ cards and a replay: past the default timeout on a loaded machine
  const id = await startEpisode(page, 'RETURN', SEEDS.RETURN_REPLACEMENT);
  const goal = await readGoal<ReturnGoal & { replacement: RecGoal; replacementNoun: string }>(page);
  expect(goal.eligible).toBe(true);
  const ids = idealIds(goal.replacement);

  await callTool(page, 'order.list', async () => {
    await page.locator('#tool-days').fill('90');
  });
  await send(page, 'Let me find that order.');
  const line = toolCall(page, 'order.list').locator(`[data-testid="order-line"][data-line-id="${goal.lineId}"]`);
  await line.getByTestId('use-in-answer').click();

  await searchMatching(page, goal.replacementNoun, goal.replacement, ids, 50, 'Let me find some replacements.');
  await addToAnswer(page, ids, 'replacement_product_ids', 'catalog.search');

  await line.getByTestId('prefill-return').click();
  await page.locator('#tool-reason_code').selectOption(goal.reasonCode);
  await page.locator('#tool-method').selectOption('mail');
  await queueFilledTool(page, 'return.initiate');
  await expect(page.locator('#answer-selected_line_id')).toHaveValue(goal.lineId);
  await send(page, 'The return is started (mail, $5.99 fee), and here are replacements.', 'finish');
  await expectPass(page);
  await expect(page.getByTestId('evidence-task')).toContainText('replacement: ');
  await shot(page, 'return-replacement-play');

  await openReplay(page, id);
  await checkReplayAnswer(page, ['replacement_product_ids', ...ids]);
  await expect(page.getByTestId('world-returns').getByTestId('return-record')).toContainText('mail');
});

test('STATUS: find the order the customer means in the order list, look up its status, answer', async ({ page }) => {
  const id = await startEpisode(page, 'STATUS', SEEDS.STATUS);
  const goal = await readGoal<StatusGoal>(page);
  expect(goal.indirect).toBe(true); // the customer names an item, not the order id

  await callTool(page, 'order.list', async () => {
    await page.locator('#tool-days').fill(String(goal.placedDaysAgo + 10));
  });
  await send(page, 'Let me look through your recent orders.');
  const order = toolCall(page, 'order.list').locator(`[data-testid="order-card"][data-order-id="${goal.orderId}"]`);
  await expect(order).toHaveAttribute('data-status', goal.status);

  await order.getByTestId('prefill-get-status').click();
  await queueFilledTool(page, 'order.get_status');
  await order.getByTestId('use-in-answer').click();
  await expect(page.locator('#answer-selected_order_id')).toHaveValue(goal.orderId);
  await expect(page.locator('#answer-order_status')).toHaveValue(goal.status);
  await send(page, `Your order ${goal.orderId} is ${goal.status.toLowerCase().replace('_', ' ')}.`, 'finish');
  await expect(toolCall(page, 'order.get_status').getByTestId('order-card')).toContainText(goal.status);
  await expectPass(page);
  await shot(page, 'status-play');

  await openReplay(page, id);
  await checkReplayAnswer(page, [goal.orderId, goal.status]);
  await expectWorldOrder(page, goal.orderId);
  await shot(page, 'status-replay');
});

test('POLICY: search the policy rules, answer with the rule’s wording (number | string answer)', async ({ page }) => {
  const id = await startEpisode(page, 'POLICY', SEEDS.POLICY);
  const goal = await readGoal<PolicyGoal>(page);
  expect(typeof goal.answer).toBe('string'); // this seed's rule has a categorical answer

  // each topic has look-alike rules (department tables): twenty hits (top_k's cap at d 0) reach this one
  await callTool(page, 'policy.search', async () => {
    await page.locator('#tool-query').fill(goal.question);
    await page.locator('#tool-top_k').fill('20');
  });
  await send(page, 'Let me check our shipping policy.');
  const hit = toolCall(page, 'policy.search').locator(`[data-testid="policy-hit"][data-rule-id="${goal.ruleId}"]`);
  await expect(hit).toContainText(String(goal.answer));

  await page.locator('#answer-policy_answer').fill(String(goal.answer));
  await expect(page.getByTestId('union-guess-policy_answer')).toHaveText('will be sent as a string');
  await page.getByTestId('composer').screenshot({ path: `${SHOTS}/policy-composer.png` });
  await send(page, `That takes ${goal.answer}.`, 'finish');
  await expectPass(page);
  await shot(page, 'policy-play');

  await openReplay(page, id);
  await checkReplayAnswer(page, ['policy_answer', String(goal.answer)]);
  await shot(page, 'policy-replay');
  await page.getByTestId('policy-hits').screenshot({ path: `${SHOTS}/policy-hits.png` });
});
