import type { MiddlewareHandler } from 'astro';
import { localPath } from '../../lib/commerce/redirect-target.ts';
import { productPath } from '../../lib/commerce/slug.ts';
import type { Product } from '../../lib/commerce/types.ts';
import { createCache } from '../connectors/http/cache.ts';
import { logFailure } from '../faults/failures.ts';

export interface ProductPathOptions {
  /** The product with this id, or null (the connector's `getProductById`). */
  lookup: (id: number) => Promise<Pick<Product, 'id' | 'name' | 'isVisible'> | null>;
  /** How long a looked-up path is reused, in ms. */
  ttlMs?: number;
}

const PRODUCT_PATH = /^\/p\/(\d{1,10})(?:\/[^/]*)?$/;

/**
 * A product page asked with an outdated or missing slug (`/p/122/ancien-nom`, `/p/122`) is not
 * a pre-rendered file, so it reaches Astro: 301 to the product's page `/p/{id}/{slug}` when
 * the product is visible. Unknown, hidden or already canonical paths go on (to the 404).
 *
 * Each product's path is kept `ttlMs` (5 minutes), in an upstream read cache (`cache.ts`) that a
 * publish empties (`clearUpstreamCaches`, on every copy: src/server/rebuild/): right after a
 * rename is published, the old path answers 301 to the new one, not the 404 of a path it
 * remembered as canonical. A failed lookup is not kept.
 */
export function createWithProductPath(options: ProductPathOptions): MiddlewareHandler {
  const paths = createCache<string | null>({
    ttlMs: options.ttlMs ?? 5 * 60_000,
    maxEntries: 10_000,
  });
  const canonical = (id: number): Promise<string | null> =>
    paths
      .get(String(id), async () => {
        const product = await options.lookup(id);
        return product?.isVisible ? productPath(product) : null;
      })
      .catch((error: unknown) => {
        logFailure('product-path', `could not look up product ${id}`, error);
        return null;
      });

  return async (context, next) => {
    if (context.isPrerendered) return next();
    const match = PRODUCT_PATH.exec(context.url.pathname);
    if (!match) return next();
    const path = await canonical(Number(match[1]));
    if (path === null || path === context.url.pathname) return next();
    const target = localPath(path + context.url.search);
    if (target === null) return next();
    return new Response(null, { status: 301, headers: { Location: target } });
  };
}
