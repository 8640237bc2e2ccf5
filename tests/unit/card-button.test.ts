import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_BUTTON_MESSAGES,
  cardButtonAttribute,
  cardButtonMessages,
  cardButtonView,
  parseCardButton,
  type CardButtonAttribute,
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
  'cart.stock.addLeft': 'Plus que {{count}} en stock.',
  'offline.action': 'Vous êtes hors ligne. Vérifiez votre connexion puis réessayez.',
};
/**
 * What CardAddToCart.astro writes on a button, the card's title, and what the click reads
 * back from them.
 */
const cardData: fc.Arbitrary<{
  attribute: CardButtonAttribute;
  name: string;
  data: CardButtonData;
}> = fc
  .record({
    productId: fc.integer({ min: 1, max: 2 ** 31 }),
    variantId: fc.integer({ min: 1, max: 2 ** 31 }),
    name: text.filter((name) => name.trim() === name && name !== ''),
    price: fc.double({ min: 0, max: 100_000, noNaN: true }),
    variant: fc.option(text, { nil: undefined }),
  })
  .map(({ productId, variantId, name, price, variant }) => {
    // productItem's shape: the item a card pushes with add_to_cart (spec §9).
    const item = {
      item_id: String(productId),
      item_name: name,
      price,
      quantity: 1,
      ...(variant === undefined ? {} : { item_variant: variant }),
    };
    return {
      attribute: cardButtonAttribute(productId, variantId, item),
      name,
      data: { productId, variantId, name, item },
    };
  });

describe('parseCardButton (what a card adds, read back from the page)', () => {
  it('reads back exactly what the card wrote: the ids, the name, its GA4 item', () => {
    fc.assert(
      fc.property(cardData, ({ attribute, name, data }) => {
        expect(parseCardButton(JSON.stringify(attribute), name)).toEqual(data);
        // The title as the page holds it, spaces around included.
        expect(parseCardButton(JSON.stringify(attribute), `\n ${name} `)).toEqual(data);
      }),
    );
  });

  it("writes no more than the click needs (the texts are the page's)", () => {
    const attribute = cardButtonAttribute(122, 1102, {
      price: 1349,
      item_variant: '140x190',
    });
    expect(JSON.stringify(attribute)).toBe(
      '{"productId":122,"variantId":1102,"price":1349,"variant":"140x190"}',
    );
  });

  it('refuses any other text: nothing is added rather than something else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        // Only a complete, well-formed button passes; arbitrary text or JSON never does.
        expect(parseCardButton(raw, 'Matelas')).toBeNull();
      }),
    );
    expect(parseCardButton(null, 'Matelas')).toBeNull();
    expect(parseCardButton(undefined, 'Matelas')).toBeNull();
    // No title to name the product: nothing is added either.
    const attribute = JSON.stringify(cardButtonAttribute(1, 2, { price: 10 }));
    expect(parseCardButton(attribute, 'Matelas')).not.toBeNull();
    for (const name of [null, undefined, '', '  ', 'x'.repeat(501)]) {
      expect(parseCardButton(attribute, name)).toBeNull();
    }
  });

  it('refuses a button with one field wrong', () => {
    const breakages: ((data: Record<string, unknown>) => void)[] = [
      (d) => (d.productId = 0),
      (d) => (d.productId = '12'),
      (d) => (d.variantId = 1.5),
      (d) => (d.variantId = null),
      (d) => (d.price = -1),
      (d) => (d.price = '12'),
      (d) => delete d.price,
      (d) => (d.variant = 7),
      (d) => (d.variant = ''),
    ];
    fc.assert(
      fc.property(cardData, fc.constantFrom(...breakages), ({ attribute, name }, breakIt) => {
        const copy = JSON.parse(JSON.stringify(attribute)) as Record<string, unknown>;
        breakIt(copy);
        expect(parseCardButton(JSON.stringify(copy), name)).toBeNull();
      }),
    );
    expect(parseCardButton('x'.repeat(2_001), 'Matelas')).toBeNull();
  });
});

describe("cardButtonMessages (the buttons' texts, the page's)", () => {
  it('takes the texts of the card buttons from the page messages', () => {
    expect(cardButtonMessages({ ...messages, 'cart.title': 'Panier' })).toEqual(messages);
  });

  it('refuses messages with one missing or empty: the buttons add nothing then', () => {
    expect(cardButtonMessages({ ...messages, 'cart.added': '' })).toBeNull();
    expect(
      cardButtonMessages(
        Object.fromEntries(
          Object.entries(messages).filter(([key]) => key !== CARD_BUTTON_MESSAGES[0]),
        ),
      ),
    ).toBeNull();
    expect(cardButtonMessages({})).toBeNull();
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
