/** The server's bounded memory of pure answers (src/server/remembered.ts). */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { remembered } from '../../src/server/remembered.ts';

describe('remembered', () => {
  test('answers what was computed the first time, long names excepted; clear forgets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('a', 'b', '/p/1'), fc.constant('x'.repeat(513))), {
          maxLength: 30,
        }),
        (names) => {
          const memory = remembered<number>();
          let computed = 0;
          const first = new Map<string, number>();
          for (const name of names) {
            const value = memory.get(name, () => ++computed);
            if (name.length > 512) expect(value).toBe(computed);
            else {
              if (!first.has(name)) first.set(name, value);
              expect(value).toBe(first.get(name));
            }
          }
          memory.clear();
          if (names[0] !== undefined) expect(memory.get(names[0], () => -1)).toBe(-1);
        },
      ),
    );
  });
});
