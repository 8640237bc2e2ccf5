import type { Cents, Product, Variant } from './types.ts';

/** A price as the shop displays it: a displayed price is a tagged value. */
export interface DisplayPrice {
  regular: Cents;
  /** The sale price when it is a real reduction of `regular`, else null. */
  special: Cents | null;
  hidden: boolean;
}

/**
 * spec §5 price display, as the cart charges it (the sandbox's `variantPrices`,
 * sandbox/src/model.ts, mirrors BigCommerce). Hidden prices: regular and special are 0.
 * The variant's price overrides the product's. The variant's sale price counts when set
 * (above 0); a variant without one takes the product's sale price only when it also inherits
 * the product's price (a variant with its own price and no sale price is charged that price).
 * A sale price of 0, or not below the regular price, is no reduction: special is null.
 *
 * Without a variant this is the product-level price, which no variant may charge: what a
 * card or a list shows is `productOffer` (offer.ts).
 */
export function displayPrice(
  product: Pick<Product, 'price' | 'salePrice' | 'isPriceHidden'>,
  variant?: Pick<Variant, 'price' | 'salePrice'> | null,
): DisplayPrice {
  if (product.isPriceHidden) return { regular: 0, special: 0, hidden: true };
  const regular = variant?.price ?? product.price;
  const own = variant?.salePrice ?? 0;
  const inherits = variant === undefined || variant === null || variant.price === null;
  const sale = own > 0 ? own : inherits ? product.salePrice : 0;
  const special = sale > 0 && sale < regular ? sale : null;
  return { regular, special, hidden: false };
}

/** The price the shopper pays: the special price when there is one, else the regular one. */
export function effectivePrice(price: DisplayPrice): Cents {
  return price.special ?? price.regular;
}

/**
 * spec §5: N = floor((price - sale) / price * 100), computed on integers so that float error
 * cannot lower it; 0 when there is no sale price or no reduction.
 */
export function discountPercent(regular: Cents, special: Cents | null): number {
  if (special === null || special <= 0 || regular <= 0 || special >= regular) return 0;
  return Math.floor(((regular - special) * 100) / regular);
}

/** spec §5: the badge `-N%`, or null when N is 0 or the price is hidden. */
export function discountBadge(price: DisplayPrice): string | null;
export function discountBadge(regular: Cents, special: Cents | null): string | null;
export function discountBadge(
  priceOrRegular: DisplayPrice | Cents,
  special: Cents | null = null,
): string | null {
  const percent =
    typeof priceOrRegular === 'number'
      ? discountPercent(priceOrRegular, special)
      : priceOrRegular.hidden
        ? 0
        : discountPercent(priceOrRegular.regular, priceOrRegular.special);
  return percent === 0 ? null : `-${percent}%`;
}
