/**
 * The reseller mode of the whole shop (spec §1, §2, §6): a logged-in reseller sees every page
 * without what spec §6 hides (banner, top-bar links, reassurance, sleep-content and affiliate
 * links, newsletter, social links, payment logos, the reviews iframe), product cards flagged
 * with their reference, and cart links to the reseller cart. Pages stay the same static files
 * for everyone else: the parts a reseller must not see are wrapped in marker comments at
 * render, and the storefront server removes them for a reseller (`resellerPage`). Pure.
 */
import { SLEEP_CONTENT_ROOT } from '../content/list-view.ts';
import { decodeEntities, escapeHtml } from './text.ts';
import { CART_PATH, CHECKOUT_PATH, RESELLER_CART_PATH } from './routes.ts';

/** The affiliate programme's content page (spec §2 top bar; resellers never see it). */
export const AFFILIATE_PATH = '/devenir-affilie';

/** Local paths resellers never see a link to (spec §6: sleep content, affiliate link). */
const RESELLER_HIDDEN_PATHS = [SLEEP_CONTENT_ROOT, AFFILIATE_PATH];

/** The social networks of spec §1 (linkedin, instagram, facebook), by host and subdomains. */
const SOCIAL_HOSTS = ['linkedin.com', 'instagram.com', 'facebook.com', 'fb.com', 'fb.me'];

/** True for a link to one of the social networks (resellers see none, spec §6). */
export function isSocialLink(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return SOCIAL_HOSTS.some((social) => host === social || host.endsWith(`.${social}`));
}

/** The path of a local link, without its query or fragment. */
export const linkPath = (url: string): string => url.split(/[?#]/, 1)[0] ?? '';

/**
 * A link resellers never see (spec §6): sleep content, the affiliate page, a social network.
 * `url` is a local path or an absolute URL.
 */
export function hiddenFromResellers(url: string): boolean {
  if (!url.startsWith('/') || url.startsWith('//')) return isSocialLink(url);
  const path = linkPath(url);
  return RESELLER_HIDDEN_PATHS.some((hidden) => path === hidden || path.startsWith(`${hidden}/`));
}

/** An anchor and its content (no anchor nests in HTML). */
const ANCHOR = /<a\b[^>]*?\shref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi;

/**
 * The cookie saying "this browser's customer is a reseller" (set at login and on load by the
 * server from the session, cleared at logout). A hint for serving and first paint only: it
 * never grants anything; the server reads the session for whatever it protects.
 */
export const SHOP_MODE_COOKIE = 'mode-revendeur';
export const SHOP_MODE_RESELLER = '1';

/** Marker comments around what a reseller does not see (they may nest). */
export const CONSUMER_ONLY_START = '<!--consumer-only-->';
export const CONSUMER_ONLY_END = '<!--/consumer-only-->';
/** `<!--reseller-ref:{uri-encoded text}-->`: a card's reference line, shown to resellers only. */
export const RESELLER_REF_PREFIX = '<!--reseller-ref:';
const RESELLER_REF = /<!--reseller-ref:([A-Za-z0-9%._~*'()]{0,900})-->/g;

/** The class of the reference line a reseller sees on a product card. */
export const RESELLER_REF_CLASS = 'text-xs text-neutral-600';

/** The marker comment of a card's reference line (`text` is plain text). */
export function resellerRefMarker(text: string): string {
  return `${RESELLER_REF_PREFIX}${commentSafe(text)}-->`;
}

/** `<!--reseller-badge:{uri-encoded text}-->`: the header's "Espace revendeur" badge. */
const RESELLER_BADGE = /<!--reseller-badge:([A-Za-z0-9%._~*'()]{0,900})-->/g;

/**
 * The class of the header's reseller badge (pre-rendered pages and on-demand ones alike);
 * `mode-badge` names it for the header's phone layout (`src/styles/components.css`).
 */
export const RESELLER_BADGE_CLASS =
  'mode-badge bg-secondary-100 text-secondary-800 shrink-0 whitespace-nowrap rounded-full px-3 py-1 text-xs font-semibold';

/** The marker comment of the header's reseller badge (`text` is plain text). */
export function resellerBadgeMarker(text: string): string {
  return `<!--reseller-badge:${commentSafe(text)}-->`;
}

/** Text encoded so that nothing in it can end a comment ('-->', '--!>'): no '-' nor '!' left. */
function commentSafe(text: string): string {
  return encodeURIComponent(text).replace(/[-!]/g, (c) => (c === '-' ? '%2D' : '%21'));
}

/**
 * Whether the shop is in reseller mode for this customer (spec §6): a reseller (form field
 * 'oui'), while the reseller area is on (FEATURE_RESELLER_AREA). Their account link opens the
 * area, their cart is sent to a client rather than checked out.
 */
export function inResellerMode(
  customer: { isReseller: boolean } | null,
  resellerArea: boolean,
): boolean {
  return resellerArea && customer?.isReseller === true;
}

/** Whether a `Cookie` header carries the reseller mode cookie. */
export function hasResellerMode(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader
    .split(';')
    .some((pair) => pair.trim() === `${SHOP_MODE_COOKIE}=${SHOP_MODE_RESELLER}`);
}

function decodeRef(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return '';
  }
}

/**
 * Removes every consumer-only part, nested ones included (a group of links resellers do not
 * see holds such links); an unclosed part runs to the end of the page, a stray end goes.
 */
function withoutConsumerOnly(html: string): string {
  let out = '';
  let depth = 0;
  let from = 0;
  for (;;) {
    const start = html.indexOf(CONSUMER_ONLY_START, from);
    const end = html.indexOf(CONSUMER_ONLY_END, from);
    if (start === -1 && end === -1) return depth === 0 ? out + html.slice(from) : out;
    const isStart = start !== -1 && (end === -1 || start < end);
    const at = isStart ? start : end;
    if (depth === 0) out += html.slice(from, at);
    depth = isStart ? depth + 1 : Math.max(0, depth - 1);
    from = at + (isStart ? CONSUMER_ONLY_START : CONSUMER_ONLY_END).length;
  }
}

/**
 * A page of the shop as a reseller sees it: the consumer-only parts removed, a link resellers
 * never see (in upstream text too: descriptions, rich text) left as its text, `data-reseller`
 * on the document and on each product card, each card's reference shown, and links to the
 * cart opening the reseller cart. Idempotent; a page without markers only gains the flags.
 */
export function resellerPage(html: string): string {
  return withoutConsumerOnly(html)
    .replace(ANCHOR, (anchor, href: string, content: string) =>
      hiddenFromResellers(decodeEntities(href)) ? content : anchor,
    )
    .replace(/<html(?![^>]*\sdata-reseller[\s=>])(?=[\s>])/i, '<html data-reseller')
    .replace(/<article data-card(?! data-reseller)(?=[\s>])/g, '<article data-card data-reseller')
    .replace(RESELLER_REF, (_, encoded: string) => {
      const text = decodeRef(encoded);
      return text === '' ? '' : `<p class="${RESELLER_REF_CLASS}">${escapeHtml(text)}</p>`;
    })
    .replace(RESELLER_BADGE, (_, encoded: string) => {
      const text = decodeRef(encoded);
      return text === '' ? '' : `<span class="${RESELLER_BADGE_CLASS}">${escapeHtml(text)}</span>`;
    })
    .replace(
      new RegExp(`(\\shref=")${CART_PATH}(?=["?#])`, 'g'),
      (_, attribute: string) => `${attribute}${RESELLER_CART_PATH}`,
    );
}

/**
 * In reseller mode every way to the cart leads to the reseller cart (spec §6): the
 * consumer cart and checkout, where a reseller would pay themselves, answer with the reseller
 * cart's path (null: the page as asked). A hosted checkout's way back (`/paiement?commande=`)
 * is left alone.
 */
export function resellerCartRedirect(pathname: string, search: string): string | null {
  if (pathname === CART_PATH) return RESELLER_CART_PATH;
  if (pathname === CHECKOUT_PATH && !new URLSearchParams(search).has('commande')) {
    return RESELLER_CART_PATH;
  }
  return null;
}
