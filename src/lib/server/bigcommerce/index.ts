/**
 * BigCommerce connectors: one configured client (`createBigCommerceClient`) and the functions
 * of spec §7 that take it first. Used by the content loaders at build time and by the API
 * middleware at request time, against the real API or the sandbox.
 */
export {
  CHANNEL_ID_HEADER,
  createBigCommerceClient,
  type BigCommerceClient,
  type BigCommerceClientOptions,
} from './client.ts';
export { BigCommerceError, isBigCommerceError, type BigCommerceErrorCode } from './errors.ts';
export {
  collectPages,
  DEFAULT_PRODUCT_INCLUDE,
  getAllProducts,
  getBrands,
  getCategories,
  getCategoriesBatchMetafields,
  getCategory,
  getCategoryTree,
  getProductById,
  getProducts,
  getProductsById,
  getProductsBySku,
  getProductsWithFilter,
  type ProductSearchResult,
} from './catalog.ts';
export { getAllBanners, getChannel, getRedirects, getStoreMeta } from './store.ts';
export type {
  CategoriesMetafieldsQuery,
  CategoriesQuery,
  ChannelQuery,
  ProductsByIdQuery,
  ProductsBySkuQuery,
  ProductSearchQuery,
  ProductsQuery,
} from './queries.ts';
