// Constraints and the persona utility (SPEC §7), shared by PD, SUB and RETURN's
// replacement. Constraints come from attributes the reference product really
// has, so the reference always satisfies all of them.

import { isNumericAttr } from '../../catalog/taxonomy';
import type { Product } from '../../catalog/types';
import type { Rng } from '../../random';

export type ConstraintOp = 'eq' | 'max' | 'min';

/** attr: "price" | "rating" | "ship_days" | "brand" | any key of Product.attrs. */
export interface Constraint {
  attr: string;
  op: ConstraintOp;
  /** eq: the required value (compared case-insensitively); max/min: the bound. */
  value: string | number;
}

/** Numeric attributes where less is better for the customer: "at most". Every other numeric one is "at least". */
const AT_MOST = new Set(['price', 'ship_days', 'weight_lb']);
const CORE_ATTRS = ['price', 'rating', 'ship_days', 'brand'];

export function productValue(p: Product, attr: string): string | number | undefined {
  switch (attr) {
    case 'price':
      return p.price;
    case 'rating':
      return p.rating;
    case 'ship_days':
      return p.shipDays;
    case 'brand':
      return p.brand;
    default:
      return p.attrs[attr];
  }
}

const isNumeric = (attr: string) =>
  attr === 'price' || attr === 'rating' || attr === 'ship_days' || isNumericAttr(attr);

export function constraintMet(p: Product, c: Constraint): boolean {
  const v = productValue(p, c.attr);
  if (v === undefined) return false;
  if (c.op === 'eq') return String(v).toLowerCase() === String(c.value).toLowerCase();
  const x = Number(v);
  if (!Number.isFinite(x)) return false;
  return c.op === 'max' ? x <= Number(c.value) + 1e-9 : x >= Number(c.value) - 1e-9;
}

/** s(p) = (1/n)·Σ C_j(p); 1 when there are no constraints. */
export function satisfaction(p: Product, constraints: readonly Constraint[]): number {
  if (constraints.length === 0) return 1;
  let met = 0;
  for (const c of constraints) if (constraintMet(p, c)) met++;
  return met / constraints.length;
}

/** Attributes a product can be constrained on (it has a value for each). */
export function constrainableAttrs(p: Product): string[] {
  return [...CORE_ATTRS, ...Object.keys(p.attrs).filter((a) => p.attrs[a] !== undefined && p.attrs[a] !== '')];
}

// Bounds are rounded outward to what a customer would say ("under $35"), so the reference still meets them.
const roundUp = (x: number) => (x >= 10 ? Math.ceil(x - 1e-9) : Math.ceil(x * 10 - 1e-9) / 10);
const roundDown = (x: number) => (x >= 10 ? Math.floor(x + 1e-9) : Math.floor(x * 10 + 1e-9) / 10);

/** One constraint on attr from the reference's value: discrete → equality; numeric → ≤ v(1+δ) or ≥ v(1−δ), δ ~ U(0, δ_max). */
export function constraintFor(reference: Product, attr: string, deltaMax: number, rng: Rng): Constraint {
  const v = productValue(reference, attr);
  if (v === undefined) throw new Error(`constraintFor: ${reference.id} has no ${attr}`);
  if (!isNumeric(attr)) return { attr, op: 'eq', value: String(v) };
  const x = Number(v);
  const delta = rng.uniform(0, deltaMax);
  if (AT_MOST.has(attr)) {
    const bound = attr === 'ship_days' ? Math.floor(x * (1 + delta) + 1e-9) : roundUp(x * (1 + delta));
    return { attr, op: 'max', value: Math.max(bound, x) };
  }
  const bound =
    attr === 'rating' ? Math.max(1, Math.floor(x * (1 - delta) * 10 + 1e-9) / 10) : roundDown(x * (1 - delta));
  return { attr, op: 'min', value: Math.min(bound, x) };
}

/**
 * n constraints on attributes the reference has: `required` first (those it has),
 * then a random sample of the rest. n is capped by what the reference has.
 */
export function makeConstraints(
  reference: Product,
  n: number,
  deltaMax: number,
  rng: Rng,
  opts: { required?: readonly string[]; exclude?: readonly string[] } = {},
): Constraint[] {
  const available = constrainableAttrs(reference).filter((a) => !opts.exclude?.includes(a));
  const required = (opts.required ?? []).filter((a) => available.includes(a));
  const rest = available.filter((a) => !required.includes(a));
  const attrs = [...required, ...rng.sample(rest, Math.max(0, n - required.length))].slice(
    0,
    Math.max(n, required.length),
  );
  return attrs.map((a) => constraintFor(reference, a, deltaMax, rng));
}

// ---------- persona ----------

export const PERSONA_DIMS = ['price', 'rating', 'shipping', 'brand', 'similarity'] as const;
export type PersonaDim = (typeof PERSONA_DIMS)[number];
const DIRICHLET_ALPHAS = [2, 2, 1, 1, 1];
const STATED_BONUS = 3;

const DIM_OF_ATTR: Record<string, PersonaDim> = {
  price: 'price',
  rating: 'rating',
  ship_days: 'shipping',
  brand: 'brand',
};

export interface Persona {
  weights: Record<PersonaDim, number>;
  /** φ_price scale: the candidates' 10th and 90th price percentiles. */
  priceLow: number;
  priceHigh: number;
  preferredBrand: string;
}

/**
 * Weights ~ Dirichlet(2,2,1,1,1), +3 on each dimension the customer has a constraint
 * on (all of the goal's constraints, stated in the opening or not), renormalised.
 * `extraStated` adds dimensions the request itself states (SUB: similarity).
 */
export function samplePersonaWeights(
  rng: Rng,
  constraints: readonly Constraint[],
  extraStated: readonly PersonaDim[] = [],
) {
  const raw = rng.dirichlet(DIRICHLET_ALPHAS);
  const stated = new Set<PersonaDim>(extraStated);
  for (const c of constraints) if (DIM_OF_ATTR[c.attr]) stated.add(DIM_OF_ATTR[c.attr]);
  const boosted = PERSONA_DIMS.map((dim, i) => raw[i] + (stated.has(dim) ? STATED_BONUS : 0));
  const total = boosted.reduce((a, b) => a + b, 0);
  return Object.fromEntries(PERSONA_DIMS.map((dim, i) => [dim, boosted[i] / total])) as Record<PersonaDim, number>;
}

export const clip01 = (x: number) => Math.min(1, Math.max(0, x));

/** u(p) = Σ w_k φ_k(p); sim is φ_sim (similarity to the reference product) in [0, 1]. */
export function utility(p: Product, persona: Persona, sim: number): number {
  return utilityOf(p.price, p.rating, p.shipDays, isPreferredBrand(p.brand, persona), persona, sim);
}

export const isPreferredBrand = (brand: string, persona: Persona) =>
  brand.toLowerCase() === persona.preferredBrand.toLowerCase();

/** utility() from the product's values (recommend-pool.ts reads them from columns). */
export function utilityOf(
  price: number,
  rating: number,
  shipDays: number,
  preferredBrand: boolean,
  persona: Persona,
  sim: number,
): number {
  const w = persona.weights;
  const span = Math.max(1e-9, persona.priceHigh - persona.priceLow);
  const phiPrice = 1 - clip01((price - persona.priceLow) / span);
  const phiRating = clip01((rating - 1) / 4);
  const phiShip = 1 - clip01(shipDays / 14);
  const phiBrand = preferredBrand ? 1 : 0;
  return (
    w.price * phiPrice + w.rating * phiRating + w.shipping * phiShip + w.brand * phiBrand + w.similarity * clip01(sim)
  );
}

/** Price percentile q in [0, 1] of a list (nearest rank). */
export function pricePercentile(prices: readonly number[], q: number): number {
  return percentileOfSorted(
    [...prices].sort((a, b) => a - b),
    q,
  );
}

/** pricePercentile of a list already in ascending order. */
export function percentileOfSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
}

// ---------- how the customer says it ----------

const money = (x: number) => `$${Number.isInteger(x) ? x : x.toFixed(2)}`;
const UNITS: Record<string, string> = {
  wattage: 'W',
  screen_size_in: ' inches',
  weight_lb: ' lb',
  voltage: 'V',
  capacity_oz: ' oz',
};

export function describeConstraint(c: Constraint): string {
  const v = c.value;
  switch (c.attr) {
    case 'price':
      return `under ${money(Number(v))}`;
    case 'rating':
      return `rated at least ${Number(v).toFixed(1)} stars`;
    case 'ship_days':
      return Number(v) <= 1 ? 'that ships within a day' : `that ships within ${v} days`;
    case 'brand':
      return `from ${v}`;
    case 'color':
      return `in ${v}`;
    case 'size':
      return `in size ${v}`;
    case 'material':
      return `made of ${v}`;
    case 'connector_type':
      return `with ${v} connectivity`;
  }
  const name = c.attr.replace(/_/g, ' ');
  if (c.op === 'eq') return `with ${name} ${v}`;
  const unit = UNITS[c.attr];
  const shown = unit ? `${v}${unit}` : `${v}`;
  if (c.attr === 'pack_count') return c.op === 'min' ? `in a pack of at least ${v}` : `in a pack of at most ${v}`;
  if (c.attr === 'piece_count') return `with at least ${v} pieces`;
  return c.op === 'min'
    ? `with at least ${shown} ${unit ? '' : name}`.trimEnd()
    : `no more than ${shown} ${unit ? '' : name}`.trimEnd();
}

/** Words in an agent's question that ask about this constraint (slot keywords). */
export function constraintKeywords(c: Constraint): string[] {
  switch (c.attr) {
    case 'price':
      return ['budget', 'price', 'spend', 'cost', 'much', 'afford'];
    case 'rating':
      return ['rating', 'rated', 'stars', 'reviews', 'quality'];
    case 'ship_days':
      return ['shipping', 'delivery', 'ship', 'arrive', 'deliver', 'soon', 'quickly', 'days'];
    case 'brand':
      return ['brand', 'make', 'manufacturer', 'maker'];
    case 'color':
      return ['color', 'colour'];
    case 'connector_type':
      return ['connector', 'connection', 'port', 'plug', 'connectivity', 'wireless', 'wired'];
    case 'material':
      return ['material', 'made', 'fabric'];
    case 'wattage':
      return ['wattage', 'watts', 'watt', 'power'];
    case 'screen_size_in':
      return ['screen', 'inches', 'display'];
  }
  return [c.attr.replace(/_/g, ' '), ...c.attr.split('_').filter((w) => w.length > 2 && w !== 'count')];
}
