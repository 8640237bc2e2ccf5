/**
 * Arguments of the catalogue and store connectors, as zod schemas: the API middleware
 * validates request bodies with them before any upstream call, and the connector functions
 * take their output types. camelCase, money in integer cents like the domain.
 */
import { z } from 'zod';
import { CATALOG_SORT_FIELDS } from '../../../lib/commerce/listing.ts';
import { SEARCH_TERM_MAX_LENGTH } from '../../../lib/commerce/search.ts';

const entityId = z.number().int().positive();
const cents = z.number().int().nonnegative();

/** Sort fields `/v3/catalog/products` accepts (the shop's table, `commerce/listing.ts`). */
export const ProductSortSchema = z.enum(CATALOG_SORT_FIELDS);

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
  searchTerm: z.string().max(SEARCH_TERM_MAX_LENGTH),
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

// --- carts, customers, orders, reviews ---------------------------------------------------------

/** BigCommerce cart and line item ids are UUIDs. */
export const CartIdSchema = z.uuid();
export const LineItemIdSchema = z.uuid();

export const OptionSelectionSchema = z.strictObject({
  optionId: entityId,
  optionValue: z.union([z.number().int(), z.string().max(1000)]),
});

/** A line to add: product, variant, quantity and chosen options. */
export const LineItemInputSchema = z.strictObject({
  productId: entityId,
  variantId: entityId.optional(),
  quantity: z.number().int().min(1).max(1000),
  optionSelections: z.array(OptionSelectionSchema).max(50).optional(),
});
export type LineItemInput = z.output<typeof LineItemInputSchema>;

/** Sub-resources a cart read may include (`include=...`). */
export const CartIncludeSchema = z.enum([
  'redirect_urls',
  'line_items.physical_items.options',
  'line_items.digital_items.options',
]);
export type CartInclude = z.output<typeof CartIncludeSchema>;

/** A line's new quantity (and product, variant and options, which BigCommerce requires). */
export const LineItemUpdateSchema = z.strictObject({
  productId: entityId,
  variantId: entityId.optional(),
  quantity: z.number().int().min(1).max(1000),
  optionSelections: z.array(OptionSelectionSchema).max(50).optional(),
});
export type LineItemUpdate = z.output<typeof LineItemUpdateSchema>;

export const CartMetafieldInputSchema = z.strictObject({
  namespace: z.string().trim().min(1).max(64),
  key: z.string().trim().min(1).max(64),
  value: z.string().max(65_535),
  permissionSet: z
    .enum(['app_only', 'read', 'write', 'read_and_sf_access', 'write_and_sf_access'])
    .default('app_only'),
});
export type CartMetafieldInput = z.input<typeof CartMetafieldInputSchema>;

export const OrdersQuerySchema = z.strictObject({
  page: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});
export const ReviewsQuerySchema = z.strictObject({
  page: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});
export type ReviewsQuery = z.output<typeof ReviewsQuerySchema>;

/** Fields of a customer the shop writes (camelCase; snake_case upstream). */
export interface CustomerWrite {
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  company?: string | undefined;
  phone?: string | undefined;
  acceptsMarketing?: boolean | undefined;
  /** Sets the password (`authentication.new_password`). */
  password?: string | undefined;
}

/** Fields of an address the shop writes. */
export interface AddressWrite {
  firstName: string;
  lastName: string;
  company?: string | undefined;
  /** House or apartment number: the address form field `HOUSE_NUMBER_FIELD`. */
  houseNumber?: string | undefined;
  address1: string;
  address2?: string | undefined;
  city: string;
  stateOrProvince?: string | undefined;
  postalCode: string;
  countryCode: string;
  phone?: string | undefined;
  addressType?: 'residential' | 'commercial' | undefined;
}

/** A new product review; name and e-mail come from the session customer. */
export interface ReviewWrite {
  title: string;
  text: string;
  rating: number;
  name: string;
  email: string;
  status: 'approved' | 'disapproved' | 'pending';
  dateReviewed: string;
}

/** A wishlist item to add (spec §7: `{ product_id, variant_id }`). */
export const WishlistItemInputSchema = z.strictObject({
  product_id: entityId,
  variant_id: entityId,
});
export interface WishlistItemInput {
  productId: number;
  variantId: number;
}

/** A wishlist's name: trimmed, 1 to 100 characters, no control characters. */
export const WishlistNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\p{Cc}]*$/u);
