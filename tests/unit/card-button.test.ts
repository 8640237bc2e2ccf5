import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_BUTTON_MESSAGES,
  cardButtonView,
  parseCardButton,
  type CardButtonData,
  type CardButtonMessages,
} from '../../src/lib/commerce/card-button.ts';

const text = fc.string({ minLength: 1, maxLength: 80 });
const messages: CardButtonMessages = {
  'cart.adding': 'Ajout en cours…',
  'cart.added': 'Ajouté ✓',
  'Added to cart': 'Ajouté au panier',
  'cart.viewCart': 'Voir le panier',
  'cart.error.add': "Impossible d'ajouter l'article au panier.",
  'Out of stock': 'Rupture de stock',
  'The selected quantity exceeds available stock.': 'La quantité dépasse le stock disponible.',
  'Currently unavailable': 'Actuellement indisponible',
};
/** What CardAddToCart.astro writes on a button. */
const cardData: fc.Arbitrary<CardButtonData> = fc
  .record({
    productId: fc.integer({ min: 1, max: 2 ** 31 }),
    variantId: fc.integer({ min: 1, max: 2 ** 31 }),
    name: text,
    price: fc.double({ min: 0, max: 100_000, noNaN: true }),
    variant: fc.option(text, { nil: undefined }),
    brand: fc.option(text, { nil: undefined }),
  })
  .map(({ productId, variantId, name, price, variant, brand }) => ({
    productId,
    variantId,
    name,
    item: {
      item_id: String(productId),
      item_name: name,
      price,
      quantity: 1,
      ...(variant === undefined ? {} : { item_variant: variant }),
      ...(brand === undefined ? {} : { item_brand: brand }),
    },
    messages,
  }));

describe('parseCardButton (what a card adds, read back from the page)', () => {
  it('reads back exactly what the card wrote', () => {
    fc.assert(
      fc.property(cardData, (data) => {
        expect(parseCardButton(JSON.stringify(data))).toEqual(data);
      }),
    );
  });

  it('refuses any other text: nothing is added rather than something else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        // Only a complete, well-formed button passes; arbitrary text or JSON never does.
        expect(parseCardButton(raw)).toBeNull();
      }),
    );
    expect(parseCardButton(null)).toBeNull();
    expect(parseCardButton(undefined)).toBeNull();
  });

  it('refuses a button with one field wrong', () => {
    const breakages: ((data: Record<string, unknown>) => void)[] = [
      (d) => (d.productId = 0),
      (d) => (d.productId = '12'),
      (d) => (d.variantId = 1.5),
      (d) => (d.variantId = null),
      (d) => (d.name = ''),
      (d) => (d.item = { ...(d.item as object), item_id: '999999999999' }),
      (d) => (d.item = { ...(d.item as object), quantity: 5 }),
      (d) => (d.item = { ...(d.item as object), price: -1 }),
      (d) => (d.item = { ...(d.item as object), item_brand: 7 }),
      (d) => (d.messages = { ...messages, 'cart.added': '' }),
      (d) =>
        (d.messages = Object.fromEntries(
          Object.entries(messages).filter(([key]) => key !== CARD_BUTTON_MESSAGES[0]),
        )),
      (d) => (d.messages = null),
    ];
    fc.assert(
      fc.property(cardData, fc.constantFrom(...breakages), (data, breakIt) => {
        const copy = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
        breakIt(copy);
        expect(parseCardButton(JSON.stringify(copy))).toBeNull();
      }),
    );
    expect(parseCardButton('x'.repeat(10_001))).toBeNull();
  });
});

describe('cardButtonView (spec §4, §9: the phases of a card button)', () => {
  it.each([
    ['idle', false, null, true, false],
    ['idle', true, null, true, true],
    ['adding', false, 'Ajout en cours…', false, true],
    ['adding', true, 'Ajout en cours…', false, true],
    ['added', false, 'Ajouté ✓', false, false],
    ['added', true, 'Ajouté ✓', false, true],
  ] as const)(
    '%s, cart loading %s: label %s, product name kept %s, disabled %s',
    (phase, loading, label, keepAccessibleName, disabled) => {
      expect(cardButtonView(phase, messages, loading)).toEqual({
        label,
        keepAccessibleName,
        disabled,
      });
    },
  );
});
