/**
 * Typed calls of the `bigcommerce` service of the shop API for the cart, customer, address,
 * order and review methods (the shop API contract): one function per method, its arguments as the
 * API's tuple, its reply as the domain type. Identity always comes from the session cookie.
 */
import type { LineItemInput } from '../commerce/cart.ts';
import type {
  Cart,
  CartMetafield,
  CurrentCustomer,
  CustomerAddress,
  FormFieldValue,
  Order,
  OrderProduct,
  OrderShippingAddress,
  Page,
  Pagination,
  Product,
  ProductReview,
  ProductReviewPage,
  Shipment,
  Wishlist,
} from '../commerce/types.ts';
import type {
  AddressInput,
  AddressUpdateInput,
  LoginInput,
  PasswordResetInput,
  ProfileInput,
  RegistrationInput,
  ReviewInput,
  SendCartInput,
} from '../commerce/validation.ts';
import type { SearchCategory } from '../commerce/search.ts';
import { callApi, type CallApiInit } from './client.ts';

export type { LineItemInput };

/** spec §7 wishlist items as the API takes them. */
export interface WishlistItemBody {
  product_id: number;
  variant_id: number;
}

/** spec §7 createWishlist({ name, is_public, items }). */
export interface WishlistInput {
  name: string;
  is_public: boolean;
  items: WishlistItemBody[];
}

/** spec §3 search result. */
export interface ProductSearchReply {
  products: Product[];
  pagination: Pagination;
  categories: SearchCategory[];
  /**
   * The term these products were found for when the typed one found none (the
   * closest words of the catalogue, "matelat" → "matelas"); null: the typed term's own.
   */
  correctedTerm: string | null;
}

/** The contract says `{ isValid: true, customer }`; read defensively (spec §5 login rules). */
export interface LoginReply {
  isValid: boolean;
  customer: CurrentCustomer | null;
}

export interface CheckoutWithProducts {
  /** The BigCommerce checkout (checkout id = cart id), as the API returns it. */
  checkout: unknown;
  products: Product[];
}

const call = <T>(method: string, args: readonly unknown[], init?: CallApiInit) =>
  callApi<T>('bigcommerce', method, args, init);

export const api = {
  // -- customer --------------------------------------------------------------------------------
  /** Logs in: sets the session and `authenticated=1`; 401 'Invalid credentials' otherwise. */
  loginCustomer: (input: LoginInput, init?: CallApiInit) =>
    call<LoginReply>('loginCustomer', [input], init),
  /** Clears the session, `authenticated=0`. */
  logoutCustomer: (init?: CallApiInit) => call<null>('logoutCustomer', [], init),
  /** The session's customer, null for a visitor; 404 'Get user data failed'. */
  getCustomers: (init?: CallApiInit) => call<CurrentCustomer | null>('getCustomers', [], init),
  /** Registers and logs in; 409 'Email already in use'. */
  createCustomer: (input: RegistrationInput, init?: CallApiInit) =>
    call<CurrentCustomer | null>('createCustomer', [input], init),
  /** 'Update client failed' on an empty reply. */
  updateCustomer: (input: ProfileInput, init?: CallApiInit) =>
    call<CurrentCustomer | null>('updateCustomer', [input], init),
  /** 'Update form failed' on an empty reply; only the fields the shopper may change. */
  updateCustomerFormFields: (
    input: { data: { name: string; value: string | string[] }[] },
    init?: CallApiInit,
  ) => call<FormFieldValue[]>('updateCustomerFormFields', [input], init),
  /** Mails a reset link when the account exists; always null (no account enumeration). */
  generateOttAndToken: (input: { email: string }, init?: CallApiInit) =>
    call<null>('generateOttAndToken', [input], init),
  /** Sets the new password of the reset token's account; the client then logs in with it. */
  sendResetPasswordEmail: (input: PasswordResetInput, init?: CallApiInit) =>
    call<{ email: string }>('sendResetPasswordEmail', [input], init),

  // -- addresses -------------------------------------------------------------------------------
  getCustomerAddress: (init?: CallApiInit) =>
    call<CustomerAddress[]>('getCustomerAddress', [], init),
  createCustomerAddress: (input: AddressInput, init?: CallApiInit) =>
    call<CustomerAddress>('createCustomerAddress', [input], init),
  updateCustomerAddress: (input: AddressUpdateInput, init?: CallApiInit) =>
    call<CustomerAddress>('updateCustomerAddress', [input], init),
  deleteCustomerAddress: (input: { id: number[] }, init?: CallApiInit) =>
    call<null>('deleteCustomerAddress', [input], init),

  // -- catalogue -------------------------------------------------------------------------------
  /** spec §7 search: products matching the trimmed term and their shown categories (§3). */
  getProductsWithFilter: (input: { searchTerm: string; limit?: number }, init?: CallApiInit) =>
    call<ProductSearchReply>('getProductsWithFilter', [input], init),
  /** The visible products of these ids, in that order (at most 250). */
  getProductsById: (input: { entityIds: number[] }, init?: CallApiInit) =>
    call<Product[]>('getProductsById', [input], init),

  // -- cart ------------------------------------------------------------------------------------
  /** The cart, or null when it is unknown or expired (the store then creates one). */
  getCart: (input: { id: string; include?: string }, init?: CallApiInit) =>
    call<Cart | null>('getCart', [input], init),
  /**
   * A new cart with these lines, assigned to the session's customer (and saved as their
   * 'Cart ID') when logged in; null without lines (BigCommerce creates no empty cart).
   */
  createCart: (input: { lineItems?: LineItemInput[] } = {}, init?: CallApiInit) =>
    call<Cart | null>('createCart', [input], init),
  /**
   * Reseller area: mails the client a link to the session reseller's cart, which becomes the
   * client's (a guest cart); answers the address it was sent to.
   */
  sendCartToClient: (cart: { cartId: string }, send: SendCartInput, init?: CallApiInit) =>
    call<{ email: string }>('sendCartToClient', [cart, send], init),
  /** Assigns the cart to the session's customer and saves it as their 'Cart ID'. */
  updateCart: (input: { id: string }, init?: CallApiInit) =>
    call<Cart>('updateCart', [input], init),
  addCartItems: (input: { cartId: string; lineItems: LineItemInput[] }, init?: CallApiInit) =>
    call<Cart>('addCartItems', [input], init),
  /** The cart, or null when its last item went and the cart with it. */
  removeCartItem: (input: { cartId: string; itemId: string }, init?: CallApiInit) =>
    call<Cart | null>('removeCartItem', [input], init),
  updateCartItem: (
    input: {
      cartId: string;
      itemId: string;
      lineItem: { quantity: number; productId: number; variantId?: number };
    },
    init?: CallApiInit,
  ) => call<Cart>('updateCartItem', [input], init),
  updateItemOption: (
    input: {
      cartId: string;
      itemId: string;
      productId: number;
      quantity: number;
      variantId: number;
      optionId: number;
      optionValue: number | string;
    },
    init?: CallApiInit,
  ) => call<Cart>('updateItemOption', [input], init),
  deleteCart: (input: { id: string }, init?: CallApiInit) =>
    call<null>('deleteCart', [input], init),
  unassignCart: (input: { cartId: string }, init?: CallApiInit) =>
    call<Cart>('unassignCart', [input], init),
  /** The hosted checkout URL (wrapped in a customer-login token for a logged-in customer). */
  getCheckoutUrl: (input: { cartId: string }, init?: CallApiInit) =>
    call<{ url: string }>('getCheckoutUrl', [input], init),
  getCheckoutByIdAndProductsByIds: (
    input: { cartId: string; productIds: number[] },
    init?: CallApiInit,
  ) => call<CheckoutWithProducts>('getCheckoutByIdAndProductsByIds', [input], init),
  createCartMetafields: (
    input: { cartId: string; namespace: string; key: string; value: string; permissionSet: string },
    init?: CallApiInit,
  ) => call<CartMetafield>('createCartMetafields', [input], init),
  getCartMetafields: (input: { cartId: string; namespace?: string }, init?: CallApiInit) =>
    call<CartMetafield[]>('getCartMetafields', [input], init),

  // -- orders ----------------------------------------------------------------------------------
  /** The session customer's orders, newest first. */
  getOrders: (input: { page?: number; limit?: number } = {}, init?: CallApiInit) =>
    call<Page<Order>>('getOrders', [input], init),
  getOrderProducts: (input: { orderId: number }, init?: CallApiInit) =>
    call<OrderProduct[]>('getOrderProducts', [input], init),
  getOrderShippingAddresses: (input: { orderId: number }, init?: CallApiInit) =>
    call<OrderShippingAddress[]>('getOrderShippingAddresses', [input], init),
  getShipments: (input: { orderId: number }, init?: CallApiInit) =>
    call<Shipment[]>('getShipments', [input], init),
  getOrderByCart: (input: { cartId: string }, init?: CallApiInit) =>
    call<Order | null>('getOrderByCart', [input], init),

  // -- wishlist (spec §7): the session customer's only ---------------------------------------
  getAllWishlists: (init?: CallApiInit) => call<Wishlist[]>('getAllWishlists', [], init),
  createWishlist: (input: WishlistInput, init?: CallApiInit) =>
    call<Wishlist>('createWishlist', [input], init),
  addWishlistItems: (
    input: { wishlistId: number; items: WishlistItemBody[] },
    init?: CallApiInit,
  ) => call<Wishlist>('addWishlistItems', [input], init),
  removeWishlistItem: (input: { wishlistId: number; itemId: number }, init?: CallApiInit) =>
    call<Wishlist>('removeWishlistItem', [input], init),
  deleteWishlist: (id: number, init?: CallApiInit) => call<null>('deleteWishlist', [id], init),

  // -- reviews ---------------------------------------------------------------------------------
  getProductReviewCollection: (
    input: { productId: number; query?: { page?: number; limit?: number } },
    init?: CallApiInit,
  ) => call<ProductReviewPage>('getProductReviewCollection', [input], init),
  /** A pending review (name and e-mail from the form); 429 'Too many attempts' when throttled. */
  createProductReview: (input: ReviewInput, init?: CallApiInit) =>
    call<ProductReview>('createProductReview', [input], init),
};
