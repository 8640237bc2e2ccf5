/**
 * The `bigcommerce` service of the API middleware: spec §7 catalogue and store methods, each
 * with the zod tuple of its arguments. The API serves shoppers: products hidden from the
 * storefront (`is_visible: false`) are never returned, whatever the arguments say.
 */
import { z } from 'zod';
import { searchCategories } from '../../lib/commerce/search.ts';
import type { Features } from '../../lib/features.ts';
import type { Product } from '../../lib/commerce/types.ts';
import {
  getAllBanners,
  getCategoriesBatchMetafields,
  getCategory,
  getCategoryTree,
  getChannel,
  getProductById,
  getProducts,
  getProductsById,
  getProductsBySku,
  getRedirects,
  getStoreMeta,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import {
  CategoriesMetafieldsQuerySchema,
  ChannelQuerySchema,
  EntityIdSchema,
  ProductsByIdQuerySchema,
  ProductsBySkuQuerySchema,
  ProductSearchQuerySchema,
  ProductsQuerySchema,
} from '../connectors/bigcommerce/queries.ts';
import { searchProducts, shownCategoryTree } from '../loaders/search-vocabulary.ts';
import { cartMethodAliases, cartMethods } from './cart-methods.ts';
import type { AccountServices, ShopContext } from './context.ts';
import { customerMethods } from './customer-methods.ts';
import { bindService, defineMethod, type ApiMethod, type BoundService } from './handle.ts';
import { orderMethods, reviewMethods } from './order-methods.ts';
import { resellerMethods } from './reseller-methods.ts';
import { wishlistMethods } from './wishlist-methods.ts';

const visible = (products: Product[]) => products.filter((p) => p.isVisible);

// Shoppers only ever see visible products: the flag is the API's, not the caller's.
const ShopperProductsQuerySchema = ProductsQuerySchema.omit({ isVisible: true });

// Catalogue and store reads: the same for every shopper of a storefront, so cached briefly.
const catalogueRead = { cacheable: true };

export const bigcommerceMethods = {
  getProducts: defineMethod(
    z.tuple([ShopperProductsQuerySchema.optional().describe('query')]),
    ({ client }: ShopContext, [query]) => getProducts(client, { ...query, isVisible: true }),
    catalogueRead,
  ),
  getProductById: defineMethod(
    z.tuple([EntityIdSchema.describe('id')]),
    async ({ client }: ShopContext, [id]) => {
      const product = await getProductById(client, id);
      return product?.isVisible === true ? product : null;
    },
    catalogueRead,
  ),
  getProductsById: defineMethod(
    z.tuple([ProductsByIdQuerySchema.describe('query')]),
    async ({ client }: ShopContext, [query]) => visible(await getProductsById(client, query)),
    catalogueRead,
  ),
  getProductsBySku: defineMethod(
    z.tuple([ProductsBySkuQuerySchema.describe('query')]),
    async ({ client }: ShopContext, [query]) => visible(await getProductsBySku(client, query)),
    catalogueRead,
  ),
  // spec §3 search result: the products, and the shown categories derived from them (the
  // tree of shown categories read once a few minutes, not at each search). A term that finds
  // nothing is corrected to the catalogue's closest words: `correctedTerm` says
  // which term the products are for, null for the typed one.
  getProductsWithFilter: defineMethod(
    z.tuple([ProductSearchQuerySchema.describe('query')]),
    async ({ client }: ShopContext, [query]) => {
      const result = await searchProducts(client, query);
      const categories =
        result.products.length === 0
          ? []
          : searchCategories(result.products, await shownCategoryTree(client));
      return { ...result, categories };
    },
    catalogueRead,
  ),
  getCategoryTree: defineMethod(
    z.tuple([]),
    ({ client }: ShopContext) => getCategoryTree(client),
    catalogueRead,
  ),
  getCategory: defineMethod(
    z.tuple([EntityIdSchema.describe('id')]),
    ({ client }: ShopContext, [id]) => getCategory(client, id),
    catalogueRead,
  ),
  getCategoriesBatchMetafields: defineMethod(
    z.tuple([CategoriesMetafieldsQuerySchema.optional().describe('query')]),
    ({ client }: ShopContext, [query]) => getCategoriesBatchMetafields(client, query),
    catalogueRead,
  ),
  getChannel: defineMethod(
    z.tuple([ChannelQuerySchema.optional().describe('query')]),
    ({ client }: ShopContext, [query]) => getChannel(client, query),
    catalogueRead,
  ),
  getStoreMeta: defineMethod(
    z.tuple([]),
    ({ client }: ShopContext) => getStoreMeta(client),
    catalogueRead,
  ),
  getAllBanners: defineMethod(
    z.tuple([]),
    ({ client }: ShopContext) => getAllBanners(client),
    catalogueRead,
  ),
  getRedirects: defineMethod(
    z.tuple([]),
    ({ client }: ShopContext) => getRedirects(client),
    catalogueRead,
  ),
} satisfies Record<string, ApiMethod<ShopContext>>;

/** Every method: catalogue and store, customers and addresses, carts, orders and reviews. */
export const shopMethods = {
  ...bigcommerceMethods,
  ...customerMethods,
  ...cartMethods,
  ...cartMethodAliases,
  ...orderMethods,
  ...reviewMethods,
  ...wishlistMethods,
  ...resellerMethods,
} satisfies Record<string, ApiMethod<ShopContext>>;

/** The methods of each feature flag (spec §1, §6): with the flag off they answer 404. */
const featureMethods: Readonly<Record<keyof Features, ReadonlySet<string>>> = {
  transactional: new Set([
    ...Object.keys(customerMethods),
    ...Object.keys(cartMethods),
    ...Object.keys(cartMethodAliases),
    ...Object.keys(orderMethods),
    ...Object.keys(wishlistMethods),
    // Sending carts needs carts.
    ...Object.keys(resellerMethods),
  ]),
  reviews: new Set(Object.keys(reviewMethods)),
  resellerArea: new Set(Object.keys(resellerMethods)),
};

/** The names of the methods switched off by these flags. */
export function disabledMethods(features: Features): Set<string> {
  const off = new Set<string>();
  for (const feature of ['transactional', 'reviews', 'resellerArea'] as const) {
    if (!features[feature]) for (const name of featureMethods[feature]) off.add(name);
  }
  return off;
}

/**
 * The service bound to a way of getting the client of a request: the one of the storefront
 * of the request's host (spec §3, §7), so the call carries that storefront's channel id.
 * With `account` (sessions, tokens, mail...), it serves every method; without, the
 * catalogue and store methods only.
 */
export function bigcommerceService(
  clientFor: (request: Request) => BigCommerceClient,
  account?: AccountServices,
  features: Features = { transactional: true, reviews: true, resellerArea: true },
): BoundService {
  const visitor = { customerId: null };
  const off = disabledMethods(features);
  const all: Record<string, ApiMethod<ShopContext>> = account === undefined
    ? bigcommerceMethods
    : shopMethods;
  const methods = Object.fromEntries(Object.entries(all).filter(([name]) => !off.has(name)));
  const bound = bindService<ShopContext>({
    methods,
    // Catalogue replies differ by storefront channel only.
    cacheScope: ({ request }) => String(clientFor(request).channelId ?? ''),
    context: async ({ request, cookies, clientInfo }) => ({
      client: clientFor(request),
      request,
      cookies,
      clientInfo,
      session: account === undefined ? visitor : await account.sessions.read(request),
      account,
    }),
  });
  return { ...bound, disabled: (name) => off.has(name) };
}
