/**
 * The price shown is the price paid, against the sandbox over HTTP: products read
 * through the BigCommerce connector as the build reads them, their cards (`cardView`, what
 * ProductCardMarkup renders), search suggestions and product page selection, and the cart the
 * sandbox builds for the variant a card prices. An editor setting product 182's price to
 * 49,90 € (its only size keeps 58,90 €) leaves every shown price at 58,90 €, the price paid.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cardView } from '../../src/shop/view-models/catalogue/view.ts';
import { parseListingParams } from '../../src/lib/commerce/listing.ts';
import { applyListing } from '../../src/lib/commerce/listing-products.ts';
import { formatPrice } from '../../src/lib/commerce/money.ts';
import { variantFilter } from '../../src/lib/commerce/offer.ts';
import { variantFromSearch } from '../../src/lib/commerce/variant-link.ts';
import { effectivePrice } from '../../src/lib/commerce/price.ts';
import { searchProductView } from '../../src/lib/commerce/search.ts';
import { defaultVariant, isPurchasable, variantSelection } from '../../src/lib/commerce/stock.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import { selectionView } from '../../src/lib/stores/product.ts';
import {
  createBigCommerceClient,
  getAllProducts,
  getProductById,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import { CATEGORIES } from '@literie/sandbox/fixtures';
import { sandboxApi, startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

/** Oreiller Bambou: one size (60x60 cm) whose variant has its own price, 58,90 €. */
const PRODUCT_182 = 182;

interface CartLine {
  product_id: number;
  variant_id: number;
  quantity: number;
  sale_price: number;
}
interface Cart {
  cart_amount: number;
  line_items: { physical_items: CartLine[] };
}

let sandbox: TestSandbox;
let api: ReturnType<typeof sandboxApi>;
let client: BigCommerceClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = sandboxApi(sandbox);
  client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
    channelId: 1,
  });
});

afterAll(async () => {
  await sandbox.close();
});

async function product(id: number): Promise<Product> {
  const read = await getProductById(client, id);
  if (read === null) throw new Error(`product ${String(id)} not found`);
  return read;
}

/** The sandbox's cart of one unit of each line: what each variant is charged, in cents. */
async function charged(
  lines: readonly { productId: number; variantId: number }[],
): Promise<Map<number, number>> {
  const reply = await api<{ data: Cart }>('POST', '/v3/carts', {
    line_items: lines.map((line) => ({
      product_id: line.productId,
      variant_id: line.variantId,
      quantity: 1,
    })),
  });
  expect(reply.status).toBe(201);
  return new Map(
    reply.body.data.line_items.physical_items.map((line) => [
      line.variant_id,
      Math.round(line.sale_price * 100),
    ]),
  );
}

describe('product 182: a product price no variant charges is never shown', () => {
  test('price set to 49,90 €: card, suggestion and page show 58,90 €, the cart charges it', async () => {
    const updated = await api('PUT', `/v3/catalog/products/${String(PRODUCT_182)}`, {
      price: 49.9,
    });
    expect(updated.status).toBe(200);
    const read = await product(PRODUCT_182);
    expect(read.price).toBe(4990);

    const card = cardView(read);
    expect(formatPrice(effectivePrice(card.price))).toBe(formatPrice(5890));
    expect(card.price).toEqual({ regular: 5890, special: null, hidden: false });
    expect(card.from).toBe(false);
    expect(searchProductView(read).price).toEqual({ regular: 5890, special: null });
    const first = defaultVariant(read);
    if (!first) throw new Error('product 182 has a variant');
    const page = selectionView(read, variantSelection(first));
    expect(effectivePrice(page.price)).toBe(5890);

    expect((await charged([{ productId: PRODUCT_182, variantId: first.id }])).get(first.id)).toBe(
      5890,
    );
  });

  test('a product sale price (39,90 €) does not reach the variant with its own price', async () => {
    const updated = await api('PUT', `/v3/catalog/products/${String(PRODUCT_182)}`, {
      sale_price: 39.9,
    });
    expect(updated.status).toBe(200);
    const read = await product(PRODUCT_182);
    expect(read.salePrice).toBe(3990);
    const card = cardView(read);
    expect(card.price).toEqual({ regular: 5890, special: null, hidden: false });
    const first = defaultVariant(read);
    if (!first) throw new Error('product 182 has a variant');
    expect((await charged([{ productId: PRODUCT_182, variantId: first.id }])).get(first.id)).toBe(
      effectivePrice(card.price),
    );
  });
});

describe('a size-filtered listing (taille=160x200 cm)', () => {
  test("each card prices, links to and adds a 160x200 variant the cart charges the card's price", async () => {
    const products = await getAllProducts(client, {
      categoryIds: [CATEGORIES.matelas],
      isVisible: true,
    });
    const params = parseListingParams('taille=160x200+cm&itemsperpage=60');
    const filter = variantFilter(params.filters);
    const { items } = applyListing(products, params);
    expect(items.length).toBeGreaterThan(0);
    const lines: { productId: number; variantId: number; price: number }[] = [];
    for (const item of items) {
      const card = cardView(item, filter);
      if (card.price.hidden) continue;
      const variant = card.variant;
      if (variant === null) throw new Error(`card of ${String(item.id)} prices no 160x200 variant`);
      expect(variant.optionValues.map((value) => value.label)).toContain('160x200 cm');
      // Its link opens the product page on that variant, at the card's price.
      const search = card.href.slice(card.href.indexOf('?'));
      expect(variantFromSearch(item, search)).toBe(variant);
      expect(selectionView(item, variantSelection(variant)).price).toEqual(card.price);
      if (isPurchasable(item, variant)) {
        lines.push({
          productId: item.id,
          variantId: variant.id,
          price: effectivePrice(card.price),
        });
      }
    }
    expect(lines.length).toBeGreaterThan(0);
    const paid = await charged(lines);
    for (const line of lines)
      expect([line.variantId, paid.get(line.variantId)]).toEqual([line.variantId, line.price]);
  });
});
