/**
 * What the sandbox (`sandbox/`, the workspace package `@literie/sandbox` that emulates the
 * upstream services) shares with the shop: the one module of `src/` it may import (ESLint,
 * `tests/unit/module-boundaries.test.ts`). The shop never imports the sandbox.
 *
 * - BigCommerce's order statuses 0 to 14, in id order: the sandbox's orders carry them.
 * - BigCommerce's catalog `sort` values: the sandbox's product list accepts exactly these.
 */
export { ORDER_STATUS_NAMES } from './commerce/order-status-names.ts';
export { CATALOG_SORT_FIELDS, type CatalogSortField } from './commerce/listing.ts';
