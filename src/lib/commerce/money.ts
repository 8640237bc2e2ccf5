import type { Cents } from './types.ts';

export interface FormatPriceOptions {
  /** Two decimals (default) or none, rounded half away from zero (spec §3 currency formats). */
  decimals?: boolean;
  /** ISO 4217 code; spec §9: EUR. */
  currency?: string;
}

// Intl.NumberFormat is costly to build and pages format hundreds of prices: one per variant.
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, decimals: boolean): Intl.NumberFormat {
  const key = `${currency}:${decimals ? '2' : '0'}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat('fr-FR', {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals ? 2 : 0,
      maximumFractionDigits: decimals ? 2 : 0,
    });
    formatters.set(key, found);
  }
  return found;
}

/**
 * Formats integer cents the French way with Intl fr-FR: `1 234,50 €`, or `1 235 €` without
 * decimals. The group separator is a narrow no-break space (U+202F) and the symbol is joined
 * by a no-break space (U+00A0), so a price never wraps across lines.
 */
export function formatPrice(cents: Cents, opts: FormatPriceOptions = {}): string {
  const { decimals = true, currency = 'EUR' } = opts;
  return formatter(currency, decimals).format(cents / 100);
}

/**
 * Euros (as sent by BigCommerce, e.g. 1.005 or 199.9) to integer cents, rounding half away
 * from zero on the decimal value written, not on its binary approximation (1.005 → 101).
 */
export function toCents(euros: number): Cents {
  if (!Number.isFinite(euros)) throw new RangeError(`Not a finite amount: ${String(euros)}`);
  const sign = euros < 0 ? -1 : 1;
  const abs = Math.abs(euros);
  const text = String(abs);
  // Shift the decimal point in the decimal text (`1.005e2`), unless it is already exponential.
  const shifted = text.includes('e') ? abs * 100 : Number(`${text}e2`);
  const cents = Math.round(shifted);
  return cents === 0 ? 0 : sign * cents;
}
