/**
 * The pre-rendered page 1 of each category listing in the release this process serves, which
 * a listing view is put together from (listing-assembly.ts). src/server/serve.ts names the
 * release's `client` folder (`useListingPages`) before it loads the pages; without it
 * (`astro dev`, a test of the pages alone) there is no page 1 to read and views are rendered.
 * Pages read are kept until the next publish (`clearUpstreamCaches`), which may rewrite them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createCache } from '../connectors/http/cache.ts';

const SLOT = Symbol.for('literie.listing-pages');

type Holder = typeof globalThis & { [SLOT]?: string | undefined };

/**
 * Tells this process the folder of the release's pre-rendered pages (through `globalThis`:
 * the pages run from a bundle with module instances of their own); undefined: none.
 */
export function useListingPages(clientDir: string | undefined): void {
  (globalThis as Holder)[SLOT] = clientDir === undefined ? undefined : path.resolve(clientDir);
}

/** Page 1 files kept: every listing of a large catalogue, about 100 KB each. */
const pages = createCache<string | null>({
  ttlMs: 60 * 60_000,
  maxEntries: 1_000,
  maxWeight: 64 * 2 ** 20,
  weigh: (html) => Math.max(1, html?.length ?? 0),
});

/**
 * The file of the listing at `listingPath` (`/c/...`) in `root`, as the build writes it
 * (`/c/matelas` → `c/matelas.html`); null for a path that is not a listing's or would leave
 * the folder.
 */
export function listingPageFile(root: string, listingPath: string): string | null {
  if (!/^\/c\/[^\0\\]+$/.test(listingPath) || listingPath.split('/').includes('..')) return null;
  const file = path.join(root, `${listingPath}.html`);
  return file.startsWith(root + path.sep) ? file : null;
}

/**
 * The HTML of the pre-rendered page 1 of the listing at `listingPath`: null when the release
 * has none for it; undefined when this process serves no release (the caller renders).
 */
export function releaseListingPage(listingPath: string): Promise<string | null> | undefined {
  const root = (globalThis as Holder)[SLOT];
  if (root === undefined) return undefined;
  const file = listingPageFile(root, listingPath);
  if (file === null) return Promise.resolve(null);
  return pages.get(file, async () => {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  });
}
