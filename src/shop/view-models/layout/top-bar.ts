/**
 * The top bar's rule (`TopBar.astro`): a banner whose sanitised HTML has no link of
 * its own is the shop's offer ("recevez 10 % sur votre première commande") and becomes a link
 * to the newsletter sign-up it advertises; a banner with a link keeps its links, and nothing
 * else in it is a link (no link inside a link). Pure.
 */

/** A link of the banner's own: an `<a>` element, whatever its case or attributes. */
const ANCHOR = /<a[\s>/]/i;

/** Whether a banner (its sanitised HTML) is the newsletter offer's link. */
export function bannerIsOffer(safeHtml: string): boolean {
  return safeHtml.trim() !== '' && !ANCHOR.test(safeHtml);
}
