/**
 * Where the environment is read (one home each): one importer of
 * `astro:env/server` (`src/shop/config/config.ts`) and one of `astro:env/client`
 * (`src/lib/env-client.ts`); the feature flags' variables read only by `src/lib/features.ts`;
 * `TRUSTED_PROXIES` only by `trustedProxiesFromEnv` (`src/shop/auth/client.ts`). Shared
 * regexes and tables written once: the order id, the sleep-list page path, the order statuses
 * and the catalogue's sort values (the sandbox imports the shop's). Components render what they
 * are given: no file of `src/components` imports a connector or `node:fs` (the loaders of
 * `src/shop/loaders/` do; ESLint `no-restricted-imports` says the same in the editor).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = /\.(?:ts|tsx|astro|mjs|js)$/;

/** Source files under `dir` (relative to the repository, forward slashes). */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => SOURCE.test(file))
    .map((file) => `${dir}/${file.split(path.sep).join('/')}`)
    .sort();
}

const FILES = [...sources('src'), ...sources('scripts'), 'astro.config.mjs'];
const text = new Map(FILES.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));

/** Files with a static or dynamic import of `specifier`. */
function importersOf(specifier: string): string[] {
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const pattern = new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*\\(?\\s*)['"]${quoted}['"]`);
  return FILES.filter((file) => pattern.test(text.get(file) ?? ''));
}

/** Files that read `name` from an environment object (`process.env.X`, `env.X`, `env['X']`). */
function readersOf(name: string): string[] {
  const pattern = new RegExp(`\\benv(?:\\.${name}\\b|\\[\\s*['"]${name}['"]\\s*\\])`);
  return FILES.filter((file) => pattern.test(text.get(file) ?? ''));
}

describe('one reader of the environment per side', () => {
  test('the scan sees the sources', () => {
    expect(FILES).toContain('src/shop/config/config.ts');
    expect(FILES.length).toBeGreaterThan(300);
  });

  test('astro:env/server: src/shop/config/config.ts only', () => {
    expect(importersOf('astro:env/server')).toEqual(['src/shop/config/config.ts']);
  });

  test('astro:env/client: src/lib/env-client.ts only', () => {
    expect(importersOf('astro:env/client')).toEqual(['src/lib/env-client.ts']);
  });

  test('the feature flags: read through src/lib/features.ts only', () => {
    for (const name of ['FEATURE_TRANSACTIONAL', 'FEATURE_REVIEWS', 'FEATURE_RESELLER_AREA']) {
      expect(readersOf(name), name).toEqual([]);
    }
    expect(text.get('src/lib/features.ts')).toMatch(/FEATURE_VARIABLES\[feature\]/);
    expect(importersOf('../../lib/commerce/features.ts')).toEqual([]);
  });

  test('TRUSTED_PROXIES: trustedProxiesFromEnv (src/shop/auth/client.ts) only', () => {
    expect(readersOf('TRUSTED_PROXIES')).toEqual(['src/shop/auth/client.ts']);
  });
});

/** The import specifiers of a source text (static, dynamic and re-exports). */
function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map(
    ([, specifier]) => specifier ?? '',
  );
}

describe('components render what they are given', () => {
  const components = FILES.filter((file) => file.startsWith('src/components/'));
  const CONNECTOR = /\/shop\/connectors\//;
  const DISK = /^(?:node:)?fs(?:\/|$)/;

  test('the scan sees the components', () => {
    expect(components.length).toBeGreaterThan(50);
    expect(specifiers(text.get('src/components/layout/Header.astro') ?? '')).toContain(
      '../../lib/env-client.ts',
    );
  });

  test('no file of src/components imports a connector or node:fs', () => {
    const offending = components.flatMap((file) =>
      specifiers(text.get(file) ?? '')
        .filter((specifier) => CONNECTOR.test(specifier) || DISK.test(specifier))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  test('the data loaders live in src/shop/loaders/', () => {
    for (const name of [
      'catalogue-source',
      'catalogue',
      'catalogue-prefetch',
      'listing-data',
      'live-product',
      'content-data',
      'last-good',
      'layout-data',
    ]) {
      expect(FILES).toContain(`src/shop/loaders/${name}.ts`);
      expect(components.filter((file) => file.endsWith(`/${name}.ts`))).toEqual([]);
    }
  });
});

/** Files whose text matches `pattern`. */
const filesMatching = (pattern: RegExp) =>
  FILES.filter((file) => pattern.test(text.get(file) ?? ''));

describe('shared regexes and tables: one home each', () => {
  test('the order id: parseOrderId (src/lib/commerce/account-pages.ts)', () => {
    expect(filesMatching(/\[1-9\]\\d\{0,9\}/).filter((f) => f.startsWith('src/'))).toEqual([
      'src/lib/commerce/account-pages.ts',
    ]);
  });

  test('the sleep-list page path: sleepListPageOf (src/lib/content/list-view.ts)', () => {
    expect(filesMatching(/les-yeux-fermes\\?\/page\\?\/\(/)).toEqual([]);
    expect(filesMatching(/\/page\/\(\$\{PAGE_NUMBER\}\)/)).toEqual([
      'src/lib/content/list-view.ts',
    ]);
  });

  test('the order statuses: src/lib/commerce/order-status-names.ts, imported by the sandbox', () => {
    expect(filesMatching(/'Manual Verification Required'/)).toEqual([
      'src/lib/commerce/order-status-names.ts',
    ]);
    expect(importersOf('../../src/lib/commerce/order-status-names.ts')).toEqual([
      'scripts/sandbox/model.ts',
    ]);
  });

  test("the catalogue's sort values: CATALOG_SORT_FIELDS (listing.ts), for the connector and the sandbox", () => {
    expect(importersOf('../../../src/lib/commerce/listing.ts')).toContain(
      'scripts/sandbox/routes/catalog.ts',
    );
    expect(importersOf('../../../lib/commerce/listing.ts')).toContain(
      'src/shop/connectors/bigcommerce/queries.ts',
    );
    expect(filesMatching(/'date_last_imported',/)).toEqual(['src/lib/commerce/listing.ts']);
  });
});
