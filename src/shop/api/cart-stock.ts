/**
 * The stock of a cart's lines (spec §4 Stock), added by the shop API to every cart it returns
 * and re-checked at the hand-over to the hosted checkout (`getCheckoutUrl`, `/paiement` POST).
 * One batched catalogue read for the cart's distinct products (`getProductsStock`: variants
 * only, 50 ids a request), bounded by its own share of the request's time budget. A read that
 * fails (upstream down, slow, refused) leaves the cart as it is, its stock unknown: the cart
 * always loads, and a line of unknown stock is never flagged (`line-stock.ts`).
 */
import { cartItems } from '../../lib/commerce/cart.ts';
import { lineStockOf, stockBlockers, type StockBlocker } from '../../lib/commerce/line-stock.ts';
import type { Cart, CartLineItem, Product } from '../../lib/commerce/types.ts';
import {
  getProductsStock,
  MAX_STOCK_PRODUCTS,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import { budgetLeft, withBudget } from '../connectors/http/budget.ts';
import { log } from '../config/log.ts';

/** Longest time a stock read may take: at most this, and at most half of what is left. */
export const STOCK_READ_MS = 1_000;

function stockBudget(): number {
  const left = budgetLeft();
  return left === undefined ? STOCK_READ_MS : Math.min(STOCK_READ_MS, left / 2);
}

/**
 * The products (with their variants) of these ids, or null when they could not be read: the
 * read gets `STOCK_READ_MS` at most, never more than half of the request's budget left.
 */
export async function readStock(
  client: BigCommerceClient,
  productIds: readonly number[],
): Promise<Map<number, Product> | null> {
  const ids = [...new Set(productIds)].slice(0, MAX_STOCK_PRODUCTS);
  if (ids.length === 0) return new Map();
  try {
    const products = await withBudget(stockBudget(), () => getProductsStock(client, ids));
    return new Map(products.map((product) => [product.id, product]));
  } catch (error) {
    // An expected failure (the catalogue away): its reason, no stack.
    const reason = error instanceof Error ? error.message : String(error);
    log.warn(
      { reason, products: ids.length },
      '[cart-stock] stock not read: the cart is shown without it',
    );
    return null;
  }
}

function withStock(line: CartLineItem, products: ReadonlyMap<number, Product>): CartLineItem {
  const product = products.get(line.productId);
  const stock = product === undefined ? undefined : lineStockOf(product, line.variantId);
  return stock === undefined ? line : { ...line, stock };
}

/**
 * The cart with each physical and digital line's `stock`; the cart unchanged (stock unknown)
 * when the catalogue could not be read. A null cart stays null.
 */
export async function withLineStock<C extends Cart | null>(
  client: BigCommerceClient,
  cart: C,
): Promise<C> {
  if (cart === null) return cart;
  const products = await readStock(
    client,
    cartItems(cart).map((line) => line.productId),
  );
  if (products === null) return cart;
  return {
    ...cart,
    lineItems: {
      ...cart.lineItems,
      physicalItems: cart.lineItems.physicalItems.map((line) => withStock(line, products)),
      digitalItems: cart.lineItems.digitalItems.map((line) => withStock(line, products)),
    },
  };
}

/** What is left of one line of a refused add: null when the stock is not tracked. */
export interface RefusedLineStock {
  productId: number;
  variantId: number;
  left: number | null;
}

/**
 * What is left of each line of an add the platform refused for stock (the variant given, else
 * the product's base variant): 0 when purchasing is disabled. Empty when the catalogue could
 * not be read: the refusal's own message still says why.
 */
export async function refusedLinesStock(
  client: BigCommerceClient,
  lines: readonly { productId: number; variantId?: number | undefined }[],
): Promise<RefusedLineStock[]> {
  const products = await readStock(
    client,
    lines.map((line) => line.productId),
  );
  if (products === null) return [];
  return lines.flatMap((line) => {
    const product = products.get(line.productId);
    const variantId = line.variantId ?? product?.baseVariantId ?? product?.variants[0]?.id;
    if (product === undefined || variantId === undefined) return [];
    const stock = lineStockOf(product, variantId);
    if (stock === undefined) return [];
    return [{ productId: line.productId, variantId, left: stock.purchasable ? stock.level : 0 }];
  });
}

/** The lines of `cart` that stop its checkout, read fresh from the catalogue. */
export async function cartStockBlockers(
  client: BigCommerceClient,
  cart: Cart,
): Promise<StockBlocker<CartLineItem>[]> {
  return stockBlockers(cartItems(await withLineStock(client, cart)));
}
