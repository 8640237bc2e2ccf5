/**
 * The picker opens on what the page shows ticked: an option the shopper ticked on
 * the server's markup before the island hydrated stays ticked in the browser, so the selection
 * the picker publishes (hence the price it shows) takes it (`tickedSelection`, variant-link.ts).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { tickedSelection, type TickedValue } from '../../src/lib/commerce/variant-link.ts';
import { defaultVariant, findVariant, variantSelection } from '../../src/lib/commerce/stock.ts';
import type { Product, Variant } from '../../src/lib/commerce/types.ts';
import { selectionView } from '../../src/lib/stores/product.ts';
import { colourOption, option, product as makeProduct, variant } from './fixtures.ts';

/** A product with a size and a colour option, one variant per pair, priced by size. */
function sizedProduct(): Product {
  const size = option(1, 'Taille', ['90x190', '140x190', '160x200']);
  const colour = colourOption(2, ['Blanc', 'Gris']);
  const variants: Variant[] = size.values.flatMap((s, i) =>
    colour.values.map((c, j) =>
      variant({
        id: 1000 + i * 10 + j,
        price: 30000 + i * 10000,
        optionValues: [
          { id: s.id, label: s.label, optionId: 1, optionDisplayName: 'Taille' },
          { id: c.id, label: c.label, optionId: 2, optionDisplayName: 'Couleur' },
        ],
      }),
    ),
  );
  return makeProduct({ options: [size, colour], variants, price: 30000 });
}

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('The fixture lacks a value');
  return value;
}

const product = sizedProduct();
const rendered = variantSelection(defined(defaultVariant(product)));
const valueOf = (optionIndex: number, valueIndex: number): TickedValue => {
  const opt = defined(product.options[optionIndex]);
  return { optionId: opt.id, valueId: defined(opt.values[valueIndex % opt.values.length]).id };
};

describe('tickedSelection', () => {
  test('a size ticked before hydration is the selection, and the price is that variant’s', () => {
    const ticked = [valueOf(0, 2), valueOf(1, 0)];
    const chosen = tickedSelection(product, rendered, rendered, ticked);
    const view = selectionView(product, chosen);
    expect(view.variant?.optionValues.map((v) => v.label)).toEqual(['160x200', 'Blanc']);
    expect(view.price.regular).toBe(50000);
    // What the island did before: the server's default, whatever was ticked.
    expect(selectionView(product, rendered).price.regular).toBe(30000);
  });

  test('over any ticks: the shopper’s valid ticks win, the rendered ones leave the base', () => {
    const linkedBase = fc.constantFrom(...product.variants).map((v) => variantSelection(v));
    const tick = fc.oneof(
      fc.tuple(fc.nat(1), fc.nat(5)).map(([o, v]) => valueOf(o, v)),
      // Hostile or stale: unknown options and values.
      fc.record({ optionId: fc.integer(), valueId: fc.integer() }),
    );
    fc.assert(
      fc.property(linkedBase, fc.array(tick, { maxLength: 6 }), (base, ticks) => {
        const chosen = tickedSelection(product, base, rendered, ticks);
        for (const opt of product.options) {
          const value = chosen[opt.id];
          // Every option names one of its own values: the selection is a variant.
          expect(opt.values.some((v) => v.id === value)).toBe(true);
          const changed = ticks.filter(
            (t) =>
              t.optionId === opt.id &&
              rendered[opt.id] !== t.valueId &&
              opt.values.some((v) => v.id === t.valueId),
          );
          expect(value).toBe(changed.at(-1)?.valueId ?? base[opt.id]);
        }
        expect(Object.keys(chosen).map(Number).sort()).toEqual(
          product.options.map((o) => o.id).sort(),
        );
        expect(findVariant(product, chosen)).toBeDefined();
      }),
    );
  });

  test('what the server rendered, ticked, keeps a linked variant', () => {
    const linked = variantSelection(defined(product.variants.at(-1)));
    const ticks = Object.entries(rendered).map(([optionId, valueId]) => ({
      optionId: Number(optionId),
      valueId,
    }));
    expect(tickedSelection(product, linked, rendered, ticks)).toEqual(linked);
    expect(tickedSelection(product, linked, rendered, [])).toEqual(linked);
  });
});
