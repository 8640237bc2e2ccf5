/**
 * Upstream markup reaches a page only through RichText (sanitised): every other way of
 * inserting raw HTML in `src/` is listed here with why it is safe, so a new one fails this
 * test until it is reviewed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** `file: expressions` of the reviewed `set:html`s. */
const REVIEWED: Record<string, string[]> = {
  // The one home of upstream markup: sanitizeHtml's output.
  'components/ui/RichText.astro': ['safe'],
  // scriptJson: `<` escaped, the data cannot leave its script element.
  'components/cart/ShippingPush.astro': ['json'],
  'components/ui/IslandMessages.astro': ['json'],
  'views/ProductView.astro': ['scriptJson(analyticsItem)'],
  'pages/resultats-de-recherche/[...term].astro': ['scriptJson(term)'],
  'pages/paiement.astro': ['scriptJson(beginCheckoutEvent(cart))'],
  // Slots re-inserted: markup Astro rendered from our own components (already escaped).
  'components/layout/Footer.astro': ['newsletterHtml', 'reviewsHtml', 'navHtml'],
  'components/layout/Header.astro': ['resellerBadge', 'searchHtml', 'accountHtml', 'menuExtraHtml'],
  // Layout markup rendered once from our own components and reused (memo.ts); never upstream
  // markup that skipped RichText, since only rendered components go in.
  'components/ui/Shared.astro': ['html'],
  // Scripts of our own, constants whose hashes the CSP lists (inline-scripts.ts).
  'components/layout/InlineScript.astro': ['code'],
  // The icon sprite: constant markup of the shop's own paths (icons.ts).
  'layouts/BaseLayout.astro': ['ICON_SPRITE'],
  // Markup written as strings by the shop's own functions, every value escaped (ui/markup.ts).
  'components/ui/Icon.astro': ['iconHtml(Astro.props)'],
  'components/layout/BaseHead.astro': ['html'],
  'components/catalogue/AnalyticsList.astro': ['html'],
  'components/catalogue/ListingPagination.astro': ['paginationHtml(Astro.props)'],
  'components/catalogue/CategoryListing.astro': [
    'parts.form',
    'parts.filters',
    'parts.controls',
    'parts.chips',
    'parts.empty',
    'parts.pagination',
  ],
  // Marker comments of the reseller mode: constants, and a reference URI-encoded with no '-'
  // or '!' left, which cannot end its comment (shop-mode.ts).
  'components/layout/ConsumerOnly.astro': ['CONSUMER_ONLY_START', 'CONSUMER_ONLY_END'],
  'components/catalogue/ProductCardMarkup.astro': ['referenceMarker'],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(astro|tsx?|jsx?|mjs)$/.test(entry.name) ? [full] : [];
  });
}

test('every set:html is reviewed; no dangerouslySetInnerHTML, innerHTML or document.write', () => {
  const found: Record<string, string[]> = {};
  const raw: string[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const name = path.relative(SRC, file).split(path.sep).join('/');
    for (const match of text.matchAll(/set:html\s*=\s*\{([^}]*)\}/g)) {
      (found[name] ??= []).push((match[1] ?? '').trim());
    }
    if (/set:html\s*=\s*[^{\s]/.test(text)) raw.push(`${name}: set:html`);
    for (const api of [
      'dangerouslySetInnerHTML',
      '.innerHTML',
      '.outerHTML',
      'insertAdjacentHTML',
      'document.write',
    ]) {
      if (text.includes(api)) raw.push(`${name}: ${api}`);
    }
  }
  expect(raw).toEqual([]);
  expect(found).toEqual(REVIEWED);
});
