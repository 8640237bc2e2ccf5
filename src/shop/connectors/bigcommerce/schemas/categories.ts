/**
 * Category replies of `/v3/catalog/categories` (`../catalog.ts`): the tree, a category, and the
 * category metafields.
 */
import { z } from 'zod';
import type { Category, CategoryNode, Metafield } from '../../../../lib/commerce/types.ts';
import {
  id,
  text,
  count,
  flag,
  list,
  CustomUrlSchema,
  v3PageSchema,
  v3DataSchema,
} from './common.ts';

interface RawCategoryNode {
  id: number;
  parent_id: number;
  name: string;
  url: string;
  is_visible: boolean;
  children: RawCategoryNode[];
}

const RawCategoryNodeSchema: z.ZodType<RawCategoryNode> = z.lazy(() =>
  z.object({
    id,
    parent_id: count,
    name: z.string(),
    url: text,
    is_visible: flag(true),
    children: list(RawCategoryNodeSchema),
  }),
);

function toCategoryNode(n: RawCategoryNode): CategoryNode {
  return {
    id: n.id,
    parentId: n.parent_id,
    name: n.name,
    url: n.url,
    isVisible: n.is_visible,
    children: n.children.map(toCategoryNode),
  };
}

/** A node of `/v3/catalog/categories/tree`, children included. */
export const CategoryNodeSchema = RawCategoryNodeSchema.transform(toCategoryNode);
export const CategoryTreeReplySchema = z
  .object({ data: list(CategoryNodeSchema) })
  .transform(({ data }) => data);

export const CategorySchema = z
  .object({
    id,
    parent_id: count,
    name: z.string(),
    description: text,
    custom_url: CustomUrlSchema,
    is_visible: flag(true),
    sort_order: count,
    page_title: text,
    meta_description: text,
    image_url: text,
  })
  .transform((c): Category => ({
    id: c.id,
    parentId: c.parent_id,
    name: c.name,
    description: c.description,
    url: c.custom_url,
    isVisible: c.is_visible,
    sortOrder: c.sort_order,
    pageTitle: c.page_title,
    metaDescription: c.meta_description,
    imageUrl: c.image_url,
  }));

export const CategoryPageSchema = v3PageSchema(CategorySchema);
export const CategoryReplySchema = v3DataSchema(CategorySchema);

export const MetafieldSchema = z
  .object({
    id,
    key: z.string(),
    value: z.string(),
    namespace: text,
    resource_id: count,
  })
  .transform((m): Metafield => ({
    id: m.id,
    key: m.key,
    value: m.value,
    namespace: m.namespace,
    resourceId: m.resource_id,
  }));

export const MetafieldPageSchema = v3PageSchema(MetafieldSchema);
