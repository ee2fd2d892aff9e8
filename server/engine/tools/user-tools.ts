// user.get_visit_history and datetime.now.

import { z } from 'zod';
import { WEEKDAYS } from '../world/state';
import { productCard, type ProductCard } from './catalog-tools';
import { defineTool } from './registry';

export const userVisitHistory = defineTool({
  name: 'user.get_visit_history',
  description: 'Products the customer viewed recently, most recent first.',
  args: z.strictObject({}),
  run: (_args, ctx) =>
    ctx.world.visitHistory.flatMap((id) => {
      const p = ctx.catalog.get(id);
      return p ? [productCard(p, ctx.world)] : [];
    }),
  seen: (result) => (result as ProductCard[]).map((c) => c.product_id),
  retrieval: true,
  freshResult: true,
});

export const datetimeNow = defineTool({
  name: 'datetime.now',
  description: "Today's date in the store's time zone.",
  args: z.strictObject({}),
  run: (_args, ctx) => ({
    today: ctx.world.today,
    weekday: WEEKDAYS[new Date(`${ctx.world.today}T00:00:00Z`).getUTCDay()],
  }),
  freshResult: true,
});
