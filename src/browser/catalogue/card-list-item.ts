/**
 * The GA4 item of a product card within its list (browser): the list is the nearest one, up
 * the page from the card, whose JSON (`analyticsListHtml`, `script[data-analytics-list]`)
 * shows the card's product; its item carries the list's name, the card's place, its brand and
 * main category. The card itself carries none of it: its markup is shared by every page that
 * shows the product (ProductCard.astro).
 */
import { pageListItem, parsePageList, type PageList } from '../../lib/analytics/page-json.ts';
import type { AnalyticsItem } from '../../lib/analytics/datalayer.ts';

const LIST_SELECTOR = 'script[data-analytics-list]';
const PRODUCT_PATH = /^\/p\/(\d{1,10})(?:\/|$)/;
const lists = new WeakMap<Element, PageList | null>();

function listOf(node: Element): PageList | null {
  if (!lists.has(node)) lists.set(node, parsePageList(node.textContent));
  return lists.get(node) ?? null;
}

/** The product id of a card, from its link (`/p/{id}/{slug}`); null for another link. */
export function cardProductId(card: Element): number | null {
  const href = card.querySelector('a.card-link')?.getAttribute('href') ?? '';
  const match = PRODUCT_PATH.exec(href);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/** The card's item within its list, or null when no list of the page shows it. */
export function cardListItem(card: Element, productId: number): AnalyticsItem | null {
  for (let scope = card.parentElement; scope !== null; scope = scope.parentElement) {
    for (const node of scope.querySelectorAll(LIST_SELECTOR)) {
      const list = listOf(node);
      const item = list === null ? null : pageListItem(list, productId);
      if (item !== null) return item;
    }
  }
  return null;
}
