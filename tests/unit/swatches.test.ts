import { describe, expect, test } from 'vitest';
import { colourSwatches } from '../../src/lib/commerce/swatches.ts';
import { colourOption, option, product } from './fixtures.ts';

const colours = (n: number): string[] => Array.from({ length: n }, (_, i) => `Couleur ${i + 1}`);

describe('colourSwatches (spec §2: more than 5 colours → 4 shown then +N)', () => {
  test.each([
    ['no colour option', 0, 0, 0],
    ['3 colours all shown', 3, 3, 0],
    ['5 colours all shown', 5, 5, 0],
    ['6 colours: 4 then +2', 6, 4, 2],
    ['9 colours: 4 then +5', 9, 4, 5],
  ])('%s', (_case, count, shown, more) => {
    const options =
      count === 0 ? [option(1, 'Taille', ['140x190'])] : [colourOption(1, colours(count))];
    const result = colourSwatches(product({ options }));
    expect(result.swatches).toHaveLength(shown);
    expect(result.more).toBe(more);
  });

  test.each([
    [
      'option named Coloris without swatch type',
      [option(2, 'Coloris', ['Gris', 'Bleu'])],
      ['Gris', 'Bleu'],
    ],
    [
      'repeated labels counted once',
      [colourOption(1, ['Gris', 'gris ', 'Bleu'])],
      ['Gris', 'Bleu'],
    ],
    ['size options ignored', [option(1, 'Taille', ['140x190']), colourOption(2, ['Lin'])], ['Lin']],
  ])('%s', (_case, options, labels) => {
    expect(colourSwatches(product({ options })).swatches.map((s) => s.label)).toEqual(labels);
  });

  test('swatch carries its hex colours', () => {
    expect(colourSwatches(product({ options: [colourOption(1, ['Gris'])] })).swatches).toEqual([
      { label: 'Gris', colors: ['#000000'] },
    ]);
  });
});
