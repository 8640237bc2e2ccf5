import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cartItemView, guestLineItems, lineItemAgain } from '../../src/lib/commerce/cart.ts';
import {
  booleanOptionValue,
  lineModifierSelections,
  modifierSelections,
  optionValueText,
} from '../../src/lib/commerce/item-options.ts';
import type { ProductModifier } from '../../src/lib/commerce/types.ts';
import {
  ProductModifierSchema,
  ProductSchema,
} from '../../src/shop/connectors/bigcommerce/schemas/products.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CART_A, cart, line } from './helpers/shop-api.ts';

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

/** catalog.v3.yml's own modifier example (Insurance checkbox). */
const INSURANCE = {
  id: 206,
  product_id: 158,
  name: 'Insurance',
  display_name: 'Insurace',
  type: 'checkbox',
  required: true,
  config: { checkbox_label: '$5 for insurance', checked_by_default: false },
  option_values: [
    { id: 183, option_id: 206, label: 'Yes', sort_order: 0, value_data: { checked_value: true } },
    { id: 184, option_id: 206, label: 'No', sort_order: 1, value_data: { checked_value: false } },
  ],
};

describe('ProductModifierSchema: checkbox modifiers read, others left out', () => {
  test("catalog.v3.yml's example", () => {
    expect(ProductModifierSchema.parse(INSURANCE)).toEqual({
      id: 206,
      displayName: 'Insurace',
      label: '$5 for insurance',
      required: true,
      checkedByDefault: false,
      checkedValueId: 183,
      uncheckedValueId: 184,
    });
  });

  test('the checked value by checked_value, whatever the order or labels; by label without it', () => {
    const [yes, no] = INSURANCE.option_values;
    const swapped = {
      ...INSURANCE,
      option_values: [
        { ...no, label: 'Non' },
        { ...yes, label: 'Oui' },
      ],
    };
    expect(ProductModifierSchema.parse(swapped)).toMatchObject({ checkedValueId: 183 });
    const labelsOnly = {
      ...INSURANCE,
      config: null,
      option_values: INSURANCE.option_values.map((v) => ({ id: v.id, label: v.label })),
    };
    expect(ProductModifierSchema.parse(labelsOnly)).toMatchObject({
      label: 'Insurace',
      checkedValueId: 183,
      uncheckedValueId: 184,
    });
  });

  test('a text modifier, or a checkbox without both values, reads as null and the product drops it', () => {
    expect(ProductModifierSchema.parse({ ...INSURANCE, type: 'text' })).toBeNull();
    expect(
      ProductModifierSchema.parse({
        ...INSURANCE,
        option_values: INSURANCE.option_values.slice(0, 1),
      }),
    ).toBeNull();
    const product = ProductSchema.parse({
      id: 1,
      name: 'Matelas',
      price: 100,
      custom_url: { url: '/matelas/' },
      modifiers: [INSURANCE, { ...INSURANCE, id: 207, type: 'date' }],
    });
    expect(product.modifiers.map((m) => m.id)).toEqual([206]);
  });
});

const modifierArb: fc.Arbitrary<ProductModifier> = fc
  .record({
    id: fc.integer({ min: 1, max: 1_000_000 }),
    yes: fc.integer({ min: 1, max: 1_000_000 }),
    checkedByDefault: fc.boolean(),
    required: fc.boolean(),
  })
  .map(({ id, yes, checkedByDefault, required }) => ({
    id,
    displayName: `Option ${String(id)}`,
    label: `Option ${String(id)}`,
    required,
    checkedByDefault,
    checkedValueId: yes,
    uncheckedValueId: yes + 1,
  }));

describe('the checkbox choice goes with every write of a line', () => {
  test('property: one selection per modifier, its Yes value when ticked (or by default), else No', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(modifierArb, { selector: (m) => m.id, maxLength: 4 }),
        fc.dictionary(fc.integer({ min: 1, max: 1_000_000 }).map(String), fc.boolean()),
        (modifiers, ticks) => {
          const ticked = Object.fromEntries(Object.entries(ticks).map(([k, v]) => [Number(k), v]));
          const selections = modifierSelections(modifiers, ticked);
          expect(selections.map((s) => s.optionId)).toEqual(modifiers.map((m) => m.id));
          for (const [i, modifier] of modifiers.entries()) {
            const on = ticked[modifier.id] ?? modifier.checkedByDefault;
            expect(selections[i]?.optionValue).toBe(
              on ? modifier.checkedValueId : modifier.uncheckedValueId,
            );
          }
        },
      ),
    );
  });

  test('property: a line written again (quantity, login merge) keeps its Yes/No choices, never its variant options', () => {
    const optionArb = fc.record({
      name: fc.string(),
      nameId: fc.integer({ min: 1, max: 1_000_000 }),
      value: fc.oneof(fc.constantFrom('Yes', 'No', 'yes', '140x190 cm', 'Gris'), fc.string()),
      valueId: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(optionArb, { maxLength: 5 }),
        fc.integer({ min: 1, max: 99 }),
        (options, quantity) => {
          const item = line({ id: 'l1', productId: 7, variantId: 70, quantity: 2, options });
          const expected = options
            .filter((o) => booleanOptionValue(o.value) !== null && o.valueId !== null)
            .map((o) => ({ optionId: o.nameId, optionValue: o.valueId }));
          expect(lineModifierSelections(item)).toEqual(expected);
          const again = lineItemAgain(item, quantity);
          expect(again).toEqual({
            productId: 7,
            variantId: 70,
            quantity,
            ...(expected.length > 0 ? { optionSelections: expected } : {}),
          });
          expect(guestLineItems(cart(CART_A, [item]))).toEqual([{ ...again, quantity: 2 }]);
        },
      ),
    );
  });
});
