import { describe, expect, test } from 'vitest';
import { formatPrice, toCents } from '../../src/lib/commerce/money.ts';

// Intl fr-FR: narrow no-break space between thousands, no-break space before the symbol.
const NNBSP = '\u202f';
const NBSP = '\u00a0';

describe('formatPrice (spec §3 currency formats, §9 two decimals or none)', () => {
  test.each([
    ['thousands with decimals', 123450, {}, `1${NNBSP}234,50${NBSP}€`],
    ['no-decimal variant rounds', 123450, { decimals: false }, `1${NNBSP}235${NBSP}€`],
    ['zero', 0, {}, `0,00${NBSP}€`],
    ['cents only', 5, {}, `0,05${NBSP}€`],
    ['round euros keep two decimals', 49900, {}, `499,00${NBSP}€`],
    ['no-decimal variant of round euros', 49900, { decimals: false }, `499${NBSP}€`],
    ['million', 123456789, {}, `1${NNBSP}234${NNBSP}567,89${NBSP}€`],
    ['negative amount', -1050, {}, `-10,50${NBSP}€`],
    ['other currency', 1000, { currency: 'USD' }, `10,00${NBSP}$US`],
  ] as const)('%s', (_case, cents, opts, expected) => {
    expect(formatPrice(cents, opts)).toBe(expected);
  });
});

describe('toCents (rounding safe)', () => {
  test.each([
    ['whole euros', 499, 49900],
    ['two decimals', 19.99, 1999],
    ['binary trap 1.005 rounds half up', 1.005, 101],
    ['binary trap 8.675', 8.675, 868],
    ['binary trap 0.29 stays exact', 0.29, 29],
    ['more than two decimals', 12.3456, 1235],
    ['negative rounds away from zero', -1.005, -101],
    ['zero', 0, 0],
    ['tiny amount in exponential notation', 1e-7, 0],
  ])('%s', (_case, euros, cents) => {
    expect(toCents(euros)).toBe(cents);
  });

  test.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('refuses %s', (_case, euros) => {
    expect(() => toCents(euros)).toThrow(RangeError);
  });
});
