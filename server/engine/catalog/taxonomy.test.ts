import { describe, expect, it } from 'vitest';
import {
  ALL_DEPARTMENTS,
  CATEGORY_LIST,
  DENIED_CATEGORIES,
  VARIANT_PRIORITY,
  attributeValues,
  categoryInfo,
  isDeniedCategory,
} from './taxonomy';
import { tokenize } from './tokenize';
import { formatTitleSpec } from './attributes';

const normal = CATEGORY_LIST.filter((c) => !c.denied);

describe('taxonomy', () => {
  it('has at least 8 departments and 40 leaf categories outside the restricted one', () => {
    expect(new Set(normal.map((c) => c.department)).size).toBeGreaterThanOrEqual(8);
    expect(normal.length).toBeGreaterThanOrEqual(40);
  });

  it('holds every denied category of SPEC §1 and flags exactly those', () => {
    const denied = CATEGORY_LIST.filter((c) => c.denied)
      .map((c) => c.leaf)
      .sort();
    expect(denied).toEqual([...DENIED_CATEGORIES].sort());
    for (const c of CATEGORY_LIST) expect(isDeniedCategory(c.path)).toBe(c.denied);
    expect(isDeniedCategory('tobacco')).toBe(true);
    expect(isDeniedCategory('Restricted/Firearms')).toBe(true);
    expect(isDeniedCategory('sports_outdoors/firearms')).toBe(true);
    expect(isDeniedCategory('electronics/chargers')).toBe(false);
    expect(isDeniedCategory('grocery/weapons_of_mass_snacking')).toBe(false);
  });

  it('keeps brand words unique and apart from noun and adjective words', () => {
    const owner = new Map<string, string>();
    for (const d of ALL_DEPARTMENTS) {
      for (const b of d.brands) {
        for (const t of tokenize(b)) {
          expect(owner.get(t), `brand word "${t}" of ${b} also in ${owner.get(t)}`).toBeUndefined();
          owner.set(t, b);
        }
      }
    }
    const nounWords = new Set(CATEGORY_LIST.flatMap((c) => c.def.nouns.flatMap((n) => tokenize(n))));
    const adjWords = new Set(ALL_DEPARTMENTS.flatMap((d) => d.adjectives.flatMap((a) => tokenize(a))));
    for (const t of owner.keys()) {
      expect(nounWords.has(t), `brand word ${t} is a noun word`).toBe(false);
      expect(adjWords.has(t), `brand word ${t} is an adjective word`).toBe(false);
    }
  });

  it('never has a noun whose words are a subset of another noun (brand + noun names one kind)', () => {
    const nouns = CATEGORY_LIST.flatMap((c) => c.def.nouns.map((n) => ({ n, words: new Set(tokenize(n)) })));
    expect(new Set(nouns.map((x) => x.n)).size).toBe(nouns.length);
    for (const a of nouns) {
      for (const b of nouns) {
        if (a === b) continue;
        const subset = [...a.words].every((w) => b.words.has(w));
        expect(subset, `"${a.n}" ⊆ "${b.n}"`).toBe(false);
      }
    }
  });

  it('keeps noun words apart from the adjectives of their department', () => {
    for (const c of CATEGORY_LIST) {
      const adj = new Set(c.dept.adjectives.flatMap((a) => tokenize(a)));
      for (const n of c.def.nouns) for (const t of tokenize(n)) expect(adj.has(t), `${c.path} ${n}`).toBe(false);
    }
  });

  it('keeps title spec words apart from the noun and adjective words of the same category', () => {
    for (const c of CATEGORY_LIST) {
      const own = new Set([...c.def.nouns, ...c.dept.adjectives].flatMap((w) => tokenize(w)));
      for (const a of c.def.title) {
        for (const v of attributeValues(a, c.path)) {
          for (const t of tokenize(formatTitleSpec(a, v))) expect(own.has(t), `${c.path} ${a}=${v}`).toBe(false);
        }
      }
    }
  });

  it('gives every category of a department with a variant priority at least one of those attributes', () => {
    for (const c of normal) {
      const priority = VARIANT_PRIORITY[c.department];
      if (!priority) continue;
      const names = c.def.attrs.map((a) => a.name);
      expect(
        priority.some((p) => names.includes(p)),
        c.path,
      ).toBe(true);
    }
    expect(VARIANT_PRIORITY.electronics).toEqual(['connector_type', 'wattage', 'color']);
    expect(VARIANT_PRIORITY.clothing).toEqual(['size', 'color', 'material']);
    expect(VARIANT_PRIORITY.home_kitchen).toEqual(['material', 'color', 'size']);
    expect(VARIANT_PRIORITY.beauty).toEqual(['item_form', 'skin_type', 'finish_type']);
  });

  it('lists attribute values per category and overall', () => {
    expect(attributeValues('size', 'home_kitchen/cookware')).toEqual(['8 Inch', '10 Inch', '12 Inch']);
    expect(attributeValues('size')).toContain('XL');
    expect(attributeValues('size')).toContain('12 Inch');
    expect(attributeValues('connector_type')).toContain('USB-C');
    expect(attributeValues('skin_type', 'beauty/moisturizers')).toContain('Sensitive');
    expect(attributeValues('no_such_attr')).toEqual([]);
    for (const c of CATEGORY_LIST) {
      for (const a of c.def.attrs) {
        const vals = attributeValues(a.name, c.path);
        expect(vals.length, `${c.path} ${a.name}`).toBeGreaterThan(0);
        for (const v of vals) expect(attributeValues(a.name)).toContain(v);
      }
      for (const t of c.def.title) expect(c.def.attrs.map((a) => a.name)).toContain(t);
    }
    expect(categoryInfo('Electronics/Chargers')?.department).toBe('electronics');
  });
});
