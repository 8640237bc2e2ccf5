import { describe, expect, test } from 'vitest';
import { decimalToCents } from '../../src/shop/connectors/bigcommerce/schemas/common.ts';

describe('decimalToCents: v2 decimal strings and v3 numbers to exact cents', () => {
  test.each([
    ['v2 four decimals', '129.9900', 12999],
    ['v2 whole euros', '129.0000', 12900],
    ['zero', '0.0000', 0],
    ['no fraction', '42', 4200],
    ['one decimal', '199.9', 19990],
    ['third decimal rounds half up', '0.005', 1],
    ['third decimal below half', '10.0049', 1000],
    ['negative rounds away from zero', '-0.005', -1],
    ['negative refund', '-12.5000', -1250],
    ['large amount without float drift', '9999999.9900', 999999999],
    ['float trap as a string', '1.005', 101],
    ['spaces around', ' 3.10 ', 310],
    ['v3 number', 129.99, 12999],
    ['v3 float trap', 0.29, 29],
    ['v3 number half up', 1.005, 101],
  ] as const)('%s: %s', (_case, input, cents) => {
    expect(decimalToCents(input)).toBe(cents);
  });

  test.each([
    ['empty', ''],
    ['letters', '12,50'],
    ['two dots', '1.2.3'],
    ['exponent', '1e3'],
  ])('%s is refused', (_case, input) => {
    expect(() => decimalToCents(input)).toThrow(RangeError);
  });
});
