/** Deterministic helpers for the seed: same seed, same catalogue, on every machine. */

export interface Random {
  /** Float in [0, 1). */
  next(): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** n distinct items, order kept from the shuffle. */
  sample<T>(items: readonly T[], n: number): T[];
}

/** mulberry32: tiny, fast and good enough for fixtures. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(next() * items.length)];
    if (item === undefined) throw new Error('pick() on an empty list');
    return item;
  };
  const sample = <T>(items: readonly T[], n: number): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      const a = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = a;
    }
    return copy.slice(0, Math.min(n, copy.length));
  };
  return { next, int, chance: (p) => next() < p, pick, sample };
}

/** Lower case, accents removed, anything else collapsed to single hyphens (spec §2 slug). */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Lower case without accents, for accent-insensitive keyword search. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** Euros with at most two decimals, as BigCommerce sends them (499, 449.9). */
export function euros(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A shop-like price: 499, 549, 89.9... */
export function shopPrice(value: number): number {
  if (value >= 100) return Math.round(value / 10) * 10 - 1;
  return Math.round(value) - 0.1;
}

/** ISO date without milliseconds, with an explicit offset, like BigCommerce (2024-03-18T09:12:44+00:00). */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
