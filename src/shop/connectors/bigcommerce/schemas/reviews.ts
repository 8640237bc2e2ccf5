/**
 * Product review replies of `/v3/catalog/products/{id}/reviews` (`../review.ts`).
 */
import { z } from 'zod';
import type { ProductReview } from '../../../../lib/commerce/types.ts';
import { id, text, v3PageSchema, v3DataSchema } from './common.ts';

export const ProductReviewSchema = z
  .object({
    id,
    product_id: id,
    title: text,
    text: text,
    status: z.enum(['approved', 'disapproved', 'pending']),
    rating: z.number().int().min(0).max(5),
    name: text,
    date_reviewed: text,
  })
  .transform((r): ProductReview => ({
    id: r.id,
    productId: r.product_id,
    title: r.title,
    text: r.text,
    status: r.status,
    rating: r.rating,
    name: r.name,
    dateReviewed: r.date_reviewed,
  }));

export const ProductReviewPageSchema = v3PageSchema(ProductReviewSchema);
export const ProductReviewReplySchema = v3DataSchema(ProductReviewSchema);
