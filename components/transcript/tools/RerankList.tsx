'use client';
// catalog.rerank: the candidate ids re-ordered by relevance, with their scores. Titles are
// shown when a tool result of the episode showed the product (else looked up, marked).
import { fmtFixed } from '@/lib/format';
import { ProductTitle, useProductTitle } from '../product-titles';
import { ProductActions } from './ProductCards';

export interface RerankHit {
  product_id: string;
  score: number;
}

export function isRerankList(v: unknown): v is RerankHit[] {
  return (
    Array.isArray(v) &&
    v.every(
      (x) =>
        typeof x === 'object' &&
        x !== null &&
        typeof (x as RerankHit).product_id === 'string' &&
        typeof (x as RerankHit).score === 'number',
    )
  );
}

function RerankRow({ hit, rank }: { hit: RerankHit; rank: number }) {
  const title = useProductTitle(hit.product_id);
  return (
    <li
      className="flex flex-wrap items-center gap-x-3 gap-y-1 px-2.5 py-1.5"
      data-testid="rerank-hit"
      data-product-id={hit.product_id}
    >
      <span className="w-5 text-right text-xs tabular-nums text-slate-400">{rank}.</span>
      <div className="min-w-0 flex-1">
        {title && (
          <p className="text-sm leading-snug text-slate-900">
            <ProductTitle known={title} />
          </p>
        )}
        <code className="text-xs text-slate-600 [overflow-wrap:anywhere]">{hit.product_id}</code>
      </div>
      <span
        className="flex items-center gap-1.5 text-[11px] tabular-nums text-slate-500"
        title="share of the query's words the product matches"
      >
        <span className="inline-block h-1.5 w-14 overflow-hidden rounded bg-slate-100">
          <span className="block h-full bg-sky-400" style={{ width: `${Math.max(4, hit.score * 100)}%` }} />
        </span>
        {fmtFixed(hit.score, 2)}
      </span>
      <div className="flex w-full justify-end pl-8 sm:w-auto">
        <ProductActions productId={hit.product_id} compact />
      </div>
    </li>
  );
}

export function RerankList({ hits }: { hits: RerankHit[] }) {
  if (hits.length === 0) return <p className="text-sm text-slate-500">No candidates.</p>;
  return (
    <ol className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white" data-testid="rerank-list">
      {hits.map((h, i) => (
        <RerankRow key={h.product_id} hit={h} rank={i + 1} />
      ))}
    </ol>
  );
}
