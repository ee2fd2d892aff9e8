// The customer's addresses and payment methods (SPEC §4), created once per world from the
// episode's Rng.

import type { Rng } from '../random';
import type { WorldState } from './state';

export interface Address {
  address_id: string;
  label: string;
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export interface PaymentMethod {
  payment_method_id: string;
  type: 'card' | 'paypal' | 'gift_card';
  label: string;
}

const NAMES = [
  'Alex Morgan',
  'Sam Rivera',
  'Jordan Lee',
  'Taylor Brooks',
  'Casey Nguyen',
  'Riley Patel',
  'Jamie Chen',
  'Morgan Diaz',
];
const PLACES = [
  { city: 'Columbus', state: 'OH', zip: '43215' },
  { city: 'Austin', state: 'TX', zip: '78701' },
  { city: 'Denver', state: 'CO', zip: '80202' },
  { city: 'Portland', state: 'OR', zip: '97205' },
  { city: 'Raleigh', state: 'NC', zip: '27601' },
  { city: 'Madison', state: 'WI', zip: '53703' },
  { city: 'Tucson', state: 'AZ', zip: '85701' },
  { city: 'Albany', state: 'NY', zip: '12207' },
];
const STREETS = ['Maple Ave', 'Oak St', 'Elm Dr', 'Cedar Ln', 'Pine Rd', 'Lakeview Blvd', 'Hillcrest Way', 'River St'];
const ADDRESS_LABELS = ['Home', 'Work', "Parents' house"];
const PAYMENT_OPTIONS: ReadonlyArray<Omit<PaymentMethod, 'payment_method_id' | 'label'> & { brand: string }> = [
  { type: 'card', brand: 'Visa' },
  { type: 'card', brand: 'Mastercard' },
  { type: 'card', brand: 'Amex' },
  { type: 'paypal', brand: 'PayPal' },
  { type: 'gift_card', brand: 'Gift card' },
];
/** Addresses and payment methods (2–3 each), created once per world. */
export function ensureCustomerProfile(world: WorldState, rng: Rng): void {
  if (world.addresses.length > 0 && world.paymentMethods.length > 0) return;
  const name = rng.pick(NAMES);
  world.addresses = ADDRESS_LABELS.slice(0, rng.int(2, 3)).map((label, i) => {
    const place = rng.pick(PLACES);
    return {
      address_id: `addr_${i + 1}`,
      label,
      name,
      street: `${rng.int(10, 9999)} ${rng.pick(STREETS)}`,
      city: place.city,
      state: place.state,
      zip: place.zip,
      country: 'US',
    };
  });
  world.paymentMethods = rng.sample(PAYMENT_OPTIONS, rng.int(2, 3)).map((p, i) => ({
    payment_method_id: `pm_${i + 1}`,
    type: p.type,
    label:
      p.type === 'card'
        ? `${p.brand} ending ${rng.int(1000, 9999)}`
        : p.type === 'paypal'
          ? 'PayPal account'
          : `Gift card ending ${rng.int(1000, 9999)}`,
  }));
}
