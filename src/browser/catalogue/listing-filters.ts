/**
 * The category listing's filters in place (panel open), the progressive enhancement of its GET
 * form (CategoryListing.astro). A change of a field (a filter ticked, a price entered, the sort
 * or page size chosen) fetches the URL the form would load without JavaScript
 * (`listingFormQuery`), the shop's own page of that view, and swaps in its filter panel (facet
 * counts, "Afficher N produits"), the count, the chips, the cards and the pagination: the
 * panel stays open, the focus stays on the field, the page stays scrolled where it was.
 * The URL follows (pushState; back and forward show their view again). Quick ticks make one
 * request, a newer one aborts the one under way, and only the latest is shown
 * (`latestLoader`). A failed update keeps the panel as it is and says why (offline or not).
 * "Afficher N produits" (phones) closes the panel and goes to the results. After each update
 * the new list's view_item_list is pushed, once, and the card scripts are told of the new cards.
 * A reply that is no page of this listing is followed as the form would be (a navigation).
 */
import { listItems, parsePageList, type PageList } from '../../lib/analytics/page-json.ts';
import {
  isListingReply,
  listingFailureKey,
  listingFormQuery,
  listingFormUrl,
} from '../../lib/commerce/listing-form.ts';
import { cardsReplaced } from '../../lib/stores/shown-cards.ts';
import { track } from '../../lib/stores/track.ts';
import { latestLoader } from './latest-loader.ts';

/** How long a change waits for the next one before the listing is fetched. */
const CHANGE_DELAY_MS = 300;

interface Request {
  url: string;
  /** Whether the shown view becomes a new history entry (not when history brought it). */
  push: boolean;
}

/** The parts of a fetched listing page that a change replaces. */
interface ListingView {
  url: string;
  title: string;
  filters: Element;
  count: string;
  results: Element;
  pagination: Element | null;
  list: PageList | null;
}

/** A fetch with no page of the listing: its status, 0 for no reply at all. */
class ReplyError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`listing reply ${String(status)}`);
    this.status = status;
  }
}

const FILTER_LIST = '[data-filter-list]';
const RESULTS = '[data-listing-results]';
const COUNT_ID = 'listing-results';

const form = document.querySelector<HTMLFormElement>('form[data-listing-form]');
const panel = document.querySelector<HTMLDetailsElement>('details[data-filters]');
const section = document.querySelector<HTMLElement>('[data-listing-section]');
const live = document.querySelector<HTMLElement>('[data-listing-live]');

/** The pagination: the section's own `nav` (paginationHtml), if the view has several pages. */
const paginationOf = (root: Element): Element | null => root.querySelector(':scope > nav');

function readView(doc: Document, url: string): ListingView | null {
  const filters = doc.querySelector(FILTER_LIST);
  const count = doc.getElementById(COUNT_ID)?.textContent;
  const results = doc.querySelector(RESULTS);
  const area = doc.querySelector('[data-listing-section]');
  if (filters === null || count === undefined || results === null || area === null) return null;
  return {
    url,
    title: doc.title,
    filters,
    count,
    results,
    pagination: paginationOf(area),
    list: parsePageList(results.querySelector('script[data-analytics-list]')?.textContent),
  };
}

async function load(request: Request, signal: AbortSignal): Promise<ListingView | null> {
  let reply: Response;
  try {
    reply = await fetch(request.url, { signal, headers: { accept: 'text/html' } });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ReplyError(0);
  }
  if (!reply.ok) throw new ReplyError(reply.status);
  const url = reply.url || request.url;
  if (!form || !isListingReply(url, form.action)) return null;
  const doc = new DOMParser().parseFromString(await reply.text(), 'text/html');
  return readView(doc, url);
}

/** A copy of `node` for this document; scripts other than JSON data are left out (they ran). */
function imported(node: Node): Node | null {
  if (node instanceof HTMLScriptElement && node.type !== 'application/json') return null;
  return document.importNode(node, true);
}

/** The field of the current panel matching `field` of the replaced one (name and value). */
function sameField(field: HTMLInputElement | HTMLSelectElement): HTMLElement | null {
  const name = `[name="${CSS.escape(field.name)}"]`;
  const selector =
    field instanceof HTMLInputElement && field.type === 'checkbox'
      ? `${name}[value="${CSS.escape(field.value)}"]`
      : name;
  return document.querySelector<HTMLElement>(`${FILTER_LIST} ${selector}`);
}

function show(view: ListingView, request: Request): void {
  const filters = document.querySelector(FILTER_LIST);
  const results = document.querySelector(RESULTS);
  if (!section || !filters || !results) return;
  // The field in use, and what is typed in it (not applied yet).
  const active = document.activeElement;
  const field =
    (active instanceof HTMLInputElement || active instanceof HTMLSelectElement) &&
    filters.contains(active)
      ? active
      : null;
  const typed = field instanceof HTMLInputElement && field.type !== 'checkbox' ? field.value : null;
  const scroll = window.scrollY;

  filters.replaceWith(document.importNode(view.filters, true));
  results.replaceChildren(
    ...[...view.results.childNodes].map(imported).filter((node) => node !== null),
  );
  paginationOf(section)?.remove();
  if (view.pagination !== null) section.append(document.importNode(view.pagination, true));
  const count = document.getElementById(COUNT_ID);
  if (count) count.textContent = view.count;
  document.title = view.title;

  const again = field === null ? null : sameField(field);
  if (again instanceof HTMLInputElement && typed !== null) again.value = typed;
  again?.focus({ preventScroll: true });
  // The page stays where the shopper was (no jump to the top, no anchoring to a removed node).
  window.scrollTo(window.scrollX, scroll);

  if (live) live.textContent = view.count;
  if (request.push && view.url !== window.location.href) window.history.pushState({}, '', view.url);
  if (view.list !== null) {
    track('trackViewItemList', view.list.name, listItems(view.list.items, view.list.offset));
  }
  cardsReplaced();
}

function say(text: string): void {
  const box = document.querySelector('[data-listing-error]');
  if (box) box.textContent = text;
}

let failed = false;

const loader = latestLoader<Request, ListingView | null>({
  delayMs: CHANGE_DELAY_MS,
  load,
  apply(view, request) {
    section?.removeAttribute('aria-busy');
    failed = false;
    if (view === null) window.location.assign(request.url);
    else show(view, request);
  },
  fail(error) {
    section?.removeAttribute('aria-busy');
    failed = true;
    const status = error instanceof ReplyError && error.status > 0 ? error.status : null;
    const key = listingFailureKey(status, navigator.onLine);
    const text = key === 'offline.action' ? live?.dataset.offline : live?.dataset.error;
    say(text ?? '');
    if (live) live.textContent = '';
  },
});

/** The URL the form loads as it is now. */
function formUrl(target: HTMLFormElement): string {
  const defaults: Record<string, string> = {};
  for (const element of target.elements) {
    if (element instanceof HTMLSelectElement && element.dataset.default !== undefined) {
      defaults[element.name] = element.dataset.default;
    }
  }
  return listingFormUrl(target.action, listingFormQuery(new FormData(target), defaults));
}

function update(target: HTMLFormElement, delayMs: number): void {
  say('');
  section?.setAttribute('aria-busy', 'true');
  loader.request({ url: formUrl(target), push: true }, delayMs);
}

if (form && section) {
  panel?.setAttribute('data-live', '');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    update(form, 0);
  });
  document.addEventListener('change', (event) => {
    const target = event.target;
    // The grid / list toggle is no field of the form: it changes nothing in the listing.
    if (
      (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) &&
      target.form === form
    ) {
      update(form, CHANGE_DELAY_MS);
    }
  });
  // "Afficher N produits": the latest change shown (or tried again), then the results.
  document.addEventListener('click', (event) => {
    const button =
      event.target instanceof Element ? event.target.closest('[data-filters-show]') : null;
    if (!(button instanceof HTMLButtonElement)) return;
    if (failed && !loader.busy()) update(form, 0);
    void loader.settle().then((shown) => {
      if (!shown) return;
      if (panel) panel.open = false;
      const count = document.getElementById(COUNT_ID);
      if (!count) return;
      count.tabIndex = -1;
      count.scrollIntoView({ block: 'start' });
      count.focus({ preventScroll: true });
    });
  });
  // Back and forward between views of this listing: the entry's view, as the URL says.
  window.addEventListener('popstate', () => {
    if (isListingReply(window.location.href, form.action)) {
      section.setAttribute('aria-busy', 'true');
      loader.request({ url: window.location.href, push: false }, 0);
    }
  });
}

for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="listing-view"]')) {
  radio.addEventListener('change', () => {
    try {
      localStorage.setItem('listing-view', radio.value);
    } catch {
      // Private mode: the choice is kept for this page only.
    }
  });
}
