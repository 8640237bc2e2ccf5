/**
 * Domain types of the catalogue (spec §3), in camelCase. The BigCommerce connector
 * (`src/shop/connectors/bigcommerce/`) parses upstream snake_case replies into these with zod;
 * pages, islands and the pure rules of `src/lib/commerce/` only ever see these shapes.
 *
 * Money is in integer cents everywhere in the domain (`money.ts` formats it).
 */

export type Cents = number;

export type InventoryTracking = 'none' | 'product' | 'variant';

export interface OptionValue {
  id: number;
  label: string;
  /** The option's display name ("Taille", "Couleur"). */
  optionDisplayName: string;
  optionId: number;
}

export interface ProductOption {
  id: number;
  displayName: string;
  /** 'swatch' for colours, 'rectangles' / 'dropdown' for sizes... (BigCommerce option type). */
  type: string;
  values: {
    id: number;
    label: string;
    isDefault: boolean;
    /** Hex colours of a swatch value (`value_data.colors`), empty otherwise. */
    colors: string[];
  }[];
}

/**
 * A checkbox modifier of a product (BigCommerce `modifiers` of type `checkbox`): a choice that
 * makes no variant, sent with the line as an option selection. Its two values are the boolean
 * strings 'Yes' and 'No' (spec §9). The shop reads no other modifier type.
 */
export interface ProductModifier {
  id: number;
  displayName: string;
  /** The text beside the box (`config.checkbox_label`), else the display name. */
  label: string;
  required: boolean;
  checkedByDefault: boolean;
  /** The value id sent when the box is ticked ('Yes'), and when it is not ('No'). */
  checkedValueId: number;
  uncheckedValueId: number;
}

export interface Variant {
  id: number;
  productId: number;
  sku: string;
  /** null when the variant inherits the product price. */
  price: Cents | null;
  salePrice: Cents | null;
  inventoryLevel: number;
  inventoryWarningLevel: number;
  purchasingDisabled: boolean;
  purchasingDisabledMessage: string;
  imageUrl: string;
  optionValues: OptionValue[];
}

export interface ProductImage {
  id: number;
  urlStandard: string;
  urlZoom: string;
  urlThumbnail: string;
  isThumbnail: boolean;
  sortOrder: number;
  description: string;
}

export interface CustomField {
  id: number;
  name: string;
  value: string;
}

export interface Product {
  id: number;
  name: string;
  sku: string;
  /** HTML description as authored upstream. */
  description: string;
  price: Cents;
  /** 0 when there is no sale price (BigCommerce sends 0). */
  salePrice: Cents;
  isPriceHidden: boolean;
  priceHiddenLabel: string;
  inventoryTracking: InventoryTracking;
  inventoryLevel: number;
  /** Product-level low-stock threshold (`inventory_warning_level`); 0 or absent: none. */
  inventoryWarningLevel?: number;
  isVisible: boolean;
  brandId: number;
  categories: number[];
  relatedProducts: number[];
  reviewsRatingSum: number;
  reviewsCount: number;
  totalSold: number;
  dateCreated: string;
  dateModified: string;
  baseVariantId: number | null;
  fixedCostShippingPrice: Cents;
  customUrl: string;
  pageTitle: string;
  metaDescription: string;
  images: ProductImage[];
  variants: Variant[];
  options: ProductOption[];
  /** Checkbox modifiers (read with include=modifiers); empty when not read. */
  modifiers: ProductModifier[];
  customFields: CustomField[];
}

export interface Brand {
  id: number;
  name: string;
  /** Path of the brand corner page, e.g. `/marque/dunlopillo`. */
  url: string;
  pageTitle: string;
  metaDescription: string;
  imageUrl: string;
}

export interface CategoryNode {
  id: number;
  parentId: number;
  name: string;
  /** Path as stored upstream (`custom_url.url`), e.g. `/matelas/matelas-ressorts`. */
  url: string;
  isVisible: boolean;
  children: CategoryNode[];
}

export interface Category {
  id: number;
  parentId: number;
  name: string;
  description: string;
  url: string;
  isVisible: boolean;
  sortOrder: number;
  pageTitle: string;
  metaDescription: string;
  imageUrl: string;
}

export interface Metafield {
  id: number;
  key: string;
  value: string;
  namespace: string;
  resourceId: number;
}

export interface Redirect {
  id: number;
  fromPath: string;
  /** Resolved target URL (BigCommerce `to_url`). */
  toUrl: string;
  /** Entity the redirect points at, when it is a product, category or brand. */
  toEntityId: number | null;
  toType: 'product' | 'brand' | 'category' | 'page' | 'post' | 'url';
}

export interface Banner {
  id: number;
  name: string;
  /** HTML content. */
  content: string;
  page: string;
  location: string;
  /** spec §3: '1' means shown. */
  visible: boolean;
}

export interface Channel {
  id: number;
  name: string;
  defaultCurrency: string;
  enabledCurrencies: string[];
}

export interface StoreMeta {
  name: string;
  domain: string;
  secureUrl: string;
  phone: string;
  address: string;
  adminEmail: string;
  orderEmail: string;
  currency: string;
  language: string;
  country: string;
}

export interface Pagination {
  total: number;
  count: number;
  perPage: number;
  currentPage: number;
  totalPages: number;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

// ---------------------------------------------------------------------------------------------
// Cart, customer, addresses, orders and reviews (spec §3, §4). Same rules: camelCase, cents.

/** An option chosen on a cart line (BigCommerce `line_items.*.options`, with include=...options). */
export interface CartLineItemOption {
  /** Option display name ("Taille"). */
  name: string;
  nameId: number;
  /** Chosen value's label ("140x190 cm"). */
  value: string;
  valueId: number | null;
}

/**
 * What the catalogue says of a cart line's variant (spec §4 Stock), added by the shop API to the
 * carts it returns (`src/shop/api/cart-stock.ts`); absent when it could not be read.
 */
export interface LineStock {
  /** Units left of the line's variant; null when the product tracks no stock (always available). */
  level: number | null;
  /** false when the variant's purchasing is disabled (`purchasing_disabled`). */
  purchasable: boolean;
}

/** spec §3 line item: a physical or digital line of a cart. */
export interface CartLineItem {
  /** BigCommerce line item id (a UUID string). */
  id: string;
  parentId: string | null;
  productId: number;
  variantId: number;
  sku: string;
  name: string;
  /** Product page URL upstream (the shop links to `/p/{id}/{slug}` itself). */
  url: string;
  imageUrl: string;
  quantity: number;
  /** Unit price before any sale (`list_price`). */
  listPrice: Cents;
  /** Unit price paid (`sale_price`; equals listPrice without a sale). */
  salePrice: Cents;
  extendedListPrice: Cents;
  extendedSalePrice: Cents;
  options: CartLineItemOption[];
  /** The variant's stock when the shop API could read it; absent: unknown (never blocks). */
  stock?: LineStock;
}

export interface CartGiftCertificate {
  id: string;
  name: string;
  amount: Cents;
  recipientEmail: string;
}

export interface CartCustomItem {
  id: string;
  sku: string;
  name: string;
  quantity: number;
  listPrice: Cents;
  extendedListPrice: Cents;
}

export interface CartLineItems {
  physicalItems: CartLineItem[];
  digitalItems: CartLineItem[];
  giftCertificates: CartGiftCertificate[];
  customItems: CartCustomItem[];
}

/** URLs BigCommerce returns with include=redirect_urls or POST .../redirect_urls. */
export interface CartRedirectUrls {
  cartUrl: string;
  checkoutUrl: string;
  embeddedCheckoutUrl: string;
}

/** spec §3 cart, as the connector returns it (always with an id: a stored cart). */
export interface Cart {
  /** UUID. */
  id: string;
  /** 0 for a guest cart. */
  customerId: number;
  channelId: number;
  currency: string;
  /** Sum of the items' list prices (spec §3: total and subtotal). */
  baseAmount: Cents;
  /** What the shopper pays (spec §3: special). */
  cartAmount: Cents;
  discountAmount: Cents;
  lineItems: CartLineItems;
  redirectUrls: CartRedirectUrls | null;
  createdTime: string;
  updatedTime: string;
}

export interface CartMetafield {
  id: number;
  key: string;
  value: string;
  namespace: string;
  permissionSet: string;
  /** The cart id. */
  resourceId: string;
}

/** spec §3 customer form field: `{ name, value }` (value a string, or a list for checkboxes). */
export interface FormFieldValue {
  name: string;
  value: string | string[];
}

/** spec §3 customer, as BigCommerce returns it (include=formfields). */
export interface Customer {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  phone: string;
  /** `accepts_product_review_abandoned_cart_emails`, set from the marketing checkbox. */
  acceptsMarketing: boolean;
  customerGroupId: number;
  dateCreated: string;
  dateModified: string;
  formFields: FormFieldValue[];
}

/**
 * The logged-in shopper as the browser sees it (spec §3 "the current customer"): the customer
 * plus what the shop derives from the form fields.
 */
export interface CurrentCustomer extends Customer {
  /** Reseller form field equals 'oui' (spec §3, §6). */
  isReseller: boolean;
  /** Reseller shop name form field, '' when none. */
  shopName: string;
  /** The reseller's sellers (form fields 'Vendeur 1' to 'Vendeur 5'), the filled ones in order. */
  sellers: string[];
  /** The reseller's accounting third-party code, '' when none. */
  accountingCode: string;
  /** Saved cart id (form field 'Cart ID', spec §9), null when none. */
  savedCartId: string | null;
}

/** spec §3 shipping address of a customer's address book. */
export interface CustomerAddress {
  id: number;
  customerId: number;
  firstName: string;
  lastName: string;
  company: string;
  /** House or apartment number (the address form field `HOUSE_NUMBER_FIELD`, address.ts). */
  houseNumber: string;
  /** The street. */
  address1: string;
  /** The complement ("complément d'adresse"). */
  address2: string;
  city: string;
  stateOrProvince: string;
  postalCode: string;
  country: string;
  countryCode: string;
  phone: string;
  addressType: 'residential' | 'commercial';
  formFields: FormFieldValue[];
}

/** v2 order, as the account area shows it. */
export interface Order {
  id: number;
  customerId: number;
  /** spec §4: 0 to 14. */
  statusId: number;
  /** BigCommerce's English status name. */
  status: string;
  dateCreated: string;
  dateModified: string;
  currencyCode: string;
  subtotalIncTax: Cents;
  shippingCostIncTax: Cents;
  totalIncTax: Cents;
  /** The tax included in `totalIncTax`. */
  totalTax: Cents;
  itemsTotal: number;
  itemsShipped: number;
  paymentMethod: string;
  /** Cart the order came from ('' for orders not made from a cart). */
  cartId: string;
  billingAddress: OrderAddress;
}

export interface OrderAddress {
  firstName: string;
  lastName: string;
  company: string;
  street1: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  countryIso2: string;
  phone: string;
  email: string;
}

export interface OrderShippingAddress extends OrderAddress {
  id: number;
  orderId: number;
  shippingMethod: string;
}

export interface OrderProduct {
  id: number;
  orderId: number;
  productId: number;
  variantId: number;
  name: string;
  sku: string;
  quantity: number;
  basePrice: Cents;
  totalIncTax: Cents;
  options: { displayName: string; displayValue: string }[];
}

export interface Shipment {
  id: number;
  orderId: number;
  dateCreated: string;
  trackingNumber: string;
  shippingProvider: string;
  trackingCarrier: string;
  trackingLink: string;
  comments: string;
  items: { orderProductId: number; productId: number; quantity: number }[];
}

/** A product review (catalog v3 `/products/{id}/reviews`). */
export interface ProductReview {
  id: number;
  productId: number;
  title: string;
  text: string;
  status: 'approved' | 'disapproved' | 'pending';
  /** 1 to 5. */
  rating: number;
  name: string;
  dateReviewed: string;
}

/** spec §3 wishlist item: a product and its variant. */
export interface WishlistItem {
  id: number;
  productId: number;
  variantId: number;
}

/** spec §3 wishlist (BigCommerce wishlist_Full). */
export interface Wishlist {
  id: number;
  customerId: number;
  name: string;
  isPublic: boolean;
  token: string;
  items: WishlistItem[];
}

/** Number of reviews per rating, 1 to 5 stars (spec §2 ratings bar chart). */
export type RatingDistribution = Readonly<Record<1 | 2 | 3 | 4 | 5, number>>;

/** A page of a product's approved reviews, with the distribution of all of them. */
export interface ProductReviewPage extends Page<ProductReview> {
  distribution: RatingDistribution;
}
