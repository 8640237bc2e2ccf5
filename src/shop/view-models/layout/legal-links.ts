/**
 * The footer's legal bar (spec §2): the legal pages, in display order, under fixed labels
 * (`fr.json`). Pure, without `astro:*`: the publisher's comparison of what every page's shell
 * shows (`src/shop/publish/shell.ts`) leaves these paths out of the footer columns as the
 * layout does.
 */
export const LEGAL_LINKS = [
  { path: '/protection-des-donnees-personnelles', key: 'legal.privacy' },
  { path: '/mentions-legales', key: 'legal.notice' },
  { path: '/cgv', key: 'legal.terms' },
  { path: '/cookies', key: 'legal.cookies' },
  { path: '/conditions-des-offres', key: 'legal.offers' },
  { path: '/cgu-photographies', key: 'legal.photos' },
] as const;

/** The legal pages' paths (the footer's legal bar; the footer columns leave them out). */
export const LEGAL_PATHS: readonly string[] = LEGAL_LINKS.map((link) => link.path);
