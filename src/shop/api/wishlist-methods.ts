/**
 * Wishlist methods of the `bigcommerce` service (spec §7 "Commerce: wishlist"): getAllWishlists,
 * createWishlist, addWishlistItems, removeWishlistItem, deleteWishlist. A customer's wishlists
 * only: the customer comes from the session (a visitor gets 401 'Login required': a guest's
 * wishlist lives in the browser), never from the arguments, and a wishlist of anyone else reads
 * exactly like a missing one (404 'Wishlist not found', `ownership.ts`).
 */
import { z } from 'zod';
import type { Wishlist } from '../../lib/commerce/types.ts';
// One call may add a whole guest wishlist (merged at login).
import { MAX_WISHLIST_ITEMS, mayCreateWishlist } from '../../lib/commerce/wishlist.ts';
import {
  addWishlistItems,
  createWishlist,
  deleteWishlist,
  getCustomerWishlists,
  removeWishlistItem,
} from '../connectors/bigcommerce/index.ts';
import {
  EntityIdSchema,
  WishlistItemInputSchema,
  WishlistNameSchema,
} from '../connectors/bigcommerce/queries.ts';
import { ownWishlist } from '../carts/ownership.ts';
import { createLockedQueue, type KeyedQueue } from '../state/lock.ts';
import type { SharedStore } from '../state/types.ts';
import { accountOf, requireCustomer, tooManyAttempts, type ShopContext } from './context.ts';
import { ApiError, defineMethod, type ApiMethod } from './handle.ts';

const wishlistNotFound = () => new ApiError(404, 'WISHLIST_NOT_FOUND', 'Wishlist not found');

// A customer's wishlist creations run one at a time across server copies, so the cap holds
// under concurrent calls (count, then create).
const WISHLIST_LOCK = { prefix: 'wishlists:', ttlMs: 30_000, waitMs: 10_000 } as const;
const creationQueues = new WeakMap<SharedStore, KeyedQueue>();
const creationQueue = (store: SharedStore) => {
  let queue = creationQueues.get(store);
  if (queue === undefined) {
    queue = createLockedQueue(store, WISHLIST_LOCK);
    creationQueues.set(store, queue);
  }
  return queue;
};

const ItemsSchema = z.array(WishlistItemInputSchema).max(MAX_WISHLIST_ITEMS);

const toItems = (items: readonly z.output<typeof WishlistItemInputSchema>[]) =>
  items.map((item) => ({ productId: item.product_id, variantId: item.variant_id }));

/** The session customer's wishlist `wishlistId`; 404 when missing or anyone else's. */
async function sessionWishlist(context: ShopContext, wishlistId: number): Promise<Wishlist> {
  const wishlist = await ownWishlist(context.client, wishlistId, requireCustomer(context));
  if (wishlist === null) throw wishlistNotFound();
  return wishlist;
}

export const wishlistMethods = {
  /** The session customer's wishlists, oldest first (spec §4: the first one is theirs). */
  getAllWishlists: defineMethod(z.tuple([]), (context: ShopContext) =>
    getCustomerWishlists(context.client, requireCustomer(context)),
  ),

  /**
   * `createWishlist({ name, is_public, items })` for the session customer: at most
   * MAX_WISHLISTS_PER_CUSTOMER (409 'Wishlist limit reached'), creations throttled (429).
   */
  createWishlist: defineMethod(
    z.tuple([
      z
        .strictObject({
          name: WishlistNameSchema,
          is_public: z.boolean().optional(),
          items: ItemsSchema.optional(),
        })
        .describe('wishlist'),
    ]),
    async (context: ShopContext, [input]) => {
      const customerId = requireCustomer(context);
      const account = accountOf(context);
      // Creations are throttled per customer and capped (MAX_WISHLISTS_PER_CUSTOMER).
      const admission = await account.throttle.wishlist({ customerId });
      if (!admission.allowed) throw tooManyAttempts(admission.retryAfterMs);
      return creationQueue(account.store).run(String(customerId), async () => {
        const existing = await getCustomerWishlists(context.client, customerId);
        if (!mayCreateWishlist(existing.length)) {
          throw new ApiError(409, 'WISHLIST_LIMIT', 'Wishlist limit reached');
        }
        return createWishlist(context.client, {
          customerId,
          name: input.name,
          isPublic: input.is_public ?? false,
          items: toItems(input.items ?? []),
        });
      });
    },
    { mutates: true },
  ),

  /** `addWishlistItems({ wishlistId, items: [{ product_id, variant_id }] })`. */
  addWishlistItems: defineMethod(
    z.tuple([
      z.strictObject({ wishlistId: EntityIdSchema, items: ItemsSchema.min(1) }).describe('items'),
    ]),
    async (context: ShopContext, [{ wishlistId, items }]) => {
      await sessionWishlist(context, wishlistId);
      return addWishlistItems(context.client, wishlistId, toItems(items));
    },
    { mutates: true },
  ),

  /** `removeWishlistItem({ wishlistId, itemId })`; 404 'Wishlist item not found' for another item. */
  removeWishlistItem: defineMethod(
    z.tuple([
      z.strictObject({ wishlistId: EntityIdSchema, itemId: EntityIdSchema }).describe('item'),
    ]),
    async (context: ShopContext, [{ wishlistId, itemId }]) => {
      const wishlist = await sessionWishlist(context, wishlistId);
      if (!wishlist.items.some((item) => item.id === itemId)) {
        throw new ApiError(404, 'WISHLIST_ITEM_NOT_FOUND', 'Wishlist item not found');
      }
      return removeWishlistItem(context.client, wishlistId, itemId);
    },
    { mutates: true },
  ),

  /** `deleteWishlist(id)` (spec §7: the id itself). */
  deleteWishlist: defineMethod(
    z.tuple([EntityIdSchema.describe('id')]),
    async (context: ShopContext, [id]) => {
      await sessionWishlist(context, id);
      await deleteWishlist(context.client, id);
      return null;
    },
    { mutates: true },
  ),
} satisfies Record<string, ApiMethod<ShopContext>>;
