'use client';
// The agent-visible world: today's date and the cart as it stands.
import { CartTable, isCartData } from '@/components/transcript/tools/CartTable';
import { Card, CardHeader } from '@/components/ui/primitives';
import type { WorldView } from '@/server/episodes/types';

export function WorldPanel({ world, loading }: { world: WorldView | undefined; loading: boolean }) {
  return (
    <Card data-testid="world-panel">
      <CardHeader title="Cart" right={world?.today ? <span className="text-xs text-slate-500">today {world.today}</span> : null} />
      <div className="p-4">
        {world && isCartData(world.cart) ? (
          <CartTable cart={world.cart} compact />
        ) : (
          <p className="text-xs text-slate-500">{loading ? 'loading…' : 'no cart'}</p>
        )}
      </div>
    </Card>
  );
}
