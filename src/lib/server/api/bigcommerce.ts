/**
 * The `bigcommerce` service of the API middleware: spec §7 catalogue and store methods, each
 * with the zod tuple of its arguments. The API serves shoppers: products hidden from the
 * storefront (`is_visible: false`) are never returned, whatever the arguments say.
 */
import { z } from 'zod';
import type { Product } from '../../commerce/types.ts';
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
  getProductsWithFilter,
  getRedirects,
  getStoreMeta,
  type BigCommerceClient,
} from '../bigcommerce/index.ts';
import {
  CategoriesMetafieldsQuerySchema,
  ChannelQuerySchema,
  EntityIdSchema,
  ProductsByIdQuerySchema,
  ProductsBySkuQuerySchema,
  ProductSearchQuerySchema,
  ProductsQuerySchema,
} from '../bigcommerce/queries.ts';
import { bindService, defineMethod, type ApiMethod, type BoundService } from './handle.ts';

const visible = (products: Product[]) => products.filter((p) => p.isVisible);

// Shoppers only ever see visible products: the flag is the API's, not the caller's.
const ShopperProductsQuerySchema = ProductsQuerySchema.omit({ isVisible: true });

export const bigcommerceMethods = {
  getProducts: defineMethod(
    z.tuple([ShopperProductsQuerySchema.optional().describe('query')]),
    (client: BigCommerceClient, [query]) => getProducts(client, { ...query, isVisible: true }),
  ),
  getProductById: defineMethod(
    z.tuple([EntityIdSchema.describe('id')]),
    async (client: BigCommerceClient, [id]) => {
      const product = await getProductById(client, id);
      return product?.isVisible === true ? product : null;
    },
  ),
  getProductsById: defineMethod(
    z.tuple([ProductsByIdQuerySchema.describe('query')]),
    async (client: BigCommerceClient, [query]) => visible(await getProductsById(client, query)),
  ),
  getProductsBySku: defineMethod(
    z.tuple([ProductsBySkuQuerySchema.describe('query')]),
    async (client: BigCommerceClient, [query]) => visible(await getProductsBySku(client, query)),
  ),
  getProductsWithFilter: defineMethod(
    z.tuple([ProductSearchQuerySchema.describe('query')]),
    (client: BigCommerceClient, [query]) => getProductsWithFilter(client, query),
  ),
  getCategoryTree: defineMethod(z.tuple([]), (client: BigCommerceClient) =>
    getCategoryTree(client),
  ),
  getCategory: defineMethod(
    z.tuple([EntityIdSchema.describe('id')]),
    (client: BigCommerceClient, [id]) => getCategory(client, id),
  ),
  getCategoriesBatchMetafields: defineMethod(
    z.tuple([CategoriesMetafieldsQuerySchema.optional().describe('query')]),
    (client: BigCommerceClient, [query]) => getCategoriesBatchMetafields(client, query),
  ),
  getChannel: defineMethod(
    z.tuple([ChannelQuerySchema.optional().describe('query')]),
    (client: BigCommerceClient, [query]) => getChannel(client, query),
  ),
  getStoreMeta: defineMethod(z.tuple([]), (client: BigCommerceClient) => getStoreMeta(client)),
  getAllBanners: defineMethod(z.tuple([]), (client: BigCommerceClient) => getAllBanners(client)),
  getRedirects: defineMethod(z.tuple([]), (client: BigCommerceClient) => getRedirects(client)),
} satisfies Record<string, ApiMethod<BigCommerceClient>>;

/**
 * The service bound to a way of getting the client of a request: the one of the storefront
 * of the request's host (spec §3, §7), so the call carries that storefront's channel id.
 */
export function bigcommerceService(
  clientFor: (request: Request) => BigCommerceClient,
): BoundService {
  return bindService({ methods: bigcommerceMethods, context: clientFor });
}
