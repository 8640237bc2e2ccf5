/**
 * No raw keys: every message key the code can show has a French text in `fr.json`.
 * Walks `src` for the keys it names (`t('…')`, the islands' message lists, the API's error
 * messages, keys built from a template), and checks that every island showing a call's error
 * is handed the texts of the errors any call may fail with (`CALL_ERROR_MESSAGES`) and shows
 * the rest through `errorText` (the generic error, never the key).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import fr from '../../src/lib/i18n/fr.json' with { type: 'json' };
import { CALL_ERROR_MESSAGES } from '../../src/lib/api/client.ts';
import { SUPPORTED_COUNTRIES } from '../../src/lib/i18n/locale.ts';
import { createTranslator, errorText } from '../../src/lib/i18n/translate.ts';
import { pickMessages, type MessageKey } from '../../src/lib/i18n/index.ts';

const messages: Readonly<Record<string, string>> = fr;
const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** Whether `key` has a text: itself, or its plural forms (`x_one`, `x_other`). */
const hasText = (key: string) =>
  Object.hasOwn(messages, key) ||
  (Object.hasOwn(messages, `${key}_one`) && Object.hasOwn(messages, `${key}_other`));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|astro)$/.test(entry.name) ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((path) => ({
  path: relative(ROOT, path),
  text: readFileSync(path, 'utf8'),
}));

/** `[file, key]` of every match of `pattern`'s group `key` in src. */
function found(pattern: RegExp): [string, string][] {
  return files.flatMap(({ path, text }) =>
    [...text.matchAll(pattern)].map((match): [string, string] => [path, match.groups?.key ?? '']),
  );
}

describe('every key src names has a French text', () => {
  // t('key'), t("key"), i18n.t('key'): a literal key, no escape or newline inside ('$t(' is
  // i18next's nesting syntax, not a call).
  const literal = found(/(?<![$\w])t\(\s*(?<q>['"])(?<key>(?:(?!\k<q>)[^\\\n])+)\k<q>/g);

  test('the walk finds the keys (it reads src)', () => {
    expect(literal.length).toBeGreaterThan(200);
  });

  test("t('…') keys", () => {
    const missing = literal.filter(([, key]) => !hasText(key));
    expect(missing).toEqual([]);
  });

  test('API error messages (the message keys the API answers, shown by the islands)', () => {
    // new ApiError(status, 'CODE', 'message'): a literal message; a template (`Invalid
    // arguments for ${call}`) is no key, and the islands show it as the generic error.
    const api = found(/new ApiError\(\s*\d+,\s*'[A-Z_]+',\s*'(?<key>[^'\\\n]+)'/g);
    expect(api.length).toBeGreaterThan(20);
    expect(api.filter(([, key]) => !hasText(key))).toEqual([]);
  });

  test('upstream failure keys (failures.ts) and the keys of any call', () => {
    const failures = found(/message: '(?<key>error\.[A-Za-z.]+)'/g);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.filter(([, key]) => !hasText(key))).toEqual([]);
    expect(CALL_ERROR_MESSAGES.filter((key) => !hasText(key))).toEqual([]);
  });

  test('the message lists handed to islands (every exported *_MESSAGES)', async () => {
    const modules = files.filter(
      ({ path, text }) => !path.endsWith('.astro') && /export const [A-Z_]+_MESSAGES\b/.test(text),
    );
    expect(modules.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const { path } of modules) {
      const module = (await import(/* @vite-ignore */ join(ROOT, path))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (!name.endsWith('_MESSAGES') || !Array.isArray(value)) continue;
        for (const key of value as unknown[]) {
          if (typeof key !== 'string' || !hasText(key))
            missing.push(`${path} ${name}: ${String(key)}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  test('keys built from a template are all enumerated, and all have texts', async () => {
    const { CART_ERROR_MESSAGES } = await import('../../src/lib/stores/cart.ts');
    // Each template of src that builds a message key, with every value it can take.
    const templates: Record<string, readonly string[]> = {
      'country.': SUPPORTED_COUNTRIES.map((country) => country.code),
      // cartErrorText: the action of a failed line action.
      'cart.error.': ['update', 'remove', 'clear'],
      // WishlistItems: the action of the slot shown.
      'wishlist.error.': ['products', 'load', 'merge', 'add', 'remove', 'clear'],
      // waitInWords (i18n/wait.ts): the unit of a wait, with plural forms.
      'wait.': ['seconds', 'minutes', 'hours'],
    };
    const built = found(/`(?<key>[a-z]+(?:\.[a-zA-Z]+)*\.)\$\{/g).filter(
      ([path]) => !path.startsWith('src/shop/') && !path.startsWith('src/server/'),
    );
    expect(built.length).toBeGreaterThan(0);
    // A new template key must be listed above with its values.
    expect(built.filter(([, prefix]) => !(prefix in templates))).toEqual([]);
    const keys = Object.entries(templates).flatMap(([prefix, values]) =>
      values.map((value) => `${prefix}${value}`),
    );
    expect(keys.filter((key) => !hasText(key))).toEqual([]);
    expect(CART_ERROR_MESSAGES.filter((key) => !hasText(key))).toEqual([]);
  });
});

describe('islands that show a call’s error get the texts of any call’s failure', () => {
  /** The message lists of the islands and page scripts that show a call's error. */
  const LISTS = {
    'src/islands/auth/AuthForms.tsx': 'AUTH_FORMS_MESSAGES',
    'src/islands/auth/PasswordResetForm.tsx': 'PASSWORD_RESET_MESSAGES',
    'src/islands/account/ProfileForm.tsx': 'PROFILE_FORM_MESSAGES',
    'src/islands/account/AddressBook.tsx': 'ADDRESS_BOOK_MESSAGES',
    'src/islands/reseller/SendCartForm.tsx': 'SEND_CART_MESSAGES',
    'src/islands/reviews/ReviewForm.tsx': 'PRODUCT_REVIEWS_MESSAGES',
    'src/islands/wishlist/WishlistItems.tsx': 'WISHLIST_ITEMS_MESSAGES',
    'src/islands/search/SearchPanel.tsx': 'SEARCH_PANEL_MESSAGES',
    'src/browser/newsletter/newsletter-view.ts': 'NEWSLETTER_FORM_MESSAGES',
    'src/islands/shell-messages.ts': 'SHOP_SHELL_MESSAGES',
  } as const;
  const MODULES: Record<string, string> = {
    'src/islands/reviews/ReviewForm.tsx': 'src/lib/i18n/reviews-messages.ts',
    'src/islands/wishlist/WishlistItems.tsx': 'src/islands/wishlist/wishlist-messages.ts',
    'src/islands/search/SearchPanel.tsx': 'src/islands/search/search-messages.ts',
  };

  test('every file showing an error through FormError or errorText is listed here', () => {
    const showing = files
      .filter(
        ({ path, text }) =>
          /<FormError\b|\berrorText\(/.test(text) &&
          !path.endsWith('translate.ts') &&
          !path.endsWith('ui/form.tsx'),
      )
      .map(({ path }) => path);
    expect(showing.length).toBeGreaterThan(5);
    expect(showing.filter((path) => !(path in LISTS))).toEqual([]);
  });

  test.each(Object.entries(LISTS))('%s: %s holds CALL_ERROR_MESSAGES', async (path, name) => {
    const module = (await import(/* @vite-ignore */ join(ROOT, MODULES[path] ?? path))) as Record<
      string,
      unknown
    >;
    const list = module[name];
    expect(Array.isArray(list)).toBe(true);
    for (const key of CALL_ERROR_MESSAGES) expect(list).toContain(key);
  });

  test('the login form, customer service down: a French sentence, not the key', async () => {
    const { AUTH_FORMS_MESSAGES } = await import('../../src/islands/auth/AuthForms.tsx');
    const t = createTranslator(pickMessages(AUTH_FORMS_MESSAGES));
    expect(errorText(t, 'error.upstreamUnavailable')).toBe(messages['error.upstreamUnavailable']);
    expect(errorText(t, 'error.upstreamTimeout')).toBe(messages['error.upstreamTimeout']);
  });
});

describe('errorText', () => {
  const keys = Object.keys(messages);
  const handed = fc.subarray(keys, { minLength: 0, maxLength: 40 });

  test('a key the island has: its text; anything else: the generic error, never the key', () => {
    fc.assert(
      fc.property(
        handed,
        fc.oneof(fc.constantFrom(...keys), fc.string({ minLength: 1, maxLength: 40 })),
        (picked, key) => {
          const t = createTranslator(pickMessages([...picked, 'error.generic'] as MessageKey[]));
          const text = errorText(t, key);
          const own = pickMessages([...picked] as MessageKey[])[key];
          expect(text).toBe(own ?? messages['error.generic']);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('no error: nothing', () => {
    const t = createTranslator({});
    expect(errorText(t, null)).toBe('');
    expect(errorText(t, undefined)).toBe('');
    expect(errorText(t, '')).toBe('');
  });
});
