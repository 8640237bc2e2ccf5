/**
 * The price shown is the price paid (offer.ts): over generated products (tracking
 * modes, variants with and without their own price and sale price, purchasing disabled, stock
 * levels, size and colour options) and listing filters, every price a card, a search
 * suggestion or a product page shows is the price the cart charges for a variant a shopper can
 * buy that matches the filter, and a card's price is the lowest of them. The cart's charge is
 * the sandbox's own (`variantPrices`, sandbox/src/model.ts, which mirrors BigCommerce).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  cardView,
  listingCardKey,
  cardMarkupKey,
} from '../../src/shop/view-models/catalogue/view.ts';
import { analyticsListHtml } from '../../src/shop/view-models/catalogue/listing-markup.ts';
import { parsePageList } from '../../src/lib/analytics/page-json.ts';
import { NO_FILTERS, parseListingParams, SORT_OPTIONS } from '../../src/lib/commerce/listing.ts';
import { applyListing } from '../../src/lib/commerce/listing-products.ts';
import {
  productOffer,
  variantFilter,
  variantMatches,
  type VariantFilter,
} from '../../src/lib/commerce/offer.ts';
import { variantFromSearch } from '../../src/lib/commerce/variant-link.ts';
import { VARIANT_PARAM } from '../../src/lib/commerce/variant-link.ts';
import { displayPrice, effectivePrice } from '../../src/lib/commerce/price.ts';
import { searchProductView } from '../../src/lib/commerce/search.ts';
import { defaultVariant, isPurchasable, variantSelection } from '../../src/lib/commerce/stock.ts';
import type { Product, ProductOption, Variant } from '../../src/lib/commerce/types.ts';
import { selectionView } from '../../src/lib/stores/product.ts';
import { variantPrices, type ProductFacts } from '@literie/sandbox/model';
import type { ProductBase, VariantRecord } from '@literie/sandbox/seed/types';
import {
  colourOption,
  option,
  product as makeProduct,
  variant as makeVariant,
} from './fixtures.ts';

const SIZES = ['90x190', '140x190', '160x200', '180x200'] as const;
const COLOURS = ['Blanc', 'Gris', 'Bleu'] as const;

/**
 * What the sandbox's cart charges for one unit of `variant`, in cents: the product and variant
 * as the sandbox stores them (euros; a variant's calculated price as the sandbox keeps it).
 */
function cartCharge(product: Product, variant: Variant): number {
  const euros = (cents: number) => cents / 100;
  const productSale = product.salePrice > 0 && product.salePrice < product.price;
  const base = {
    price: euros(product.price),
    sale_price: euros(product.salePrice),
    calculated_price: euros(productSale ? product.salePrice : product.price),
  } as ProductBase;
  const ownSale = variant.salePrice !== null && variant.salePrice > 0;
  const record = {
    price: variant.price === null ? null : euros(variant.price),
    sale_price: variant.salePrice === null ? null : euros(variant.salePrice),
    calculated_price:
      variant.price === null
        ? ownSale
          ? euros(variant.salePrice ?? 0)
          : base.calculated_price
        : euros(variant.salePrice ?? variant.price),
  } as VariantRecord;
  const facts: ProductFacts = { base, variants: [record], images: [], options: [], modifiers: [] };
  return Math.round(variantPrices(facts, record).sale * 100);
}

const cents = fc.integer({ min: 100, max: 300_000 });

interface Shape {
  sizes: string[];
  colours: string[];
}

/** A product with its size and colour options and some of their variants. */
const productArb = fc
  .record({
    sizes: fc.subarray([...SIZES]),
    colours: fc.subarray([...COLOURS]),
    price: cents,
    salePrice: fc.oneof(fc.constant(0), cents),
    hidden: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    tracking: fc.constantFrom('none' as const, 'product' as const, 'variant' as const),
    level: fc.integer({ min: 0, max: 3 }),
    defaultSize: fc.nat(),
  })
  .chain((shape) => {
    const combos: { size: string | null; colour: string | null }[] = [];
    for (const size of shape.sizes.length > 0 ? shape.sizes : [null]) {
      for (const colour of shape.colours.length > 0 ? shape.colours : [null]) {
        combos.push({ size, colour });
      }
    }
    const variantArb = fc.record({
      present: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
      price: fc.option(cents, { freq: 2 }),
      salePrice: fc.oneof(fc.constant(null), fc.constant(0), cents),
      level: fc.integer({ min: 0, max: 3 }),
      disabled: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    });
    return fc.tuple(...combos.map(() => variantArb)).map((drawn) => build(shape, combos, drawn));
  });

function build(
  shape: Shape & {
    price: number;
    salePrice: number;
    hidden: boolean;
    tracking: Product['inventoryTracking'];
    level: number;
    defaultSize: number;
  },
  combos: { size: string | null; colour: string | null }[],
  drawn: {
    present: boolean;
    price: number | null;
    salePrice: number | null;
    level: number;
    disabled: boolean;
  }[],
): Product {
  const options: ProductOption[] = [];
  const colour = shape.colours.length > 0 ? colourOption(2, shape.colours) : null;
  const size = shape.sizes.length > 0 ? option(1, 'Taille', shape.sizes) : null;
  if (size) {
    const chosen = size.values[shape.defaultSize % size.values.length];
    if (chosen) chosen.isDefault = true;
  }
  if (colour) options.push(colour);
  if (size) options.push(size);
  const variants: Variant[] = [];
  combos.forEach((combo, index) => {
    const d = drawn[index];
    if (!d || (!d.present && combos.length > 1)) return;
    const optionValues = [];
    if (combo.colour !== null && colour) {
      const value = colour.values.find((v) => v.label === combo.colour);
      if (value) optionValues.push({ ...value, optionId: 2, optionDisplayName: 'Couleur' });
    }
    if (combo.size !== null && size) {
      const value = size.values.find((v) => v.label === combo.size);
      if (value) optionValues.push({ ...value, optionId: 1, optionDisplayName: 'Taille' });
    }
    variants.push(
      makeVariant({
        id: 1000 + index,
        sku: `V-${String(index)}`,
        price: d.price,
        salePrice: d.salePrice,
        inventoryLevel: d.level,
        purchasingDisabled: d.disabled,
        optionValues: optionValues.map(({ id, label, optionId, optionDisplayName }) => ({
          id,
          label,
          optionId,
          optionDisplayName,
        })),
      }),
    );
  });
  return makeProduct({
    price: shape.price,
    salePrice: shape.salePrice,
    isPriceHidden: shape.hidden,
    inventoryTracking: shape.tracking,
    inventoryLevel: shape.level,
    baseVariantId: options.length === 0 ? (variants[0]?.id ?? null) : null,
    options,
    variants,
  });
}

/** A listing's size and colour filters, in any case and order (the URL's spelling). */
const filterArb: fc.Arbitrary<VariantFilter> = fc.record({
  sizes: fc.subarray([...SIZES, '200x200']),
  colours: fc.subarray([...COLOURS, 'GRIS', ' bleu ']),
});

const paid = (product: Product, variant: Variant) => effectivePrice(displayPrice(product, variant));

describe('the price shown is the price paid (offer.ts)', () => {
  test('displayPrice of a variant is what the cart charges for it', () => {
    fc.assert(
      fc.property(productArb, (product) => {
        for (const variant of product.variants) {
          if (product.isPriceHidden) continue;
          expect(paid(product, variant)).toBe(cartCharge(product, variant));
          const shown = displayPrice(product, variant);
          // The struck price is that variant's own regular price.
          expect(shown.regular).toBe(variant.price ?? product.price);
          if (shown.special !== null) expect(shown.special).toBeLessThan(shown.regular);
        }
      }),
      { numRuns: 500 },
    );
  });

  test("a card's price is the lowest charge among the purchasable matching variants", () => {
    fc.assert(
      fc.property(productArb, fc.option(filterArb, { nil: undefined }), (product, given) => {
        const filter = given === undefined ? undefined : variantFilter(given);
        const card = cardView(product, filter);
        const offer = productOffer(product, filter);
        const matching =
          filter === undefined
            ? []
            : product.variants.filter((v) => variantMatches(product, v, filter));
        expect(offer.narrowed).toBe(matching.length > 0);
        if (product.isPriceHidden) {
          expect(card.price.hidden).toBe(true);
          expect(card.from).toBe(false);
          return;
        }
        if (product.variants.length === 0) {
          expect(card.price).toEqual(displayPrice(product));
          return;
        }
        const pool = matching.length > 0 ? matching : product.variants;
        const buyable = pool.filter((v) => isPurchasable(product, v));
        const counted = buyable.length > 0 ? buyable : pool;
        const charges = counted.map((v) => cartCharge(product, v));
        const shown = effectivePrice(card.price);
        // A price the cart charges for one of the counted variants, and the lowest one.
        const variant = offer.variant;
        if (variant === null) throw new Error('a product with variants prices one of them');
        expect(counted).toContain(variant);
        expect(shown).toBe(cartCharge(product, variant));
        expect(shown).toBe(Math.min(...charges));
        expect(card.price).toEqual(displayPrice(product, variant));
        expect(card.from).toBe(new Set(charges).size > 1);
        // A product-level price no variant charges is never shown.
        expect(product.variants.map((v) => cartCharge(product, v))).toContain(shown);
        // The search suggestion shows the unfiltered card's price.
        const suggestion = searchProductView(product);
        const plain = cardView(product);
        expect(suggestion.price).toEqual({
          regular: plain.price.regular,
          special: plain.price.special,
        });
        expect(suggestion.from).toBe(plain.from);
      }),
      { numRuns: 1000 },
    );
  });

  test("a list's analytics item (view_item_list, select_item) is priced as its card", () => {
    fc.assert(
      fc.property(productArb, fc.option(filterArb, { nil: undefined }), (product, given) => {
        const filter = given === undefined ? undefined : variantFilter(given);
        const html = analyticsListHtml('Liste', [product], 0, undefined, filter);
        const item = parsePageList(/<script[^>]*>(.*)<\/script>/s.exec(html)?.[1])?.items[0];
        if (item === undefined) throw new Error('the list writes its product');
        expect(Math.round(item.price * 100)).toBe(effectivePrice(cardView(product, filter).price));
        // Named by a variant only when a filter chose it, not for a "from" price.
        if (!productOffer(product, filter).narrowed) expect(item.item_variant).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  test('the product page shows the price of the variant the card links to, or of its default', () => {
    fc.assert(
      fc.property(productArb, filterArb, (product, given) => {
        const filter = variantFilter(given);
        const card = cardView(product, filter);
        const search = card.href.includes('?') ? card.href.slice(card.href.indexOf('?')) : '';
        const linked = variantFromSearch(product, search);
        if (card.variant === null) {
          expect(search).toBe('');
          expect(linked).toBeUndefined();
        } else {
          expect(linked).toBe(card.variant);
          // The page opens on that variant (the picker's selection) and shows the card's price.
          const page = selectionView(product, variantSelection(card.variant));
          expect(page.variant).toBe(card.variant);
          expect(page.price).toEqual(card.price);
        }
        // Without a link, the page opens on its default variant (spec §4), at the cart's price.
        const fallback = defaultVariant(product);
        if (fallback && !product.isPriceHidden) {
          const page = selectionView(product, variantSelection(fallback));
          expect(effectivePrice(page.price)).toBe(cartCharge(product, fallback));
        }
      }),
      { numRuns: 500 },
    );
  });

  test('listings sort and filter on the price the cards show under the same filters', () => {
    const listArb = fc.array(productArb, { minLength: 1, maxLength: 8 }).map((products) =>
      products.map((product, index) => ({
        ...product,
        id: index + 1,
        customUrl: `/produit-${String(index + 1)}/`,
      })),
    );
    fc.assert(
      fc.property(
        listArb,
        filterArb,
        fc.option(fc.integer({ min: 1, max: 3000 }), { nil: null }),
        (products, given, maxEuros) => {
          const query = new URLSearchParams();
          for (const size of given.sizes) query.append('taille', size);
          for (const colour of given.colours) query.append('couleur', colour);
          if (maxEuros !== null) query.set('prix-max', String(maxEuros));
          query.set('sort', String(SORT_OPTIONS[1].id));
          query.set('itemsperpage', '60');
          const params = parseListingParams(query);
          const filter = variantFilter(params.filters);
          const { items } = applyListing(products, params);
          const shown = items
            .filter((p) => !p.isPriceHidden)
            .map((p) => effectivePrice(cardView(p, filter).price));
          expect(shown).toEqual([...shown].sort((a, b) => a - b));
          if (maxEuros !== null) {
            for (const price of shown) expect(price).toBeLessThanOrEqual(maxEuros * 100);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('product 182: a product price no variant charges', () => {
  test('its card, suggestion and page show its only size price, 58,90 €', () => {
    const size = option(1, 'Taille', ['60x60']);
    const only = makeVariant({
      id: 900,
      price: 5890,
      optionValues: [{ id: 100, label: '60x60', optionId: 1, optionDisplayName: 'Taille' }],
    });
    const product = makeProduct({ price: 4990, options: [size], variants: [only] });
    expect(cardView(product).price).toEqual({ regular: 5890, special: null, hidden: false });
    expect(cardView(product).from).toBe(false);
    expect(searchProductView(product).price).toEqual({ regular: 5890, special: null });
    const page = selectionView(product, variantSelection(defaultVariant(product) ?? only));
    expect(effectivePrice(page.price)).toBe(5890);
    expect(cartCharge(product, only)).toBe(5890);
  });

  test('a product sale price does not reach a variant with its own price', () => {
    const only = makeVariant({ id: 901, price: 5890, salePrice: null });
    const product = makeProduct({ price: 4990, salePrice: 3990, variants: [only] });
    expect(displayPrice(product, only)).toEqual({ regular: 5890, special: null, hidden: false });
    expect(cartCharge(product, only)).toBe(5890);
  });
});

describe('the variant a product page link names (?variante=ID)', () => {
  const product = makeProduct({
    variants: [makeVariant({ id: 7 }), makeVariant({ id: 8 })],
  });

  test.each([
    ['its own variant', `?${VARIANT_PARAM}=8`, 8],
    ['spaces around', `?${VARIANT_PARAM}=%207%20`, 7],
    ['another product’s variant', `?${VARIANT_PARAM}=9`, undefined],
    ['not a whole number', `?${VARIANT_PARAM}=7.0`, undefined],
    ['an exponent', `?${VARIANT_PARAM}=7e0`, undefined],
    ['negative', `?${VARIANT_PARAM}=-7`, undefined],
    ['empty', `?${VARIANT_PARAM}=`, undefined],
    ['absent', '?taille=160x200', undefined],
    ['huge', `?${VARIANT_PARAM}=${'9'.repeat(400)}`, undefined],
  ])('%s', (_case, search, id) => {
    expect(variantFromSearch(product, search)?.id).toBe(id);
  });

  test('a filter has one spelling, and its cards one shared name', () => {
    fc.assert(
      fc.property(filterArb, (given) => {
        const reversed = {
          sizes: [...given.sizes].reverse(),
          colours: [...given.colours].reverse(),
        };
        expect(variantFilter(reversed)).toEqual(variantFilter(given));
        const filter = variantFilter(given);
        const index = 0;
        expect(listingCardKey(index, filter)).toBe(
          cardMarkupKey({
            eager: true,
            priority: true,
            isReseller: false,
            ...(filter === undefined ? {} : { filter }),
          }),
        );
      }),
    );
    expect(variantFilter(NO_FILTERS)).toBeUndefined();
    expect(variantFilter({ sizes: ['160X200', '160x200 '], colours: [] })?.sizes).toHaveLength(1);
  });
});
