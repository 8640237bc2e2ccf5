import type {
  CategoryNode,
  CustomField,
  Product,
  ProductOption,
  Redirect,
  Variant,
} from '../../src/lib/commerce/types.ts';

export function variant(overrides: Partial<Variant> = {}): Variant {
  return {
    id: 100,
    productId: 1,
    sku: 'SKU-100',
    price: null,
    salePrice: null,
    inventoryLevel: 10,
    inventoryWarningLevel: 0,
    purchasingDisabled: false,
    purchasingDisabledMessage: '',
    imageUrl: '',
    optionValues: [],
    ...overrides,
  };
}

export function product(overrides: Partial<Product> = {}): Product {
  return {
    id: 1,
    name: 'Matelas Confort',
    sku: 'MAT-1',
    description: '<p>Un matelas.</p>',
    price: 49900,
    salePrice: 0,
    isPriceHidden: false,
    priceHiddenLabel: '',
    inventoryTracking: 'none',
    inventoryLevel: 0,
    isVisible: true,
    brandId: 0,
    categories: [],
    relatedProducts: [],
    reviewsRatingSum: 0,
    reviewsCount: 0,
    totalSold: 0,
    dateCreated: '2024-01-01T00:00:00Z',
    dateModified: '2024-01-01T00:00:00Z',
    baseVariantId: null,
    fixedCostShippingPrice: 0,
    customUrl: '/matelas-confort/',
    pageTitle: '',
    metaDescription: '',
    images: [],
    variants: [],
    options: [],
    modifiers: [],
    customFields: [],
    ...overrides,
  };
}

export function fields(entries: Record<string, string>): CustomField[] {
  return Object.entries(entries).map(([name, value], index) => ({ id: index + 1, name, value }));
}

export function option(
  id: number,
  displayName: string,
  labels: string[],
  overrides: Partial<ProductOption> = {},
): ProductOption {
  return {
    id,
    displayName,
    type: 'rectangles',
    values: labels.map((label, index) => ({
      id: id * 100 + index,
      label,
      isDefault: false,
      colors: [],
    })),
    ...overrides,
  };
}

export function colourOption(id: number, labels: string[]): ProductOption {
  return {
    id,
    displayName: 'Couleur',
    type: 'swatch',
    values: labels.map((label, index) => ({
      id: id * 100 + index,
      label,
      isDefault: false,
      colors: [`#00000${index % 10}`],
    })),
  };
}

export function category(
  id: number,
  name: string,
  url: string,
  children: CategoryNode[] = [],
  isVisible = true,
): CategoryNode {
  return { id, parentId: 0, name, url, isVisible, children };
}

export function redirect(overrides: Partial<Redirect>): Redirect {
  return {
    id: 1,
    fromPath: '/old',
    toUrl: 'https://shop.example.com/new/',
    toEntityId: null,
    toType: 'url',
    ...overrides,
  };
}
