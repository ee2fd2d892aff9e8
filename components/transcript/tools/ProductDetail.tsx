'use client';
// catalog.get_product: the full product.
import { Badge } from '@/components/ui/primitives';
import { fmtPrice } from '@/lib/format';
import { ProductActions, StockBadge } from './ProductCards';

export interface ProductDetailData {
  product_id: string;
  title: string;
  description?: string;
  category?: string;
  department?: string;
  brand?: string;
  store?: string;
  attrs?: Record<string, string | number>;
  features?: string[];
  price: number;
  rating: number;
  rating_count?: number;
  ship_days: number;
  stock_qty: number;
}

export function isProductDetail(v: unknown): v is ProductDetailData {
  return typeof v === 'object' && v !== null && 'product_id' in v && 'title' in v && 'price' in v;
}

export function ProductDetail({ p }: { p: ProductDetailData }) {
  return (
    <div className="space-y-2 rounded-md border border-slate-200 bg-white p-3">
      <div className="flex items-start justify-between gap-2">
        <div>
          <p className="font-medium text-slate-900">{p.title}</p>
          <p className="font-mono text-[11px] text-slate-500">{p.product_id}</p>
        </div>
        <span className="text-base font-semibold">{fmtPrice(p.price)}</span>
      </div>
      <div className="flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
        {p.brand && <Badge tone="blue">{p.brand}</Badge>}
        {p.category && <Badge>{p.category}</Badge>}
        {p.store && <span>sold by {p.store}</span>}
        <span>
          ★ {p.rating.toFixed(1)}
          {p.rating_count !== undefined && ` (${p.rating_count})`}
        </span>
        <span>ships in {p.ship_days} d</span>
        <StockBadge qty={p.stock_qty} />
      </div>
      {p.description && <p className="text-sm text-slate-700">{p.description}</p>}
      {p.attrs && Object.keys(p.attrs).length > 0 && (
        <dl className="grid grid-cols-2 gap-x-4 gap-y-0.5 text-xs sm:grid-cols-3">
          {Object.entries(p.attrs).map(([k, v]) => (
            <div key={k} className="flex gap-1">
              <dt className="text-slate-500">{k.replace(/_/g, ' ')}:</dt>
              <dd className="text-slate-800">{String(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {p.features && p.features.length > 0 && (
        <ul className="list-inside list-disc text-xs text-slate-600">
          {p.features.map((f, i) => (
            <li key={i}>{f}</li>
          ))}
        </ul>
      )}
      <ProductActions productId={p.product_id} />
    </div>
  );
}
