/**
 * The sandbox's API routes, one table: each upstream family's method and path (`{name}`
 * parameters, `{name*}` for an id with any characters) and its handler; and the error shape
 * of each family, for an injected fault.
 */
import { ctfFaultError } from './contentful-store.ts';
import { json, v2Error, v3Error, type Reply } from './http.ts';
import * as brevo from './routes/brevo.ts';
import * as brevoContacts from './routes/brevo-contacts.ts';
import * as cartMetafields from './routes/cart-metafields.ts';
import * as carts from './routes/carts.ts';
import * as catalog from './routes/catalog.ts';
import * as catalogWrites from './routes/catalog-writes.ts';
import * as checkouts from './routes/checkouts.ts';
import type { RouteContext } from './routes/context.ts';
import * as customerAddresses from './routes/customer-addresses.ts';
import * as customers from './routes/customers.ts';
import * as hooks from './routes/hooks.ts';
import * as orders from './routes/orders.ts';
import * as reviews from './routes/reviews.ts';
import * as wishlists from './routes/wishlists.ts';
import * as store from './routes/store.ts';

type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Family = 'v2' | 'v3' | 'brevo' | 'contentful' | 'guaranteed-reviews';

interface Route {
  family: Family;
  method: Method;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

/** `{id}` matches digits, `{id*}` any one path segment (UUIDs, e-mails). */
function route(family: Family, method: Method, path: string, handler: Handler): Route {
  const keys: string[] = [];
  const source = path.replace(/\{(\w+)(\*?)\}/g, (_, key: string, any: string) => {
    keys.push(key);
    return any ? '([^/]+)' : '(\\d+)';
  });
  return { family, method, pattern: new RegExp(`^${source}/?$`), keys, handler };
}

/** Routes in match order (literal segments before parameters). */
export const ROUTES: Route[] = [
  route('v3', 'GET', '/catalog/products', catalog.listProducts),
  route('v3', 'POST', '/catalog/products', catalogWrites.createProduct),
  route('v3', 'GET', '/catalog/products/{id}', catalog.getProduct),
  route('v3', 'PUT', '/catalog/products/{id}', catalogWrites.updateProduct),
  route('v3', 'DELETE', '/catalog/products/{id}', catalogWrites.deleteProduct),
  route('v3', 'GET', '/catalog/products/{id}/reviews', reviews.listReviews),
  route('v3', 'POST', '/catalog/products/{id}/reviews', reviews.createReview),
  route('v3', 'GET', '/catalog/categories', catalog.listCategories),
  route('v3', 'GET', '/catalog/categories/tree', catalog.categoryTree),
  route('v3', 'GET', '/catalog/categories/metafields', catalog.allCategoryMetafields),
  route('v3', 'GET', '/catalog/categories/{id}', catalog.getCategory),
  route('v3', 'PUT', '/catalog/categories/{id}', catalogWrites.updateCategory),
  route('v3', 'GET', '/catalog/categories/{id}/metafields', catalog.categoryMetafields),
  route('v3', 'GET', '/catalog/brands', catalog.listBrands),
  route('v3', 'GET', '/catalog/brands/{id}', catalog.getBrand),
  route('v3', 'PUT', '/catalog/brands/{id}', catalogWrites.updateBrand),
  route('v3', 'GET', '/hooks', hooks.listHooks),
  route('v3', 'POST', '/hooks', hooks.createHook),
  route('v3', 'GET', '/hooks/{id}', hooks.getHook),
  route('v3', 'PUT', '/hooks/{id}', hooks.updateHook),
  route('v3', 'DELETE', '/hooks/{id}', hooks.deleteHook),
  route('v3', 'GET', '/channels/{id}', store.getChannel),
  route('v3', 'GET', '/channels/{id}/site', store.getChannelSite),
  route('v3', 'PUT', '/channels/{id}/site', store.putChannelSite),
  route('v3', 'GET', '/storefront/redirects', store.listRedirects),
  route('v3', 'POST', '/carts', carts.createCart),
  route('v3', 'GET', '/carts/{cartId*}', carts.getCart),
  route('v3', 'PUT', '/carts/{cartId*}', carts.updateCart),
  route('v3', 'DELETE', '/carts/{cartId*}', carts.deleteCart),
  route('v3', 'POST', '/carts/{cartId*}/items', carts.addItems),
  route('v3', 'PUT', '/carts/{cartId*}/items/{itemId*}', carts.updateItem),
  route('v3', 'DELETE', '/carts/{cartId*}/items/{itemId*}', carts.deleteItem),
  route('v3', 'POST', '/carts/{cartId*}/redirect_urls', carts.createRedirectUrls),
  route('v3', 'GET', '/carts/{cartId*}/metafields', cartMetafields.listMetafields),
  route('v3', 'POST', '/carts/{cartId*}/metafields', cartMetafields.createMetafield),
  route('v3', 'GET', '/carts/{cartId*}/metafields/{metafieldId}', cartMetafields.getMetafield),
  route('v3', 'PUT', '/carts/{cartId*}/metafields/{metafieldId}', cartMetafields.updateMetafield),
  route(
    'v3',
    'DELETE',
    '/carts/{cartId*}/metafields/{metafieldId}',
    cartMetafields.deleteMetafield,
  ),
  route('v3', 'GET', '/checkouts/{checkoutId*}', checkouts.getCheckout),
  route('v3', 'POST', '/checkouts/{checkoutId*}/billing-address', checkouts.addBillingAddress),
  route(
    'v3',
    'PUT',
    '/checkouts/{checkoutId*}/billing-address/{addressId}',
    checkouts.updateBillingAddress,
  ),
  route('v3', 'GET', '/wishlists', wishlists.listWishlists),
  route('v3', 'POST', '/wishlists', wishlists.createWishlist),
  route('v3', 'GET', '/wishlists/{id}', wishlists.getWishlist),
  route('v3', 'PUT', '/wishlists/{id}', wishlists.updateWishlist),
  route('v3', 'DELETE', '/wishlists/{id}', wishlists.deleteWishlist),
  route('v3', 'POST', '/wishlists/{id}/items', wishlists.addItems),
  route('v3', 'DELETE', '/wishlists/{id}/items/{itemId}', wishlists.deleteItem),
  route('v3', 'GET', '/customers', customers.listCustomers),
  route('v3', 'POST', '/customers', customers.createCustomers),
  route('v3', 'PUT', '/customers', customers.updateCustomers),
  route('v3', 'DELETE', '/customers', customers.deleteCustomers),
  route('v3', 'POST', '/customers/validate-credentials', customers.validateCredentials),
  route('v3', 'GET', '/customers/form-field-values', customerAddresses.listFormFieldValues),
  route('v3', 'PUT', '/customers/form-field-values', customerAddresses.upsertFormFieldValues),
  route('v3', 'GET', '/customers/addresses', customerAddresses.listAddresses),
  route('v3', 'POST', '/customers/addresses', customerAddresses.createAddresses),
  route('v3', 'PUT', '/customers/addresses', customerAddresses.updateAddresses),
  route('v3', 'DELETE', '/customers/addresses', customerAddresses.deleteAddresses),
  route('v2', 'GET', '/store', store.getStore),
  route('v2', 'GET', '/banners', store.listBanners),
  route('v2', 'GET', '/banners/{id}', store.getBanner),
  route('v2', 'GET', '/orders', orders.listOrders),
  route('v2', 'GET', '/orders/{id}', orders.getOrder),
  route('v2', 'PUT', '/orders/{id}', orders.updateOrder),
  route('v2', 'GET', '/orders/{id}/products', orders.listOrderProducts),
  route('v2', 'GET', '/orders/{id}/shipping_addresses', orders.listShippingAddresses),
  route('v2', 'GET', '/orders/{id}/shipments', orders.listShipments),
  route('brevo', 'POST', '/smtp/email', brevo.sendEmail),
  route('brevo', 'GET', '/smtp/emails', brevo.listEmails),
  route('brevo', 'GET', '/smtp/emails/{uuid*}', brevo.getEmail),
  route('brevo', 'POST', '/contacts', brevoContacts.createContact),
  route('brevo', 'GET', '/contacts/lists/{listId}', brevoContacts.getList),
  route('brevo', 'POST', '/contacts/lists/{listId}/contacts/add', brevoContacts.addToList),
  route('brevo', 'POST', '/contacts/lists/{listId}/contacts/remove', brevoContacts.removeFromList),
  route('brevo', 'GET', '/contacts/{identifier*}', brevoContacts.getContact),
  route('brevo', 'DELETE', '/contacts/{identifier*}', brevoContacts.deleteContact),
];

export function familyError(family: Family, status: number, message: string): Reply {
  if (family === 'v2') return v2Error(status, message);
  if (family === 'contentful') return ctfFaultError(status, message);
  if (family === 'guaranteed-reviews') return json(status, { error: message });
  if (family === 'brevo')
    return brevo.brevoError(
      status,
      status === 404 ? 'document_not_found' : 'invalid_parameter',
      message,
    );
  return v3Error(status, message);
}

/** The API family a path belongs to, for the shape of an injected error. */
export function familyOf(path: string): Family {
  if (path.startsWith('/brevo/v3/')) return 'brevo';
  if (path.startsWith('/guaranteed-reviews/')) return 'guaranteed-reviews';
  if (path.startsWith('/contentful/') || path.startsWith('/contentful-management/'))
    return 'contentful';
  return /^\/stores\/[^/]+\/v2\//.test(path) ? 'v2' : 'v3';
}
