'use client';
// return.check_eligibility, return.initiate, return.exchange: the eligibility verdict with its
// window and fees, and the return / exchange records.
import { Badge, Button } from '@/components/ui/primitives';
import { fmtPrice } from '@/lib/format';
import { usePrefill } from '../prefill';
import { ProductTitle, useProductTitle } from '../product-titles';
import { UseInAnswer } from './AnswerButtons';
import type { EligibilityView, ExchangeRecord, ReturnRecord } from '@/server/engine';

export type EligibilityData = EligibilityView;

/** As return.initiate / return.exchange return them (the engine's types; `new_title` is added for display). */
export type ReturnRecordData = ReturnRecord;
export type ExchangeRecordData = ExchangeRecord & { new_title?: string };

const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
export const isEligibility = (v: unknown): v is EligibilityData =>
  obj(v) && typeof v.eligible === 'boolean' && 'window_days' in v;
export const isReturnRecord = (v: unknown): v is ReturnRecordData => obj(v) && typeof v.return_id === 'string';
export const isExchangeRecord = (v: unknown): v is ExchangeRecordData => obj(v) && typeof v.exchange_id === 'string';

const fee = (x: number) => (x === 0 ? 'free' : fmtPrice(x));
const METHOD_LABELS: Record<string, string> = { mail: 'mail', in_store: 'in store', pickup: 'pickup' };

function Facts({ rows }: { rows: Array<[string, React.ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500">{k}</dt>
          <dd className="text-slate-800 [overflow-wrap:anywhere]">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function LineRef({
  orderId,
  lineId,
  productId,
  title,
}: {
  orderId: string;
  lineId: string;
  productId: string;
  title?: string;
}) {
  const known = useProductTitle(productId);
  return (
    <div className="min-w-0">
      <p className="text-sm font-medium leading-snug text-slate-900">
        {title ?? (known ? <ProductTitle known={known} /> : productId)}
      </p>
      <p className="font-mono text-[11px] text-slate-500 [overflow-wrap:anywhere]">
        {orderId} · line {lineId} · {productId}
      </p>
    </div>
  );
}

export function EligibilityCard({ e }: { e: EligibilityData }) {
  const prefill = usePrefill();
  const can = (tool: string) => prefill?.tools.includes(tool) ?? false;
  const windowText = e.window_days === 0 ? 'not returnable (0 days)' : `${e.window_days} days from delivery`;
  return (
    <article
      className={`space-y-2 rounded-md border bg-white p-3 ${e.eligible ? 'border-emerald-200' : 'border-rose-200'}`}
      data-testid="eligibility-card"
      data-eligible={e.eligible}
    >
      <div className="flex items-start justify-between gap-3">
        <LineRef orderId={e.order_id} lineId={e.line_id} productId={e.product_id} title={e.title} />
        <Badge tone={e.eligible ? 'green' : 'red'} className="shrink-0 text-sm">
          {e.eligible ? '✓ eligible for return' : '✗ not eligible'}
        </Badge>
      </div>
      <p className={`text-sm ${e.eligible ? 'text-emerald-900' : 'text-rose-900'}`}>{e.reason}</p>
      <Facts
        rows={[
          ['return window', windowText],
          ['days since purchase', e.days_since_purchase],
          ['days since delivery', e.days_since_delivery ?? 'not delivered yet'],
          ['delivered', e.delivered_date ?? '—'],
          ['last day to return', e.return_by ?? '—'],
          [
            'methods',
            e.methods.length === 0
              ? 'none now'
              : e.methods.map((m) => `${METHOD_LABELS[m] ?? m} (${fee(e.fees[m] ?? 0)})`).join(' · '),
          ],
        ]}
      />
      {prefill && (
        <div className="flex flex-wrap gap-1.5">
          {e.eligible && can('return.initiate') && (
            <Button
              size="sm"
              onClick={() => prefill.prefill('return.initiate', { order_id: e.order_id, line_id: e.line_id })}
              data-testid="prefill-return"
            >
              Start return…
            </Button>
          )}
          {e.eligible && can('return.exchange') && (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => prefill.prefill('return.exchange', { order_id: e.order_id, line_id: e.line_id })}
            >
              Exchange…
            </Button>
          )}
          <UseInAnswer orderId={e.order_id} lineId={e.line_id} />
          {!e.eligible && <UseInAnswer orderId={e.order_id} lineId={e.line_id} ineligible />}
        </div>
      )}
    </article>
  );
}

const RECORD_LOOKS = {
  return: { label: 'Return', border: 'border-sky-200', tone: 'blue' },
  exchange: { label: 'Exchange', border: 'border-violet-200', tone: 'violet' },
} as const;

/** A return or exchange record: kind, id, status and what it costs, then the card's own lines. */
function RecordCard({
  kind,
  id,
  status,
  money,
  children,
}: {
  kind: 'return' | 'exchange';
  id: string;
  status: string;
  money: React.ReactNode;
  children: React.ReactNode;
}) {
  const looks = RECORD_LOOKS[kind];
  return (
    <article
      className={`space-y-2 rounded-md border ${looks.border} bg-white p-3`}
      data-testid={`${kind}-record`}
      // data-return-id or data-exchange-id
      {...{ [`data-${kind}-id`]: id }}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-semibold text-slate-900">{looks.label}</span>
        <code className="text-sm">{id}</code>
        <Badge tone={looks.tone}>{status}</Badge>
        <span className="ml-auto text-sm tabular-nums">{money}</span>
      </div>
      {children}
    </article>
  );
}

export function ReturnRecordCard({ r }: { r: ReturnRecordData }) {
  return (
    <RecordCard
      kind="return"
      id={r.return_id}
      status={r.status}
      money={<span className="font-semibold text-emerald-800">refund {fmtPrice(r.refund_amount)}</span>}
    >
      <LineRef orderId={r.order_id} lineId={r.line_id} productId={r.product_id} />
      <Facts
        rows={[
          ['quantity', r.qty],
          ['reason', r.reason_code.replace(/_/g, ' ')],
          ['method', `${METHOD_LABELS[r.method] ?? r.method} (fee ${fee(r.fee)})`],
          ['started', r.created_date],
        ]}
      />
    </RecordCard>
  );
}

export function ExchangeRecordCard({ x }: { x: ExchangeRecordData }) {
  const newTitle = useProductTitle(x.new_product_id);
  const diff = x.price_difference;
  return (
    <RecordCard
      kind="exchange"
      id={x.exchange_id}
      status={x.status}
      money={
        <span className="text-slate-700">
          {diff === 0 ? 'same price' : diff > 0 ? `customer pays ${fmtPrice(diff)}` : `refund ${fmtPrice(-diff)}`}
        </span>
      }
    >
      <LineRef orderId={x.order_id} lineId={x.line_id} productId={x.product_id} />
      <div className="text-xs text-slate-600">
        <span className="text-slate-400">for → </span>
        <span className="font-medium text-slate-900">
          {x.new_title ?? (newTitle ? <ProductTitle known={newTitle} /> : x.new_product_id)}
        </span>{' '}
        <code className="text-[11px] text-slate-500 [overflow-wrap:anywhere]">
          {x.new_variant_id ?? x.new_product_id}
        </code>
      </div>
      <Facts
        rows={[
          ['quantity', x.qty],
          ['started', x.created_date],
        ]}
      />
    </RecordCard>
  );
}
