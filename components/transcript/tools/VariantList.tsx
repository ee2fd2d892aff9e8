'use client';
// catalog.get_variants: the product's variants, each with "add this variant".
import { Button } from '@/components/ui/primitives';
import { fmtPrice } from '@/lib/format';
import { usePrefill } from '../prefill';
import { StockBadge } from './ProductCards';

export interface VariantsData {
  product_id: string;
  variants: Array<{
    variant_id: string;
    product_id: string;
    attrs: Record<string, string | number>;
    price_delta: number;
    stock_qty: number;
  }>;
}

export function isVariantsData(v: unknown): v is VariantsData {
  return typeof v === 'object' && v !== null && 'variants' in v && Array.isArray((v as VariantsData).variants);
}

export function VariantList({ data }: { data: VariantsData }) {
  const prefill = usePrefill();
  if (data.variants.length === 0)
    return <p className="text-sm text-slate-500">{data.product_id} has no variants: add the product itself.</p>;
  return (
    <table className="w-full text-left text-sm" data-testid="variant-list">
      <thead className="text-xs text-slate-500">
        <tr>
          <th className="py-1 pr-3 font-medium">variant</th>
          <th className="py-1 pr-3 font-medium">attributes</th>
          <th className="py-1 pr-3 font-medium">price Δ</th>
          <th className="py-1 pr-3 font-medium">stock</th>
          {prefill && <th />}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {data.variants.map((v) => (
          <tr key={v.variant_id}>
            <td className="py-1.5 pr-3 font-mono text-xs">{v.variant_id}</td>
            <td className="py-1.5 pr-3">
              {Object.entries(v.attrs)
                .map(([k, val]) => `${k.replace(/_/g, ' ')}: ${val}`)
                .join(', ')}
            </td>
            <td className="py-1.5 pr-3">
              {v.price_delta === 0 ? '—' : (v.price_delta > 0 ? '+' : '−') + fmtPrice(Math.abs(v.price_delta))}
            </td>
            <td className="py-1.5 pr-3">
              <StockBadge qty={v.stock_qty} />
            </td>
            {prefill && prefill.tools.includes('cart.add') && (
              <td className="py-1.5 text-right">
                <Button
                  size="sm"
                  onClick={() => prefill.prefill('cart.add', { product_id: v.product_id, variant_id: v.variant_id })}
                >
                  Add this variant…
                </Button>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
