/**
 * GET /v3/checkouts/{id} (checkouts.v3.yml; checkout id = cart id): a cart's checkout, amounts
 * in decimal euros, VAT included, with its billing address, added (POST) or replaced (PUT).
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { single, v3Error, type Reply } from '../http.ts';
import { exTax, round2 } from '../model.ts';
import { assertValid, EMAIL, objectBody, str, type Errors, type Obj } from '../validate.ts';
import type { RouteContext } from './context.ts';
import {
  type CartRecord,
  type BillingAddressRecord,
  readCart,
  writeCart,
  cartJson,
} from './cart-records.ts';

/** The checkout of a cart (checkouts.v3.yml Checkout), amounts in decimal euros, VAT included. */
export function checkoutJson(
  db: DatabaseSync,
  cart: CartRecord,
  origin: string,
  include: string[],
): Record<string, unknown> {
  const full = cartJson(
    db,
    cart,
    include.includes('cart.line_items.physical_items.options')
      ? ['line_items.physical_items.options']
      : [],
    origin,
  );
  const total = full.cart_amount as number;
  const tax = round2(total - exTax(total));
  return {
    id: cart.id,
    cart: {
      id: cart.id,
      customer_id: cart.customer_id,
      email: cart.email,
      currency: full.currency,
      base_amount: full.base_amount,
      channel_id: cart.channel_id,
      discount_amount: 0,
      cart_amount_inc_tax: total,
      cart_amount_ex_tax: exTax(total),
      coupons: [],
      discounts: [],
      line_items: full.line_items,
      created_time: cart.created_time,
      updated_time: cart.updated_time,
    },
    // Without one added, upstream answers an empty one carrying the cart's e-mail.
    billing_address: cart.billing_address
      ? { ...cart.billing_address, custom_fields: [] }
      : {
          id: '',
          first_name: '',
          last_name: '',
          email: cart.email,
          company: '',
          address1: '',
          address2: '',
          city: '',
          state_or_province: '',
          state_or_province_code: '',
          country_code: '',
          postal_code: '',
          phone: '',
          custom_fields: [],
        },
    consignments: [],
    taxes: [{ name: 'TVA', amount: tax }],
    coupons: [],
    order_id: null,
    shipping_cost_total_inc_tax: 0,
    shipping_cost_total_ex_tax: 0,
    handling_cost_total_inc_tax: 0,
    handling_cost_total_ex_tax: 0,
    tax_total: tax,
    subtotal_inc_tax: total,
    subtotal_ex_tax: exTax(total),
    grand_total: total,
    created_time: cart.created_time,
    updated_time: cart.updated_time,
    customer_message: '',
  };
}

const ADDRESS_TEXTS = [
  'first_name',
  'last_name',
  'company',
  'address1',
  'address2',
  'city',
  'state_or_province',
  'state_or_province_code',
  'postal_code',
  'phone',
] as const;

/** The billing address of a request body; `email` and `country_code` are required. */
function billingAddress(body: Obj, id: string): BillingAddressRecord {
  const errors: Errors = {};
  const email = str(body, 'email', errors, '', { required: true, max: 255 });
  const country = str(body, 'country_code', errors, '', { required: true, min: 2, max: 2 });
  const texts = Object.fromEntries(
    ADDRESS_TEXTS.map((key) => [key, str(body, key, errors, '', { max: 255 }) ?? '']),
  ) as Record<(typeof ADDRESS_TEXTS)[number], string>;
  if (email !== undefined && !errors.email && !EMAIL.test(email)) {
    errors.email = 'The email is not a valid email address.';
  }
  assertValid(errors);
  return { id, email: email ?? '', country_code: (country ?? '').toUpperCase(), ...texts };
}

/**
 * POST /v3/checkouts/{id}/billing-address (checkouts.v3.yml "Add Checkout Billing Address"):
 * required `email` and `country_code`; the checkout with its new billing address, 200. The
 * hosted checkout then opens with that e-mail.
 */
export function addBillingAddress(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.checkoutId ?? '');
  if (!cart) return v3Error(404, 'Checkout not found');
  const address = billingAddress(objectBody(ctx.body), String(randomBytes(6).readUIntBE(0, 6)));
  cart.billing_address = address;
  writeCart(ctx.db, cart);
  return single(200, checkoutJson(ctx.db, cart, ctx.origin, ctx.query.list('include') ?? []));
}

/** PUT /v3/checkouts/{id}/billing-address/{addressId}: the address replaced, 200. */
export function updateBillingAddress(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.checkoutId ?? '');
  if (!cart) return v3Error(404, 'Checkout not found');
  const id = ctx.params.addressId ?? '';
  if (cart.billing_address?.id !== id) return v3Error(404, 'Address not found');
  cart.billing_address = billingAddress(objectBody(ctx.body), id);
  writeCart(ctx.db, cart);
  return single(200, checkoutJson(ctx.db, cart, ctx.origin, ctx.query.list('include') ?? []));
}

/** GET /v3/checkouts/{id} */
export function getCheckout(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.checkoutId ?? '');
  if (!cart) return v3Error(404, 'Checkout not found');
  return single(200, checkoutJson(ctx.db, cart, ctx.origin, ctx.query.list('include') ?? []));
}
