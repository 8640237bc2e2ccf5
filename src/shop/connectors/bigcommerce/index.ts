/**
 * BigCommerce connectors: one configured client (`createBigCommerceClient`) and the functions
 * of spec §7 that take it first. Used by the content loaders at build time and by the API
 * middleware at request time, against the real API or the sandbox.
 */
export {
  createBigCommerceClient,
  type BigCommerceClient,
  type BigCommerceClientOptions,
} from './client.ts';
export { isBigCommerceError, stockRefusal } from './errors.ts';
export {
  collectPages,
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
export { getAllBanners, getChannel, getRedirects, getStoreMeta } from './store.ts';
export {
  addCartItems,
  createCart,
  createCartMetafield,
  deleteCartMetafield,
  createCartRedirectUrls,
  deleteCart,
  getCart,
  getCartMetafields,
  removeCartItem,
  updateCartCustomer,
  updateCartItem,
} from './cart.ts';
export { getCheckout, setCheckoutEmail } from './checkout.ts';
export {
  createCustomer,
  createCustomerAddress,
  deleteCustomerAddresses,
  getCustomerAddresses,
  getCustomerByEmail,
  getCustomerById,
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
export {
  addWishlistItems,
  createWishlist,
  deleteWishlist,
  getCustomerWishlists,
  getWishlist,
  removeWishlistItem,
} from './wishlist.ts';
