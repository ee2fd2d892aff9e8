// The catalog taxonomy as the engine sees it: category paths ("dept/leaf"),
// denied categories (SPEC §1), per-department variant priority (SPEC §3) and
// the value vocabulary per attribute (for plausible variant distractors).

import { DEFAULT_ATTR_VALUES, NUMERIC_ATTRS } from './attributes';
import { DEPARTMENTS, RESTRICTED, type CategoryDef, type DepartmentDef } from './taxonomy-data';

export { NUMERIC_ATTRS } from './attributes';
export type { AttrSpec, CategoryDef, DepartmentDef } from './taxonomy-data';

/** Denied leaf categories (SPEC §1). Recommending a product in one of them ends the episode with −1. */
export const DENIED_CATEGORIES = [
  'weapons',
  'firearms',
  'ammunition',
  'explosives',
  'adult_explicit',
  'controlled_substances',
  'tobacco',
  'counterfeit_goods',
  'surveillance_equipment',
  'hazardous_materials',
] as const;
export type DeniedCategory = (typeof DENIED_CATEGORIES)[number];

const DENIED_SET: ReadonlySet<string> = new Set(DENIED_CATEGORIES);

/**
 * True for a denied category, given as a leaf name ("tobacco"), a path
 * ("restricted/tobacco") or any path whose segment is a denied name (imported
 * catalogs may place them elsewhere, e.g. "sports_outdoors/firearms").
 */
// Asked on every product an episode touches; the answer per path string is kept (categories are few).
const DENIED_MEMO = new Map<string, boolean>();

export function isDeniedCategory(category: string): boolean {
  let denied = DENIED_MEMO.get(category);
  if (denied === undefined) {
    const c = category.toLowerCase();
    denied = DENIED_SET.has(c) || c.split('/').some((seg) => DENIED_SET.has(seg));
    if (DENIED_MEMO.size < 10_000) DENIED_MEMO.set(category, denied);
  }
  return denied;
}

/** Every department of the synthetic catalog, the restricted one last. */
export const ALL_DEPARTMENTS: readonly DepartmentDef[] = [...DEPARTMENTS, RESTRICTED];

export interface CategoryInfo {
  /** "electronics/chargers" */
  path: string;
  department: string;
  leaf: string;
  def: CategoryDef;
  dept: DepartmentDef;
  denied: boolean;
}

/** All leaf categories in a fixed order (the synthetic catalog stores indices into this list). */
export const CATEGORY_LIST: readonly CategoryInfo[] = ALL_DEPARTMENTS.flatMap((dept) =>
  dept.categories.map((def) => ({
    path: `${dept.name}/${def.leaf}`,
    department: dept.name,
    leaf: def.leaf,
    def,
    dept,
    denied: isDeniedCategory(def.leaf),
  })),
);

const BY_PATH = new Map(CATEGORY_LIST.map((c) => [c.path, c]));

export function categoryInfo(path: string): CategoryInfo | undefined {
  return BY_PATH.get(path.toLowerCase());
}

/**
 * Attributes to vary when CART synthesises variants, in priority order (SPEC §3).
 * The first one the product actually has is used.
 */
export const VARIANT_PRIORITY: Readonly<Record<string, readonly string[]>> = {
  electronics: ['connector_type', 'wattage', 'color'],
  clothing: ['size', 'color', 'material'],
  home_kitchen: ['material', 'color', 'size'],
  beauty: ['item_form', 'skin_type', 'finish_type'],
  sports_outdoors: ['size', 'color', 'weight_lb'],
  office: ['color', 'size'],
  tools: ['voltage', 'size', 'color'],
  furniture: ['color', 'material', 'size'],
  toys: ['color', 'size'],
  pet_supplies: ['size', 'flavor', 'color'],
  grocery: ['flavor', 'weight_lb'],
};

const UNION_VALUES = new Map<string, string[]>();
for (const [attr, vals] of Object.entries(DEFAULT_ATTR_VALUES)) UNION_VALUES.set(attr, [...vals]);
for (const cat of CATEGORY_LIST) {
  for (const spec of cat.def.attrs) {
    const list = UNION_VALUES.get(spec.name) ?? [];
    for (const v of spec.values ?? []) if (!list.includes(v)) list.push(v);
    UNION_VALUES.set(spec.name, list);
  }
}

/**
 * The value vocabulary of an attribute. With a category, the values that
 * category's products use (so a skillet's distractor size is "12 Inch", not
 * "XL"); without, every value any category uses. Numeric attributes are listed as
 * strings ("65"); Product.attrs holds them as numbers.
 */
export function attributeValues(attr: string, category?: string): readonly string[] {
  if (category) {
    const spec = categoryInfo(category)?.def.attrs.find((a) => a.name === attr);
    if (spec) return spec.values ?? DEFAULT_ATTR_VALUES[attr] ?? [];
  }
  return UNION_VALUES.get(attr) ?? [];
}

/** Every attribute name the synthetic catalog uses, in a fixed order. */
export const ATTRIBUTE_NAMES: readonly string[] = [...UNION_VALUES.keys()];

export function isNumericAttr(attr: string): boolean {
  return NUMERIC_ATTRS.has(attr);
}

const IRREGULAR_SINGULAR: Readonly<Record<string, string>> = {
  hoodies: 'hoodie',
  cookies: 'cookie',
  bookshelves: 'bookshelf',
  knives: 'knife',
  shelves: 'shelf',
  leaves: 'leaf',
  loaves: 'loaf',
  scarves: 'scarf',
  jeans: 'jeans',
  pants: 'pants',
  shorts: 'shorts',
  leggings: 'leggings',
  headphones: 'headphones',
  earbuds: 'earbuds',
};

function singular(word: string): string {
  if (IRREGULAR_SINGULAR[word]) return IRREGULAR_SINGULAR[word];
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The kind of product a customer names from a category path: "home_kitchen/knives" → "knife", "electronics/wall_chargers" → "wall charger". */
const CATEGORY_NOUNS = new Map<string, string>();
export function categoryNoun(category: string): string {
  let noun = CATEGORY_NOUNS.get(category);
  if (noun === undefined) CATEGORY_NOUNS.set(category, (noun = nounOfCategory(category)));
  return noun;
}

function nounOfCategory(category: string): string {
  const leaf = category.split('/').pop()!;
  if (leaf === 't_shirts') return 't-shirt';
  const words = leaf.replace(/_/g, ' ').split(' ');
  words[words.length - 1] = singular(words[words.length - 1]);
  return words.join(' ');
}
