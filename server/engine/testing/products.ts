// Hand-made products for the verifier unit tests (not used by the engine).

import type { Product } from '../catalog/types';

export function mk(id: string, over: Partial<Product> = {}): Product {
  const category = over.category ?? 'electronics/chargers';
  return {
    id,
    title: `Acme Charger ${id}`,
    description: '',
    category,
    department: category.split('/')[0],
    brand: 'Acme',
    store: 'Acme',
    attrs: { color: 'Black' },
    features: [],
    price: 20,
    rating: 4,
    ratingCount: 10,
    shipDays: 3,
    stockQty: 10,
    ...over,
  };
}
