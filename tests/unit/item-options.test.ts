import { describe, expect, test } from 'vitest';
import { cartItemView } from '../../src/lib/commerce/cart.ts';
import { booleanOptionValue, optionValueText } from '../../src/lib/commerce/item-options.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { line } from './helpers/shop-api.ts';

describe("booleanOptionValue (spec §9: 'Yes' and 'No' in item options)", () => {
  test.each([
    ['Yes', 'Yes', 'Yes'],
    ['No', 'No', 'No'],
    ['lower case', 'yes', 'Yes'],
    ['spaces', ' No ', 'No'],
    ['a size', '140x190 cm', null],
    ['French already', 'Oui', null],
    ['a word containing yes', 'Yesterday', null],
    ['empty', '', null],
  ] as const)('%s', (_case, value, expected) => {
    expect(booleanOptionValue(value)).toBe(expected);
  });
});

describe('optionValueText: shown in French, other values as they are', () => {
  test.each([
    ['Yes', 'Oui'],
    ['No', 'Non'],
    ['140x190 cm', '140x190 cm'],
    ['Gris anthracite', 'Gris anthracite'],
  ])('%s → %s', (value, expected) => {
    expect(optionValueText(value, t)).toBe(expected);
  });

  test("a cart line's checkbox option reads Oui/Non", () => {
    const view = cartItemView(
      line({
        id: 'l1',
        options: [
          { name: 'Taille', nameId: 1, value: '140x190 cm', valueId: 10 },
          { name: 'Protège-matelas offert', nameId: 2, value: 'Yes', valueId: 20 },
          { name: 'Reprise de l’ancien matelas', nameId: 3, value: 'No', valueId: 21 },
        ],
      }),
    );
    expect(
      view.attributes.map(
        (attribute) => `${attribute.name} : ${optionValueText(attribute.value, t)}`,
      ),
    ).toEqual([
      'Taille : 140x190 cm',
      'Protège-matelas offert : Oui',
      'Reprise de l’ancien matelas : Non',
    ]);
  });
});
