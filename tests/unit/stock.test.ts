import { describe, expect, test } from 'vitest';
import { pickMessages, t } from '../../src/lib/i18n/index.ts';
import { createTranslator } from '../../src/lib/i18n/translate.ts';
import {
  defaultVariant,
  findVariant,
  isInStock,
  isProductAvailable,
  isPurchasable,
  STOCK_MESSAGE_KEYS,
  stockMessage,
  stockStatus,
  variantSelection,
} from '../../src/lib/commerce/stock.ts';
import type { ProductOption, Variant } from '../../src/lib/commerce/types.ts';
import { product, variant } from './fixtures.ts';

describe('isInStock / isPurchasable (spec §4 stock)', () => {
  test.each([
    [
      'tracking none is always available',
      product({ inventoryTracking: 'none', inventoryLevel: 0 }),
      undefined,
      true,
      true,
    ],
    [
      'tracking product with level 1',
      product({ inventoryTracking: 'product', inventoryLevel: 1 }),
      undefined,
      true,
      true,
    ],
    [
      'tracking product with level 0',
      product({ inventoryTracking: 'product', inventoryLevel: 0 }),
      undefined,
      false,
      false,
    ],
    [
      'tracking variant with selected level 1',
      product({ inventoryTracking: 'variant' }),
      variant({ inventoryLevel: 1 }),
      true,
      true,
    ],
    [
      'tracking variant with selected level 0',
      product({ inventoryTracking: 'variant', inventoryLevel: 50 }),
      variant({ inventoryLevel: 0 }),
      false,
      false,
    ],
    [
      'tracking variant without a selected variant',
      product({ inventoryTracking: 'variant' }),
      undefined,
      false,
      false,
    ],
    [
      'purchasing disabled is in stock but not purchasable',
      product({ inventoryTracking: 'none' }),
      variant({ purchasingDisabled: true }),
      true,
      false,
    ],
  ])('%s', (_case, p, v, inStock, purchasable) => {
    expect(isInStock(p, v)).toBe(inStock);
    expect(isPurchasable(p, v)).toBe(purchasable);
  });
});

describe('isProductAvailable (listing "en stock" filter)', () => {
  test.each([
    ['none tracking', product({ inventoryTracking: 'none' }), true],
    ['product tracking empty', product({ inventoryTracking: 'product', inventoryLevel: 0 }), false],
    [
      'variant tracking with one variant in stock',
      product({
        inventoryTracking: 'variant',
        variants: [variant({ inventoryLevel: 0 }), variant({ id: 2, inventoryLevel: 3 })],
      }),
      true,
    ],
    [
      'variant tracking, the stocked variant disabled',
      product({
        inventoryTracking: 'variant',
        variants: [variant({ inventoryLevel: 3, purchasingDisabled: true })],
      }),
      false,
    ],
    [
      'none tracking, every variant disabled',
      product({ inventoryTracking: 'none', variants: [variant({ purchasingDisabled: true })] }),
      false,
    ],
  ])('%s', (_case, p, expected) => {
    expect(isProductAvailable(p)).toBe(expected);
  });
});

describe('stockStatus and its message (spec §8 stock dictionary messages)', () => {
  test.each([
    ['untracked', product({ inventoryTracking: 'none' }), undefined, 99, 'in-stock', 'En stock'],
    [
      'product level enough',
      product({ inventoryTracking: 'product', inventoryLevel: 10 }),
      undefined,
      2,
      'in-stock',
      'En stock',
    ],
    [
      'product level at the warning level',
      product({ inventoryTracking: 'product', inventoryLevel: 3, inventoryWarningLevel: 3 }),
      undefined,
      1,
      'low-stock',
      'Plus que 3 articles en stock',
    ],
    [
      'variant level under its warning level',
      product({ inventoryTracking: 'variant' }),
      variant({ inventoryLevel: 1, inventoryWarningLevel: 2 }),
      1,
      'low-stock',
      'Plus que 1 article en stock',
    ],
    [
      'no warning level set',
      product({ inventoryTracking: 'variant' }),
      variant({ inventoryLevel: 1, inventoryWarningLevel: 0 }),
      1,
      'in-stock',
      'En stock',
    ],
    [
      'out of stock',
      product({ inventoryTracking: 'product', inventoryLevel: 0 }),
      undefined,
      1,
      'out-of-stock',
      'Rupture de stock',
    ],
    [
      'quantity above the level',
      product({ inventoryTracking: 'variant' }),
      variant({ inventoryLevel: 2 }),
      3,
      'exceeds-stock',
      'La quantité sélectionnée dépasse le stock disponible.',
    ],
    [
      'purchasing disabled',
      product({ inventoryTracking: 'none' }),
      variant({ purchasingDisabled: true }),
      1,
      'unavailable',
      'Actuellement indisponible',
    ],
    [
      'variant tracking with no variant for the selection',
      product({ inventoryTracking: 'variant' }),
      undefined,
      1,
      'unavailable',
      'Actuellement indisponible',
    ],
  ] as const)('%s', (_case, p, v, quantity, status, message) => {
    expect(stockStatus(p, v, quantity)).toBe(status);
    const level = v?.inventoryLevel ?? p.inventoryLevel;
    expect(stockMessage(status, level, t)).toBe(message);
    // The islands' translator, over the messages an island is handed, says the same.
    const island = createTranslator(pickMessages(Object.values(STOCK_MESSAGE_KEYS)));
    expect(stockMessage(status, level, island)).toBe(message);
  });
});

const size: ProductOption = {
  id: 1,
  displayName: 'Taille',
  type: 'rectangles',
  values: [
    { id: 11, label: '140x190', isDefault: false, colors: [] },
    { id: 12, label: '160x200', isDefault: true, colors: [] },
  ],
};
const firmness: ProductOption = {
  id: 2,
  displayName: 'Fermeté',
  type: 'rectangles',
  values: [
    { id: 21, label: 'Ferme', isDefault: false, colors: [] },
    { id: 22, label: 'Médium', isDefault: false, colors: [] },
  ],
};

function v(id: number, sizeId: number, firmnessId: number, extra: Partial<Variant> = {}): Variant {
  return variant({
    id,
    optionValues: [
      { id: sizeId, label: '', optionDisplayName: 'Taille', optionId: 1 },
      { id: firmnessId, label: '', optionDisplayName: 'Fermeté', optionId: 2 },
    ],
    ...extra,
  });
}

const variants = [v(1, 11, 21), v(2, 11, 22), v(3, 12, 21), v(4, 12, 22)];

describe('findVariant', () => {
  test.each([
    ['exact selection', { 1: 12, 2: 22 }, 4],
    ['other order of keys', { 2: 21, 1: 11 }, 1],
    ['partial selection matches nothing', { 1: 12 }, undefined],
    ['unknown value', { 1: 99, 2: 21 }, undefined],
  ])('%s', (_case, selection, id) => {
    expect(findVariant({ variants }, selection)?.id).toBe(id);
  });

  test('variantSelection round-trips', () => {
    expect(findVariant({ variants }, variantSelection(v(3, 12, 21)))?.id).toBe(3);
  });
});

describe('defaultVariant (spec §4: default value or first value, else first purchasable in-stock variant)', () => {
  test.each([
    ['default value of each option (first value when no default)', 'variant', variants, 3],
    [
      'chosen variant out of stock → first purchasable in-stock',
      'variant',
      [
        v(1, 11, 21, { inventoryLevel: 0 }),
        v(2, 11, 22, { inventoryLevel: 4 }),
        v(3, 12, 21, { inventoryLevel: 0 }),
      ],
      2,
    ],
    [
      'chosen variant disabled → first purchasable',
      'none',
      [v(1, 11, 21), v(3, 12, 21, { purchasingDisabled: true })],
      1,
    ],
    [
      'chosen variant missing → first purchasable',
      'variant',
      [v(2, 11, 22, { inventoryLevel: 0 }), v(4, 12, 22)],
      4,
    ],
    [
      'nothing purchasable → the default selection still',
      'variant',
      [v(1, 11, 21, { inventoryLevel: 0 }), v(3, 12, 21, { inventoryLevel: 0 })],
      3,
    ],
  ] as const)('%s', (_case, tracking, list, id) => {
    const p = product({
      inventoryTracking: tracking,
      options: [size, firmness],
      variants: [...list],
    });
    expect(defaultVariant(p)?.id).toBe(id);
  });

  test.each([
    [
      'product without options → base variant',
      product({ baseVariantId: 8, variants: [variant({ id: 7 }), variant({ id: 8 })] }),
      8,
    ],
    ['product without variants', product({ variants: [] }), undefined],
  ])('%s', (_case, p, id) => {
    expect(defaultVariant(p)?.id).toBe(id);
  });
});
