import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { importAmazonJsonl, listImportedCatalogs, loadImportedCatalog, validateCatalogName } from './import';
import { normaliseAmazonRecord, parsePrice, shipDaysFor, stockFor } from './amazon-normalise';
import { isDeniedCategory } from './taxonomy';

const FIXTURES = path.resolve(__dirname, '../../../fixtures/catalogs');
const SAMPLE = path.join(FIXTURES, 'amazon-sample.jsonl');
const BROKEN = path.join(FIXTURES, 'amazon-broken.jsonl');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-import-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const rec = (over: Record<string, unknown> = {}) => ({
  main_category: 'All Electronics',
  title: 'Anker Nano Charger 65W',
  average_rating: 4.5,
  rating_number: 120,
  features: ['GaN'],
  description: ['Small.', 'Fast.'],
  price: '$35.99',
  store: 'Anker',
  categories: ['Electronics', 'Computers & Accessories', 'Power Adapters'],
  details: { Brand: 'Anker', Color: 'White', Wattage: '65 Watts', 'Item Weight': '4 Ounces' },
  parent_asin: 'B0TEST0001',
  ...over,
});

function ok(r: unknown) {
  const res = normaliseAmazonRecord(r);
  if ('error' in res) throw new Error(res.error);
  return res.product;
}

describe('Amazon record normalisation (SPEC §3 rules)', () => {
  it('maps the fields', () => {
    const p = ok(rec());
    expect(p).toMatchObject({
      id: 'B0TEST0001',
      title: 'Anker Nano Charger 65W',
      description: 'Small. Fast.',
      category: 'electronics/power_adapters',
      department: 'electronics',
      brand: 'Anker',
      store: 'Anker',
      attrs: { color: 'White', wattage: 65, weight_lb: 0.25 },
      features: ['GaN'],
      price: 35.99,
      rating: 4.5,
      ratingCount: 120,
    });
  });

  it('parses prices, defaults a missing one to 9.99 and rejects the unparseable', () => {
    expect(parsePrice('$1,299.00')).toBe(1299);
    expect(parsePrice('$12.5')).toBe(12.5);
    expect(parsePrice(7)).toBe(7);
    expect(parsePrice(null)).toBe(9.99);
    expect(parsePrice(undefined)).toBe(9.99);
    expect(parsePrice('')).toBe(9.99);
    expect(parsePrice('None')).toBe(9.99);
    for (const bad of ['$10.99 - $15.99', 'free', '12,34', '$', -3, {}, '1,2345.00'])
      expect(parsePrice(bad)).toBeUndefined();
    expect(normaliseAmazonRecord(rec({ price: 'free' }))).toEqual({ error: 'unparseable price "free"' });
  });

  it('clamps the rating to 1..5 and defaults it to 3.0', () => {
    expect(ok(rec({ average_rating: 7 })).rating).toBe(5);
    expect(ok(rec({ average_rating: 0.2 })).rating).toBe(1);
    expect(ok(rec({ average_rating: undefined })).rating).toBe(3);
    expect(ok(rec({ average_rating: 'n/a' })).rating).toBe(3);
  });

  it('takes brand from details.Brand, else store; details may be a JSON string', () => {
    expect(ok(rec({ details: { Color: 'Red' } })).brand).toBe('Anker');
    expect(ok(rec({ details: {}, store: 'Some Store' })).brand).toBe('Some Store');
    expect(ok(rec({ details: '{"Brand": "Belkin", "Color": "Black"}' }))).toMatchObject({
      brand: 'Belkin',
      attrs: { color: 'Black' },
    });
    const res = normaliseAmazonRecord(rec({ details: '{oops' }));
    expect('product' in res && res.warnings).toEqual(['details is not valid JSON']);
  });

  it('synthesises ship days and stock deterministically from the id', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `B0${String(i).padStart(8, '0')}`);
    const ship = ids.map(shipDaysFor);
    const stock = ids.map(stockFor);
    expect(ship.every((d) => d >= 1 && d <= 14 && Number.isInteger(d))).toBe(true);
    const p1 = ship.filter((d) => d === 1).length / ids.length;
    expect(p1).toBeGreaterThan(0.38); // geometric(0.4): P(1) = 0.4
    expect(p1).toBeLessThan(0.42);
    const oos = stock.filter((s) => s === 0).length / ids.length;
    expect(oos).toBeGreaterThan(0.09);
    expect(oos).toBeLessThan(0.11);
    const inStock = stock.filter((s) => s > 0);
    expect(Math.min(...inStock)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...inStock)).toBeLessThanOrEqual(200);
    const mean = inStock.reduce((a, b) => a + b, 0) / inStock.length;
    expect(mean).toBeGreaterThan(19.5);
    expect(mean).toBeLessThan(20.5);
    expect(ids.map(shipDaysFor)).toEqual(ship);
    expect(ids.map(stockFor)).toEqual(stock);
  });

  it('maps categories to dept/leaf paths and denied ones to restricted/', () => {
    expect(
      ok(rec({ main_category: 'Amazon Home', categories: ['Home & Kitchen', 'Kitchen & Dining', 'Blenders'] }))
        .category,
    ).toBe('home_kitchen/blenders');
    expect(ok(rec({ main_category: 'Automotive', categories: ['Automotive', 'Car Care'] })).category).toBe(
      'automotive/car_care',
    );
    expect(ok(rec({ main_category: null, categories: [] })).category).toBe('uncategorized/general');
    const spy = ok(rec({ categories: ['Electronics', 'Surveillance Equipment', 'Hidden Cameras'] }));
    expect(spy.category).toBe('restricted/surveillance_equipment');
    expect(isDeniedCategory(spy.category)).toBe(true);
  });

  it('rejects records without id or title, and non-objects', () => {
    expect(normaliseAmazonRecord(rec({ title: '  ' }))).toEqual({ error: 'missing title' });
    expect(normaliseAmazonRecord(rec({ title: undefined }))).toEqual({ error: 'missing title' });
    expect(normaliseAmazonRecord(rec({ parent_asin: undefined }))).toEqual({ error: 'missing parent_asin' });
    expect(normaliseAmazonRecord([1])).toEqual({ error: 'not a JSON object' });
    expect(normaliseAmazonRecord('x')).toEqual({ error: 'not a JSON object' });
  });
});

describe('JSONL import', () => {
  it('imports the 200-product fixture, saves it by name and loads it back', async () => {
    const progress: number[] = [];
    const { catalog, report, file } = await importAmazonJsonl(SAMPLE, {
      name: 'amazon-sample',
      dir: tmp,
      progressEvery: 50,
      onProgress: (p) => progress.push(p.lines),
    });
    expect(report.lines).toBe(200);
    expect(report.imported).toBe(200);
    expect(report.badCount).toBe(0);
    expect(catalog.size).toBe(200);
    expect(catalog.id).toBe('amazon-sample');
    expect(progress).toEqual([50, 100, 150, 200, 200]);
    expect(new Set(catalog.categories().map((c) => c.split('/')[0])).size).toBeGreaterThanOrEqual(8);
    expect(catalog.categories()).toContain('restricted/surveillance_equipment');
    expect(fs.existsSync(file!)).toBe(true);

    const loaded = loadImportedCatalog('amazon-sample', tmp);
    expect(loaded.size).toBe(200);
    for (let i = 0; i < 200; i++) expect(loaded.at(i)).toEqual(catalog.at(i));
    const q = { query: 'cast iron skillet', filters: { price_max: 60 }, topK: 5 };
    expect(loaded.search(q)).toEqual(catalog.search(q));
    expect(catalog.search(q).length).toBeGreaterThan(0);
    expect(catalog.get(catalog.search(q)[0].productId)!.title).toMatch(/Skillet/);
    expect(listImportedCatalogs(tmp)).toEqual([
      expect.objectContaining({ name: 'amazon-sample', size: 200, badCount: 0 }),
    ]);
  });

  it('imports every good line of a broken file and reports every bad one by line number', async () => {
    const { catalog, report } = await importAmazonJsonl(BROKEN, { name: 'broken', dir: tmp });
    expect(report.bad.map((b) => b.line)).toEqual([2, 4, 6, 10, 11, 13, 15, 16]);
    const reasons = Object.fromEntries(report.bad.map((b) => [b.line, b.reason]));
    expect(reasons[2]).toMatch(/^invalid JSON/);
    expect(reasons[4]).toBe('missing title');
    expect(reasons[6]).toBe('unparseable price "$10.99 - $15.99"');
    expect(reasons[10]).toMatch(/^invalid JSON/);
    expect(reasons[11]).toBe('missing title');
    expect(reasons[13]).toBe('unparseable price "free"');
    expect(reasons[15]).toMatch(/^duplicate parent_asin .* \(first on line 14\)$/);
    expect(reasons[16]).toBe('not a JSON object');
    expect(report.badCount).toBe(8);
    expect(report.lines).toBe(19);
    expect(report.imported).toBe(10); // 19 lines − 8 bad − 1 blank
    expect(catalog.size).toBe(10);
    expect(report.warnings).toEqual([{ line: 18, reason: 'details is not valid JSON' }]);
    const cat = catalog.get('B0NULLPRICE')!;
    expect(cat.price).toBe(9.99);
    expect(cat.rating).toBe(5);
  });

  it('reads gzipped JSONL and refuses bad names', async () => {
    const gz = path.join(tmp, 'sample.jsonl.gz');
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(SAMPLE)));
    const { report } = await importAmazonJsonl(gz, { name: 'gz', save: false });
    expect(report.imported).toBe(200);
    expect(() => validateCatalogName('../etc')).toThrow();
    expect(() => validateCatalogName('synthetic-s1-n5')).toThrow();
    expect(() => loadImportedCatalog('missing', tmp)).toThrow(/no imported catalog/);
  });
});
