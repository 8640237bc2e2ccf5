/**
 * A listing view put together from its category's pre-rendered page 1, without a render
 * (a never-seen view in about 2 ms of CPU instead of 5). Everything on a view that
 * differs from page 1 is a string function of its inputs (listing-markup.ts, head-markup.ts,
 * the cards' shared markup), so the view is page 1 with each of page 1's parts, found by its
 * own markup, replaced by the view's: the head; the listing's form, filters, controls, chips
 * and analytics list; the cards; the pagination.
 *
 * The result is the bytes Astro renders for the view (tests/scale/listing-assembly.test.ts
 * compares them), with one move: a pre-rendered page carries its Content-Security-Policy in a
 * `<meta>`, an on-demand page in the header, so the policy is taken out of the markup and
 * handed to the caller for the header. Any doubt answers null and the caller renders the view:
 * a part of page 1 not where it should be (page 1 and the listings disagree for a moment
 * during a publish, or the markup changed), a card whose shared markup is not kept yet, a view
 * with no product.
 */
import { unescape } from 'html-escaper';
import { parseListingParams, type ListingParams } from '../../../lib/commerce/listing.ts';
import { applyListing, type ListingResult } from '../../../lib/commerce/listing-products.ts';
import { variantFilter } from '../../../lib/commerce/offer.ts';
import type { Product } from '../../../lib/commerce/types.ts';
import type { ListingSource } from '../../loaders/listing-source.ts';
import { baseHeadHtml } from '../layout/head-markup.ts';
import { sharedMarkup } from '../../../lib/ui/memo.ts';
import { listingPartsHtml } from './listing-markup.ts';
import type { HeadProps } from '../layout/head.ts';
import { listingDocument } from './listing-view.ts';
import { listingCardKey } from './view.ts';

export interface AssembledView {
  /**
   * The page, UTF-8, in pieces: page 1's are shared by every view of it (not to be written
   * to), so a view's reply streams them rather than copying them into one body.
   */
  chunks: readonly Uint8Array[];
  /** The page's Content-Security-Policy, for the reply's header. */
  csp: string;
}

/** The policy's `<meta>` in a pre-rendered page (Astro writes it so). */
const CSP_META = /<meta http-equiv="content-security-policy" content="([^"<>]*)">/;
const ITEM_START = '<li class="flex">';
const ITEM_END = '</li>';
const CARD_START = '<article';
const CARD_END = '</article>';

/**
 * Page 1 cut where a view's parts go: `between[i]` comes before the view's part `i` (head,
 * form, filters, controls, chips and analytics list, cards, pagination), the last one after
 * them all. Kept as bytes: a view is these buffers and its own parts, copied once.
 */
interface Template {
  between: Buffer[];
  csp: string;
}

/** Templates by listing source (a publish brings new sources), with the page they cut. */
const templates = new WeakMap<ListingSource, { page: string; template: Template | null }>();

/** Page 1 of `source` cut where a view's parts go; null when a part is not where it should be. */
function templateOf(page: string, source: ListingSource, site: URL | string): Template | null {
  const kept = templates.get(source);
  if (kept?.page === page) return kept.template;
  const template = cut(page, source, site);
  templates.set(source, { page, template });
  return template;
}

function cut(page: string, source: ListingSource, site: URL | string): Template | null {
  const params = parseListingParams('');
  const result = applyListing(source.products, params, source.brands);
  const head = baseHeadHtml(
    listingDocument(source, params, result.pagination.totalPages, site).head,
    { site, pathname: source.category.path },
  );
  const parts = listingPartsHtml(source, params, result);
  const between: string[] = [];
  let at = 0;
  /** Page 1 from where it was left to `part` (its next occurrence) goes before the view's. */
  const cutAt = (part: string): boolean => {
    const found = page.indexOf(part, at);
    if (found === -1) return false;
    between.push(page.slice(at, found));
    at = found + part.length;
    return true;
  };
  // The policy goes to the header: BaseLayout writes it right after `<meta charset>`, before
  // the page's head.
  const headAt = page.indexOf(head);
  const csp = headAt === -1 ? null : CSP_META.exec(page.slice(0, headAt));
  if (csp?.[1] === undefined) return null;
  page = page.slice(0, csp.index) + page.slice(csp.index + csp[0].length);
  if (!cutAt(head)) return null;
  if (!cutAt(parts.form) || !cutAt(parts.filters) || !cutAt(parts.controls)) return null;
  // Page 1 has no chips: the view's go right before its analytics list.
  if (parts.chips !== '' || parts.analytics === '' || !cutAt(parts.analytics)) return null;
  // The cards: after page 1's own opening tag of the grid, as many items as page 1 shows.
  const gridAt = page.indexOf('<ul data-grid', at);
  const gridOpenEnd = gridAt === -1 ? -1 : page.indexOf('>', gridAt) + 1;
  if (gridOpenEnd <= 0) return null;
  let end = gridOpenEnd;
  for (let left = result.items.length; left > 0; left -= 1) {
    if (!page.startsWith(ITEM_START + CARD_START, end)) return null;
    const close = page.indexOf(CARD_END + ITEM_END, end);
    if (close === -1) return null;
    end = close + CARD_END.length + ITEM_END.length;
  }
  if (!page.startsWith('</ul>', end)) return null;
  between.push(page.slice(at, gridOpenEnd));
  at = end;
  // The pagination closes the results' section.
  const sectionEnd = page.indexOf('</section>', at);
  const paginationAt = sectionEnd - parts.pagination.length;
  if (sectionEnd === -1 || page.slice(paginationAt, sectionEnd) !== parts.pagination) return null;
  between.push(page.slice(at, paginationAt), page.slice(sectionEnd));
  return { between: between.map((text) => Buffer.from(text)), csp: unescape(csp[1]) };
}

/**
 * The view of `source` with `params` (`result` its `applyListing`, `head` its document head)
 * made from `page`, the category's pre-rendered page 1; null when it cannot be made exactly
 * (the caller renders). `site` is the shop's URL, as the pages were built with.
 */
export function assembleListingView(
  page: string,
  source: ListingSource,
  params: ListingParams,
  result: ListingResult,
  head: HeadProps,
  site: URL | string,
): AssembledView | null {
  if (result.items.length === 0) return null;
  const cards: Buffer[] = [];
  // The cards of a size- or colour-filtered view are shared under that filter (view.ts).
  const filter = variantFilter(params.filters);
  for (const [index, product] of result.items.entries()) {
    const card = cardItem(product, listingCardKey(index, filter));
    if (card === undefined) return null;
    cards.push(card);
  }
  const template = templateOf(page, source, site);
  if (template === null) return null;
  const parts = listingPartsHtml(source, params, result);
  const text = [
    baseHeadHtml(head, { site, pathname: source.category.path }),
    parts.form,
    parts.filters,
    parts.controls,
    parts.chips + parts.analytics,
  ].map((part) => Buffer.from(part));
  const [before, ...between] = template.between;
  const chunks = [before];
  for (const [index, part] of text.entries()) chunks.push(part, between[index]);
  chunks.push(...cards, between[text.length], Buffer.from(parts.pagination), between.at(-1));
  if (chunks.includes(undefined)) return null;
  return { chunks: chunks as Buffer[], csp: template.csp };
}

/** Encoded cards, in their grid item, by product and card key (a product's markup is fixed). */
const cardItems = new WeakMap<Product, Map<string, Buffer>>();

/** The listing grid's item of `product`'s card kept under `key`, if its markup is shared. */
function cardItem(product: Product, key: string): Buffer | undefined {
  let items = cardItems.get(product);
  const kept = items?.get(key);
  if (kept !== undefined) return kept;
  const card = sharedMarkup(product, key);
  if (card === undefined) return undefined;
  const item = Buffer.from(ITEM_START + card + ITEM_END);
  if (items === undefined) {
    items = new Map();
    cardItems.set(product, items);
  }
  items.set(key, item);
  return item;
}
