/**
 * Wishlist connectors (spec §7 "Commerce: wishlist", wishlists.v3.yml): a customer's wishlists,
 * one wishlist, create, add items, remove an item, delete. Who may use which wishlist is
 * decided by `ownership.ts`, never here.
 */
import { z } from 'zod';
import type { Wishlist } from '../../../lib/commerce/types.ts';
import { collectPages } from './catalog.ts';
import type { BigCommerceClient } from './client.ts';
import { isBigCommerceError } from './errors.ts';
import { MAX_PAGE_SIZE, type WishlistItemInput } from './queries.ts';
import { WishlistPageSchema, WishlistReplySchema } from './schemas/wishlists.ts';

const wishlistPath = (id: number) => `v3/wishlists/${String(id)}`;

const itemBody = (items: readonly WishlistItemInput[]) =>
  items.map((item) => ({ product_id: item.productId, variant_id: item.variantId }));

/** Every wishlist of the customer (all pages), oldest first. */
export async function getCustomerWishlists(
  client: BigCommerceClient,
  customerId: number,
): Promise<Wishlist[]> {
  return collectPages((page) =>
    client.get('v3/wishlists', WishlistPageSchema, {
      customer_id: customerId,
      page,
      limit: MAX_PAGE_SIZE,
    }),
  );
}

/** The wishlist, or null when BigCommerce does not know it. */
export async function getWishlist(client: BigCommerceClient, id: number): Promise<Wishlist | null> {
  try {
    return await client.get(wishlistPath(id), WishlistReplySchema);
  } catch (error) {
    if (isBigCommerceError(error) && error.status === 404) return null;
    throw error;
  }
}

export interface WishlistCreate {
  customerId: number;
  name: string;
  isPublic: boolean;
  items: readonly WishlistItemInput[];
}

/** Creates a wishlist for the customer, with its first items. */
export async function createWishlist(
  client: BigCommerceClient,
  input: WishlistCreate,
): Promise<Wishlist> {
  return client.send('post', 'v3/wishlists', WishlistReplySchema, {
    json: {
      customer_id: input.customerId,
      name: input.name,
      is_public: input.isPublic,
      items: itemBody(input.items),
    },
  });
}

/** Adds items (a product and variant already there stays one item). */
export async function addWishlistItems(
  client: BigCommerceClient,
  wishlistId: number,
  items: readonly WishlistItemInput[],
): Promise<Wishlist> {
  return client.send('post', `${wishlistPath(wishlistId)}/items`, WishlistReplySchema, {
    json: { items: itemBody(items) },
  });
}

/** Removes an item; the wishlist as it is now. */
export async function removeWishlistItem(
  client: BigCommerceClient,
  wishlistId: number,
  itemId: number,
): Promise<Wishlist> {
  return client.send(
    'delete',
    `${wishlistPath(wishlistId)}/items/${String(itemId)}`,
    WishlistReplySchema,
  );
}

/** Deletes the wishlist. */
export async function deleteWishlist(client: BigCommerceClient, id: number): Promise<void> {
  await client.send('delete', wishlistPath(id), z.unknown());
}
