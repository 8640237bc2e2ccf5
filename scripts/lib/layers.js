// @ts-check
/**
 * The layers of `src/` and what each may not import: the one table that ESLint
 * (`eslint.config.js`, `no-restricted-imports`, in the editor) and the import-graph test
 * (`tests/unit/layers.test.ts`, over resolved paths) both hold the code to. Imports only go
 * down (docs/architecture.md "Layers"):
 *
 *   pages, middleware.ts ─► views ─► layouts ─► components ─► browser ─► lib
 *                                        └────► islands ─────┘
 *   pages, views, layouts, components ─► shop (not its connectors or API) ─► lib
 *   server (the hosting engine) ─► shop, lib;  integrations (build) ─► server, shop, lib
 *
 * Components and islands are siblings: a component never imports an island (layouts and views
 * place islands and their loaders), an island never imports a component. The sandbox is not
 * the shop's: `src/` never imports it.
 */

/** Every layer folder of `src/`, by the name a specifier's path shows. */
const FOLDERS = [
  'pages',
  'views',
  'layouts',
  'components',
  'islands',
  'browser',
  'lib',
  'shop',
  'server',
  'integrations',
  'sw',
];

/**
 * Per layer: the folders it may not import (`shop/connectors` and `shop/api` are the shop's
 * upstream and API: pages and components get data through loaders).
 * @type {Record<string, readonly string[]>}
 */
export const FORBIDDEN = {
  lib: [
    'pages',
    'views',
    'layouts',
    'components',
    'islands',
    'browser',
    'shop',
    'server',
    'integrations',
    'sw',
  ],
  browser: [
    'pages',
    'views',
    'layouts',
    'components',
    'islands',
    'shop',
    'server',
    'integrations',
    'sw',
  ],
  sw: [
    'pages',
    'views',
    'layouts',
    'components',
    'islands',
    'browser',
    'shop',
    'server',
    'integrations',
  ],
  islands: ['pages', 'views', 'layouts', 'components', 'shop', 'server', 'integrations', 'sw'],
  components: [
    'pages',
    'views',
    'layouts',
    'islands',
    'server',
    'integrations',
    'sw',
    'shop/connectors',
    'shop/api',
  ],
  layouts: ['pages', 'views', 'server', 'integrations', 'sw', 'shop/connectors', 'shop/api'],
  views: ['pages', 'server', 'integrations', 'sw', 'shop/connectors', 'shop/api'],
  pages: ['server', 'integrations', 'sw', 'shop/connectors'],
  shop: [
    'pages',
    'views',
    'layouts',
    'components',
    'islands',
    'browser',
    'server',
    'integrations',
    'sw',
  ],
  server: ['pages', 'views', 'layouts', 'components', 'islands', 'browser'],
  integrations: ['pages', 'views', 'layouts', 'components', 'islands', 'browser'],
};

/** The layer of a repository path (`src/shop/api/handle.ts` → `shop`), or null outside `src/`. */
export function layerOf(/** @type {string} */ file) {
  const [top, folder = '', ...rest] = file.split('/');
  if (top !== 'src') return null;
  if (rest.length === 0) return folder === 'middleware.ts' ? 'pages' : null;
  return FOLDERS.includes(folder) ? folder : null;
}

/** Whether `from` (a repository path) may import `to`: null when it may, else the rule it breaks. */
export function forbiddenEdge(/** @type {string} */ from, /** @type {string} */ to) {
  if (to.startsWith('sandbox/') && from.startsWith('src/')) return 'src → sandbox';
  const a = layerOf(from);
  const b = layerOf(to);
  if (a === null || b === null) return null;
  const rest = to.split('/').slice(1).join('/');
  const hit = (FORBIDDEN[a] ?? []).find(
    (/** @type {string} */ f) => rest === f || rest.startsWith(`${f}/`),
  );
  return hit === undefined ? null : `${a} → ${hit}`;
}

/**
 * ESLint `no-restricted-imports` patterns of a layer: relative specifiers through a forbidden
 * folder (a package such as `astro/runtime/server/...` is not ours).
 */
export function layerPatterns(/** @type {string} */ layer) {
  return (FORBIDDEN[layer] ?? []).map((folder) => ({
    regex: `^\\.{1,2}/(?:[^'"]*/)?${folder.replace('/', '\\/')}(?:/|$)`,
    message: `${layer} may not import ${folder}: imports only go down (docs/architecture.md "Layers").`,
  }));
}
