import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDraft, loadDraft, saveDraft, type Draft } from './drafts';

// a minimal localStorage for the node test environment
let items: Map<string, string>;
beforeEach(() => {
  items = new Map();
  (globalThis as { window?: unknown }).window = {
    localStorage: {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    },
  };
});
afterEach(() => delete (globalThis as { window?: unknown }).window);

const draft: Draft = {
  queue: [{ id: 3, name: 'catalog.search', args: { query: 'usb-c charger' } }],
  nextId: 4,
  message: 'Looking.',
  rawText: '',
  answerValues: { recommended_product_ids: 'syn_1, syn_2' },
};

describe('playground drafts per episode', () => {
  it('keeps a draft under its episode id and gives it back', () => {
    saveDraft('ep1', draft);
    expect(loadDraft('ep1')).toEqual(draft);
    expect(loadDraft('ep2')).toBeNull();
  });

  it('an empty draft, or clearing, removes the entry', () => {
    saveDraft('ep1', draft);
    saveDraft('ep1', { queue: [], nextId: 4, message: '', rawText: '', answerValues: {} });
    expect(items.size).toBe(0);
    saveDraft('ep1', draft);
    clearDraft('ep1');
    expect(loadDraft('ep1')).toBeNull();
  });

  it('an unreadable entry is dropped, not thrown', () => {
    items.set('ecomrlve:draft:ep1', '{not json');
    expect(loadDraft('ep1')).toBeNull();
    expect(items.has('ecomrlve:draft:ep1')).toBe(false);
    items.set('ecomrlve:draft:ep1', JSON.stringify({ queue: 'nope', message: 1 }));
    expect(loadDraft('ep1')).toBeNull();
  });
});
