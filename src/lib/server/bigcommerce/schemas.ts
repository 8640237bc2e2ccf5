/**
 * zod schemas of the BigCommerce replies the shop reads (contracts: upstream OpenAPI files,
 * see `tests/contracts/`). Each parses snake_case upstream JSON into the camelCase domain types
 * of `src/lib/commerce/types.ts`: money in euros becomes integer cents, `visible: '1' | '0'`
 * becomes a boolean, missing optional lists become `[]`.
 *
 * Lenient where BigCommerce is (unknown fields are dropped, optional fields may be absent or
 * null); strict where the shop relies on a field (ids, names, prices, URLs of images).
 */
import { z } from 'zod';
import type {
  Banner,
  Brand,
  Category,
  CategoryNode,
  Channel,
  CustomField,
  InventoryTracking,
  Metafield,
  Page,
  Pagination,
  Product,
  ProductImage,
  ProductOption,
  Redirect,
  StoreMeta,
  Variant,
} from '../../commerce/types.ts';

// --- building blocks -------------------------------------------------------------------------

const id = z.number().int();
/** A string BigCommerce may omit or send as null: '' then. */
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
const count = z
  .number()
  .nullish()
  .transform((v) => Math.trunc(v ?? 0));
const flag = (fallback: boolean) =>
  z
    .boolean()
    .nullish()
    .transform((v) => v ?? fallback);
const ids = z
  .array(z.number().int())
  .nullish()
  .transform((v) => v ?? []);
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v): z.output<T>[] => v ?? []);

/** Euros (float) to integer cents, the domain's money unit. */
export function toCents(euros: number): number {
  return Math.round(euros * 100);
}
/** A required price in euros, as cents. */
const cents = z.number().transform(toCents);
/** An optional price: absent or null reads as 0 cents (BigCommerce sends 0 for "none"). */
const centsOrZero = z
  .number()
  .nullish()
  .transform((v) => (v == null ? 0 : toCents(v)));
/** A price that may be absent (null): a variant inheriting the product price. */
const centsOrNull = z
  .number()
  .nullish()
  .transform((v) => (v == null ? null : toCents(v)));

const CustomUrlSchema = z
  .object({ url: text })
  .nullish()
  .transform((v) => v?.url ?? '');

// --- pagination and envelopes ------------------------------------------------------------------

/** v3 `meta.pagination`. */
export const PaginationSchema = z
  .object({
    total: count,
    count: count,
    per_page: count,
    current_page: count,
    total_pages: count,
  })
  .transform((p): Pagination => ({
    total: p.total,
    count: p.count,
    perPage: p.per_page,
    currentPage: p.current_page,
    totalPages: p.total_pages,
  }));

const MetaSchema = z
  .object({ pagination: PaginationSchema.nullish() })
  .nullish()
  .transform((m) => m?.pagination ?? undefined);

/** v3 list reply `{ data: [...], meta: { pagination } }` as a `Page`. */
export function v3PageSchema<T extends z.ZodType>(item: T) {
  return z
    .object({ data: z.array(item), meta: MetaSchema })
    .transform(({ data, meta }): Page<z.output<T>> => ({
      items: data,
      // A reply without pagination is a single complete page.
      pagination: meta ?? {
        total: data.length,
        count: data.length,
        perPage: data.length,
        currentPage: 1,
        totalPages: 1,
      },
    }));
}

/** v3 single-resource reply `{ data: {...} }`. */
export function v3DataSchema<T extends z.ZodType>(item: T) {
  // The cast only restates `{ data: T }`: zod cannot resolve its mapped type for a generic T.
  return z.object({ data: item }).transform((reply) => (reply as { data: z.output<T> }).data);
}

// --- catalogue: products ---------------------------------------------------------------------

export const ProductImageSchema = z
  .object({
    id,
    url_standard: z.string(),
    url_zoom: text,
    url_thumbnail: text,
    is_thumbnail: flag(false),
    sort_order: count,
    description: text,
  })
  .transform((i): ProductImage => ({
    id: i.id,
    urlStandard: i.url_standard,
    urlZoom: i.url_zoom,
    urlThumbnail: i.url_thumbnail,
    isThumbnail: i.is_thumbnail,
    sortOrder: i.sort_order,
    description: i.description,
  }));

export const VariantSchema = z
  .object({
    id,
    product_id: id,
    sku: text,
    price: centsOrNull,
    sale_price: centsOrNull,
    inventory_level: count,
    inventory_warning_level: count,
    purchasing_disabled: flag(false),
    purchasing_disabled_message: text,
    image_url: text,
    option_values: list(
      z.object({
        id,
        label: z.string(),
        option_id: id,
        option_display_name: z.string(),
      }),
    ),
  })
  .transform((v): Variant => ({
    id: v.id,
    productId: v.product_id,
    sku: v.sku,
    price: v.price,
    salePrice: v.sale_price,
    inventoryLevel: v.inventory_level,
    inventoryWarningLevel: v.inventory_warning_level,
    purchasingDisabled: v.purchasing_disabled,
    purchasingDisabledMessage: v.purchasing_disabled_message,
    imageUrl: v.image_url,
    optionValues: v.option_values.map((o) => ({
      id: o.id,
      label: o.label,
      optionId: o.option_id,
      optionDisplayName: o.option_display_name,
    })),
  }));

export const ProductOptionSchema = z
  .object({
    id,
    display_name: z.string(),
    type: text,
    option_values: list(
      z.object({
        id,
        label: z.string(),
        is_default: flag(false),
        // Swatch values carry `{ colors: ['#hex'] }`; others `{ image_url }` or null.
        value_data: z
          .object({ colors: list(z.string()) })
          .nullish()
          .transform((d) => d?.colors ?? []),
      }),
    ),
  })
  .transform((o): ProductOption => ({
    id: o.id,
    displayName: o.display_name,
    type: o.type,
    values: o.option_values.map((v) => ({
      id: v.id,
      label: v.label,
      isDefault: v.is_default,
      colors: v.value_data,
    })),
  }));

export const CustomFieldSchema = z
  .object({ id: id.nullish().transform((v) => v ?? 0), name: z.string(), value: text })
  .transform((f): CustomField => ({ id: f.id, name: f.name, value: f.value }));

const InventoryTrackingSchema = z
  .enum(['none', 'product', 'variant'])
  .nullish()
  .transform((v): InventoryTracking => v ?? 'none');

export const ProductSchema = z
  .object({
    id,
    name: z.string(),
    sku: text,
    description: text,
    price: cents,
    sale_price: centsOrZero,
    is_price_hidden: flag(false),
    price_hidden_label: text,
    inventory_tracking: InventoryTrackingSchema,
    inventory_level: count,
    inventory_warning_level: count,
    is_visible: flag(true),
    brand_id: count,
    categories: ids,
    related_products: ids,
    reviews_rating_sum: count,
    reviews_count: count,
    total_sold: count,
    date_created: text,
    date_modified: text,
    base_variant_id: id.nullish().transform((v) => v ?? null),
    fixed_cost_shipping_price: centsOrZero,
    custom_url: CustomUrlSchema,
    page_title: text,
    meta_description: text,
    images: list(ProductImageSchema),
    variants: list(VariantSchema),
    options: list(ProductOptionSchema),
    custom_fields: list(CustomFieldSchema),
  })
  .transform((p): Product => ({
    id: p.id,
    name: p.name,
    sku: p.sku,
    description: p.description,
    price: p.price,
    salePrice: p.sale_price,
    isPriceHidden: p.is_price_hidden,
    priceHiddenLabel: p.price_hidden_label,
    inventoryTracking: p.inventory_tracking,
    inventoryLevel: p.inventory_level,
    isVisible: p.is_visible,
    brandId: p.brand_id,
    categories: p.categories,
    // BigCommerce sends [-1] for "related products chosen automatically": not product ids.
    relatedProducts: p.related_products.filter((n) => n > 0),
    reviewsRatingSum: p.reviews_rating_sum,
    reviewsCount: p.reviews_count,
    totalSold: p.total_sold,
    dateCreated: p.date_created,
    dateModified: p.date_modified,
    baseVariantId: p.base_variant_id,
    fixedCostShippingPrice: p.fixed_cost_shipping_price,
    customUrl: p.custom_url,
    pageTitle: p.page_title,
    metaDescription: p.meta_description,
    images: [...p.images].sort((a, b) => a.sortOrder - b.sortOrder),
    variants: p.variants,
    options: p.options,
    customFields: p.custom_fields,
  }));

export const ProductPageSchema = v3PageSchema(ProductSchema);
export const ProductReplySchema = v3DataSchema(ProductSchema);

// --- catalogue: categories, brands, metafields -------------------------------------------------

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

// --- store: redirects, banners, channel, store ------------------------------------------------

const RedirectTargetTypeSchema = z.enum(['product', 'brand', 'category', 'page', 'post', 'url']);

export const RedirectSchema = z
  .object({
    id,
    from_path: z.string(),
    to_url: text,
    to: z
      .object({
        type: RedirectTargetTypeSchema.nullish(),
        entity_id: z.number().int().nullish(),
        url: text,
      })
      .nullish(),
  })
  .transform((r): Redirect => {
    const toType = r.to?.type ?? 'url';
    const entityId = r.to?.entity_id;
    return {
      id: r.id,
      fromPath: r.from_path,
      // `to_url` is only sent with `include=to_url`; a plain URL target also sits in `to.url`.
      toUrl: r.to_url !== '' ? r.to_url : (r.to?.url ?? ''),
      toEntityId: toType !== 'url' && entityId != null && entityId > 0 ? entityId : null,
      toType,
    };
  });

export const RedirectPageSchema = v3PageSchema(RedirectSchema);

export const BannerSchema = z
  .object({
    id,
    name: text,
    content: text,
    page: text,
    location: text,
    // spec §3: '1' means shown. v2 sends strings; tolerate numbers and booleans.
    visible: z.union([z.enum(['1', '0']), z.literal(1), z.literal(0), z.boolean()]),
  })
  .transform((b): Banner => ({
    id: b.id,
    name: b.name,
    content: b.content,
    page: b.page,
    location: b.location,
    visible: b.visible === '1' || b.visible === 1 || b.visible === true,
  }));

/** v2 `/banners`: a bare array, or an empty 204 reply when there is none. */
export const BannerListSchema = list(BannerSchema);

export const ChannelSchema = z
  .object({
    id,
    name: z.string(),
    currencies: z.object({
      default_currency: z.string().min(1),
      enabled_currencies: list(z.string()),
    }),
  })
  .transform((c): Channel => ({
    id: c.id,
    name: c.name,
    defaultCurrency: c.currencies.default_currency,
    enabledCurrencies: c.currencies.enabled_currencies,
  }));

/** `/v3/channels/{id}?include=currencies`; `errors` is checked before parsing (spec §8). */
export const ChannelReplySchema = z.object({
  data: z.unknown(),
  errors: z.unknown().optional(),
});

export const StoreMetaSchema = z
  .object({
    name: z.string(),
    domain: text,
    secure_URL: text,
    phone: text,
    address: text,
    admin_email: text,
    order_email: text,
    currency: text,
    language: text,
    country: text,
  })
  .transform((s): StoreMeta => ({
    name: s.name,
    domain: s.domain,
    secureUrl: s.secure_URL,
    phone: s.phone,
    address: s.address,
    adminEmail: s.admin_email,
    orderEmail: s.order_email,
    currency: s.currency,
    language: s.language,
    country: s.country,
  }));
