import { z } from 'zod';
import { t } from '../i18n/index.ts';
import { toCents } from './money.ts';
import { discountBadge, displayPrice } from './price.ts';
import { isInStock } from './stock.ts';
import type { Cents, Product, Variant } from './types.ts';

/** Names of the product custom fields the shop reads (spec §3 custom fields by name). */
export const CUSTOM_FIELD_NAMES = {
  labels: 'labels',
  technology: 'technology',
  cornerFlag: 'corner_flag',
  guaranteedReviews: 'guaranteed_reviews',
  standardCertification: 'standard_certification',
  productVideo: 'product_video',
  shippingDelay: 'shipping_delay',
  shippingDelayOutOfStock: 'shipping_delay_out_of_stock',
  madeInFrance: 'made_in_france',
  type1: 'Type_1',
  type2: 'Type_2',
  type3: 'Type_3',
  ecoParticipation: 'eco_participation',
  collection: 'collection',
} as const;

export type CustomFieldName = (typeof CUSTOM_FIELD_NAMES)[keyof typeof CUSTOM_FIELD_NAMES];

type WithFields = Pick<Product, 'customFields'>;

/** Trimmed value of the first custom field with this exact name; undefined when absent or blank. */
export function customField(product: WithFields, name: CustomFieldName): string | undefined {
  for (const field of product.customFields) {
    if (field.name.trim() !== name) continue;
    const value = field.value.trim();
    if (value !== '') return value;
  }
  return undefined;
}

/** Splits a comma list (`labels`, `technology`), trimmed, blanks and repeats dropped. */
export function commaList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return [...new Set(value.split(',').map((item) => item.trim()))].filter(Boolean);
}

/** Yes-like values of boolean custom fields ('Yes' per spec §9, and French or numeric forms). */
export function isYes(value: string | undefined): boolean {
  return value !== undefined && ['yes', 'oui', 'true', '1'].includes(value.trim().toLowerCase());
}

export type BadgeKind = 'discount' | 'corner' | 'made-in-france' | 'label';

export interface ProductBadge {
  kind: BadgeKind;
  label: string;
}

/** A badge text that states a discount ("-20 %", "- 15%", "−30%", "Promo -10 %"). */
const DISCOUNT_TEXT = /[-−–]\s*\d{1,3}(?:[.,]\d+)?\s*%/u;

/** Whether a badge text (a corner flag, a label) states a discount. */
export function isDiscountText(text: string): boolean {
  return DISCOUNT_TEXT.test(text);
}

/**
 * Badges of a product card, in this order: the sale discount `-N%` (spec §5), the corner flag,
 * "Fabriqué en France" when made_in_france is yes-like, then each label of `labels`.
 *
 * One discount, by one rule: the only discount a product shows is spec §5's `-N%`, computed from
 * its regular and sale prices (N = floor((price - sale) / price × 100), shown when non-zero). A
 * corner flag or label that states a discount itself ("-20 %") is never shown: it would repeat
 * the computed one, or contradict the prices (rounded otherwise, or left after the sale ended).
 */
export function productBadges(
  product: WithFields & Pick<Product, 'price' | 'salePrice' | 'isPriceHidden'>,
  variant?: Pick<Variant, 'price' | 'salePrice'> | null,
): ProductBadge[] {
  const badges: ProductBadge[] = [];
  const discount = discountBadge(displayPrice(product, variant));
  if (discount !== null) badges.push({ kind: 'discount', label: discount });
  const corner = customField(product, CUSTOM_FIELD_NAMES.cornerFlag);
  if (corner !== undefined && !isDiscountText(corner))
    badges.push({ kind: 'corner', label: corner });
  if (isYes(customField(product, CUSTOM_FIELD_NAMES.madeInFrance))) {
    badges.push({ kind: 'made-in-france', label: t('badge.madeInFrance') });
  }
  for (const label of commaList(customField(product, CUSTOM_FIELD_NAMES.labels))) {
    if (!isDiscountText(label)) badges.push({ kind: 'label', label });
  }
  // A label equal to an earlier badge (a corner flag "Fabriqué en France" beside the made in
  // France badge) is shown once, as the earlier one.
  const seen = new Set<string>();
  return badges.filter((badge) => {
    const key = badge.label.trim().toLocaleLowerCase('fr');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const decimal = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^\d+(?:[.,]\d+)?$/)
    .transform((text) => Number(text.replace(',', '.'))),
]);

export const GuaranteedReviewsSchema = z.object({
  average: decimal.pipe(z.number().min(0).max(5)),
  total: decimal.pipe(z.number().int().min(0)),
});

export type GuaranteedReviews = z.output<typeof GuaranteedReviewsSchema>;

/**
 * The guaranteed-reviews rating stored as JSON `{"average":4.6,"total":128}` (numbers or
 * numeric strings); null when absent, malformed, out of range or with no review.
 */
export function guaranteedReviews(product: WithFields): GuaranteedReviews | null {
  const raw = customField(product, CUSTOM_FIELD_NAMES.guaranteedReviews);
  if (raw === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = GuaranteedReviewsSchema.safeParse(json);
  return parsed.success && parsed.data.total > 0 ? parsed.data : null;
}

/**
 * The eco participation included in the price, in cents, from a euro amount such as `5`,
 * `4.50`, `4,50 €`; null when absent, unreadable or zero.
 */
export function ecoParticipation(product: WithFields): Cents | null {
  const raw = customField(product, CUSTOM_FIELD_NAMES.ecoParticipation);
  if (raw === undefined) return null;
  const text = raw.replace(/€|eur/gi, '').replace(/\s/g, '').replace(',', '.');
  if (!/^\d+(?:\.\d+)?$/.test(text)) return null;
  const cents = toCents(Number(text));
  return cents > 0 ? cents : null;
}

/**
 * The shipping delay text for the selection: `shipping_delay` when in stock (spec §4), else
 * `shipping_delay_out_of_stock`, falling back to `shipping_delay`.
 */
export function shippingDelay(
  product: WithFields & Pick<Product, 'inventoryTracking' | 'inventoryLevel'>,
  variant?: Pick<Variant, 'inventoryLevel' | 'inventoryWarningLevel' | 'purchasingDisabled'> | null,
): string | undefined {
  const inStock = customField(product, CUSTOM_FIELD_NAMES.shippingDelay);
  if (isInStock(product, variant)) return inStock;
  return customField(product, CUSTOM_FIELD_NAMES.shippingDelayOutOfStock) ?? inStock;
}

/** Values of Type_1, Type_2 and Type_3, in that order, blanks dropped. */
export function productTypes(product: WithFields): string[] {
  return [CUSTOM_FIELD_NAMES.type1, CUSTOM_FIELD_NAMES.type2, CUSTOM_FIELD_NAMES.type3]
    .map((name) => customField(product, name))
    .filter((value) => value !== undefined);
}

/** Technology names of the `technology` comma list (looked up in the content service). */
export function technologies(product: WithFields): string[] {
  return commaList(customField(product, CUSTOM_FIELD_NAMES.technology));
}
