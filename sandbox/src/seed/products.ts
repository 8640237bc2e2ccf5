/**
 * Turns the hand-written catalogue into BigCommerce records, deterministically: categories,
 * brands, category metafields and products (with variants, options, images and custom fields).
 */
import {
  ACCUEILS,
  BRANDS,
  CATEGORY_TREE,
  COLLECTIONS,
  CORNER_FLAGS,
  FAMILIES,
  LABELS,
  PLAIN_TINTS,
  PURCHASING_DISABLED_MESSAGES,
  SHIPPING_DELAYS,
  SHIPPING_DELAYS_OUT_OF_STOCK,
  type CategorySeed,
  type Colour,
  type Family,
  type FamilyKey,
} from './catalogue.ts';
import { imageKey, imagePath } from './image-pool.ts';
import { createRandom, euros, isoDate, shopPrice, slugify, type Random } from './random.ts';
import type {
  BrandRecord,
  CategoryRecord,
  CustomFieldRecord,
  ImageRecord,
  MetafieldRecord,
  ModifierRecord,
  OptionRecord,
  ProductRecord,
  VariantRecord,
} from './types.ts';

export const FIRST_CATEGORY_ID = 20;
export const FIRST_BRAND_ID = 40;
export const FIRST_PRODUCT_ID = 101;

const DAY = 86_400_000;
const CATALOGUE_START = Date.UTC(2022, 0, 10, 9, 0, 0);
const CATALOGUE_END = Date.UTC(2025, 8, 1, 18, 0, 0);

export interface LeafCategory {
  id: number;
  /** Ids from the root down to this leaf. */
  path: number[];
  seed: CategorySeed;
  family: FamilyKey;
}

export interface CatalogueSkeleton {
  categories: CategoryRecord[];
  leaves: LeafCategory[];
  brands: BrandRecord[];
  brandIdByName: Map<string, number>;
  metafields: MetafieldRecord[];
  /** Category hidden by the `shop/hide-category` metafield. */
  privateSalesId: number;
  /** Category with is_visible false. */
  clearanceId: number;
}

export function buildSkeleton(): CatalogueSkeleton {
  const categories: CategoryRecord[] = [];
  const leaves: LeafCategory[] = [];
  let nextId = FIRST_CATEGORY_ID;
  const walk = (
    seeds: CategorySeed[],
    parentId: number,
    parentUrl: string,
    path: number[],
  ): void => {
    seeds.forEach((seed, index) => {
      const id = nextId++;
      const slug = slugify(seed.name);
      const url = `${parentUrl}/${slug}`;
      const plain = seed.description.replace(/<[^>]+>/g, '');
      categories.push({
        id,
        parent_id: parentId,
        name: seed.name,
        description: seed.description,
        views: 120 + ((id * 7919) % 4000),
        sort_order: index,
        page_title: `${seed.name} | Literie Lumière`,
        search_keywords: seed.name.toLowerCase(),
        meta_keywords: [seed.name.toLowerCase()],
        meta_description: plain.slice(0, 155),
        layout_file: 'category.html',
        is_visible: seed.isVisible ?? true,
        default_product_sort: 'use_store_settings',
        image_url: '',
        custom_url: { url, is_customized: true },
      });
      if (seed.family) leaves.push({ id, path: [...path, id], seed, family: seed.family });
      if (seed.children) walk(seed.children, id, url, [...path, id]);
    });
  };
  walk(CATEGORY_TREE, 0, '', []);

  const brands: BrandRecord[] = BRANDS.map((brand, index) => {
    const slug = slugify(brand.name);
    return {
      id: FIRST_BRAND_ID + index,
      name: brand.name,
      page_title: `${brand.name} | Literie Lumière`,
      meta_keywords: [brand.name.toLowerCase()],
      meta_description: brand.description,
      search_keywords: brand.name.toLowerCase(),
      image_url: '',
      custom_url: { url: `/marque/${slug}`, is_customized: true },
    };
  });
  const brandIdByName = new Map(brands.map((b) => [b.name, b.id]));

  const byName = (name: string): CategoryRecord => {
    const found = categories.find((c) => c.name === name);
    if (!found) throw new Error(`unknown category ${name}`);
    return found;
  };
  const privateSalesId = byName('Ventes privées').id;
  const clearanceId = byName('Déstockage').id;

  const stamp = isoDate(Date.UTC(2024, 2, 4, 10, 30, 0));
  const metafields: MetafieldRecord[] = [];
  const addMetafield = (
    resourceId: number,
    namespace: string,
    key: string,
    value: string,
    description: string,
  ): void => {
    metafields.push({
      id: 1 + metafields.length,
      key,
      value,
      namespace,
      permission_set: 'read_and_sf_access',
      resource_type: 'category',
      resource_id: resourceId,
      description,
      date_created: stamp,
      date_modified: stamp,
    });
  };
  addMetafield(
    privateSalesId,
    'shop',
    'hide-category',
    'true',
    'Masque la catégorie de la navigation',
  );
  addMetafield(byName('Matelas enfant').id, 'shop', 'hide-category', 'false', 'Catégorie affichée');
  const pushes: [string, string, string][] = [
    ['Matelas', 'Jusqu’à -30 % sur les matelas hybrides', '/matelas/matelas-hybrides'],
    ['Sommiers', 'Le sommier offert pour tout ensemble', '/ensembles-literie'],
    ['Linge de lit', 'Nouvelle collection lin lavé', '/linge-de-lit/draps-housses'],
    ['Oreillers', 'Trouvez votre oreiller en 3 questions', '/oreillers'],
  ];
  for (const [name, title, url] of pushes) {
    addMetafield(
      byName(name).id,
      'shop',
      'menu-push',
      JSON.stringify({ title, url }),
      'Encart promotionnel du méga-menu',
    );
  }
  for (const category of categories.filter((c) => c.parent_id === 0 && c.is_visible)) {
    addMetafield(
      category.id,
      'seo',
      'h1',
      `${category.name} au meilleur prix`,
      'Titre H1 de la page',
    );
  }
  return { categories, leaves, brands, brandIdByName, metafields, privateSalesId, clearanceId };
}

const SCENE_CODES: Record<string, string> = {
  Matelas: 'MAT',
  Sommier: 'SOM',
  Ensemble: 'ENS',
  Oreiller: 'ORE',
  Couette: 'COU',
  'Drap housse': 'DRH',
  'Drap plat': 'DRP',
  'Housse de couette': 'HDC',
  'Parure de lit': 'PAR',
  "Taie d'oreiller": 'TAI',
  'Protège-matelas': 'PRM',
  Surmatelas: 'SUR',
  Traversin: 'TRA',
  Plaid: 'PLA',
  'Tête de lit': 'TDL',
  Lit: 'LIT',
  'Lit coffre': 'LCO',
};

/**
 * Ids of a product's modifier and its two values: from the product id, in a range of their own,
 * so that adding modifiers moves no option, value or variant id of the seed (tests name them).
 */
const MODIFIER_ID_BASE = 10_000_000;
const MODIFIER_VALUE_ID_BASE = 20_000_000;

/**
 * The take-back checkbox of a mattress (French law's one-for-one take-back of the old
 * mattress, free on delivery): a BigCommerce checkbox modifier, unticked by default.
 */
export function takeBackModifier(productId: number): ModifierRecord {
  const id = MODIFIER_ID_BASE + productId;
  const value = (label: 'Yes' | 'No', index: number) => ({
    id: MODIFIER_VALUE_ID_BASE + productId * 2 + index,
    option_id: id,
    label,
    sort_order: index,
    value_data: { checked_value: label === 'Yes' },
    is_default: label === 'No',
    adjusters: {
      price: {},
      weight: {},
      image_url: '',
      purchasing_disabled: { status: false, message: '' },
    },
  });
  return {
    id,
    product_id: productId,
    name: `Reprise${productId}`,
    display_name: 'Reprise de l’ancien matelas',
    type: 'checkbox',
    required: false,
    sort_order: 2,
    config: {
      checkbox_label: 'Je souhaite la reprise gratuite de mon ancien matelas à la livraison',
      checked_by_default: false,
    },
    option_values: [value('Yes', 0), value('No', 1)],
  };
}

/** Running id counters shared by every product of one seed. */
export interface IdCounters {
  variant: number;
  option: number;
  optionValue: number;
  image: number;
  customField: number;
}

export function newCounters(): IdCounters {
  return { variant: 1001, option: 201, optionValue: 501, image: 3001, customField: 9001 };
}

function sizeArea(size: string): number {
  const [w, l] = size.split('x').map(Number);
  return (w ?? 1) * (l ?? 100);
}

function sizeLabel(size: string): string {
  return size.includes('x') ? `${size} cm` : `${size} cm`;
}

function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => slots[key] ?? '');
}

export interface ProductDraft {
  id: number;
  name: string;
  leaf: LeafCategory;
  brandName: string;
  /** Extra categories (private sales, clearance). */
  extraCategories: number[];
  isVisible: boolean;
  /** Forces: price hidden, colour count, tracking mode, sale. */
  priceHidden?: boolean;
  colourCount?: number;
  tracking?: 'none' | 'product' | 'variant';
  customUrl?: string;
  /** Added beyond the hand-written seed (products > seed size). */
  generated?: boolean;
}

/** Builds one product from its draft. `relatedPool` lists candidate related product ids. */
export function buildProduct(
  draft: ProductDraft,
  brandId: number,
  counters: IdCounters,
  random: Random,
  relatedPool: readonly number[],
): ProductRecord {
  const family: Family = FAMILIES[draft.leaf.family];
  const seed = draft.leaf.seed;
  const code = SCENE_CODES[family.prefix] ?? 'PRD';
  const sku = `${code}-${draft.id}`;

  // Sizes: the core ones plus a few others, in the family's order.
  const optionalSizes = family.sizes.filter((s) => !family.coreSizes.includes(s));
  const extra = random.sample(optionalSizes, random.int(0, optionalSizes.length));
  const sizes = family.sizes.filter((s) => family.coreSizes.includes(s) || extra.includes(s));

  let colours: Colour[] = [];
  if (family.palette) {
    const count = draft.colourCount ?? random.int(2, Math.min(7, family.palette.length));
    colours = random.sample(family.palette, count);
  }
  const tintKey = family.tints.length > 0 ? random.pick(family.tints) : '';
  const tint = PLAIN_TINTS[tintKey];

  const created = CATALOGUE_START + random.int(0, 1200) * DAY + random.int(0, 36_000_000);
  const modified = Math.min(CATALOGUE_END, created + random.int(1, 400) * DAY);
  const dateCreated = isoDate(created);
  const dateModified = isoDate(modified);

  // Prices: the reference (smallest) size, the others scaled by area.
  const refPrice = shopPrice(random.int(family.price[0], family.price[1]));
  const refArea = sizeArea(sizes[0] ?? '1');
  const priceOf = (size: string): number =>
    size === sizes[0] ? refPrice : shopPrice(refPrice * Math.pow(sizeArea(size) / refArea, 0.75));
  const discount = random.chance(0.3) ? random.pick([0.1, 0.15, 0.2, 0.25, 0.3, 0.4]) : 0;
  const saleOf = (price: number): number => (discount > 0 ? shopPrice(price * (1 - discount)) : 0);

  const trackingRoll = random.next();
  const [pNone, pProduct] = family.tracking;
  const tracking =
    draft.tracking ??
    (trackingRoll < pNone ? 'none' : trackingRoll < pNone + pProduct ? 'product' : 'variant');

  // Options.
  const options: OptionRecord[] = [];
  const sizeOption: OptionRecord | null =
    sizes.length > 0
      ? {
          id: counters.option++,
          product_id: draft.id,
          name: `Taille${draft.id}`,
          display_name: 'Taille',
          type: 'rectangles',
          sort_order: colours.length > 0 ? 1 : 0,
          config: {},
          option_values: sizes.map((size, index) => ({
            id: counters.optionValue++,
            label: sizeLabel(size),
            sort_order: index,
            value_data: null,
            is_default: size === '140x190' && family.scene === 'matelas',
          })),
        }
      : null;
  const colourOption: OptionRecord | null =
    colours.length > 0
      ? {
          id: counters.option++,
          product_id: draft.id,
          name: `Couleur${draft.id}`,
          display_name: 'Couleur',
          type: 'swatch',
          sort_order: 0,
          config: {},
          option_values: colours.map((colour, index) => ({
            id: counters.optionValue++,
            label: colour.name,
            sort_order: index,
            value_data: { colors: [colour.hex] },
            is_default: index === 0,
          })),
        }
      : null;
  if (colourOption) options.push(colourOption);
  if (sizeOption) options.push(sizeOption);

  // Images: one per colour (up to 4), or two views of the tint.
  const imageKeys: string[] =
    colours.length > 0
      ? colours.slice(0, random.int(2, 4)).map((c) => imageKey(family.scene, c.name, 'a'))
      : [
          imageKey(family.scene, tint?.name ?? 'Blanc', 'a'),
          imageKey(family.scene, tint?.name ?? 'Blanc', 'b'),
        ];
  const images: ImageRecord[] = imageKeys.map((key, index) => ({
    id: counters.image++,
    product_id: draft.id,
    is_thumbnail: index === 0,
    sort_order: index,
    description: index === 0 ? draft.name : `${draft.name}, vue ${index + 1}`,
    image_file: `${key.slice(0, 1)}/${draft.id}/${key}.jpg`,
    url_zoom: imagePath('1280x1280', key),
    url_standard: imagePath('800x800', key),
    url_thumbnail: imagePath('340x340', key),
    url_tiny: imagePath('80x80', key),
    date_modified: dateModified,
  }));

  // Variants: the cartesian product colour x size, or one base variant.
  const variants: VariantRecord[] = [];
  const colourValues = colourOption?.option_values ?? [null];
  const sizeValues = sizeOption?.option_values ?? [null];
  for (const colourValue of colourValues) {
    for (const sizeValue of sizeValues) {
      const size = sizeValue ? (sizes[sizeValue.sort_order] ?? '') : '';
      const price = size ? priceOf(size) : null;
      const sale = price !== null && discount > 0 ? saleOf(price) : null;
      const parts = [sku, size, colourValue ? slugify(colourValue.label).toUpperCase() : ''].filter(
        Boolean,
      );
      const disabled = random.chance(0.05);
      const level = tracking === 'variant' ? (random.chance(0.15) ? 0 : random.int(1, 40)) : 0;
      const optionValues = [];
      if (colourValue && colourOption)
        optionValues.push({
          id: colourValue.id,
          label: colourValue.label,
          option_id: colourOption.id,
          option_display_name: 'Couleur',
        });
      if (sizeValue && sizeOption)
        optionValues.push({
          id: sizeValue.id,
          label: sizeValue.label,
          option_id: sizeOption.id,
          option_display_name: 'Taille',
        });
      const id = counters.variant++;
      variants.push({
        id,
        product_id: draft.id,
        sku: parts.join('-'),
        sku_id: optionValues.length > 0 ? id + 50_000 : null,
        price,
        calculated_price: sale ?? price ?? 0,
        sale_price: sale,
        retail_price: null,
        map_price: null,
        weight: null,
        calculated_weight: family.weight,
        width: null,
        height: null,
        depth: null,
        is_free_shipping: false,
        fixed_cost_shipping_price: null,
        purchasing_disabled: disabled,
        purchasing_disabled_message: disabled ? random.pick(PURCHASING_DISABLED_MESSAGES) : '',
        image_url: colourValue
          ? imagePath('1280x1280', imageKey(family.scene, colourValue.label, 'a'))
          : '',
        cost_price: null,
        upc: '',
        mpn: '',
        gtin: '',
        inventory_level: level,
        inventory_warning_level: tracking === 'variant' ? 3 : 0,
        bin_picking_number: '',
        option_values: optionValues,
      });
    }
  }
  // Products priced from the first size; their reference variant inherits nothing.
  const price = sizes.length > 0 ? priceOf(sizes[0] ?? '') : refPrice;
  const salePrice = saleOf(price);
  const first = variants[0];
  if (first && sizes.length === 0) {
    first.calculated_price = salePrice || price;
  }
  const productLevel =
    tracking === 'variant'
      ? variants.reduce((sum, v) => sum + v.inventory_level, 0)
      : tracking === 'product'
        ? random.chance(0.12)
          ? 0
          : random.int(1, 80)
        : 0;

  // Reviews and sales.
  const reviewsCount = random.chance(0.2) ? 0 : random.int(1, 260);
  const average = 3.6 + random.next() * 1.4;
  const reviewsSum = Math.round(average * reviewsCount);
  const totalSold = random.int(0, 2400);

  const accueil = random.pick(ACCUEILS);
  const fermete = random.pick(family.type3).toLowerCase();
  const technology = random.pick(seed.technology ?? family.technology);
  const height = family.scene === 'matelas' ? random.int(16, 32) : random.int(12, 40);
  const lowerName = draft.name.startsWith(family.prefix)
    ? family.prefix.toLowerCase() + draft.name.slice(family.prefix.length)
    : draft.name;
  const slots = {
    name: lowerName,
    Art: family.article,
    art: family.article.toLowerCase(),
    brand: draft.brandName,
    // French elision: "d'Ouate & Lin", "de Dormelune".
    deBrand: /^[aeiouéh]/i.test(draft.brandName) ? `d'${draft.brandName}` : `de ${draft.brandName}`,
    tech: technology.toLowerCase(),
    accueil,
    fermete,
    hauteur: String(height),
    couleur: (colours[0]?.name ?? tint?.name ?? 'blanc').toLowerCase(),
  };
  const paragraphs = family.paragraphs.map((pool) => `<p>${fill(random.pick(pool), slots)}</p>`);
  if (family.scene === 'matelas' || family.scene === 'ensemble') {
    paragraphs.push(
      `<ul><li>Hauteur : ${height} cm</li><li>Fermeté : ${fermete}</li><li>Technologie : ${technology}</li></ul>`,
    );
  }
  const description = paragraphs.join('\n');
  const firstSentence = (fill(family.paragraphs[0]?.[0] ?? '', slots).split('. ')[0] ?? '').slice(
    0,
    150,
  );

  // Custom fields (spec §3), stable names.
  const fields: [string, string][] = [];
  const labelCount = random.chance(0.45) ? random.int(1, 2) : 0;
  if (labelCount > 0) fields.push(['labels', random.sample(LABELS, labelCount).join(',')]);
  fields.push(['technology', technology]);
  if (random.chance(0.25))
    fields.push([
      'corner_flag',
      discount > 0 ? `-${Math.round(discount * 100)} %` : random.pick(CORNER_FLAGS),
    ]);
  if (reviewsCount > 0 && random.chance(0.7)) {
    fields.push([
      'guaranteed_reviews',
      JSON.stringify({
        average: Math.round((reviewsSum / reviewsCount) * 10) / 10,
        total: reviewsCount,
      }),
    ]);
  }
  if (random.chance(0.7))
    fields.push(['standard_certification', random.pick(family.certifications)]);
  if (random.chance(0.15))
    fields.push([
      'product_video',
      `https://www.youtube.com/watch?v=sbx${String(draft.id).padStart(8, '0')}`,
    ]);
  fields.push(['shipping_delay', random.pick(SHIPPING_DELAYS)]);
  if (tracking !== 'none')
    fields.push(['shipping_delay_out_of_stock', random.pick(SHIPPING_DELAYS_OUT_OF_STOCK)]);
  if (random.chance(0.4)) fields.push(['made_in_france', 'Oui']);
  fields.push(['Type_1', family.type1]);
  fields.push(['Type_2', seed.name]);
  fields.push(['Type_3', random.pick(family.type3)]);
  if (family.ecoParticipation !== undefined) {
    const factor =
      sizes.length > 0 ? Math.max(1, sizeArea(sizes[0] ?? '') / sizeArea('140x190')) : 1;
    fields.push(['eco_participation', euros(family.ecoParticipation * factor).toFixed(2)]);
  }
  if (random.chance(0.5)) fields.push(['collection', random.pick(COLLECTIONS)]);
  const customFields: CustomFieldRecord[] = fields.map(([name, value]) => ({
    id: counters.customField++,
    name,
    value,
  }));

  const related = random.chance(0.1)
    ? [-1]
    : random.sample(
        relatedPool.filter((id) => id !== draft.id),
        random.int(2, 4),
      );
  const slug = slugify(draft.name);
  const categories = [...draft.leaf.path, ...draft.extraCategories];
  const priceHidden = draft.priceHidden ?? false;

  return {
    brandName: draft.brandName,
    variants,
    images,
    custom_fields: customFields,
    options,
    modifiers: family.scene === 'matelas' ? [takeBackModifier(draft.id)] : [],
    base: {
      id: draft.id,
      name: draft.name,
      type: 'physical',
      sku,
      description,
      weight: family.weight,
      width: 0,
      depth: 0,
      height,
      price,
      cost_price: euros(price * 0.45),
      retail_price: discount > 0 ? price : 0,
      sale_price: salePrice,
      map_price: 0,
      tax_class_id: 0,
      product_tax_code: '',
      calculated_price: salePrice || price,
      categories,
      brand_id: brandId,
      option_set_id: null,
      option_set_display: 'right',
      inventory_level: productLevel,
      inventory_warning_level: tracking === 'product' ? 5 : 0,
      inventory_tracking: tracking,
      reviews_rating_sum: reviewsSum,
      reviews_count: reviewsCount,
      total_sold: totalSold,
      fixed_cost_shipping_price: 0,
      is_free_shipping: price >= 500,
      is_visible: draft.isVisible,
      is_featured: random.chance(0.1),
      related_products: related,
      warranty: family.scene === 'matelas' ? 'Garantie 10 ans' : '',
      bin_picking_number: '',
      layout_file: 'product.html',
      upc: '',
      mpn: '',
      gtin: '',
      search_keywords: [family.type1, seed.name, technology].join(', ').toLowerCase(),
      availability: 'available',
      availability_description: '',
      gift_wrapping_options_type: 'any',
      gift_wrapping_options_list: [],
      sort_order: 0,
      condition: 'New',
      is_condition_shown: false,
      order_quantity_minimum: 0,
      order_quantity_maximum: 0,
      page_title: `${draft.name} | ${draft.brandName}`,
      meta_keywords: [],
      meta_description: firstSentence,
      view_count: random.int(40, 20_000),
      preorder_release_date: null,
      preorder_message: '',
      is_preorder_only: false,
      is_price_hidden: priceHidden,
      price_hidden_label: priceHidden ? 'Prix sur demande en magasin' : '',
      custom_url: { url: draft.customUrl ?? `/${slug}`, is_customized: true },
      base_variant_id: options.length === 0 ? (first?.id ?? null) : null,
      open_graph_type: 'product',
      open_graph_title: '',
      open_graph_description: '',
      open_graph_use_meta_description: true,
      open_graph_use_product_name: true,
      open_graph_use_image: true,
      date_created: dateCreated,
      date_modified: dateModified,
    },
  };
}

export interface CatalogueOptions {
  /** Total number of products; extra ones are generated after the hand-written seed. */
  products?: number;
}

/** Notable products of the hand-written seed, by name (ids are in fixtures.ts). */
export const NOTABLE = {
  priceHidden: 'Matelas Grand Hôtel',
  manyColours: 'Drap housse Percale Essentielle',
  trackingNone: 'Sommier Tapissier Royal',
  trackingProduct: 'Oreiller Fibre Douce',
  trackingVariant: 'Matelas Élysée',
  retired: 'Matelas Confort (ancien modèle)',
  redirectTarget: 'Matelas Horizon',
} as const;

const PRIVATE_SALES = [
  'Matelas Opéra',
  'Couette Cocoon',
  'Housse de couette Satin Prestige',
  'Lit coffre Velours',
];
const CLEARANCE = ['Matelas Bastide', 'Sommier Manoir', 'Plaid Velours Côtelé'];

/** Drafts of every product, hand-written seed first, then generated ones up to `total`. */
export function productDrafts(
  skeleton: CatalogueSkeleton,
  total: number | undefined,
  random: Random,
): ProductDraft[] {
  const drafts: ProductDraft[] = [];
  let id = FIRST_PRODUCT_ID;
  for (const leaf of skeleton.leaves) {
    const family = FAMILIES[leaf.family];
    for (const model of leaf.seed.models ?? []) {
      const name = `${family.prefix} ${model}`;
      drafts.push({
        id: id++,
        name,
        leaf,
        brandName: random.pick(leaf.seed.brands ?? ['Somnéa']),
        extraCategories: [
          ...(PRIVATE_SALES.includes(name) ? [skeleton.privateSalesId] : []),
          ...(CLEARANCE.includes(name) ? [skeleton.clearanceId] : []),
        ],
        isVisible: true,
      });
    }
  }
  // The retired model the redirect fixture points away from (spec §2 redirections).
  const hr = skeleton.leaves.find((l) => l.seed.name === 'Haute résilience');
  if (hr) {
    drafts.push({
      id: id++,
      name: NOTABLE.retired,
      leaf: hr,
      brandName: 'Somnéa',
      extraCategories: [],
      isVisible: false,
      customUrl: '/matelas-confort-ancien-modele',
    });
  }
  for (const draft of drafts) {
    if (draft.name === NOTABLE.priceHidden) draft.priceHidden = true;
    if (draft.name === NOTABLE.manyColours) draft.colourCount = 10;
    if (draft.name === NOTABLE.trackingNone) draft.tracking = 'none';
    if (draft.name === NOTABLE.trackingProduct) draft.tracking = 'product';
    if (draft.name === NOTABLE.trackingVariant) draft.tracking = 'variant';
  }
  // Generated products for the build bench: spread over leaves and brands.
  const seedCount = drafts.length;
  const editions = ['Édition', 'Série', 'Modèle', 'Version'];
  for (let n = 0; drafts.length < (total ?? 0); n++) {
    const leaf = skeleton.leaves[n % skeleton.leaves.length];
    if (!leaf) break;
    const models = leaf.seed.models ?? ['Essentiel'];
    const model = models[Math.floor(n / skeleton.leaves.length) % models.length] ?? 'Essentiel';
    const family = FAMILIES[leaf.family];
    drafts.push({
      id: id++,
      name: `${family.prefix} ${model} ${editions[n % editions.length] ?? 'Édition'} ${seedCount + n + 1}`,
      leaf,
      brandName: random.pick(leaf.seed.brands ?? ['Somnéa']),
      extraCategories: [],
      isVisible: random.chance(0.97),
      generated: true,
    });
  }
  if (total !== undefined && total < drafts.length) drafts.length = Math.max(total, 0);
  return drafts;
}

/** The whole catalogue for a seed. Deterministic: the same options give the same records. */
export function* generateProducts(
  skeleton: CatalogueSkeleton,
  options: CatalogueOptions = {},
): Generator<ProductRecord> {
  const random = createRandom(20_240_318);
  const drafts = productDrafts(skeleton, options.products, random);
  const byLeaf = new Map<number, number[]>();
  // Related products come from the hand-written seed only, so its products never change with the size.
  for (const draft of drafts.filter((d) => !d.generated)) {
    const list = byLeaf.get(draft.leaf.path[0] ?? 0) ?? [];
    if (list.length < 40) list.push(draft.id);
    byLeaf.set(draft.leaf.path[0] ?? 0, list);
  }
  const counters = newCounters();
  for (const draft of drafts) {
    // One PRNG per product so a product does not change when another one is edited.
    const productRandom = createRandom(draft.id * 2_654_435_761);
    const brandId = skeleton.brandIdByName.get(draft.brandName) ?? FIRST_BRAND_ID;
    yield buildProduct(
      draft,
      brandId,
      counters,
      productRandom,
      byLeaf.get(draft.leaf.path[0] ?? 0) ?? [],
    );
  }
}
