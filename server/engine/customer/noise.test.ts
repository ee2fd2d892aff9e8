import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { applyNoise, noisyWord } from './noise';

const SENTENCE = 'Please could you really find something with better quality because thanks anyway';

describe('customer noise', () => {
  it('changes nothing at p = 0', () => {
    expect(applyNoise(SENTENCE, 0, new Rng(1))).toBe(SENTENCE);
  });

  it('is deterministic for a seed', () => {
    expect(applyNoise(SENTENCE, 0.3, new Rng(7))).toBe(applyNoise(SENTENCE, 0.3, new Rng(7)));
  });

  it('touches about p of the words', () => {
    const words = SENTENCE.split(' ');
    let touched = 0;
    let total = 0;
    for (let seed = 0; seed < 400; seed++) {
      const out = applyNoise(SENTENCE, 0.1, new Rng(seed)).split(' ');
      // slang and typos keep word boundaries except "with" → "w/"; compare word by word
      out.forEach((w, i) => (touched += w === words[i] ? 0 : 1));
      total += words.length;
    }
    expect(touched / total).toBeGreaterThan(0.07);
    expect(touched / total).toBeLessThan(0.13);
  });

  it('never touches words carrying digits or inner capitals', () => {
    const text = 'I need 3 of the USB-C 65W charger for my iPhone';
    for (let seed = 0; seed < 200; seed++) {
      const out = applyNoise(text, 1, new Rng(seed));
      for (const keep of ['3', 'USB-C', '65W', 'iPhone']) expect(out).toContain(keep);
    }
  });

  it('uses slang for common words', () => {
    const outs = new Set(Array.from({ length: 50 }, (_, s) => applyNoise('please', 1, new Rng(s))));
    expect(outs.has('pls')).toBe(true);
  });

  it('touches the words the original pattern finds, with the same draws (scan vs regex)', () => {
    // The regex version the character scan replaced (issue 13): a word is /[A-Za-z][A-Za-z'-]*/,
    // protected when short, holding a digit or an inner capital.
    const reference = (text: string, p: number, rng: Rng) =>
      text.replace(/[A-Za-z][A-Za-z'-]*/g, (w) =>
        w.length < 3 || /\d/.test(w) || /.[A-Z]/.test(w) || !rng.bernoulli(p) ? w : noisyWord(w, rng),
      );
    const texts = [
      SENTENCE,
      "I'd like 2 USB-C 65W chargers -- you're great, it's WITH with With\nOkay\tnaïve café x2 constructor",
      'a',
      '',
      "--'' abc-def's ORD-12345",
    ];
    for (let seed = 0; seed < 100; seed++)
      for (const text of texts)
        for (const p of [0.1, 0.5, 1]) {
          const a = new Rng(seed);
          const b = new Rng(seed);
          expect(applyNoise(text, p, a)).toBe(reference(text, p, b));
          expect(a.next()).toBe(b.next());
        }
  });
});
