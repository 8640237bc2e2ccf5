/**
 * Domain types of the catalogue (spec §3), in camelCase. The BigCommerce connector
 * (`src/lib/server/bigcommerce/`) parses upstream snake_case replies into these with zod;
 * pages, islands and the pure rules of `src/lib/commerce/` only ever see these shapes.
 *
 * Money is in integer cents everywhere in the domain (STYLE.md "Money in integer cents").
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

export interface Currency {
  code: string;
  isDefault: boolean;
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
