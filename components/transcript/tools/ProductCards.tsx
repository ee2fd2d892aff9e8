'use client';
// catalog.search and user.get_visit_history: a list of product cards.
import { useState } from 'react';
import { Badge, Button } from '@/components/ui/primitives';
import { fmtPrice } from '@/lib/format';
import { usePrefill } from '../prefill';
import { AddToAnswer } from './AnswerButtons';
import type { ProductCard } from '@/server/engine';
import { useStaleSince } from '@/components/replay/stale';

export type ProductCardData = ProductCard;

export function isProductCardList(v: unknown): v is ProductCardData[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && 'product_id' in x && 'title' in x);
}

export function StockBadge({ qty }: { qty: number }) {
  if (qty <= 0) return <Badge tone="red">out of stock</Badge>;
  if (qty < 5) return <Badge tone="amber">only {qty} left</Badge>;
  return <Badge tone="green">{qty} in stock</Badge>;
}

/** In the replay: this card's stock is out of date because a later world change emptied it. */
function StaleBadge({ productId, qty }: { productId: string; qty: number }) {
  const since = useStaleSince(productId);
  if (since === null || qty <= 0) return null;
  return (
    <span data-testid="stale-badge">
      <Badge tone="amber" title="The tool showed it in stock, but a later world change made it out of stock.">
        stale: out of stock from turn {since}
      </Badge>
    </span>
  );
}

export function ProductActions({ productId, compact = false }: { productId: string; compact?: boolean }) {
  const prefill = usePrefill();
  if (!prefill) return null;
  return (
    <div className="flex flex-wrap gap-1.5">
      <AddToAnswer productId={productId} />
      {!compact && prefill.tools.includes('cart.add') && (
        <Button
          size="sm"
          onClick={() => prefill.prefill('cart.add', { product_id: productId })}
          data-testid="prefill-cart-add"
        >
          Add to cart…
        </Button>
      )}
      {!compact && prefill.tools.includes('catalog.get_variants') && (
        <Button size="sm" onClick={() => prefill.prefill('catalog.get_variants', { product_id: productId })}>
          Variants…
        </Button>
      )}
      {prefill.tools.includes('catalog.get_product') && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => prefill.prefill('catalog.get_product', { product_id: productId })}
        >
          Details…
        </Button>
      )}
    </div>
  );
}

const SHOW_FIRST = 6;

export function ProductCards({ cards }: { cards: ProductCardData[] }) {
  const [all, setAll] = useState(false);
  if (cards.length === 0) return <p className="text-sm text-slate-500">No products.</p>;
  const shown = all ? cards : cards.slice(0, SHOW_FIRST);
  return (
    <div>
      <p className="mb-2 text-xs text-slate-500">
        {cards.length} product{cards.length === 1 ? '' : 's'}
      </p>
      <ul className="grid gap-2 sm:grid-cols-2">
        {shown.map((c) => {
          const { brand, category, ...attrs } = c.key_attrs ?? {};
          const attrText = Object.entries(attrs)
            .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`)
            .join(' · ');
          return (
            <li
              key={c.product_id}
              className="flex flex-col gap-1 rounded-md border border-slate-200 bg-white p-2.5"
              data-testid="product-card"
              data-product-id={c.product_id}
            >
              <div className="flex items-start justify-between gap-2">
                <p className="text-sm font-medium leading-snug text-slate-900">{c.title}</p>
                <span className="shrink-0 text-sm font-semibold text-slate-900">{fmtPrice(c.price)}</span>
              </div>
              <div className="flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs text-slate-600">
                <span className="font-mono text-[11px] text-slate-500">{c.product_id}</span>
                <span title="rating">★ {c.rating.toFixed(1)}</span>
                <span>· ships in {c.ship_days} d</span>
                <StockBadge qty={c.stock_qty} />
                <StaleBadge productId={c.product_id} qty={c.stock_qty} />
              </div>
              <p className="text-xs text-slate-600">
                {brand !== undefined && <span className="font-medium text-sky-800">{String(brand)}</span>}
                {category !== undefined && <span className="text-slate-500"> · {String(category)}</span>}
              </p>
              {attrText && <p className="text-xs text-slate-600">{attrText}</p>}
              <ProductActions productId={c.product_id} />
            </li>
          );
        })}
      </ul>
      {cards.length > SHOW_FIRST && (
        <Button size="sm" variant="ghost" className="mt-2" onClick={() => setAll((a) => !a)}>
          {all ? 'Show fewer' : `Show all ${cards.length}`}
        </Button>
      )}
    </div>
  );
}
