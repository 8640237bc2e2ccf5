/**
 * The document head every layout shares (BaseHead.astro renders through it): title,
 * description, canonical URL (site + path), robots, Open Graph and Twitter cards, icons and
 * JSON-LD. A string function (ui/markup.ts), so a listing view the server puts together writes
 * the head a render of it would. `<meta charset>` is not part of it: BaseLayout writes the
 * charset, then Astro's head content (the Content-Security-Policy `<meta>` of a pre-rendered
 * page, the stylesheet), then this head, so the policy comes before any script or JSON-LD.
 */
import { canonicalPath } from '../../../lib/commerce/page-path.ts';
import { t } from '../../../lib/i18n/index.ts';
import { scriptJson } from '../../../lib/script-json.ts';
import { attr, text } from '../../../lib/ui/markup.ts';
import type { HeadProps } from './head.ts';

/** Where the head is written: the site URL and the path the page answers. */
export interface HeadPage {
  site: URL | string;
  pathname: string;
}

export function baseHeadHtml(props: HeadProps, page: HeadPage): string {
  const {
    title,
    description = t('meta.defaultDescription'),
    canonical,
    noindex = false,
    jsonLd,
    image = '/og-default.png',
    ogType = 'website',
  } = props;
  const shopName = t('shop.name');
  const fullTitle = title === shopName ? title : `${title} | ${shopName}`;
  // Error pages name none: their address is the one that failed, never a page to index.
  // The page's one spelling: a build asks for /c/matelas as the file /c/matelas.html.
  const pagePath = canonicalPath(page.pathname) ?? page.pathname;
  const canonicalUrl = canonical === null ? null : new URL(canonical ?? pagePath, page.site).href;
  const imageUrl = new URL(image, page.site).href;
  return (
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${text(fullTitle)}</title><meta name="description"${attr('content', description)}>` +
    (canonicalUrl === null ? '' : `<link rel="canonical"${attr('href', canonicalUrl)}>`) +
    (noindex ? '<meta name="robots" content="noindex, follow">' : '') +
    '<meta name="theme-color" content="#1a2439">' +
    // A PNG, not favicon.svg: Chromium opens a separate document to draw an SVG icon, about
    // 10 ms of the phone's main thread while the page becomes interactive.
    '<link rel="icon" href="/favicon-48.png" type="image/png" sizes="48x48">' +
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png">' +
    '<link rel="sitemap" href="/sitemap-index.xml">' +
    `<meta property="og:type"${attr('content', ogType)}>` +
    `<meta property="og:site_name"${attr('content', shopName)}>` +
    '<meta property="og:locale" content="fr_FR">' +
    `<meta property="og:title"${attr('content', fullTitle)}>` +
    `<meta property="og:description"${attr('content', description)}>` +
    (canonicalUrl === null ? '' : `<meta property="og:url"${attr('content', canonicalUrl)}>`) +
    `<meta property="og:image"${attr('content', imageUrl)}>` +
    '<meta name="twitter:card" content="summary_large_image">' +
    // scriptJson: `<` escaped, the data cannot leave its script element.
    (jsonLd === undefined
      ? ''
      : `<script type="application/ld+json">${scriptJson(jsonLd)}</script>`)
  );
}
