import type { MiddlewareHandler } from 'astro';
import { localPath } from '../../commerce/redirect-target.ts';
import { productPath } from '../../commerce/slug.ts';
import type { Product } from '../../commerce/types.ts';
import { logFailure } from '../failures.ts';

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
 */
export function createWithProductPath(options: ProductPathOptions): MiddlewareHandler {
  const ttl = options.ttlMs ?? 5 * 60_000;
  const paths = new Map<number, { path: Promise<string | null>; expires: number }>();
  const canonical = (id: number): Promise<string | null> => {
    const now = Date.now();
    const hit = paths.get(id);
    if (hit && hit.expires > now) return hit.path;
    if (paths.size > 10_000) paths.clear();
    const path = options
      .lookup(id)
      .then((product) => (product?.isVisible ? productPath(product) : null))
      .catch((error: unknown) => {
        paths.delete(id);
        logFailure('product-path', `could not look up product ${id}`, error);
        return null;
      });
    paths.set(id, { path, expires: now + ttl });
    return path;
  };

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
