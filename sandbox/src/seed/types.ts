/** BigCommerce record shapes the sandbox stores and serves (snake_case, as on the wire). */

export interface CustomUrl {
  url: string;
  is_customized: boolean;
}

export interface OptionValueRecord {
  id: number;
  label: string;
  sort_order: number;
  value_data: { colors: string[] } | null;
  is_default: boolean;
}

export interface OptionRecord {
  id: number;
  product_id: number;
  name: string;
  display_name: string;
  type: 'rectangles' | 'swatch' | 'radio_buttons' | 'dropdown';
  sort_order: number;
  config: Record<string, never>;
  option_values: OptionValueRecord[];
}

/**
 * A product modifier (catalog.v3.yml `productModifier_Full`): a choice that does not make a
 * variant. The sandbox seeds checkbox modifiers only: two values, 'Yes' (`checked_value: true`)
 * and 'No', the boolean strings a cart line then names (spec §9).
 */
export interface ModifierValueRecord {
  id: number;
  option_id: number;
  label: 'Yes' | 'No';
  sort_order: number;
  value_data: { checked_value: boolean };
  is_default: boolean;
  adjusters: {
    price: Record<string, never>;
    weight: Record<string, never>;
    image_url: string;
    purchasing_disabled: { status: boolean; message: string };
  };
}

export interface ModifierRecord {
  id: number;
  product_id: number;
  name: string;
  display_name: string;
  type: 'checkbox';
  required: boolean;
  sort_order: number;
  config: { checkbox_label: string; checked_by_default: boolean };
  option_values: ModifierValueRecord[];
}

export interface VariantOptionValue {
  id: number;
  label: string;
  option_id: number;
  option_display_name: string;
}

export interface VariantRecord {
  id: number;
  product_id: number;
  sku: string;
  sku_id: number | null;
  price: number | null;
  calculated_price: number;
  sale_price: number | null;
  retail_price: number | null;
  map_price: number | null;
  weight: number | null;
  calculated_weight: number;
  width: number | null;
  height: number | null;
  depth: number | null;
  is_free_shipping: boolean;
  fixed_cost_shipping_price: number | null;
  purchasing_disabled: boolean;
  purchasing_disabled_message: string;
  image_url: string;
  cost_price: number | null;
  upc: string;
  mpn: string;
  gtin: string;
  inventory_level: number;
  inventory_warning_level: number;
  bin_picking_number: string;
  option_values: VariantOptionValue[];
}

export interface ImageRecord {
  id: number;
  product_id: number;
  is_thumbnail: boolean;
  sort_order: number;
  description: string;
  image_file: string;
  /** Paths below the sandbox origin; made absolute when served. */
  url_zoom: string;
  url_standard: string;
  url_thumbnail: string;
  url_tiny: string;
  date_modified: string;
}

export interface CustomFieldRecord {
  id: number;
  name: string;
  value: string;
}

/** The product without its sub-resources (variants, images, custom_fields, options). */
export interface ProductBase {
  id: number;
  name: string;
  type: 'physical';
  sku: string;
  description: string;
  weight: number;
  width: number;
  depth: number;
  height: number;
  price: number;
  cost_price: number;
  retail_price: number;
  sale_price: number;
  map_price: number;
  tax_class_id: number;
  product_tax_code: string;
  calculated_price: number;
  categories: number[];
  brand_id: number;
  option_set_id: null;
  option_set_display: string;
  inventory_level: number;
  inventory_warning_level: number;
  inventory_tracking: 'none' | 'product' | 'variant';
  reviews_rating_sum: number;
  reviews_count: number;
  total_sold: number;
  fixed_cost_shipping_price: number;
  is_free_shipping: boolean;
  is_visible: boolean;
  is_featured: boolean;
  related_products: number[];
  warranty: string;
  bin_picking_number: string;
  layout_file: string;
  upc: string;
  mpn: string;
  gtin: string;
  search_keywords: string;
  availability: 'available' | 'disabled' | 'preorder';
  availability_description: string;
  gift_wrapping_options_type: 'any' | 'none' | 'list';
  gift_wrapping_options_list: number[];
  sort_order: number;
  condition: 'New' | 'Used' | 'Refurbished';
  is_condition_shown: boolean;
  order_quantity_minimum: number;
  order_quantity_maximum: number;
  page_title: string;
  meta_keywords: string[];
  meta_description: string;
  view_count: number;
  preorder_release_date: string | null;
  preorder_message: string;
  is_preorder_only: boolean;
  is_price_hidden: boolean;
  price_hidden_label: string;
  custom_url: CustomUrl;
  base_variant_id: number | null;
  open_graph_type: 'product';
  open_graph_title: string;
  open_graph_description: string;
  open_graph_use_meta_description: boolean;
  open_graph_use_product_name: boolean;
  open_graph_use_image: boolean;
  date_created: string;
  date_modified: string;
}

export interface ProductRecord {
  base: ProductBase;
  variants: VariantRecord[];
  images: ImageRecord[];
  custom_fields: CustomFieldRecord[];
  options: OptionRecord[];
  modifiers: ModifierRecord[];
  /** Brand name, for keyword search. */
  brandName: string;
}

export interface CategoryRecord {
  id: number;
  parent_id: number;
  name: string;
  description: string;
  views: number;
  sort_order: number;
  page_title: string;
  search_keywords: string;
  meta_keywords: string[];
  meta_description: string;
  layout_file: string;
  is_visible: boolean;
  default_product_sort: 'use_store_settings';
  image_url: string;
  custom_url: CustomUrl;
}

export interface BrandRecord {
  id: number;
  name: string;
  page_title: string;
  meta_keywords: string[];
  meta_description: string;
  search_keywords: string;
  image_url: string;
  custom_url: CustomUrl;
}

export interface MetafieldRecord {
  id: number;
  key: string;
  value: string;
  namespace: string;
  permission_set: 'app_only' | 'read' | 'write' | 'read_and_sf_access' | 'write_and_sf_access';
  resource_type: 'category' | 'brand' | 'product' | 'variant';
  resource_id: number;
  description: string;
  date_created: string;
  date_modified: string;
}

export interface RedirectRecord {
  id: number;
  site_id: number;
  from_path: string;
  to: {
    type: 'product' | 'brand' | 'category' | 'page' | 'post' | 'url';
    entity_id?: number;
    url?: string;
  };
  /** Resolved target, served when include=to_url. */
  to_url: string;
}

export interface BannerRecord {
  id: number;
  name: string;
  content: string;
  page: string;
  catorbrandid: number;
  location: string;
  date_created: string;
  date_type: string;
  date_from: string;
  date_to: string;
  visible: '0' | '1';
}
