/**
 * A category listing's on-demand view (`/vue/c/...?query`): what it shows, read once per
 * request, and its reply assembled from the pre-rendered page 1 when it can be. The
 * middleware asks for the assembled reply first (`with-listing-view.ts`), so an assembled view
 * skips Astro's page pipeline; otherwise the page renders the same read
 * (`src/pages/vue/c/[...slug].astro`, through `locals.listingView`).
 */
import { assembleListingView } from './listing-assembly.ts';
import { listingDocument } from './listing-view.ts';
import type { HeadProps } from '../layout/head.ts';
import { parseListingParams, type ListingParams } from '../../../lib/commerce/listing.ts';
import { applyListing, type ListingResult } from '../../../lib/commerce/listing-products.ts';
import type { ListingIndexing } from '../../../lib/commerce/listing-seo.ts';
import { bigcommerce, bigcommerceForHost } from '../../config/config.ts';
import {
  logFailure,
  pageOutcome,
  readForPage,
  type UpstreamFailure,
} from '../../faults/failures.ts';
import { withLayoutData } from '../../loaders/layout-data.ts';
import { listingViewSource, type ListingSource } from '../../loaders/listing-data.ts';
import { releaseListingPage } from '../../loaders/listing-page.ts';

/** The listing a view shows, or why it shows none. */
export type ListingView =
  | { failure: UpstreamFailure; listing: null }
  | { failure?: undefined; listing: null }
  | {
      failure?: undefined;
      listing: {
        source: ListingSource;
        params: ListingParams;
        result: ListingResult;
        head: HeadProps;
        indexing: ListingIndexing;
        /** The host's channel is the one the release was built for. */
        buildChannel: boolean;
      };
    };

/**
 * The view of the listing at `/c/{slug}` with the query of `url`, on the channel of `host`:
 * an upstream failure (no copy to show), no listing (unknown or hidden category), or the
 * listing with its products for the query, its head and indexing. `site` is the shop's URL.
 */
export async function readListingView(
  slug: string,
  url: URL,
  host: string | null,
  site: URL | string,
): Promise<ListingView> {
  if (slug === '') return { listing: null };
  const client = bigcommerceForHost(host);
  const buildClient = bigcommerce();
  const read = await readForPage('listing', `listing view /c/${slug.slice(0, 100)}`, () =>
    withLayoutData(() => listingViewSource(client, buildClient, `/c/${slug}`)),
  );
  if (read.failure) return { failure: read.failure, listing: null };
  const source = read.value;
  if (source === null) return { listing: null };
  const params = parseListingParams(url.searchParams);
  const result = applyListing(source.products, params, source.brands);
  const { head, indexing } = listingDocument(source, params, result.pagination.totalPages, site);
  return {
    listing: {
      source,
      params,
      result,
      head,
      indexing,
      buildChannel: (client.channelId ?? 1) === (buildClient.channelId ?? 1),
    },
  };
}

/**
 * Status and headers of a view's reply, whether rendered or assembled: `noindex` as the
 * listing says (and for no listing), cacheable when found (`pageOutcome`).
 */
export function listingViewOutcome(
  view: ListingView,
  response: { status?: number; readonly headers: Headers },
): void {
  if (view.listing?.indexing.noindex !== false) {
    response.headers.set('X-Robots-Tag', 'noindex, follow');
  }
  // Unknown or hidden category (spec §5): the not-found page; a page past the last: 404.
  pageOutcome(response, view.failure, view.listing?.indexing.status === 200);
}

/**
 * A shopper's view of a listing of the release's channel, put together from its pre-rendered
 * page 1 (listing-assembly.ts): the reply a render gives, without the render. Null when it
 * must be rendered: another channel, no products, a page past the last, no release to read
 * page 1 from (`astro dev`), or anything the assembly cannot do exactly. The caller has
 * ruled out a reseller's view (never assembled: it is rendered for them).
 */
export async function assembledListingView(
  view: ListingView,
  site: URL | string,
): Promise<Response | null> {
  const { listing } = view;
  if (!listing?.buildChannel || listing.indexing.status !== 200) return null;
  const { source, params, result, head } = listing;
  let assembled: ReturnType<typeof assembleListingView> = null;
  try {
    const page = await releaseListingPage(source.category.path);
    if (page) assembled = assembleListingView(page, source, params, result, head, site);
  } catch (error) {
    logFailure('listing', `page 1 of ${source.category.path} not read`, error);
  }
  if (assembled === null) return null;
  const reply = { status: 200, headers: new Headers() };
  listingViewOutcome(view, reply);
  // What Astro adds to a page it renders: its type, and the policy of its scripts and styles.
  reply.headers.set('Content-Type', 'text/html');
  reply.headers.set('Content-Security-Policy', assembled.csp);
  const { chunks } = assembled;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, reply);
}
