'use client';
// order.list, order.get_status, order.checkout: orders as cards — status badge, dates, eta,
// tracking, lines with their ids — with buttons that prefill the next tool call or the answer.
import type { ReactNode } from 'react';
import { Badge, Button, type Tone } from '@/components/ui/primitives';
import { fmtPrice } from '@/lib/format';
import { usePrefill } from '../prefill';
import { UseInAnswer } from './AnswerButtons';
import type { OrderLineView, OrderView } from '@/server/engine';
import type { Address } from '@/server/engine/world/customer-profile';

export type OrderLineData = OrderLineView;
export type OrderData = OrderView;

export interface OrderListData {
  today?: string;
  days?: number;
  orders: OrderData[];
  addresses?: Array<Omit<Address, 'country'>>;
  payment_methods?: Array<{ payment_method_id: string; label: string }>;
}

export function isOrder(v: unknown): v is OrderData {
  return (
    typeof v === 'object' && v !== null && 'order_id' in v && 'status' in v && Array.isArray((v as OrderData).lines)
  );
}

export function isOrderList(v: unknown): v is OrderListData {
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray((v as OrderListData).orders) &&
    (v as OrderListData).orders.every(isOrder)
  );
}

const STATUS_TONES: Record<string, Tone> = {
  CONFIRMED: 'slate',
  SHIPPED: 'blue',
  IN_TRANSIT: 'violet',
  DELIVERED: 'green',
  CANCELLED: 'red',
};

export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={STATUS_TONES[status] ?? 'slate'} title={`status ${status}`} className="font-mono">
      {status}
    </Badge>
  );
}

function Dates({ o }: { o: OrderData }) {
  const parts: Array<[string, string]> = [['placed', o.placed_date]];
  if (o.shipped_date) parts.push(['shipped', o.shipped_date]);
  if (o.delivered_date) parts.push(['delivered', o.delivered_date]);
  else if (o.eta) parts.push(['eta', o.eta]);
  if (o.cancelled_date) parts.push(['cancelled', o.cancelled_date]);
  return (
    <dl className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600">
      {parts.map(([k, v]) => (
        <div key={k} className="flex gap-1">
          <dt className="text-slate-400">{k}</dt>
          <dd className={k === 'eta' ? 'font-medium text-slate-800' : undefined}>{v}</dd>
        </div>
      ))}
      {o.tracking_number && (
        <div className="flex gap-1">
          <dt className="text-slate-400">tracking</dt>
          <dd className="font-mono [overflow-wrap:anywhere]">
            {o.carrier} {o.tracking_number}
          </dd>
        </div>
      )}
    </dl>
  );
}

export interface OrderCardProps {
  order: OrderData;
  /** Prefill / answer buttons (off in the world panel). */
  actions?: boolean;
  /** Notes per line id (e.g. "return RET-0001 started"). */
  lineNotes?: ReadonlyMap<string, ReactNode>;
  heading?: ReactNode;
}

export function OrderCard({ order: o, actions = true, lineNotes, heading }: OrderCardProps) {
  const offered = usePrefill();
  const prefill = actions ? offered : null;
  const can = (tool: string) => prefill?.tools.includes(tool) ?? false;
  const returnable = o.status === 'DELIVERED';
  return (
    <article
      className="rounded-md border border-slate-200 bg-white"
      data-testid="order-card"
      data-order-id={o.order_id}
      data-status={o.status}
    >
      <header className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-slate-100 px-3 py-2">
        {heading}
        <span className="font-mono text-sm font-semibold text-slate-900">{o.order_id}</span>
        <OrderStatusBadge status={o.status} />
        <span className="ml-auto text-sm font-semibold tabular-nums">{fmtPrice(o.total)}</span>
      </header>
      <div className="space-y-2 px-3 py-2">
        <Dates o={o} />
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-100">
          {o.lines.map((l) => (
            <li
              key={l.line_id}
              className="flex flex-wrap items-start gap-x-3 gap-y-1 px-2 py-1.5"
              data-testid="order-line"
              data-line-id={l.line_id}
            >
              <div className="min-w-0 flex-1">
                <p className="text-sm leading-snug text-slate-900">{l.title}</p>
                <p className="font-mono text-[11px] text-slate-500 [overflow-wrap:anywhere]">
                  line {l.line_id} · {l.variant_id ?? l.product_id}
                </p>
                {lineNotes?.get(l.line_id)}
              </div>
              <span className="shrink-0 text-xs tabular-nums text-slate-600">
                {l.qty} × {fmtPrice(l.unit_price)}
              </span>
              {actions && (
                <div className="flex w-full flex-wrap gap-1.5">
                  {returnable && can('return.check_eligibility') && (
                    <Button
                      size="sm"
                      onClick={() =>
                        prefill!.prefill('return.check_eligibility', { order_id: o.order_id, line_id: l.line_id })
                      }
                      data-testid="prefill-check-eligibility"
                    >
                      Check return eligibility…
                    </Button>
                  )}
                  {returnable && can('return.initiate') && (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => prefill!.prefill('return.initiate', { order_id: o.order_id, line_id: l.line_id })}
                      data-testid="prefill-return"
                    >
                      Return…
                    </Button>
                  )}
                  {returnable && can('return.exchange') && (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => prefill!.prefill('return.exchange', { order_id: o.order_id, line_id: l.line_id })}
                    >
                      Exchange…
                    </Button>
                  )}
                  <UseInAnswer orderId={o.order_id} lineId={l.line_id} />
                </div>
              )}
            </li>
          ))}
        </ul>
        {actions && (
          <div className="flex flex-wrap gap-1.5">
            {can('order.get_status') && (
              <Button
                size="sm"
                onClick={() => prefill!.prefill('order.get_status', { order_id: o.order_id })}
                data-testid="prefill-get-status"
              >
                Get status…
              </Button>
            )}
            <UseInAnswer orderId={o.order_id} status={o.status} />
          </div>
        )}
      </div>
    </article>
  );
}

export function OrderListResult({ data }: { data: OrderListData }) {
  const n = data.orders.length;
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500">
        {n} order{n === 1 ? '' : 's'}
        {data.days !== undefined && ` placed in the last ${data.days} days`}
        {data.today && ` (today ${data.today})`}, newest first
      </p>
      {data.orders.map((o) => (
        <OrderCard key={o.order_id} order={o} />
      ))}
      <CustomerProfile addresses={data.addresses} paymentMethods={data.payment_methods} />
    </div>
  );
}

export function CustomerProfile({
  addresses = [],
  paymentMethods = [],
}: {
  addresses?: OrderListData['addresses'];
  paymentMethods?: OrderListData['payment_methods'];
}) {
  if (addresses.length === 0 && paymentMethods.length === 0) return null;
  return (
    <details className="rounded-md border border-slate-200 bg-white px-3 py-1.5 text-xs">
      <summary className="cursor-pointer text-slate-600">
        {addresses.length} address{addresses.length === 1 ? '' : 'es'} · {paymentMethods.length} payment method
        {paymentMethods.length === 1 ? '' : 's'} (ids for order.checkout)
      </summary>
      <ul className="mt-1.5 space-y-0.5">
        {addresses.map((a) => (
          <li key={a.address_id}>
            <code className="font-semibold">{a.address_id}</code> {a.label}: {a.name}, {a.street}, {a.city}, {a.state}{' '}
            {a.zip}
          </li>
        ))}
        {paymentMethods.map((p) => (
          <li key={p.payment_method_id}>
            <code className="font-semibold">{p.payment_method_id}</code> {p.label}
          </li>
        ))}
      </ul>
    </details>
  );
}

export function NewOrderResult({ order }: { order: OrderData }) {
  return <OrderCard order={order} heading={<Badge tone="green">new order placed</Badge>} />;
}
