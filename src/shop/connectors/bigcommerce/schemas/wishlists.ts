/**
 * Wishlist replies of `/v3/wishlists` (`../wishlist.ts`; wishlists.v3.yml `wishlist_Full`).
 */
import { z } from 'zod';
import type { Wishlist } from '../../../../lib/commerce/types.ts';
import { id, v3PageSchema, v3DataSchema } from './common.ts';

export const WishlistSchema = z
  .object({
    id,
    customer_id: id,
    name: z.string(),
    is_public: z.boolean(),
    token: z.string(),
    items: z.array(z.object({ id, product_id: id, variant_id: id })),
  })
  .transform((w): Wishlist => ({
    id: w.id,
    customerId: w.customer_id,
    name: w.name,
    isPublic: w.is_public,
    token: w.token,
    items: w.items.map((item) => ({
      id: item.id,
      productId: item.product_id,
      variantId: item.variant_id,
    })),
  }));

export const WishlistPageSchema = v3PageSchema(WishlistSchema);
export const WishlistReplySchema = v3DataSchema(WishlistSchema);
