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
import { toCents } from '../../commerce/money.ts';
import { houseNumberOf } from '../../commerce/address.ts';
import { booleanOptionValue } from '../../commerce/item-options.ts';
import type {
  Banner,
  Brand,
  Cart,
  CartCustomItem,
  CartGiftCertificate,
  CartLineItem,
  CartLineItemOption,
  CartMetafield,
  CartRedirectUrls,
  Category,
  CategoryNode,
  Channel,
  CustomField,
  Customer,
  CustomerAddress,
  FormFieldValue,
  InventoryTracking,
  Metafield,
  Order,
  OrderAddress,
  OrderProduct,
  OrderShippingAddress,
  Page,
  Pagination,
  Product,
  ProductImage,
  ProductModifier,
  ProductOption,
  ProductReview,
  Redirect,
  Shipment,
  Wishlist,
  StoreMeta,
  Variant,
} from '../../commerce/types.ts';
import type { Checkout } from './checkout.ts';

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

// Euros to integer cents (the domain's money unit), rounding on the decimal value: money.ts.
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

/**
 * A product modifier (catalog.v3.yml `productModifier_Full`). Only a checkbox with its 'Yes' and
 * 'No' values becomes a `ProductModifier` (the checked one by `value_data.checked_value`, else
 * by its label); any other type, or a checkbox missing a value, reads as null and is left out.
 */
export const ProductModifierSchema = z
  .object({
    id,
    display_name: text,
    type: text,
    required: flag(false),
    config: z
      .object({ checkbox_label: text, checked_by_default: flag(false) })
      .partial()
      .nullish(),
    option_values: list(
      z.object({
        id,
        label: text,
        value_data: z.object({ checked_value: z.boolean().nullish() }).nullish(),
      }),
    ),
  })
  .transform((m): ProductModifier | null => {
    if (m.type !== 'checkbox') return null;
    const checked = (want: boolean) =>
      m.option_values.find((v) =>
        typeof v.value_data?.checked_value === 'boolean'
          ? v.value_data.checked_value === want
          : booleanOptionValue(v.label) === (want ? 'Yes' : 'No'),
      );
    const yes = checked(true);
    const no = checked(false);
    if (!yes || !no) return null;
    return {
      id: m.id,
      displayName: m.display_name,
      // A blank checkbox_label falls back to the display name.
      label: m.config?.checkbox_label?.trim() ? m.config.checkbox_label : m.display_name,
      required: m.required,
      checkedByDefault: m.config?.checked_by_default ?? false,
      checkedValueId: yes.id,
      uncheckedValueId: no.id,
    };
  });

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
    modifiers: list(ProductModifierSchema),
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
    modifiers: p.modifiers.filter((m) => m !== null),
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

// --- decimals -----------------------------------------------------------------------------------

const DECIMAL = /^(-)?(\d+)(?:\.(\d*))?$/;

/**
 * A decimal amount in euros (v2 sends strings such as '129.9900'; v3 numbers) to integer
 * cents, exactly: the digits are shifted, never multiplied as binary floats, and the third
 * decimal rounds half away from zero ('0.005' → 1, '-0.005' → -1).
 */
export function decimalToCents(value: string | number): number {
  if (typeof value === 'number') return toCents(value);
  const match = DECIMAL.exec(value.trim());
  if (match === null) throw new RangeError(`Not a decimal amount: ${JSON.stringify(value)}`);
  const [, minus, whole = '0', fraction = ''] = match;
  const digits = fraction.padEnd(3, '0');
  const cents = Number(whole) * 100 + Number(digits.slice(0, 2)) + (Number(digits[2]) >= 5 ? 1 : 0);
  return cents === 0 ? 0 : minus === undefined ? cents : -cents;
}

/** A decimal amount (string or number), as cents; absent or null reads as 0. */
const decimalCents = z
  .union([z.string(), z.number()])
  .nullish()
  .refine((v) => v == null || typeof v === 'number' || DECIMAL.test(v.trim()), {
    message: 'Expected a decimal amount',
  })
  .transform((v) => (v == null || v === '' ? 0 : decimalToCents(v)));

const uuid = z.string().min(1);

// --- carts ----------------------------------------------------------------------------------------

// The schema of carts.v3.yml says `name_id` / `value_id`; its examples and the live API send
// `nameId` / `valueId`: either is read.
const CartLineItemOptionSchema = z
  .object({
    name: text,
    nameId: count,
    name_id: count,
    value: text,
    valueId: z.number().int().nullish(),
    value_id: z.number().int().nullish(),
  })
  .transform((o): CartLineItemOption => ({
    name: o.name,
    nameId: o.nameId || o.name_id,
    value: o.value,
    valueId: o.valueId ?? o.value_id ?? null,
  }));

export const CartLineItemSchema = z
  .object({
    id: uuid,
    parent_id: z.union([z.string(), z.number()]).nullish(),
    product_id: id,
    variant_id: count,
    sku: text,
    name: text,
    url: text,
    image_url: text,
    quantity: count,
    list_price: decimalCents,
    sale_price: decimalCents,
    extended_list_price: decimalCents,
    extended_sale_price: decimalCents,
    options: list(CartLineItemOptionSchema),
  })
  .transform((i): CartLineItem => ({
    id: i.id,
    parentId: i.parent_id == null || i.parent_id === '' ? null : String(i.parent_id),
    productId: i.product_id,
    variantId: i.variant_id,
    sku: i.sku,
    name: i.name,
    url: i.url,
    imageUrl: i.image_url,
    quantity: i.quantity,
    listPrice: i.list_price,
    salePrice: i.sale_price,
    extendedListPrice: i.extended_list_price,
    extendedSalePrice: i.extended_sale_price,
    options: i.options,
  }));

const CartGiftCertificateSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    name: text,
    amount: decimalCents,
    recipient: z.object({ email: text }).nullish(),
  })
  .transform((g): CartGiftCertificate => ({
    id: g.id,
    name: g.name,
    amount: g.amount,
    recipientEmail: g.recipient?.email ?? '',
  }));

const CartCustomItemSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    sku: text,
    name: text,
    quantity: count,
    list_price: decimalCents,
    extended_list_price: decimalCents,
  })
  .transform((c): CartCustomItem => ({
    id: c.id,
    sku: c.sku,
    name: c.name,
    quantity: c.quantity,
    listPrice: c.list_price,
    extendedListPrice: c.extended_list_price,
  }));

export const CartRedirectUrlsSchema = z
  .object({ cart_url: text, checkout_url: z.string().min(1), embedded_checkout_url: text })
  .transform((r): CartRedirectUrls => ({
    cartUrl: r.cart_url,
    checkoutUrl: r.checkout_url,
    embeddedCheckoutUrl: r.embedded_checkout_url,
  }));

export const CartSchema = z
  .object({
    id: uuid,
    customer_id: count,
    channel_id: count,
    currency: z
      .object({ code: text })
      .nullish()
      .transform((c) => c?.code ?? ''),
    base_amount: decimalCents,
    cart_amount: decimalCents,
    discount_amount: decimalCents,
    line_items: z
      .object({
        physical_items: list(CartLineItemSchema),
        digital_items: list(CartLineItemSchema),
        gift_certificates: list(CartGiftCertificateSchema),
        custom_items: list(CartCustomItemSchema),
      })
      .nullish(),
    redirect_urls: CartRedirectUrlsSchema.nullish(),
    created_time: text,
    updated_time: text,
  })
  .transform((c): Cart => ({
    id: c.id,
    customerId: c.customer_id,
    channelId: c.channel_id,
    currency: c.currency,
    baseAmount: c.base_amount,
    cartAmount: c.cart_amount,
    discountAmount: c.discount_amount,
    lineItems: {
      physicalItems: c.line_items?.physical_items ?? [],
      digitalItems: c.line_items?.digital_items ?? [],
      giftCertificates: c.line_items?.gift_certificates ?? [],
      customItems: c.line_items?.custom_items ?? [],
    },
    redirectUrls: c.redirect_urls ?? null,
    createdTime: c.created_time,
    updatedTime: c.updated_time,
  }));

export const CartReplySchema = v3DataSchema(CartSchema);
/** DELETE of a cart's last item: 204 with no body (the cart is gone), else the cart. */
export const CartOrNothingReplySchema = z
  .union([z.undefined(), CartReplySchema])
  .transform((cart) => cart ?? null);
export const CartRedirectUrlsReplySchema = v3DataSchema(CartRedirectUrlsSchema);

export const CartMetafieldSchema = z
  .object({
    id,
    key: z.string(),
    value: z.string(),
    namespace: text,
    permission_set: text,
    resource_id: z.union([z.string(), z.number()]).transform(String),
  })
  .transform((m): CartMetafield => ({
    id: m.id,
    key: m.key,
    value: m.value,
    namespace: m.namespace,
    permissionSet: m.permission_set,
    resourceId: m.resource_id,
  }));

export const CartMetafieldReplySchema = v3DataSchema(CartMetafieldSchema);
export const CartMetafieldPageSchema = v3PageSchema(CartMetafieldSchema);

// --- checkouts ------------------------------------------------------------------------------------

export const CheckoutSchema = z
  .object({
    id: uuid,
    cart: CartSchema,
    grand_total: decimalCents,
    subtotal_inc_tax: decimalCents,
    subtotal_ex_tax: decimalCents,
    shipping_cost_total_inc_tax: decimalCents,
    tax_total: decimalCents,
    order_id: z.number().int().nullish(),
    customer_message: text,
  })
  .transform((c): Checkout => ({
    id: c.id,
    cart: c.cart,
    grandTotal: c.grand_total,
    subtotalIncTax: c.subtotal_inc_tax,
    subtotalExTax: c.subtotal_ex_tax,
    shippingCostTotalIncTax: c.shipping_cost_total_inc_tax,
    taxTotal: c.tax_total,
    orderId: c.order_id ?? null,
    customerMessage: c.customer_message,
  }));

export const CheckoutReplySchema = v3DataSchema(CheckoutSchema);

// --- customers ------------------------------------------------------------------------------------

const FormFieldValueSchema = z
  .object({
    name: z.string(),
    value: z
      .union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])
      .nullish()
      .transform((v) => (v == null ? '' : Array.isArray(v) ? v.map(String) : String(v))),
  })
  .transform((f): FormFieldValue => ({ name: f.name, value: f.value }));

/** An entry of `/v3/customers/form-field-values`: a customer's or an address's. */
export const FormFieldValueEntrySchema = z
  .object({
    name: z.string(),
    value: z.unknown(),
    customer_id: z.number().int().nullish(),
    address_id: z.number().int().nullish(),
  })
  .transform((f) => ({
    field: FormFieldValueSchema.parse({ name: f.name, value: f.value }),
    customerId: f.customer_id ?? null,
    addressId: f.address_id ?? null,
  }));

export const FormFieldValuePageSchema = v3PageSchema(FormFieldValueEntrySchema);

export const CustomerSchema = z
  .object({
    id,
    email: z.string(),
    first_name: text,
    last_name: text,
    company: text,
    phone: text,
    accepts_product_review_abandoned_cart_emails: flag(false),
    customer_group_id: count,
    date_created: text,
    date_modified: text,
    form_fields: list(FormFieldValueSchema),
  })
  .transform((c): Customer => ({
    id: c.id,
    email: c.email,
    firstName: c.first_name,
    lastName: c.last_name,
    company: c.company,
    phone: c.phone,
    acceptsMarketing: c.accepts_product_review_abandoned_cart_emails,
    customerGroupId: c.customer_group_id,
    dateCreated: c.date_created,
    dateModified: c.date_modified,
    formFields: c.form_fields,
  }));

export const CustomerPageSchema = v3PageSchema(CustomerSchema);
/** POST / PUT `/v3/customers` answer `{ data: [...] }` (possibly empty). */
export const CustomerListReplySchema = z
  .object({ data: list(CustomerSchema) })
  .transform(({ data }) => data);

export const ValidateCredentialsReplySchema = z
  .object({ is_valid: z.boolean(), customer_id: z.number().int().nullish() })
  .transform((r) => ({ isValid: r.is_valid, customerId: r.customer_id ?? null }));

export const CustomerAddressSchema = z
  .object({
    id,
    customer_id: id,
    first_name: text,
    last_name: text,
    company: text,
    address1: text,
    address2: text,
    city: text,
    state_or_province: text,
    postal_code: text,
    country: text,
    country_code: text,
    phone: text,
    address_type: z
      .enum(['residential', 'commercial'])
      .nullish()
      .transform((v) => v ?? 'residential'),
    form_fields: list(FormFieldValueSchema),
  })
  .transform((a): CustomerAddress => ({
    id: a.id,
    customerId: a.customer_id,
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    houseNumber: houseNumberOf(a.form_fields),
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    stateOrProvince: a.state_or_province,
    postalCode: a.postal_code,
    country: a.country,
    countryCode: a.country_code,
    phone: a.phone,
    addressType: a.address_type,
    formFields: a.form_fields,
  }));

export const CustomerAddressPageSchema = v3PageSchema(CustomerAddressSchema);
export const CustomerAddressListReplySchema = z
  .object({ data: list(CustomerAddressSchema) })
  .transform(({ data }) => data);

// --- v2 orders ------------------------------------------------------------------------------------

const OrderAddressFields = {
  first_name: text,
  last_name: text,
  company: text,
  street_1: text,
  street_2: text,
  city: text,
  state: text,
  zip: text,
  country: text,
  country_iso2: text,
  phone: text,
  email: text,
};

type RawOrderAddress = { [K in keyof typeof OrderAddressFields]: string };

function toOrderAddress(a: RawOrderAddress): OrderAddress {
  return {
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    street1: a.street_1,
    street2: a.street_2,
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: a.country,
    countryIso2: a.country_iso2,
    phone: a.phone,
    email: a.email,
  };
}

const EMPTY_ORDER_ADDRESS: RawOrderAddress = Object.fromEntries(
  Object.keys(OrderAddressFields).map((k) => [k, '']),
) as RawOrderAddress;

export const OrderSchema = z
  .object({
    id,
    customer_id: count,
    status_id: z.number().int().min(0).max(14),
    status: text,
    date_created: text,
    date_modified: text,
    currency_code: text,
    subtotal_inc_tax: decimalCents,
    shipping_cost_inc_tax: decimalCents,
    total_inc_tax: decimalCents,
    items_total: count,
    items_shipped: count,
    payment_method: text,
    cart_id: text,
    billing_address: z.object(OrderAddressFields).nullish(),
  })
  .transform((o): Order => ({
    id: o.id,
    customerId: o.customer_id,
    statusId: o.status_id,
    status: o.status,
    dateCreated: o.date_created,
    dateModified: o.date_modified,
    currencyCode: o.currency_code,
    subtotalIncTax: o.subtotal_inc_tax,
    shippingCostIncTax: o.shipping_cost_inc_tax,
    totalIncTax: o.total_inc_tax,
    itemsTotal: o.items_total,
    itemsShipped: o.items_shipped,
    paymentMethod: o.payment_method,
    cartId: o.cart_id,
    billingAddress: toOrderAddress(o.billing_address ?? EMPTY_ORDER_ADDRESS),
  }));

/** v2 lists: a bare array, or an empty 204 reply when there is none. */
export const OrderListSchema = list(OrderSchema);

export const OrderProductSchema = z
  .object({
    id,
    order_id: id,
    product_id: count,
    variant_id: count,
    name: text,
    sku: text,
    quantity: count,
    base_price: decimalCents,
    total_inc_tax: decimalCents,
    product_options: list(z.object({ display_name: text, display_value: text })),
  })
  .transform((p): OrderProduct => ({
    id: p.id,
    orderId: p.order_id,
    productId: p.product_id,
    variantId: p.variant_id,
    name: p.name,
    sku: p.sku,
    quantity: p.quantity,
    basePrice: p.base_price,
    totalIncTax: p.total_inc_tax,
    options: p.product_options.map((o) => ({
      displayName: o.display_name,
      displayValue: o.display_value,
    })),
  }));

export const OrderProductListSchema = list(OrderProductSchema);

export const OrderShippingAddressSchema = z
  .object({ id, order_id: id, shipping_method: text, ...OrderAddressFields })
  .transform((a): OrderShippingAddress => ({
    id: a.id,
    orderId: a.order_id,
    shippingMethod: a.shipping_method,
    ...toOrderAddress(a),
  }));

export const OrderShippingAddressListSchema = list(OrderShippingAddressSchema);

export const ShipmentSchema = z
  .object({
    id,
    order_id: id,
    date_created: text,
    tracking_number: text,
    shipping_provider: text,
    tracking_carrier: text,
    tracking_link: text,
    comments: text,
    items: list(z.object({ order_product_id: count, product_id: count, quantity: count })),
  })
  .transform((s): Shipment => ({
    id: s.id,
    orderId: s.order_id,
    dateCreated: s.date_created,
    trackingNumber: s.tracking_number,
    shippingProvider: s.shipping_provider,
    trackingCarrier: s.tracking_carrier,
    trackingLink: s.tracking_link,
    comments: s.comments,
    items: s.items.map((i) => ({
      orderProductId: i.order_product_id,
      productId: i.product_id,
      quantity: i.quantity,
    })),
  }));

export const ShipmentListSchema = list(ShipmentSchema);

// --- product reviews ------------------------------------------------------------------------------

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

// --- wishlists (wishlists.v3.yml wishlist_Full) ------------------------------------------------

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

// --- channel site ---------------------------------------------------------------------------------

export const ChannelSiteReplySchema = v3DataSchema(
  z.object({ id, url: z.string().min(1), channel_id: id }).transform((s) => ({
    id: s.id,
    url: s.url,
    channelId: s.channel_id,
  })),
);
