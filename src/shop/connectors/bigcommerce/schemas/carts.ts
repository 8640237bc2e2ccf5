/**
 * Cart replies of the Server-to-Server Cart API v3 (`../cart.ts`): line items and their
 * options, gift certificates, custom items, redirect URLs and cart metafields. Amounts are
 * decimals (`decimalCents`).
 */
import { z } from 'zod';
import type {
  Cart,
  CartCustomItem,
  CartGiftCertificate,
  CartLineItem,
  CartLineItemOption,
  CartMetafield,
  CartRedirectUrls,
} from '../../../../lib/commerce/types.ts';
import { id, text, count, list, decimalCents, uuid, v3PageSchema, v3DataSchema } from './common.ts';

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
