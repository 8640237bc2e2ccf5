import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { scriptJson } from '../../src/lib/script-json.ts';

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
