// Feature bags written from term ids (pool-terms.ts) are test/similarity.ts's featureBag: the same words
// with the same counts in the same order, whether the title comes as numbered parts (generated
// titles) or as tokens, and both writers give every word the same id.
import { describe, expect, it } from 'vitest';
import type { ColumnarCatalog, ProductText } from '../../catalog/columnar-catalog';
import { createSyntheticCatalog } from '../../catalog/synthetic';
import { Rng } from '../../random';
import { attributeColumnsByCategory } from './pool-columns';
import { BagTerms, type TermVocab } from './pool-terms';
import { productFeatures } from './test/similarity';

const catalog = createSyntheticCatalog({ seed: 5, size: 20_000 });
// the same catalog whose text gives titles only (as an imported catalog's does): tokenized per product
const text = catalog.text;
const plainText: ProductText = {
  id: (i) => text.id(i),
  indexOf: (id) => text.indexOf(id),
  title: (i) => text.title(i),
  description: (i) => text.description(i),
  features: (i) => text.features(i),
};
const plain = Object.create(catalog, { text: { value: plainText } }) as ColumnarCatalog;

function writer(c: ColumnarCatalog) {
  const bags = new BagTerms(c);
  bags.attrColumns = attributeColumnsByCategory(c);
  const vocabs = new Map<number, TermVocab>();
  return (i: number) => {
    const code = c.cols.category[i];
    let vocab = vocabs.get(code);
    if (!vocab) vocabs.set(code, (vocab = bags.vocabulary()));
    bags.used = 0;
    const n = bags.write(vocab, i);
    return { vocab, terms: [...bags.terms.subarray(0, n)], tfs: [...bags.tfs.subarray(0, n)] };
  };
}

describe('pool-terms bags', () => {
  it('equal featureBag for 2,000 products, with title parts and with title tokens, and get the same ids', () => {
    expect(catalog.text.titleParts).toBeDefined();
    expect(plain.text.titleParts).toBeUndefined();
    const byParts = writer(catalog);
    const byTokens = writer(plain);
    const rng = new Rng(9);
    for (let t = 0; t < 2000; t++) {
      const i = rng.int(0, catalog.size - 1);
      const a = byParts(i);
      const b = byTokens(i);
      expect(b.terms).toEqual(a.terms);
      expect(b.tfs).toEqual(a.tfs);
      const expected = [...productFeatures(catalog.at(i))];
      const size = a.vocab.size;
      expect(a.terms, catalog.titleAt(i)).toEqual(expected.map(([word]) => a.vocab.id(word)));
      expect(a.tfs).toEqual(expected.map(([, count]) => count));
      expect(a.vocab.size).toBe(size); // every word was in the vocabulary already
    }
  });

  it('a released vocabulary rebuilds its part index with the same ids', () => {
    const write = writer(catalog);
    const first = write(0);
    first.vocab.release();
    for (let i = 0; i < catalog.size && i < 4000; i++)
      if (catalog.cols.category[i] === catalog.cols.category[0]) write(i); // meets parts again after the release
    expect(write(0).terms).toEqual(first.terms);
  });

  it('widens to 32-bit ids and 16-bit counts when one does not fit, keeping the bags written before', () => {
    // a title repeating one word 300 times (an imported catalog could) and a vocabulary past 65,536 words
    const repeated: ProductText = { ...plainText, title: (i) => (i === 7 ? 'widget '.repeat(300) : text.title(i)) };
    const odd = Object.create(catalog, { text: { value: repeated } }) as ColumnarCatalog;
    const bags = new BagTerms(odd);
    bags.attrColumns = attributeColumnsByCategory(odd);
    const vocab = bags.vocabulary();
    const bag = (at: number, n: number) => ({
      terms: [...bags.terms.subarray(at, at + n)],
      tfs: [...bags.tfs.subarray(at, at + n)],
    });
    const n0 = bags.write(vocab, 0);
    bags.used += n0;
    const before = bag(0, n0);
    expect(bags.terms).toBeInstanceOf(Uint16Array);
    expect(bags.tfs).toBeInstanceOf(Uint8Array);
    const at7 = bags.used;
    const n7 = bags.write(vocab, 7);
    bags.used += n7;
    expect(bags.tfs).toBeInstanceOf(Uint16Array);
    expect(bag(at7, n7).tfs[0]).toBe(300);
    expect(bag(at7, n7).terms[0]).toBe(vocab.id('widget'));
    for (let k = 0; vocab.size <= 0x10000; k++) vocab.id(`filler${k}`);
    const at1 = bags.used;
    const n1 = bags.write(vocab, 1); // its words meet the vocabulary now: ids past 65,535
    expect(bags.terms).toBeInstanceOf(Int32Array);
    const late = bag(at1, n1);
    expect(Math.max(...late.terms)).toBeGreaterThan(0xffff);
    expect(late.terms).toEqual([...productFeatures(catalog.at(1))].map(([word]) => vocab.id(word)));
    expect(bag(0, n0)).toEqual(before);
    expect(bag(at7, n7).tfs[0]).toBe(300);
  });
});
