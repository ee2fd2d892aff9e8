// Each environment played to a passing reward at d = 0 through the playground: the product
// recommendations (PD, SUB, BUNDLE) and JOURNEY; the order environments are in envs-orders.spec.ts.
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
} from './play-helpers';
import {
  SEEDS,
  expectNoProblems,
  searchMatching,
  rerank,
  addToAnswer,
  expectWorldOrder,
  checkReplayAnswer,
  type PdGoal,
  type SubGoal,
  type BundleGoal,
  type StatusGoal,
  type JourneyGoal,
} from './env-journeys';

expectNoProblems();

test('PD: search with the constraints as filters, rerank the best candidates, recommend them from the result cards', async ({
  page,
}) => {
  const id = await startEpisode(page, 'PD', SEEDS.PD);
  const goal = await readGoal<PdGoal>(page);
  await expect(page.getByTestId('hidden-goal')).toContainText('ideal list now');
  const ids = idealIds(goal.rec);
  const price = goal.rec.constraints.find((c) => c.attr === 'price')!;
  // PD scores the final answer only: no "send with answer (go on)" that would drop the answer
  await expect(page.getByTestId('send-finish')).toBeVisible();
  await expect(page.getByTestId('send-answer')).toHaveCount(0);

  // turn 1: catalog.search with the nested filters object (the ideal ids are among the cards)
  await searchMatching(page, goal.noun, goal.rec, ids, 20, `Let me look for a ${goal.noun} under $${price.value}.`);
  await expect(toolCall(page, 'catalog.search').getByTestId('product-card').first()).toBeVisible();

  // turn 2: rerank the best ones; turn 3: answer from the rerank cards
  await rerank(page, goal.noun, ids, 'Let me compare the strongest options.');
  // rerank returns ids only; the search showed these ids, so their titles are known (not marked as looked up)
  await expect(toolCall(page, 'catalog.rerank').getByTestId('rerank-hit').first()).toContainText(/\S/);
  await expect(toolCall(page, 'catalog.rerank').getByTestId('looked-up-title')).toHaveCount(0);
  await addToAnswer(page, ids, 'recommended_product_ids');
  await shot(page, 'pd-answer-form');
  await page.getByTestId('composer').screenshot({ path: `${SHOTS}/pd-composer.png` });
  await send(page, `I recommend these, best first: ${ids.join(', ')}.`, 'finish');
  await expectPass(page);
  await shot(page, 'pd-play');

  await openReplay(page, id);
  await checkReplayAnswer(page, ['recommended_product_ids', ...ids]);
  await shot(page, 'pd-replay');
});

test('SUB: the original is out of stock; recommend compatible alternatives', async ({ page }) => {
  const id = await startEpisode(page, 'SUB', SEEDS.SUB);
  const goal = await readGoal<SubGoal>(page);
  const ids = idealIds(goal.rec);

  await callTool(page, 'catalog.get_product', async () => {
    await page.locator('#tool-product_id').fill(goal.originalId);
  });
  await send(page, 'Let me look at the one you wanted.');
  await expect(toolCall(page, 'catalog.get_product')).toContainText('out of stock');

  await searchMatching(page, goal.noun, goal.rec, ids, 50, 'Here are some similar ones.');
  await addToAnswer(page, ids, 'recommended_product_ids', 'catalog.search');
  await send(page, `These are close alternatives: ${ids.join(', ')}.`, 'finish');
  await expectPass(page);
  await shot(page, 'sub-play');

  await openReplay(page, id);
  await checkReplayAnswer(page, ids);
  await shot(page, 'sub-replay');
});

test('BUNDLE: one product per required category', async ({ page }) => {
  const id = await startEpisode(page, 'BUNDLE', SEEDS.BUNDLE);
  const goal = await readGoal<BundleGoal>(page);
  const ids = goal.categories.map((c) => goal.anchors[c][0]);

  // one retrieval per thing needed (B_tool = 1 at d = 0): look each pick up
  for (const [i, pick] of ids.entries()) {
    await callTool(page, 'catalog.get_product', async () => {
      await page.locator('#tool-product_id').fill(pick);
    });
    await send(page, `Let me check item ${i + 1} of your set.`);
  }
  for (const [i, pick] of ids.entries()) await expect(toolCall(page, 'catalog.get_product', i + 1)).toContainText(pick);
  for (const i of ids.keys())
    await toolCall(page, 'catalog.get_product', i + 1)
      .getByTestId('add-to-answer')
      .click();
  const list = page.getByTestId('list-recommended_product_ids').getByTestId('list-item');
  await expect(list).toHaveCount(ids.length);
  await send(page, 'Here is your bundle: one item for each thing you need.', 'finish');
  await expectPass(page);
  await shot(page, 'bundle-play');

  await openReplay(page, id);
  await checkReplayAnswer(page, ids);
  await shot(page, 'bundle-replay');
});

test('JOURNEY: two requests in one conversation, each answered with its own sub-answer', async ({ page }) => {
  test.slow(); // six turns and a replay: past the default timeout on a loaded machine
  const id = await startEpisode(page, 'JOURNEY', SEEDS.JOURNEY);
  const goal = await readGoal<JourneyGoal>(page);
  expect(goal.subtasks.map((s) => s.envId)).toEqual(['STATUS', 'PD']);
  const status = goal.subtasks[0].goal as StatusGoal;
  const pd = goal.subtasks[1].goal as PdGoal;
  const ids = idealIds(pd.rec);

  // request 1 (STATUS): the order list, then a STATUS sub-answer sent with "go on"
  await callTool(page, 'order.list', async () => {
    await page.locator('#tool-days').fill('90');
  });
  await send(page, 'Let me look up your orders.');
  const order = toolCall(page, 'order.list').locator(`[data-testid="order-card"][data-order-id="${status.orderId}"]`);
  await expect(order).toHaveAttribute('data-status', status.status);
  await order.getByTestId('prefill-get-status').click();
  await queueFilledTool(page, 'order.get_status');
  await page.getByTestId('add-item-subtasks').click();
  await page.locator('#answer-subtasks-0-env').selectOption('STATUS');
  await order.getByTestId('use-in-answer').click();
  await expect(page.locator('#answer-subtasks-0-selected_order_id')).toHaveValue(status.orderId);
  await expect(page.locator('#answer-subtasks-0-order_status')).toHaveValue(status.status);
  await shot(page, 'journey-answer-form');
  await page.getByTestId('composer').screenshot({ path: `${SHOTS}/journey-composer.png` });
  await send(page, `Your order ${status.orderId} is ${status.status.toLowerCase()}.`, 'answer');
  await expect(page.getByTestId('customer-message').last()).toContainText(/something else|Next thing|Another thing/);
  await expect(page.getByTestId('form-item')).toHaveCount(0); // the sent sub-answer left the form

  // request 2 (PD): a filtered search, rerank, then a PD sub-answer, and finish
  await searchMatching(page, pd.noun, pd.rec, ids, 50, 'Let me look for those.');
  await rerank(page, pd.noun, ids, 'Let me compare a few options.');
  await page.getByTestId('add-item-subtasks').click();
  await page.locator('#answer-subtasks-0-env').selectOption('PD');
  await addToAnswer(page, ids, 'subtasks.0.recommended_product_ids');
  await send(page, `I recommend these, best first: ${ids.join(', ')}.`, 'finish');
  await expectPass(page);
  await expect(page.getByTestId('evidence-task')).toContainText('sub-task 2 (PD)');
  await shot(page, 'journey-play');

  await openReplay(page, id);
  const answers = page.getByTestId('answer-event');
  await expect(answers).toHaveCount(2);
  await expect(answers.first()).toContainText(status.orderId);
  await expect(answers.first()).toContainText('not done');
  await expect(answers.last()).toContainText(ids[0]);
  await expect(page.getByTestId('hidden-goal')).toContainText('answered at turn');
  await expectWorldOrder(page, status.orderId);
  await shot(page, 'journey-replay');
  await answers.last().screenshot({ path: `${SHOTS}/journey-replay-answer.png` });
  await toolCall(page, 'catalog.rerank').screenshot({ path: `${SHOTS}/journey-replay-rerank.png` });
  await page.getByTestId('hidden-goal').screenshot({ path: `${SHOTS}/journey-replay-goal.png` });
});

test('home: the eight environments are listed', async ({ page }) => {
  await page.goto('/');
  const list = page.getByLabel('Environment');
  await expect(list.locator('option')).toHaveCount(8);
  for (const env of ['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE', 'JOURNEY'])
    await expect(list).toContainText(env);
  await list.selectOption('JOURNEY');
  await expect(page.getByText('Two to five requests in one conversation')).toBeVisible();
  await shot(page, 'home-envs');
});
