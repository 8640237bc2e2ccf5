/**
 * Which content-page slugs the pre-rendered route `/{slug}` takes (spec §2 catch-all content
 * page): one plain path segment that no route of the shop already answers. Other slugs (nested
 * ones like `aide/livraison`) are served on request by the catch-all route. Pure.
 */

/** A slug the static routes can take as one path segment: lower-case letters, digits, hyphens. */
export function isPlainSlug(slug: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) && slug.length <= 120;
}

/** First path segments the shop's own routes use (src/pages, the server, Astro). */
const RESERVED = new Set([
  '404',
  '500',
  'api',
  'c',
  'categorie',
  'connexion',
  'deconnexion',
  'design',
  'hors-ligne',
  'inscription',
  'les-yeux-fermes',
  'login.php',
  'marque',
  'mon-compte',
  'mot-de-passe',
  'p',
  'paiement',
  'panier',
  'produit',
  'resultats-de-recherche',
  'robots.txt',
  'sitemap-index.xml',
  'sitemap-0.xml',
  'sw.js',
  'tailwind',
  'vue',
  'webhooks',
  '_astro',
  '_image',
]);

/** The slug can be pre-rendered as `/{slug}`. */
export function isStaticContentSlug(slug: string): boolean {
  return isPlainSlug(slug) && !RESERVED.has(slug.toLowerCase());
}

/** The slug can be served by the catch-all route: plain segments joined by `/`, no reserved first segment. */
export function isContentSlug(slug: string): boolean {
  const segments = slug.split('/');
  return (
    segments.length <= 4 &&
    segments.every(isPlainSlug) &&
    !RESERVED.has((segments[0] ?? '').toLowerCase())
  );
}
