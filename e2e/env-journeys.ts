import { expect, test, type Page } from '@playwright/test';
import { callTool, fillList, send, toolCall, watchProblems, type RecGoal } from './play-helpers';

// Steps shared by envs.spec.ts (PD, SUB, BUNDLE, JOURNEY) and envs-orders.spec.ts (RETURN,
// STATUS, POLICY). A person plays one episode of each environment at d = 0 through the playground (tool forms,
// result-card buttons, the generated answer form, Send & finish) to a passing reward, then
// opens the replay. As a play-tester, they read the hidden goal (reveal toggle) to know the
// answer. CART has its own journey (cart.spec.ts). Seeds checked to be solvable this way:
export const SEEDS = {
  PD: 11,
  SUB: 2,
  RETURN: 1,
  RETURN_REPLACEMENT: 26,
  STATUS: 6,
  POLICY: 4,
  BUNDLE: 1,
  JOURNEY: 39,
} as const;

export interface PdGoal {
  noun: string;
  rec: RecGoal;
}
export interface SubGoal {
  originalId: string;
  originalTitle: string;
  noun: string;
  rec: RecGoal;
}
export interface BundleGoal {
  categories: string[];
  anchors: Record<string, string[]>;
}
export interface ReturnGoal {
  orderId: string;
  lineId: string;
  title: string;
  reasonCode: string;
  eligible: boolean;
  replacement: unknown;
}
export interface StatusGoal {
  orderId: string;
  status: string;
  indirect: boolean;
  placedDaysAgo: number;
}
export interface PolicyGoal {
  ruleId: string;
  question: string;
  answer: number | string;
}
export interface JourneyGoal {
  subtasks: Array<{ envId: string; goal: unknown }>;
}

/** Registers the spec file's hooks: no console error or failed request in any test. */
export function expectNoProblems(): void {
  let problems: string[] = [];
  test.beforeEach(({ page }) => {
    problems = watchProblems(page);
  });
  test.afterEach(() => {
    expect(problems).toEqual([]);
  });
}

/** Goal constraints that catalog.search takes as filters (the rest are read from the cards). */
const FILTER_OF: Record<string, string> = {
  'price max': 'price_max',
  'rating min': 'rating_min',
  'ship_days max': 'ship_days_max',
  'wattage min': 'wattage_min',
};
const EQ_FILTERS = ['brand', 'color', 'size', 'material', 'item_form', 'connector_type'];

/**
 * catalog.search for the noun with the goal's category and every constraint the filters take,
 * sent as a turn; the ids to recommend must be among the cards, so they are retrieved (Seen
 * means retrieved: reranking an id does not make it seen, issue 7.5).
 */
export async function searchMatching(
  page: Page,
  noun: string,
  rec: RecGoal,
  ids: string[],
  topK: number,
  message: string,
) {
  await callTool(page, 'catalog.search', async () => {
    await page.locator('#tool-query').fill(noun);
    await page.locator('#tool-top_k').fill(String(topK));
    await page.getByTestId('object-filters').locator('summary').click();
    await page.locator('#tool-filters-category').fill(rec.category);
    for (const c of rec.constraints) {
      const key = FILTER_OF[`${c.attr} ${c.op}`] ?? (c.op === 'eq' && EQ_FILTERS.includes(c.attr) ? c.attr : null);
      if (key) await page.locator(`#tool-filters-${key}`).fill(String(c.value));
    }
  });
  await send(page, message);
  const search = toolCall(page, 'catalog.search');
  const showAll = search.getByRole('button', { name: /^Show all/ });
  if ((await showAll.count()) > 0) await showAll.click();
  for (const id of ids)
    await expect(search.locator(`[data-testid="product-card"][data-product-id="${id}"]`)).toHaveCount(1);
}

/** catalog.rerank with the given ids (already retrieved), sent as a turn. */
export async function rerank(page: Page, query: string, ids: string[], message: string) {
  await callTool(page, 'catalog.rerank', async () => {
    await page.locator('#tool-query').fill(query);
    await fillList(page, '#tool-candidate_product_ids', ids);
    await expect(page.getByTestId('list-candidate_product_ids').getByTestId('list-item')).toHaveCount(ids.length);
  });
  await send(page, message);
  await expect(toolCall(page, 'catalog.rerank').getByTestId('rerank-hit')).toHaveCount(ids.length);
}

/** "+ Answer" on each result (rerank hits, or the search's product cards), in order; the answer list then holds them, ranked. */
export async function addToAnswer(
  page: Page,
  ids: string[],
  listPath: string,
  from: 'catalog.rerank' | 'catalog.search' = 'catalog.rerank',
) {
  const results = toolCall(page, from);
  const card = from === 'catalog.rerank' ? 'rerank-hit' : 'product-card';
  for (const id of ids)
    await results.locator(`[data-testid="${card}"][data-product-id="${id}"]`).getByTestId('add-to-answer').click();
  const list = page.getByTestId(`list-${listPath}`).getByTestId('list-item');
  await expect(list).toHaveCount(ids.length);
  for (const [i, id] of ids.entries()) await expect(list.nth(i)).toHaveAttribute('data-value', id);
}

/** The order in the replay's world panel; a STATUS history (5·H_orders + 5 orders) shows the first few until "Show all". */
export async function expectWorldOrder(page: Page, orderId: string) {
  const orders = page.getByTestId('world-orders');
  await expect(orders).toBeVisible(); // the world at the turn loads after the page: count "Show all" once it is there
  const showAll = orders.getByRole('button', { name: /^Show all/ });
  if ((await showAll.count()) > 0) await showAll.click();
  await expect(orders.locator(`[data-order-id="${orderId}"]`)).toBeVisible();
}

export async function checkReplayAnswer(page: Page, texts: string[]) {
  const answer = page.getByTestId('answer-event').last();
  await expect(answer).toBeVisible();
  for (const t of texts) await expect(answer).toContainText(t);
}
