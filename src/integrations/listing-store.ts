/**
 * Writes the release's listings (`server/listings.sqlite`, loaders/listing-store.ts) once the
 * pages are built, from the catalogue they were rendered from (handed over by catalogue.ts):
 * the on-demand listing view then renders from the same data as the pre-rendered page 1,
 * without reading a whole category live.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { handedOver } from '../lib/server/loaders/handoff.ts';
import { LISTING_STORE_FILE, writeListingStore } from '../lib/server/loaders/listing-store.ts';

export function listingStore(): AstroIntegration {
  let serverDir = '';
  return {
    name: 'listing-store',
    hooks: {
      'astro:config:done': ({ config }) => {
        serverDir = fileURLToPath(config.build.server);
      },
      'astro:build:done': async ({ logger }) => {
        const catalogue = handedOver('catalogue');
        if (catalogue === undefined) {
          // No page read the catalogue: listing views read it live.
          logger.warn('no page read the catalogue: listing views will read it live');
          return;
        }
        const started = performance.now();
        await writeListingStore(path.join(serverDir, LISTING_STORE_FILE), catalogue);
        // One line, like the catalogue's (printed whatever Astro's log level).
        console.info(
          `[listings] ${String(catalogue.products.length)} products written in ${String(Math.round(performance.now() - started))} ms`,
        );
      },
    },
  };
}
