/**
 * Where the environment is read (one home each): on the Node side, every variable of the shop
 * only by the one table of the environment (`src/shop/config/environment.ts`, which
 * `astro.config.mjs`, the storefront server and the scripts call); in Astro's runtime, one
 * importer of `astro:env/server` (`src/shop/config/config.ts`) and one of `astro:env/client`
 * (`src/lib/env-client.ts`), whose schema is generated from the same table. Shared
 * regexes and tables written once: the order id, the sleep-list page path, the order statuses
 * and the catalogue's sort values (the sandbox imports the shop's, through
 * `src/lib/sandbox-contract.ts`, the one module of the shop it may import; the shop never
 * imports the sandbox, and the rest of the repository imports it by its package's exports,
 * `@literie/sandbox/…`; ESLint `no-restricted-imports` says the same). Components render what they
 * are given: no file of `src/components` imports a connector or `node:fs` (the loaders of
 * `src/shop/loaders/` do; ESLint `no-restricted-imports` says the same in the editor).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { VARIABLES, type VariableName } from '../../src/shop/config/environment.ts';

const VARIABLE_NAMES = Object.keys(VARIABLES) as VariableName[];

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = /\.(?:ts|tsx|astro|mjs|js)$/;

/** Source files under `dir` (relative to the repository, forward slashes). */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => SOURCE.test(file) && !/(?:^|[/\\])(?:node_modules|\.sandbox)[/\\]/.test(file))
    .map((file) => `${dir}/${file.split(path.sep).join('/')}`)
    .sort();
}

const FILES = [...sources('src'), ...sources('scripts'), ...sources('sandbox'), 'astro.config.mjs'];
const text = new Map(FILES.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));

/** Files with a static or dynamic import of `specifier`. */
function importersOf(specifier: string): string[] {
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const pattern = new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*\\(?\\s*)['"]${quoted}['"]`);
  return FILES.filter((file) => pattern.test(text.get(file) ?? ''));
}

/**
 * Files that read `name` from an environment object (`process.env.X`, `env.X`, `env['X']`).
 * Setting a value for a child process (`env.X = …`, `env.X ??= …`, `delete env.X`) is no read.
 */
function readersOf(name: string, files: readonly string[] = FILES): string[] {
  const pattern = new RegExp(
    `(?<!delete\\s+(?:process\\.)?)\\benv(?:\\.${name}\\b|\\[\\s*['"]${name}['"]\\s*\\])(?!\\s*(?:=(?!=)|\\?\\?=))`,
  );
  return files.filter((file) => pattern.test(text.get(file) ?? ''));
}

/**
 * The shop's files: the sandbox (`sandbox/src/`, its own product) reads its own port and
 * folder and never imports the shop, so it is not held to the shop's table.
 */
const SHOP_FILES = FILES.filter((file) => !file.startsWith('sandbox/src/'));

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

  test('every variable of the shop: read by the one table, src/shop/config/environment.ts', () => {
    expect(VARIABLE_NAMES.length).toBeGreaterThan(60);
    const elsewhere = VARIABLE_NAMES.flatMap((name) =>
      readersOf(name, SHOP_FILES).map((file) => `${name}: ${file}`),
    );
    expect(elsewhere).toEqual([]);
    // The table reads each one by its name (`env[name]`), not by a literal.
    expect(text.get('src/shop/config/environment.ts')).toMatch(/env\[name\]/);
  });

  test('the scan finds a reader, and tells a write from a read', () => {
    const probe = 'scripts/probe.ts';
    const source = (line: string) => {
      text.set(probe, line);
      try {
        return readersOf('SITE_URL', [probe]);
      } finally {
        text.delete(probe);
      }
    };
    expect(source("const site = process.env.SITE_URL ?? 'x';")).toEqual([probe]);
    expect(source("const site = env['SITE_URL'];")).toEqual([probe]);
    expect(source('if (env.SITE_URL === undefined) {}')).toEqual([probe]);
    expect(source("env.SITE_URL = 'x';")).toEqual([]);
    expect(source("process.env.SITE_URL ??= 'x';")).toEqual([]);
    expect(source('delete process.env.SITE_URL;')).toEqual([]);
  });

  test('the feature flags: names, defaults and rules in src/lib/features.ts', () => {
    expect(text.get('src/shop/config/environment.ts')).toMatch(/FEATURE_VARIABLES\./);
    expect(importersOf('../../lib/commerce/features.ts')).toEqual([]);
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
  const CONNECTOR = '/shop/connectors/';
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
        .filter((specifier) => specifier.includes(CONNECTOR) || DISK.test(specifier))
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

  test('the order statuses: src/lib/commerce/order-status-names.ts, read by the sandbox through the contract', () => {
    expect(filesMatching(/'Manual Verification Required'/)).toEqual([
      'src/lib/commerce/order-status-names.ts',
    ]);
    expect(importersOf('./commerce/order-status-names.ts')).toEqual([
      'src/lib/sandbox-contract.ts',
    ]);
    expect(importersOf('../../src/lib/sandbox-contract.ts')).toContain('sandbox/src/model.ts');
  });

  test("the catalogue's sort values: CATALOG_SORT_FIELDS (listing.ts), for the connector and the sandbox", () => {
    expect(importersOf('../../../src/lib/sandbox-contract.ts')).toContain(
      'sandbox/src/routes/catalog.ts',
    );
    expect(importersOf('./commerce/listing.ts')).toContain('src/lib/sandbox-contract.ts');
    expect(importersOf('../../../lib/commerce/listing.ts')).toContain(
      'src/shop/connectors/bigcommerce/queries.ts',
    );
    expect(filesMatching(/'date_last_imported',/)).toEqual(['src/lib/commerce/listing.ts']);
  });
});

describe('the shop and the sandbox meet only through src/lib/sandbox-contract.ts', () => {
  const CONTRACT = 'src/lib/sandbox-contract.ts';
  const PACKAGE = '@literie/sandbox';
  const exported = Object.keys(
    (
      JSON.parse(readFileSync(path.join(ROOT, 'sandbox/package.json'), 'utf8')) as {
        exports: Record<string, string>;
      }
    ).exports,
  );
  const TESTS = sources('tests');
  for (const file of TESTS) text.set(file, readFileSync(path.join(ROOT, file), 'utf8'));

  /** The repository path a relative specifier of `file` names (null for a package or builtin). */
  const target = (file: string, specifier: string): string | null =>
    specifier.startsWith('.')
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
      : null;

  test('the scan sees the sandbox, its tests and the contract', () => {
    expect(FILES).toContain('sandbox/src/server.ts');
    expect(FILES).toContain('sandbox/tests/sandbox.test.ts');
    expect(FILES).toContain(CONTRACT);
    expect(TESTS.length).toBeGreaterThan(200);
  });

  test('the sandbox imports nothing outside its package but the contract', () => {
    const sandbox = FILES.filter((file) => file.startsWith('sandbox/'));
    const outside = sandbox.flatMap((file) =>
      specifiers(text.get(file) ?? '')
        .map((specifier) => target(file, specifier))
        .filter((to): to is string => to !== null && !to.startsWith('sandbox/'))
        .map((to) => `${file}: ${to}`),
    );
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.filter((line) => !line.endsWith(`: ${CONTRACT}`))).toEqual([]);
  });

  test("the contract re-exports the shop's own tables, nothing else", async () => {
    const contract = await import('../../src/lib/sandbox-contract.ts');
    const { ORDER_STATUS_NAMES } = await import('../../src/lib/commerce/order-status-names.ts');
    const { CATALOG_SORT_FIELDS } = await import('../../src/lib/commerce/listing.ts');
    expect(Object.keys(contract).sort()).toEqual(['CATALOG_SORT_FIELDS', 'ORDER_STATUS_NAMES']);
    expect(contract.ORDER_STATUS_NAMES).toBe(ORDER_STATUS_NAMES);
    expect(contract.CATALOG_SORT_FIELDS).toBe(CATALOG_SORT_FIELDS);
  });

  test('the shop (src/, astro.config.mjs) never imports the sandbox', () => {
    const shop = FILES.filter(
      (file) => !file.startsWith('sandbox/') && !file.startsWith('scripts/'),
    );
    const offending = shop.flatMap((file) =>
      specifiers(text.get(file) ?? '')
        .filter(
          (specifier) =>
            specifier === PACKAGE ||
            specifier.startsWith(`${PACKAGE}/`) ||
            (target(file, specifier)?.startsWith('sandbox/') ?? false),
        )
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  test('scripts and tests import the sandbox by its package name, through its exports', () => {
    const users = [...FILES.filter((file) => file.startsWith('scripts/')), ...TESTS];
    const named = users.flatMap((file) =>
      specifiers(text.get(file) ?? '')
        .filter((specifier) => specifier.startsWith(`${PACKAGE}/`))
        .map((specifier) => `.${specifier.slice(PACKAGE.length)}`),
    );
    expect(named).toContain('./server');
    expect(named.filter((entry) => !exported.includes(entry))).toEqual([]);
    const relative = users.flatMap((file) =>
      specifiers(text.get(file) ?? '')
        .filter((specifier) => target(file, specifier)?.startsWith('sandbox/') ?? false)
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(relative).toEqual([]);
  });
});
