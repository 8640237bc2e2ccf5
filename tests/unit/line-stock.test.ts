/**
 * Honest stock on cart lines (spec §4 Stock): the stock of a line's variant
 * from its product, the flag of a line over stock, its one-click fix, the quantity selector's
 * bound and the checkout's gate, over generated tracking modes, levels and quantities.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_CART_QUANTITY } from '../../src/lib/commerce/cart.ts';
import {
  LINE_STOCK_MESSAGE_KEYS,
  LINE_STOCK_MESSAGES,
  lineQuantityMax,
  lineStockFix,
  lineStockIssue,
  lineStockOf,
  stockBlockers,
} from '../../src/lib/commerce/line-stock.ts';
import type { InventoryTracking, LineStock } from '../../src/lib/commerce/types.ts';
import { pickMessages, t } from '../../src/lib/i18n/index.ts';
import { createTranslator } from '../../src/lib/i18n/translate.ts';
import { product, variant } from './fixtures.ts';

const tracking = fc.constantFrom<InventoryTracking>('none', 'product', 'variant');
const level = fc.integer({ min: -3, max: 150 });
const quantity = fc.integer({ min: 1, max: 120 });

/** A product of generated tracking, levels and purchasing, and the id of one of its variants. */
const generatedProduct = fc
  .record({
    inventoryTracking: tracking,
    inventoryLevel: level,
    variants: fc.array(fc.record({ inventoryLevel: level, purchasingDisabled: fc.boolean() }), {
      minLength: 1,
      maxLength: 4,
    }),
    pick: fc.nat(),
  })
  .map(({ variants, pick, ...rest }) => {
    const built = product({
      ...rest,
      variants: variants.map((v, index) => variant({ ...v, id: 500 + index })),
    });
    const chosen = built.variants[pick % built.variants.length];
    if (chosen === undefined) throw new Error('a variant is generated');
    return { product: built, variant: chosen };
  });

const stock = fc.record<LineStock>({
  level: fc.option(fc.integer({ min: 0, max: 150 }), { nil: null }),
  purchasable: fc.boolean(),
});

describe('lineStockOf (spec §4 Stock)', () => {
  test('tracking none: untracked; product: the product level; variant: the variant level', () => {
    fc.assert(
      fc.property(generatedProduct, ({ product: p, variant: v }) => {
        const found = lineStockOf(p, v.id);
        const expected =
          p.inventoryTracking === 'none'
            ? null
            : Math.max(0, p.inventoryTracking === 'product' ? p.inventoryLevel : v.inventoryLevel);
        expect(found).toEqual({ level: expected, purchasable: !v.purchasingDisabled });
      }),
    );
  });

  test('a variant the product no longer has: unknown (undefined), never flagged', () => {
    const p = product({ variants: [variant({ id: 1 })] });
    expect(lineStockOf(p, 2)).toBeUndefined();
    expect(lineStockIssue({ quantity: 5 })).toBeNull();
  });
});

describe('lineStockIssue: flagged iff not purchasable, or tracked and below the quantity', () => {
  test('property over stock and quantity', () => {
    fc.assert(
      fc.property(stock, quantity, (s, q) => {
        const issue = lineStockIssue({ quantity: q, stock: s });
        const flagged = !s.purchasable || (s.level !== null && s.level < q);
        expect(issue !== null).toBe(flagged);
        if (issue === null) return;
        if (!s.purchasable) expect(issue).toEqual({ kind: 'unavailable', left: 0 });
        else if (s.level === 0) expect(issue).toEqual({ kind: 'out-of-stock', left: 0 });
        else expect(issue).toEqual({ kind: 'exceeds-stock', left: s.level });
      }),
    );
  });

  test('from a generated product: the line is flagged iff the quantity is more than it has', () => {
    fc.assert(
      fc.property(generatedProduct, quantity, ({ product: p, variant: v }, q) => {
        const issue = lineStockIssue({ quantity: q, stock: lineStockOf(p, v.id) });
        const left =
          p.inventoryTracking === 'none'
            ? Infinity
            : p.inventoryTracking === 'product'
              ? p.inventoryLevel
              : v.inventoryLevel;
        expect(issue !== null).toBe(v.purchasingDisabled || left < q);
      }),
    );
  });

  test('the fix reduces to what is left, or removes the line; the fixed line is not flagged', () => {
    fc.assert(
      fc.property(stock, quantity, (s, q) => {
        const issue = lineStockIssue({ quantity: q, stock: s });
        if (issue === null) return;
        const fix = lineStockFix(issue);
        if (fix.kind === 'reduce') {
          expect(fix.quantity).toBeGreaterThanOrEqual(1);
          expect(fix.quantity).toBeLessThan(q);
          expect(lineStockIssue({ quantity: fix.quantity, stock: s })).toBeNull();
        } else {
          expect(issue.left).toBe(0);
        }
      }),
    );
  });
});

describe('lineQuantityMax: the selector is bounded by the tracked stock', () => {
  test('property: the stock when tracked (at least 1, at most 99), else 99', () => {
    fc.assert(
      fc.property(fc.option(stock, { nil: undefined }), quantity, (s, q) => {
        const max = lineQuantityMax({ quantity: q, stock: s });
        expect(max).toBeGreaterThanOrEqual(1);
        expect(max).toBeLessThanOrEqual(MAX_CART_QUANTITY);
        if (s === undefined || (s.purchasable && s.level === null)) {
          expect(max).toBe(MAX_CART_QUANTITY);
        } else if (!s.purchasable) {
          expect(max).toBe(1);
        } else if (s.level !== null) {
          expect(max).toBe(Math.min(MAX_CART_QUANTITY, Math.max(1, s.level)));
          // Every quantity the selector offers above 1 is one the stock holds.
          if (max > 1) expect(lineStockIssue({ quantity: max, stock: s })).toBeNull();
        }
      }),
    );
  });
});

describe('stockBlockers: checkout is allowed iff no line is flagged', () => {
  test('property over generated carts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ quantity, stock: fc.option(stock, { nil: undefined }) }), {
          maxLength: 8,
        }),
        (lines) => {
          const blockers = stockBlockers(lines);
          expect(blockers.length === 0).toBe(lines.every((line) => lineStockIssue(line) === null));
          expect(blockers.map((b) => b.line)).toEqual(
            lines.filter((line) => lineStockIssue(line) !== null),
          );
        },
      ),
    );
  });
});

describe('French texts of the flags and fixes', () => {
  test('every key has a French text that names the item and what is left', () => {
    const translate = createTranslator(pickMessages(LINE_STOCK_MESSAGES));
    for (const key of LINE_STOCK_MESSAGES) expect(translate(key, { count: 2 })).not.toBe(key);
    expect(t(LINE_STOCK_MESSAGE_KEYS['out-of-stock'], { name: 'Oreiller Papillon' })).toBe(
      "Oreiller Papillon n'est plus en stock",
    );
    expect(
      translate(LINE_STOCK_MESSAGE_KEYS['exceeds-stock'], { name: 'Oreiller Papillon', count: 2 }),
    ).toBe('Oreiller Papillon : plus que 2 articles en stock');
    expect(translate('cart.stock.reduce', { count: 1 })).toBe('Réduire à 1 article');
  });
});
