/**
 * Cart connectors (spec §7 "Commerce: cart") over the Server-to-Server Cart API v3: create,
 * read, assign, delete, line items, redirect URLs and cart metafields. They carry no rule of
 * who may touch which cart: the API middleware checks the session's rights first.
 */
import type { Cart, CartMetafield, CartRedirectUrls } from '../../../lib/commerce/types.ts';
import type { BigCommerceClient } from './client.ts';
import { isBigCommerceError } from './errors.ts';
import type { CartInclude, CartMetafieldInput, LineItemInput, LineItemUpdate } from './queries.ts';
import {
  CartMetafieldPageSchema,
  CartMetafieldReplySchema,
  CartOrNothingReplySchema,
  CartRedirectUrlsReplySchema,
  CartReplySchema,
} from './schemas/carts.ts';
import { z } from 'zod';

/** Options of each line, so the cart shows the chosen size or colour (spec §3 cart item). */
export const DEFAULT_CART_INCLUDE: readonly CartInclude[] = [
  'line_items.physical_items.options',
  'line_items.digital_items.options',
];

const cartPath = (cartId: string) => `v3/carts/${encodeURIComponent(cartId)}`;

function includeParam(include: readonly CartInclude[] | undefined): { include: string } {
  return { include: [...new Set([...DEFAULT_CART_INCLUDE, ...(include ?? [])])].join(',') };
}

/** A line item as the Cart API reads it. */
export function toLineItemBody(item: LineItemInput | LineItemUpdate) {
  return {
    product_id: item.productId,
    quantity: item.quantity,
    ...(item.variantId === undefined ? {} : { variant_id: item.variantId }),
    ...(item.optionSelections === undefined || item.optionSelections.length === 0
      ? {}
      : {
          option_selections: item.optionSelections.map((o) => ({
            option_id: o.optionId,
            option_value: o.optionValue,
          })),
        }),
  };
}

export interface CreateCartInput {
  lineItems?: readonly LineItemInput[] | undefined;
  /** The owner; omitted (or 0) for a guest cart. */
  customerId?: number | undefined;
  currencyCode?: string | undefined;
  locale?: string | undefined;
  include?: readonly CartInclude[] | undefined;
}

/** Creates a cart on the client's channel (BigCommerce requires at least one line item). */
export async function createCart(client: BigCommerceClient, input: CreateCartInput): Promise<Cart> {
  return client.send('post', 'v3/carts', CartReplySchema, {
    searchParams: includeParam(input.include),
    json: {
      line_items: (input.lineItems ?? []).map(toLineItemBody),
      ...(input.customerId ? { customer_id: input.customerId } : {}),
      ...(client.channelId === undefined ? {} : { channel_id: client.channelId }),
      ...(input.currencyCode === undefined ? {} : { currency: { code: input.currencyCode } }),
      ...(input.locale === undefined ? {} : { locale: input.locale }),
    },
  });
}

/** The cart, or null when BigCommerce does not know it (deleted, expired, converted). */
export async function getCart(
  client: BigCommerceClient,
  cartId: string,
  include?: readonly CartInclude[],
): Promise<Cart | null> {
  try {
    return await client.get(cartPath(cartId), CartReplySchema, includeParam(include));
  } catch (error) {
    if (isBigCommerceError(error) && error.status === 404) return null;
    throw error;
  }
}

/** Assigns the cart to a customer, or makes it a guest cart again with `customerId` 0. */
export async function updateCartCustomer(
  client: BigCommerceClient,
  cartId: string,
  customerId: number,
): Promise<Cart> {
  return client.send('put', cartPath(cartId), CartReplySchema, {
    searchParams: includeParam(undefined),
    json: { customer_id: customerId },
  });
}

/** Deletes the cart (204). */
export async function deleteCart(client: BigCommerceClient, cartId: string): Promise<void> {
  await client.send('delete', cartPath(cartId), z.unknown());
}

/** Adds lines; BigCommerce merges a repeated product, variant and options into one line. */
export async function addCartItems(
  client: BigCommerceClient,
  cartId: string,
  lineItems: readonly LineItemInput[],
): Promise<Cart> {
  return client.send('post', `${cartPath(cartId)}/items`, CartReplySchema, {
    searchParams: includeParam(undefined),
    json: { line_items: lineItems.map(toLineItemBody) },
  });
}

/** Changes a line (quantity, variant, options). */
export async function updateCartItem(
  client: BigCommerceClient,
  cartId: string,
  itemId: string,
  lineItem: LineItemUpdate,
): Promise<Cart> {
  return client.send(
    'put',
    `${cartPath(cartId)}/items/${encodeURIComponent(itemId)}`,
    CartReplySchema,
    { searchParams: includeParam(undefined), json: { line_item: toLineItemBody(lineItem) } },
  );
}

/**
 * Removes a line. Returns the cart, or null when that was the last line: BigCommerce then
 * deletes the cart and answers 204 with no body (spec §4 "the reply has no data").
 */
export async function removeCartItem(
  client: BigCommerceClient,
  cartId: string,
  itemId: string,
): Promise<Cart | null> {
  return client.send(
    'delete',
    `${cartPath(cartId)}/items/${encodeURIComponent(itemId)}`,
    CartOrNothingReplySchema,
    { searchParams: includeParam(undefined) },
  );
}

/** Cart and hosted-checkout URLs of the cart (a new token each time). */
export async function createCartRedirectUrls(
  client: BigCommerceClient,
  cartId: string,
): Promise<CartRedirectUrls> {
  return client.send('post', `${cartPath(cartId)}/redirect_urls`, CartRedirectUrlsReplySchema);
}

/** The cart's metafields, of one namespace when given. */
export async function getCartMetafields(
  client: BigCommerceClient,
  cartId: string,
  namespace?: string,
): Promise<CartMetafield[]> {
  const page = await client.get(`${cartPath(cartId)}/metafields`, CartMetafieldPageSchema, {
    ...(namespace === undefined ? {} : { namespace }),
    limit: 250,
  });
  return page.items;
}

/** Deletes one of the cart's metafields (one this app may change). */
export async function deleteCartMetafield(
  client: BigCommerceClient,
  cartId: string,
  metafieldId: number,
): Promise<void> {
  await client.send('delete', `${cartPath(cartId)}/metafields/${String(metafieldId)}`, z.unknown());
}

/** Adds a metafield to the cart. */
export async function createCartMetafield(
  client: BigCommerceClient,
  cartId: string,
  input: CartMetafieldInput,
): Promise<CartMetafield> {
  return client.send('post', `${cartPath(cartId)}/metafields`, CartMetafieldReplySchema, {
    json: {
      namespace: input.namespace,
      key: input.key,
      value: input.value,
      permission_set: input.permissionSet ?? 'app_only',
    },
  });
}
