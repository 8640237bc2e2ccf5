/**
 * Product replies of `/v3/catalog/products` (`../catalog.ts`): images, variants, options,
 * checkbox modifiers and custom fields of a product, as the domain's `Product`.
 */
import { z } from 'zod';
import { booleanOptionValue } from '../../../../lib/commerce/item-options.ts';
import type {
  CustomField,
  InventoryTracking,
  Product,
  ProductImage,
  ProductModifier,
  ProductOption,
  Variant,
} from '../../../../lib/commerce/types.ts';
import {
  id,
  text,
  count,
  flag,
  ids,
  list,
  cents,
  centsOrZero,
  centsOrNull,
  CustomUrlSchema,
  v3PageSchema,
  v3DataSchema,
} from './common.ts';

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

/**
 * A page of products' options and checkbox modifiers alone (`include=options,modifiers` with
 * `include_fields=id`): the second read of a whole catalogue (`getAllProducts`), which needs
 * nothing else of the product.
 */
export const ProductOptionsPageSchema = v3PageSchema(
  z
    .object({ id, options: list(ProductOptionSchema), modifiers: list(ProductModifierSchema) })
    .transform((p): Pick<Product, 'id' | 'options' | 'modifiers'> => ({
      id: p.id,
      options: p.options,
      modifiers: p.modifiers.filter((m) => m !== null),
    })),
);
export const ProductReplySchema = v3DataSchema(ProductSchema);
