/**
 * Honest stock on cart lines (spec §4 Stock applied to the cart): the stock of a line's variant
 * from its product (`lineStockOf`), whether a line can be paid as it is (`lineStockIssue`: out
 * of stock, more than what is left, purchasing disabled), the one-click fix of a flagged line
 * (`lineStockFix`: reduce to what is left, or remove), the quantity selector's bound
 * (`lineQuantityMax`) and whether the cart may go to checkout (`stockBlockers`). Pure: the shop
 * API adds `stock` to each line (`src/shop/api/cart-stock.ts`), the islands and
 * `/paiement` apply these rules. A line whose stock is unknown (absent) is never flagged: a
 * catalogue read that failed must not block a cart.
 */
import { maxQuantity } from './cart.ts';
import { stockLevel } from './stock.ts';
import type { CartLineItem, LineStock, Product, Variant } from './types.ts';

type StockProduct = Pick<Product, 'inventoryTracking' | 'inventoryLevel'> & {
  variants: readonly Pick<Variant, 'id' | 'inventoryLevel' | 'purchasingDisabled'>[];
};

/**
 * The stock of `variantId` of `product` (spec §4: tracking `none` → untracked, `product` → the
 * product's level, `variant` → the variant's level; purchasing disabled → not purchasable), or
 * undefined when the product has no such variant (deleted since: unknown, not flagged).
 */
export function lineStockOf(product: StockProduct, variantId: number): LineStock | undefined {
  const variant = product.variants.find((v) => v.id === variantId);
  if (variant === undefined) return undefined;
  const level = stockLevel(product, { ...variant, inventoryWarningLevel: 0 });
  return {
    level: level === null ? null : Math.max(0, Math.floor(level)),
    purchasable: !variant.purchasingDisabled,
  };
}

/** Why a line cannot be paid as it is, and what is left of its variant. */
export interface LineStockIssue {
  /**
   * `unavailable`: purchasing disabled; `out-of-stock`: nothing left; `exceeds-stock`: fewer
   * units left than the line's quantity.
   */
  kind: 'unavailable' | 'out-of-stock' | 'exceeds-stock';
  /** Units left (0 when unavailable or out of stock). */
  left: number;
}

type StockLine = Pick<CartLineItem, 'quantity'> & { stock?: LineStock | undefined };

/**
 * The line's stock problem, or null when it can be paid as it is: flagged iff purchasing is
 * disabled, or the stock is tracked and below the line's quantity. Unknown stock: null.
 */
export function lineStockIssue(line: StockLine): LineStockIssue | null {
  const stock = line.stock;
  if (stock === undefined) return null;
  if (!stock.purchasable) return { kind: 'unavailable', left: 0 };
  if (stock.level === null || stock.level >= line.quantity) return null;
  const left = Math.max(0, stock.level);
  return left === 0 ? { kind: 'out-of-stock', left: 0 } : { kind: 'exceeds-stock', left };
}

/** The one-click fix of a flagged line: reduce it to what is left, or remove it. */
export type LineStockFix = { kind: 'reduce'; quantity: number } | { kind: 'remove' };

export function lineStockFix(issue: LineStockIssue): LineStockFix {
  return issue.kind === 'exceeds-stock' && issue.left >= 1
    ? { kind: 'reduce', quantity: issue.left }
    : { kind: 'remove' };
}

/**
 * The highest quantity the line's selector offers: the tracked stock (at least 1, so a line
 * over stock can still go down to it), else the cart's cap (99).
 */
export function lineQuantityMax(line: StockLine): number {
  return maxQuantity(line.stock?.purchasable === false ? 1 : line.stock?.level);
}

/** A flagged line with its issue. */
export interface StockBlocker<L> {
  line: L;
  issue: LineStockIssue;
}

/** The lines that stop the checkout (spec §4 Stock); checkout is allowed iff this is empty. */
export function stockBlockers<L extends StockLine>(lines: readonly L[]): StockBlocker<L>[] {
  return lines.flatMap((line) => {
    const issue = lineStockIssue(line);
    return issue === null ? [] : [{ line, issue }];
  });
}

/** Message keys (`fr.json`) of a flagged line, by issue kind: they name the item. */
export const LINE_STOCK_MESSAGE_KEYS = {
  unavailable: 'cart.stock.unavailable',
  'out-of-stock': 'cart.stock.outOfStock',
  'exceeds-stock': 'cart.stock.left',
} as const satisfies Record<LineStockIssue['kind'], string>;

/** Every key the cart's stock flags and fixes read (handed to the islands). */
export const LINE_STOCK_MESSAGES = [
  ...Object.values(LINE_STOCK_MESSAGE_KEYS),
  'cart.stock.reduce',
  'cart.stock.remove',
  'cart.stock.checkoutBlocked',
] as const;
