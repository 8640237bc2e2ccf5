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
export {
  BigCommerceError,
  isBigCommerceError,
  stockRefusal,
  type BigCommerceErrorCode,
  type StockRefusal,
} from './errors.ts';
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
  getProductsStock,
  getProductsWithFilter,
  MAX_STOCK_PRODUCTS,
  type ProductSearchResult,
} from './catalog.ts';
export {
  getAllBanners,
  getChannel,
  getChannelSiteUrl,
  getRedirects,
  getStoreMeta,
} from './store.ts';
export {
  addCartItems,
  createCart,
  createCartMetafield,
  deleteCartMetafield,
  createCartRedirectUrls,
  DEFAULT_CART_INCLUDE,
  deleteCart,
  getCart,
  getCartMetafields,
  removeCartItem,
  updateCartCustomer,
  updateCartItem,
  type CreateCartInput,
} from './cart.ts';
export { getCheckout, setCheckoutEmail, type Checkout } from './checkout.ts';
export {
  createCustomer,
  createCustomerAddress,
  deleteCustomerAddresses,
  getCustomerAddresses,
  getCustomerByEmail,
  getCustomerById,
  getCustomerFormFields,
  updateCustomer,
  updateCustomerAddress,
  updateCustomerFormFields,
  validateCustomerCredentials,
} from './customer.ts';
export {
  getCustomerOrders,
  getOrder,
  getOrderProducts,
  getOrdersByCart,
  getOrderShipments,
  getOrderShippingAddresses,
  setOrderStaffNotes,
} from './order.ts';
export { createProductReview, getProductReviews } from './review.ts';
export { decimalToCents } from './schemas/common.ts';
export type {
  CategoriesMetafieldsQuery,
  CategoriesQuery,
  ChannelQuery,
  ProductsByIdQuery,
  ProductsBySkuQuery,
  ProductSearchQuery,
  ProductsQuery,
  AddressWrite,
  CartInclude,
  CartMetafieldInput,
  CustomerWrite,
  LineItemInput,
  LineItemUpdate,
  OrdersQuery,
  ReviewsQuery,
  ReviewWrite,
} from './queries.ts';
export {
  addWishlistItems,
  createWishlist,
  deleteWishlist,
  getCustomerWishlists,
  getWishlist,
  removeWishlistItem,
  type WishlistCreate,
} from './wishlist.ts';
