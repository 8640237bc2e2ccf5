import type { Product, ProductOption } from './types.ts';

/** spec §2 / §9: up to this many colours are all shown... */
export const SWATCH_LIMIT = 5;
/** ...above it, this many are shown, then `+N`. */
export const SWATCH_VISIBLE = 4;

export interface Swatch {
  label: string;
  /** Hex colours of the value (a two-colour fabric has two). */
  colors: string[];
}

const COLOUR_NAME = /couleur|coloris|colou?r/i;

/** Colour options: BigCommerce `swatch` options, or options named like a colour. */
export function isColourOption(option: Pick<ProductOption, 'type' | 'displayName'>): boolean {
  return option.type === 'swatch' || COLOUR_NAME.test(option.displayName);
}

/** Every colour of the product's colour options, in option order, one per label. */
export function productColours(product: Pick<Product, 'options'>): Swatch[] {
  const seen = new Set<string>();
  const colours: Swatch[] = [];
  for (const option of product.options.filter(isColourOption)) {
    for (const value of option.values) {
      const key = value.label.trim().toLowerCase();
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      colours.push({ label: value.label.trim(), colors: value.colors });
    }
  }
  return colours;
}

/**
 * spec §2 product card swatches: 5 colours or fewer are all shown; more than 5 show the first
 * 4 and `more` = the number left (rendered `+N` with the `swatches.more` message).
 */
export function colourSwatches(product: Pick<Product, 'options'>): {
  swatches: Swatch[];
  more: number;
} {
  const colours = productColours(product);
  if (colours.length <= SWATCH_LIMIT) return { swatches: colours, more: 0 };
  return {
    swatches: colours.slice(0, SWATCH_VISIBLE),
    more: colours.length - SWATCH_VISIBLE,
  };
}
