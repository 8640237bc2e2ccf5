/**
 * Arguments of the catalogue and store connectors, as zod schemas: the API middleware
 * validates request bodies with them before any upstream call, and the connector functions
 * take their output types. camelCase, money in integer cents like the domain.
 */
import { z } from 'zod';

const entityId = z.number().int().positive();
const cents = z.number().int().nonnegative();

/** Sort fields `/v3/catalog/products` accepts. */
export const ProductSortSchema = z.enum([
  'id',
  'name',
  'sku',
  'price',
  'date_modified',
  'date_last_imported',
  'inventory_level',
  'is_visible',
  'total_sold',
]);

export const SortDirectionSchema = z.enum(['asc', 'desc']);

/** Sub-resources of a product; the shop reads variants, images, custom fields and options. */
export const ProductIncludeSchema = z.enum([
  'variants',
  'images',
  'custom_fields',
  'options',
  'modifiers',
  'bulk_pricing_rules',
  'primary_image',
  'videos',
]);

/** BigCommerce caps a page at 250 items. */
export const MAX_PAGE_SIZE = 250;

const pageFields = {
  page: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
};

export const ProductsQuerySchema = z.strictObject({
  ids: z.array(entityId).max(MAX_PAGE_SIZE).optional(),
  skus: z.array(z.string().trim().min(1)).max(MAX_PAGE_SIZE).optional(),
  categoryIds: z.array(entityId).max(MAX_PAGE_SIZE).optional(),
  brandId: entityId.optional(),
  keyword: z.string().trim().max(200).optional(),
  /** Lowest price, in cents. */
  priceMin: cents.optional(),
  /** Highest price, in cents. */
  priceMax: cents.optional(),
  isVisible: z.boolean().optional(),
  sort: ProductSortSchema.optional(),
  direction: SortDirectionSchema.optional(),
  include: z.array(ProductIncludeSchema).optional(),
  ...pageFields,
});
export type ProductsQuery = z.input<typeof ProductsQuerySchema>;

export const ProductsByIdQuerySchema = z.strictObject({
  entityIds: z.array(entityId).max(MAX_PAGE_SIZE),
});
export type ProductsByIdQuery = z.input<typeof ProductsByIdQuerySchema>;

export const ProductsBySkuQuerySchema = z.strictObject({
  skus: z.array(z.string().trim().min(1)).max(MAX_PAGE_SIZE),
});
export type ProductsBySkuQuery = z.input<typeof ProductsBySkuQuerySchema>;

export const ProductSearchQuerySchema = z.strictObject({
  /** The shopper's typed text; trimmed (spec §5 search). */
  searchTerm: z.string().max(200),
  categoryIds: z.array(entityId).max(MAX_PAGE_SIZE).optional(),
  brandId: entityId.optional(),
  priceMin: cents.optional(),
  priceMax: cents.optional(),
  sort: ProductSortSchema.optional(),
  direction: SortDirectionSchema.optional(),
  ...pageFields,
});
export type ProductSearchQuery = z.input<typeof ProductSearchQuerySchema>;

export const CategoriesQuerySchema = z.strictObject({
  ids: z.array(entityId).max(MAX_PAGE_SIZE).optional(),
  parentId: z.number().int().nonnegative().optional(),
  isVisible: z.boolean().optional(),
  keyword: z.string().trim().max(200).optional(),
  ...pageFields,
});
export type CategoriesQuery = z.input<typeof CategoriesQuerySchema>;

export const CategoriesMetafieldsQuerySchema = z.strictObject({
  categoryIds: z.array(entityId).max(MAX_PAGE_SIZE).optional(),
  key: z.string().trim().min(1).max(64).optional(),
  namespace: z.string().trim().min(1).max(64).optional(),
});
export type CategoriesMetafieldsQuery = z.input<typeof CategoriesMetafieldsQuerySchema>;

export const ChannelQuerySchema = z.strictObject({
  include: z.array(z.literal('currencies')).optional(),
});
export type ChannelQuery = z.input<typeof ChannelQuerySchema>;

export const EntityIdSchema = entityId;
