/**
 * The building blocks of the zod schemas of the BigCommerce replies the shop reads (one file
 * per resource beside this one; contracts: upstream OpenAPI files, see `tests/contracts/`): ids,
 * texts and counts BigCommerce may omit or send as null, lists, prices in euros as integer cents
 * (`money.ts`), v2 decimal strings as exact cents, and the v3 envelopes (`{ data }` and
 * `{ data, meta: { pagination } }`). Each schema parses snake_case upstream JSON into the
 * camelCase domain types of `src/lib/commerce/types.ts`: money becomes integer cents,
 * `visible: '1' | '0'` a boolean, missing optional lists `[]`.
 *
 * Lenient where BigCommerce is (unknown fields are dropped, optional fields may be absent or
 * null); strict where the shop relies on a field (ids, names, prices, URLs of images).
 */
import { z } from 'zod';
import { toCents } from '../../../../lib/commerce/money.ts';
import type { Page, Pagination } from '../../../../lib/commerce/types.ts';

export const id = z.number().int();
/** A string BigCommerce may omit or send as null: '' then. */
export const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
export const count = z
  .number()
  .nullish()
  .transform((v) => Math.trunc(v ?? 0));
export const flag = (fallback: boolean) =>
  z
    .boolean()
    .nullish()
    .transform((v) => v ?? fallback);
export const ids = z
  .array(z.number().int())
  .nullish()
  .transform((v) => v ?? []);
export const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v): z.output<T>[] => v ?? []);

// Euros to integer cents (the domain's money unit), rounding on the decimal value: money.ts.
/** A required price in euros, as cents. */
export const cents = z.number().transform(toCents);
/** An optional price: absent or null reads as 0 cents (BigCommerce sends 0 for "none"). */
export const centsOrZero = z
  .number()
  .nullish()
  .transform((v) => (v == null ? 0 : toCents(v)));
/** A price that may be absent (null): a variant inheriting the product price. */
export const centsOrNull = z
  .number()
  .nullish()
  .transform((v) => (v == null ? null : toCents(v)));

export const CustomUrlSchema = z
  .object({ url: text })
  .nullish()
  .transform((v) => v?.url ?? '');

const DECIMAL = /^(-)?(\d+)(?:\.(\d*))?$/;

/**
 * A decimal amount in euros (v2 sends strings such as '129.9900'; v3 numbers) to integer
 * cents, exactly: the digits are shifted, never multiplied as binary floats, and the third
 * decimal rounds half away from zero ('0.005' → 1, '-0.005' → -1).
 */
export function decimalToCents(value: string | number): number {
  if (typeof value === 'number') return toCents(value);
  const match = DECIMAL.exec(value.trim());
  if (match === null) throw new RangeError(`Not a decimal amount: ${JSON.stringify(value)}`);
  const [, minus, whole = '0', fraction = ''] = match;
  const digits = fraction.padEnd(3, '0');
  const cents = Number(whole) * 100 + Number(digits.slice(0, 2)) + (Number(digits[2]) >= 5 ? 1 : 0);
  return cents === 0 ? 0 : minus === undefined ? cents : -cents;
}

/** A decimal amount (string or number), as cents; absent or null reads as 0. */
export const decimalCents = z
  .union([z.string(), z.number()])
  .nullish()
  .refine((v) => v == null || typeof v === 'number' || DECIMAL.test(v.trim()), {
    message: 'Expected a decimal amount',
  })
  .transform((v) => (v == null || v === '' ? 0 : decimalToCents(v)));

export const uuid = z.string().min(1);

/** v3 `meta.pagination`. */
export const PaginationSchema = z
  .object({
    total: count,
    count: count,
    per_page: count,
    current_page: count,
    total_pages: count,
  })
  .transform((p): Pagination => ({
    total: p.total,
    count: p.count,
    perPage: p.per_page,
    currentPage: p.current_page,
    totalPages: p.total_pages,
  }));

const MetaSchema = z
  .object({ pagination: PaginationSchema.nullish() })
  .nullish()
  .transform((m) => m?.pagination ?? undefined);

/** v3 list reply `{ data: [...], meta: { pagination } }` as a `Page`. */
export function v3PageSchema<T extends z.ZodType>(item: T) {
  return z
    .object({ data: z.array(item), meta: MetaSchema })
    .transform(({ data, meta }): Page<z.output<T>> => ({
      items: data,
      // A reply without pagination is a single complete page.
      pagination: meta ?? {
        total: data.length,
        count: data.length,
        perPage: data.length,
        currentPage: 1,
        totalPages: 1,
      },
    }));
}

/** v3 single-resource reply `{ data: {...} }`. */
export function v3DataSchema<T extends z.ZodType>(item: T) {
  // The cast only restates `{ data: T }`: zod cannot resolve its mapped type for a generic T.
  return z.object({ data: item }).transform((reply) => (reply as { data: z.output<T> }).data);
}
