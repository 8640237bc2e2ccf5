/**
 * Typo tolerance of the search (`src/lib/commerce/search-correction.ts`): a
 * correction is always a word of the vocabulary, a few edits from the typed word; a known word
 * is never corrected; any input, however long or strange, is answered.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  buildVocabulary,
  charsOf,
  createSearchCorrector,
  editDistance,
  foldWord,
  MAX_CORRECTED_WORDS,
  MAX_WORD_LENGTH,
  maxEdits,
  MIN_WORD_LENGTH,
  wordsOf,
} from '../../src/lib/commerce/search-correction.ts';
import { searchQueryString } from '../../src/lib/commerce/search.ts';

// A bedding shop's names: categories and brands weigh more than product names.
const SHOP = buildVocabulary([
  ...['Matelas', 'Oreillers', 'Couettes', 'Sommiers', 'Linge de lit', 'Surmatelas'].map((text) => ({
    text,
    weight: 20,
  })),
  ...['Élysée', 'Dunlopillo'].map((text) => ({ text, weight: 10 })),
  { text: 'Matelas mousse à mémoire de forme' },
  { text: 'Matelas ressorts ensachés' },
  { text: 'Oreiller ergonomique' },
  { text: 'Oreiller mémoire de forme' },
  { text: 'Couette chaude' },
  { text: 'Couette légère' },
  { text: 'Drap housse' },
  { text: 'Memoire' },
]);
const shop = createSearchCorrector(SHOP);

describe('the shop’s typos', () => {
  test.each([
    ['matelat', 'matelas'],
    ['Matelat', 'matelas'],
    ['oreilé', 'oreiller'],
    ['OREILLÉ', 'oreiller'],
    ['couete', 'couette'],
    ['ergonomiqeu', 'ergonomique'],
    ['elysee', null],
    ['dunlopilo', 'dunlopillo'],
  ])('%s → %s', (typed, expected) => {
    expect(shop.correctWord(typed)).toBe(expected);
  });

  test('a term: each unknown word corrected, the others kept as typed; null when none changes', () => {
    expect(shop.correct('  Matelat  mémoire ')).toBe('matelas mémoire');
    expect(shop.correct('couete chaude')).toBe('couette chaude');
    expect(shop.correct('matelas mousse')).toBeNull();
    // Words that signs split are searched as words, each corrected.
    expect(shop.correct('matelas-mousse')).toBe('matelas mousse');
    expect(shop.correct("l'oreilé ergonomique")).toBe('l oreiller ergonomique');
    expect(shop.correct('«matelat»')).toBe('matelas');
    expect(shop.correct('zzzqqqxxx')).toBeNull();
    expect(shop.correct('')).toBeNull();
  });

  test('the spelling the catalogue uses most, accents included', () => {
    const entry = SHOP.find((word) => word.key === 'memoire');
    expect(entry?.word).toBe('mémoire');
    expect(shop.correctWord('memoir')).toBe('mémoire');
  });

  test('suggestions for a term that found nothing: its known or corrected words, each once', () => {
    expect(shop.suggest('matelat zzzqqq')).toEqual(['matelas']);
    expect(shop.suggest('couete couette Couette')).toEqual(['couette']);
    expect(shop.suggest('matelas')).toEqual([]);
    expect(shop.suggest('zzzqqqxxx')).toEqual([]);
  });
});

// Words as a catalogue has them: letters (accents included), 3 to 12 of them.
const letter = fc.constantFrom(...charsOf('abcdefghijklmnopqrstuvwxyzéèêàçôù'));
const word = fc
  .array(letter, { minLength: MIN_WORD_LENGTH, maxLength: 12 })
  .map((letters) => letters.join(''));
const names = fc.array(
  fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => ({ text: words.join(' ') })),
  { minLength: 1, maxLength: 40 },
);
// Anything a shopper (or a script) may type: unicode, regex and HTML signs, long runs.
const hostile = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc
    .array(fc.constantFrom('.*', '(', ')', '[', ']', '\\', '^', '$', '|', '?', '+', '{2,}', '<'), {
      maxLength: 60,
    })
    .map((parts) => parts.join('')),
  fc.string({ maxLength: 2_000 }).map((text) => `matelat${text}`),
  fc.constant('a'.repeat(10_000)),
);

describe('properties', () => {
  test('a correction is a word of the vocabulary, within the allowed edits', () => {
    fc.assert(
      fc.property(names, fc.oneof(word, hostile), (sources, typed) => {
        const vocabulary = buildVocabulary(sources);
        const corrector = createSearchCorrector(vocabulary);
        const fixed = corrector.correctWord(typed);
        if (fixed === null) return;
        const entry = vocabulary.find((w) => w.word === fixed);
        expect(entry).toBeDefined();
        const key = foldWord(typed);
        expect(editDistance(key, entry?.key ?? '')).toBeLessThanOrEqual(
          maxEdits(charsOf(key).length),
        );
      }),
    );
  });

  test('identity for known words, whatever their case and accents', () => {
    fc.assert(
      fc.property(names, fc.nat(), (sources, pick) => {
        const vocabulary = buildVocabulary(sources);
        const corrector = createSearchCorrector(vocabulary);
        const known = vocabulary[pick % vocabulary.length];
        if (known === undefined) return;
        expect(corrector.correctWord(known.word)).toBeNull();
        expect(corrector.correctWord(known.word.toUpperCase())).toBeNull();
        expect(corrector.correctWord(known.key)).toBeNull();
        const term = vocabulary
          .slice(0, MAX_CORRECTED_WORDS)
          .map((w) => w.word)
          .join(' ');
        expect(corrector.correct(term)).toBeNull();
      }),
    );
  });

  test('one typo in a known word of 5+ letters is corrected to a word one edit away at most', () => {
    const typo = fc
      .tuple(names, fc.nat(), fc.nat(), fc.constantFrom('drop', 'swap', 'replace'), letter)
      .map(([sources, pick, at, kind, by]) => {
        const vocabulary = buildVocabulary(sources);
        const known = vocabulary[pick % vocabulary.length];
        const chars = charsOf(known?.key ?? '');
        const i = at % Math.max(1, chars.length - 1);
        if (kind === 'drop') chars.splice(i, 1);
        else if (kind === 'swap') [chars[i], chars[i + 1]] = [chars[i + 1] ?? '', chars[i] ?? ''];
        else chars[i] = foldWord(by);
        return { vocabulary, known, typed: chars.join('') };
      })
      .filter(({ known }) => known !== undefined && charsOf(known.key).length >= 5);
    fc.assert(
      fc.property(typo, ({ vocabulary, typed }) => {
        const corrector = createSearchCorrector(vocabulary);
        const fixed = corrector.correctWord(typed);
        if (vocabulary.some((w) => w.key === typed)) {
          expect(fixed).toBeNull();
          return;
        }
        const entry = vocabulary.find((w) => w.word === fixed);
        expect(entry).toBeDefined();
        expect(editDistance(typed, entry?.key ?? '')).toBeLessThanOrEqual(1);
      }),
    );
  });

  test('hostile input: answered, never thrown; a correction keeps every word of the term', () => {
    fc.assert(
      fc.property(hostile, (typed) => {
        const corrected = shop.correct(typed);
        if (corrected !== null) {
          // Each typed word gives one word or more (its runs); nothing is lost but signs.
          const words = typed.trim().split(/\s+/u).filter(Boolean);
          expect(corrected.split(' ').length).toBeGreaterThanOrEqual(words.length);
          expect(corrected.length).toBeLessThanOrEqual(typed.length * 3 + 32);
        }
        expect(Array.isArray(shop.suggest(typed))).toBe(true);
      }),
    );
  });

  test('the vocabulary is bounded: each word once, learnable, heaviest first, at most the limit', () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 0, max: 30 }), (sources, limit) => {
        const vocabulary = buildVocabulary(sources, limit);
        expect(vocabulary.length).toBeLessThanOrEqual(limit);
        expect(new Set(vocabulary.map((w) => w.key)).size).toBe(vocabulary.length);
        for (const [i, entry] of vocabulary.entries()) {
          expect(entry.key).toBe(foldWord(entry.word));
          expect(entry.key.length).toBeGreaterThanOrEqual(MIN_WORD_LENGTH);
          expect(entry.key.length).toBeLessThanOrEqual(MAX_WORD_LENGTH);
          expect(entry.weight).toBeLessThanOrEqual(vocabulary[i - 1]?.weight ?? Infinity);
        }
      }),
    );
  });

  test('edit distance: symmetric, zero only for equal words, one per insertion or swap', () => {
    fc.assert(
      fc.property(word, word, letter, (a, b, c) => {
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, b) === 0).toBe(a === b);
        expect(editDistance(a, `${a}${c}`)).toBe(1);
        const swapped = charsOf(a);
        [swapped[0], swapped[1]] = [swapped[1] ?? '', swapped[0] ?? ''];
        expect(editDistance(a, swapped.join(''))).toBeLessThanOrEqual(1);
        // Gives up past the limit, with limit + 1.
        expect(editDistance(a, `${a}xxxx`, 2)).toBe(3);
      }),
    );
  });

  test('words: runs of letters and digits only', () => {
    expect(wordsOf('« Matelas » 140x190, anti-acariens!')).toEqual([
      'matelas',
      '140x190',
      'anti',
      'acariens',
    ]);
  });
});

describe('the results page query', () => {
  test.each([
    [{ page: 1, exact: false }, ''],
    [{ page: 2, exact: false }, '?page=2'],
    [{ page: 1, exact: true }, '?exact=1'],
    [{ page: 3, exact: true }, '?exact=1&page=3'],
  ])('%j → %s', (query, expected) => {
    expect(searchQueryString(query)).toBe(expected);
  });
});
