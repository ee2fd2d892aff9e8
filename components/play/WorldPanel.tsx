'use client';
// The agent-visible world: today's date, the cart, the customer's orders, the returns and
// exchanges started in the episode, orders placed in it, and the addresses / payment methods.
// The replay shows the world as the episode left it.
import { useState, type ReactNode } from 'react';
import { CartTable, isCartData } from '@/components/transcript/tools/CartTable';
import {
  CustomerProfile,
  isOrder,
  OrderCard,
  type OrderData,
  type OrderListData,
} from '@/components/transcript/tools/OrderCards';
import {
  ExchangeRecordCard,
  isExchangeRecord,
  isReturnRecord,
  ReturnRecordCard,
  type ExchangeRecordData,
  type ReturnRecordData,
} from '@/components/transcript/tools/ReturnCards';
import { Badge, Button, Card, CardHeader } from '@/components/ui/primitives';
import { fmtPrice } from '@/lib/format';
import type { WorldView } from '@/server/episodes/types';

const ORDERS_SHOWN = 3;

const listOf = <T,>(v: unknown, guard: (x: unknown) => x is T): T[] => (Array.isArray(v) ? v.filter(guard) : []);

function Section({
  title,
  count,
  children,
  testId,
}: {
  title: string;
  count?: number;
  children: ReactNode;
  testId: string;
}) {
  return (
    <section className="space-y-2" data-testid={testId}>
      <h3 className="flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500">
        {title}
        {count !== undefined && <Badge>{count}</Badge>}
      </h3>
      {children}
    </section>
  );
}

/** What happened to each order line in the episode (a return or an exchange was started). */
function lineNotes(returns: ReturnRecordData[], exchanges: ExchangeRecordData[]): Map<string, ReactNode> {
  const notes = new Map<string, ReactNode>();
  for (const r of returns)
    notes.set(
      r.line_id,
      <Badge tone="blue" className="mt-1">
        return {r.return_id} started · refund {fmtPrice(r.refund_amount)}
      </Badge>,
    );
  for (const x of exchanges)
    notes.set(
      x.line_id,
      <Badge tone="violet" className="mt-1">
        exchange {x.exchange_id} started
      </Badge>,
    );
  return notes;
}

function OrdersList({ orders, notes }: { orders: OrderData[]; notes: Map<string, ReactNode> }) {
  const [all, setAll] = useState(false);
  const shown = all ? orders : orders.slice(0, ORDERS_SHOWN);
  return (
    <div className="space-y-2">
      {shown.map((o) => (
        <OrderCard key={o.order_id} order={o} actions={false} lineNotes={notes} />
      ))}
      {orders.length > ORDERS_SHOWN && (
        <Button size="sm" variant="ghost" onClick={() => setAll((a) => !a)}>
          {all ? 'Show fewer' : `Show all ${orders.length} orders`}
        </Button>
      )}
    </div>
  );
}

/**
 * `retrieved`: the playground's panel, built from the agent's own tool results (nothing the
 * agent has not looked up); otherwise the inspector's full world (replay).
 */
export function WorldPanel({
  world,
  loading,
  retrieved = false,
  at,
}: {
  world: WorldView | undefined;
  loading: boolean;
  retrieved?: boolean;
  /** the replay: the world as it was at this point ("after turn 3") */
  at?: string;
}) {
  const orders = listOf(world?.orders, isOrder);
  const placed = listOf(world?.placedOrders, isOrder);
  const returns = listOf(world?.returns, isReturnRecord);
  const exchanges = listOf(world?.exchanges, isExchangeRecord);
  const notes = lineNotes(returns, exchanges);

  return (
    <Card data-testid="world-panel">
      <CardHeader
        title={retrieved ? 'World: what you have looked up' : at ? `World ${at}` : 'World'}
        right={world?.today ? <span className="text-xs text-slate-500">today {world.today}</span> : null}
      />
      {retrieved && (
        <p className="px-4 pt-3 text-xs text-slate-500" data-testid="world-retrieved-note">
          Only what your tool calls returned (latest of each); the shop&apos;s records stay hidden, as they are from an
          agent.
        </p>
      )}
      {!world ? (
        <p className="p-4 text-xs text-slate-500">{loading ? 'loading…' : 'no world state'}</p>
      ) : (
        <div className="space-y-4 p-4">
          <Section title="Cart" testId="world-cart">
            {isCartData(world.cart) ? (
              <CartTable cart={world.cart} compact />
            ) : (
              <p className="text-xs text-slate-500">{retrieved ? 'not looked at yet (cart.view)' : 'no cart'}</p>
            )}
          </Section>
          {returns.length + exchanges.length > 0 && (
            <Section
              title="Returns & exchanges started"
              count={returns.length + exchanges.length}
              testId="world-returns"
            >
              {returns.map((r) => (
                <ReturnRecordCard key={r.return_id} r={r} />
              ))}
              {exchanges.map((x) => (
                <ExchangeRecordCard key={x.exchange_id} x={x} />
              ))}
            </Section>
          )}
          {placed.length > 0 && (
            <Section title="Orders placed in this episode" count={placed.length} testId="world-placed-orders">
              <OrdersList orders={placed} notes={notes} />
            </Section>
          )}
          {orders.length > 0 && (
            <Section title="Order history" count={orders.length} testId="world-orders">
              <OrdersList orders={orders} notes={notes} />
            </Section>
          )}
          <CustomerProfile
            addresses={world.addresses as OrderListData['addresses']}
            paymentMethods={world.paymentMethods as OrderListData['payment_methods']}
          />
        </div>
      )}
    </Card>
  );
}
