'use client';
// cart.view / add / remove / set_quantity: the cart with totals.
import { Button } from '@/components/ui/primitives';
import { fmtPrice } from '@/lib/format';
import { usePrefill } from '../prefill';

export interface CartData {
  lines: Array<{
    line_id: string;
    product_id: string;
    variant_id: string | null;
    title?: string;
    qty: number;
    unit_price: number;
  }>;
  total_items: number;
  total_price: number;
}

export function isCartData(v: unknown): v is CartData {
  return (
    typeof v === 'object' && v !== null && 'lines' in v && Array.isArray((v as CartData).lines) && 'total_items' in v
  );
}

export function CartTable({ cart, compact = false }: { cart: CartData; compact?: boolean }) {
  const prefill = usePrefill();
  if (cart.lines.length === 0) return <p className="text-sm text-slate-500">The cart is empty.</p>;
  const editable = !compact && prefill && prefill.tools.includes('cart.set_quantity');
  return (
    <table className="w-full text-left text-sm" data-testid="cart-table">
      <thead className="text-xs text-slate-500">
        <tr>
          {!compact && <th className="py-1 pr-2 font-medium">line</th>}
          <th className="py-1 pr-2 font-medium">item</th>
          <th className="py-1 pr-2 text-right font-medium">qty</th>
          <th className="py-1 pr-2 text-right font-medium">unit</th>
          <th className="py-1 text-right font-medium">subtotal</th>
          {editable && <th />}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {cart.lines.map((l) => (
          <tr key={l.line_id} className="align-top">
            {!compact && <td className="py-1.5 pr-2 font-mono text-xs">{l.line_id}</td>}
            <td className="py-1.5 pr-2">
              <div className="leading-snug">{l.title ?? l.product_id}</div>
              <div className="font-mono text-[11px] text-slate-500">{l.variant_id ?? l.product_id}</div>
            </td>
            <td className="py-1.5 pr-2 text-right">{l.qty}</td>
            <td className="py-1.5 pr-2 text-right">{fmtPrice(l.unit_price)}</td>
            <td className="py-1.5 text-right">{fmtPrice(l.unit_price * l.qty)}</td>
            {editable && (
              <td className="py-1.5 pl-2 text-right">
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => prefill.prefill('cart.set_quantity', { line_id: l.line_id, quantity: l.qty })}
                >
                  Qty…
                </Button>
              </td>
            )}
          </tr>
        ))}
      </tbody>
      <tfoot className="border-t border-slate-200 font-medium">
        <tr>
          <td className="py-1.5 pr-2" colSpan={compact ? 1 : 2}>
            Total
          </td>
          <td className="py-1.5 pr-2 text-right">{cart.total_items}</td>
          <td />
          <td className="py-1.5 text-right">{fmtPrice(cart.total_price)}</td>
          {editable && <td />}
        </tr>
      </tfoot>
    </table>
  );
}
