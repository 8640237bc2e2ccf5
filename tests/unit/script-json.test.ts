import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readJson, readJsonRecord, scriptJson } from '../../src/lib/script-json.ts';

// Strings a script element's content must never hold: they end it or change how it is read.
const BREAKERS = ['</script', '</SCRIPT', '<!--', '<script', '-->'];

describe('scriptJson', () => {
  test('any JSON value: no `<` in the output, and JSON.parse gives the value back', () => {
    const withBreakers = fc.oneof(
      fc.jsonValue(),
      fc
        .array(fc.oneof(fc.string(), fc.constantFrom(...BREAKERS)), { maxLength: 6 })
        .map((parts) => ({ name: parts.join(''), items: parts })),
    );
    fc.assert(
      fc.property(withBreakers, (value) => {
        const text = scriptJson(value);
        expect(text).not.toContain('<');
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 2_000 },
    );
  });

  test.each([
    ['a closing script tag', { d: '</script><script>alert(1)</script>' }],
    ['a comment opener', { d: '<!--<script>' }],
    ['upper case', { d: '</SCRIPT >' }],
  ])('%s is escaped', (_case, value) => {
    const text = scriptJson(value);
    for (const breaker of ['</script', '<!--']) expect(text.toLowerCase()).not.toContain(breaker);
    expect(JSON.parse(text)).toEqual(value);
  });

  test('undefined is written as null', () => {
    expect(scriptJson(undefined)).toBe('null');
  });
});

describe('readJson / readJsonRecord (JSON read back from the page or a cookie)', () => {
  test('any text: never throws; a record only for a plain object within the bound', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.constant(null)), (raw) => {
        const record = readJsonRecord(raw, 50);
        if (record === null) return;
        if (typeof raw !== 'string') throw new Error('a record from no text');
        expect(raw.length).toBeLessThanOrEqual(50);
        expect(Array.isArray(record)).toBe(false);
        expect(record).toEqual(JSON.parse(raw));
      }),
    );
  });

  test.each([
    ['[1,2]', null],
    ['null', null],
    ['{"a":1}', { a: 1 }],
    ['{"a":', null],
    ['', null],
  ])('%s → %j', (raw, expected) => {
    expect(readJsonRecord(raw, 100)).toEqual(expected);
  });

  test('longer than the bound: not read', () => {
    expect(readJson('{"a":1}', 6)).toBeUndefined();
    expect(readJson('{"a":1}', 7)).toEqual({ a: 1 });
  });
});
