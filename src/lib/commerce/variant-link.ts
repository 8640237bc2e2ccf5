/**
 * The link to a product page opening on one of its variants (`?variante=ID`), which a card of
 * a listing filtered on a size or colour gives (offer.ts prices the card by that variant).
 * Apart from offer.ts so that the product page's picker, which only reads the link, does not
 * carry the listing's price rules.
 */
import type { Product, Variant } from './types.ts';

/** Query parameter of a product page naming the variant it opens on (a variant id). */
export const VARIANT_PARAM = 'variante';

/** The product page's path opening on `variant` (a card of a filtered listing links there). */
export function variantPath(path: string, variant: Pick<Variant, 'id'>): string {
  return `${path}?${VARIANT_PARAM}=${String(variant.id)}`;
}

/**
 * The variant a product page's query names (`?variante=ID`), when it is one of the product's;
 * anything else (absent, not a whole number, another product's variant) is undefined and the
 * page keeps its default variant (spec §4).
 */
export function variantFromSearch(
  product: Pick<Product, 'variants'>,
  search: string,
): Variant | undefined {
  const value = new URLSearchParams(search).get(VARIANT_PARAM)?.trim() ?? '';
  if (!/^\d{1,15}$/.test(value)) return undefined;
  const id = Number(value);
  return product.variants.find((variant) => variant.id === id);
}

/** An option value a control of the page shows ticked (the picker reads them as it mounts). */
export interface TickedValue {
  optionId: number;
  valueId: number;
}

/**
 * The selection the picker opens on, given what the page's controls show ticked when it
 * mounts: `base` (the linked variant's options, else the default's), with every option the
 * shopper ticked before the picker hydrated (a tick on the server's markup, which the
 * browser keeps) taking that value. A tick is the shopper's when it differs from what the
 * server rendered (`rendered`, the default variant's options) and names a value of one of the
 * product's options; anything else (the rendered value, an unknown option or value) leaves
 * `base` as it is. So the price shown always follows the options shown ticked.
 */
export function tickedSelection(
  product: Pick<Product, 'options'>,
  base: Readonly<Record<number, number>>,
  rendered: Readonly<Record<number, number>>,
  ticked: readonly TickedValue[],
): Record<number, number> {
  const selection: Record<number, number> = { ...base };
  for (const { optionId, valueId } of ticked) {
    if (rendered[optionId] === valueId) continue;
    const option = product.options.find((candidate) => candidate.id === optionId);
    if (option?.values.some((value) => value.id === valueId)) selection[optionId] = valueId;
  }
  return selection;
}
