import { describe, expect, test } from 'vitest';
import { rating, reviewsCountLabel, roundToStep } from '../../src/lib/commerce/rating.ts';

describe('rating (spec §5: reviews_rating_sum / reviews_count, or 0 when missing)', () => {
  test.each([
    ['average', 45, 10, 4.5],
    ['count missing', 45, undefined, 0],
    ['count zero', 45, 0, 0],
    ['sum missing', null, 10, 0],
    ['both zero', 0, 0, 0],
  ])('%s', (_case, sum, count, expected) => {
    expect(rating(sum, count)).toBe(expected);
  });
});

describe('roundToStep (spec §9 star step 0.5)', () => {
  test.each([
    ['down to the whole star', 4.2, 0.5, 4],
    ['up to the half star', 4.26, 0.5, 4.5],
    ['quarter rounds up', 4.25, 0.5, 4.5],
    ['up to the next star', 4.8, 0.5, 5],
    ['other step', 3.3, 1, 3],
    ['not a number', Number.NaN, 0.5, 0],
  ])('%s', (_case, value, step, expected) => {
    expect(roundToStep(value, step)).toBe(expected);
  });

  test('default step is 0.5', () => {
    expect(roundToStep(3.7)).toBe(3.5);
  });
});

describe("reviews count label (spec §2 '(n avis)')", () => {
  test.each([
    ['no review', 0, '(0 avis)'],
    ['one review', 1, '(1 avis)'],
    ['many reviews', 128, '(128 avis)'],
  ])('%s', (_case, count, label) => {
    expect(reviewsCountLabel(count)).toBe(label);
  });
});
