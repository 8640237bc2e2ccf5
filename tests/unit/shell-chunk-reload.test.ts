import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CHUNK_RELOAD_GUARD_MS,
  CHUNK_RELOAD_KEY,
  isChunkLoadError,
  parseReloadTime,
  reloadAfterChunkError,
  shouldReload,
  type ReloadEnvironment,
} from '../../src/browser/shell/chunk-reload.ts';

// spec §4: a chunk-load failure reloads the page, at most once per 60 seconds (§9 60000 ms).

const START = Date.UTC(2025, 0, 1);
const chunkError = new TypeError(
  'Failed to fetch dynamically imported module: https://literie.example/_astro/mount.js',
);

/** A session (storage shared by reloads, as sessionStorage is) on a fake clock. */
function session(stored: Record<string, string> = {}) {
  const clock = { now: START };
  const reloads: number[] = [];
  const env: ReloadEnvironment = {
    storage: {
      getItem: (key) => stored[key] ?? null,
      setItem: (key, value) => {
        stored[key] = value;
      },
    },
    now: () => clock.now,
    reload: () => reloads.push(clock.now),
  };
  return { clock, reloads, env, stored };
}

describe('shouldReload', () => {
  test.each([
    [null, START, true],
    [START, START, false],
    [START, START + CHUNK_RELOAD_GUARD_MS - 1, false],
    [START, START + CHUNK_RELOAD_GUARD_MS, true],
    [START, START - CHUNK_RELOAD_GUARD_MS, true],
    [Number.NaN, START, true],
  ])('last %s, now %s → %s', (last, now, expected) => {
    expect(shouldReload(last, now)).toBe(expected);
  });

  test('the guard is spec §9 60000 ms', () => {
    expect(CHUNK_RELOAD_GUARD_MS).toBe(60_000);
  });
});

test.each([
  ['Failed to fetch dynamically imported module: https://x/_astro/a.js', true], // Chromium
  ['error loading dynamically imported module: https://x/_astro/a.js', true], // Firefox
  ['Importing a module script failed.', true], // Safari
  ['Unable to preload CSS for /_astro/a.css', true], // Vite
  ["Cannot read properties of undefined (reading 'mount')", false],
  ['', false],
])('isChunkLoadError(%j) → %s', (message, expected) => {
  expect(isChunkLoadError(new TypeError(message))).toBe(expected);
});

test('isChunkLoadError takes strings and refuses other values', () => {
  expect(isChunkLoadError('Importing a module script failed.')).toBe(true);
  expect(isChunkLoadError(undefined)).toBe(false);
  expect(isChunkLoadError({ message: 'Importing a module script failed.' })).toBe(false);
});

test.each([
  [null, null],
  ['1735689600000', 1735689600000],
  ['garbage', null],
  ['-5', null],
  ['', null],
])('parseReloadTime(%j) → %s', (stored, expected) => {
  expect(parseReloadTime(stored)).toBe(expected);
});

describe('reloadAfterChunkError', () => {
  test('reloads once, stores the time, and not again within 60 s', () => {
    const { clock, reloads, env, stored } = session();
    expect(reloadAfterChunkError(chunkError, env)).toBe(true);
    expect(stored[CHUNK_RELOAD_KEY]).toBe(String(START));
    clock.now += 30_000;
    expect(reloadAfterChunkError(chunkError, env)).toBe(false);
    clock.now += 30_000;
    expect(reloadAfterChunkError(chunkError, env)).toBe(true);
    expect(reloads).toEqual([START, START + 60_000]);
  });

  test('a bug in loaded code reloads nothing', () => {
    const { reloads, env } = session();
    expect(reloadAfterChunkError(new TypeError('x is not a function'), env)).toBe(false);
    expect(reloads).toEqual([]);
  });

  test('no storage, or storage that throws: no reload (it could loop)', () => {
    const { reloads, env } = session();
    expect(reloadAfterChunkError(chunkError, { ...env, storage: null })).toBe(false);
    const throwing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(reloadAfterChunkError(chunkError, { ...env, storage: throwing })).toBe(false);
    expect(reloads).toEqual([]);
  });

  test('an unreadable stored time does not block the reload', () => {
    const { reloads, env } = session({ [CHUNK_RELOAD_KEY]: 'not a time' });
    expect(reloadAfterChunkError(chunkError, env)).toBe(true);
    expect(reloads).toHaveLength(1);
  });

  test('property: for any sequence of failure times, no two reloads within 60 s', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10 * CHUNK_RELOAD_GUARD_MS }), { maxLength: 60 }),
        (gaps) => {
          const { clock, reloads, env } = session();
          for (const gap of gaps) {
            clock.now += gap;
            reloadAfterChunkError(chunkError, env);
          }
          for (let i = 1; i < reloads.length; i += 1) {
            expect((reloads[i] ?? 0) - (reloads[i - 1] ?? 0)).toBeGreaterThanOrEqual(
              CHUNK_RELOAD_GUARD_MS,
            );
          }
          // And it does reload: the first failure, and any failure a guard after the last reload.
          const expected: number[] = [];
          let at = START;
          for (const gap of gaps) {
            at += gap;
            const last = expected.at(-1);
            if (last === undefined || at - last >= CHUNK_RELOAD_GUARD_MS) expected.push(at);
          }
          expect(reloads).toEqual(expected);
        },
      ),
    );
  });
});
