/**
 * Brand replies of `/v3/catalog/brands` (`../catalog.ts`).
 */
import { z } from 'zod';
import type { Brand } from '../../../../lib/commerce/types.ts';
import { id, text, CustomUrlSchema, v3PageSchema } from './common.ts';

export const BrandSchema = z
  .object({
    id,
    name: z.string(),
    custom_url: CustomUrlSchema,
    page_title: text,
    meta_description: text,
    image_url: text,
  })
  .transform((b): Brand => ({
    id: b.id,
    name: b.name,
    url: b.custom_url,
    pageTitle: b.page_title,
    metaDescription: b.meta_description,
    imageUrl: b.image_url,
  }));

export const BrandPageSchema = v3PageSchema(BrandSchema);
