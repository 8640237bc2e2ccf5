/**
 * The shop's icon set: 24×24 stroke paths drawn for this shop (round caps and joins), rendered
 * inline by Icon.astro so no icon costs a request. `fill` icons are drawn filled instead.
 */
export const ICONS = {
  search: 'M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14z M20.5 20.5l-4.6-4.6',
  close: 'M6 6l12 12 M18 6L6 18',
  menu: 'M4 7h16 M4 12h16 M4 17h16',
  user: 'M12 12a4 4 0 1 0 0-8a4 4 0 1 0 0 8z M4.5 20c1.3-3.3 4.2-5 7.5-5s6.2 1.7 7.5 5',
  bag: 'M5 8.5h14l-1.1 11.5H6.1z M9 8.5V7a3 3 0 0 1 6 0v1.5',
  home: 'M3.5 11L12 4l8.5 7 M6 9.5V20h4.5v-5.5h3V20H18V9.5',
  'eye-closed':
    'M3 10c2.4 3.3 5.5 5 9 5s6.6-1.7 9-5 M12 15v3 M7.2 13.9l-1.4 2.5 M16.8 13.9l1.4 2.5 M3.9 11.6l-1.6 1.6 M20.1 11.6l1.6 1.6',
  'chevron-down': 'M6 9l6 6 6-6',
  'chevron-right': 'M9 6l6 6-6 6',
  'chevron-left': 'M15 6l-6 6 6 6',
  'arrow-left': 'M19 12H5 M11 6l-6 6 6 6',
  truck:
    'M2.5 6.5h11v9.5h-11z M13.5 9.5h4l3 3.5v3h-7 M6.5 19a1.8 1.8 0 1 0 0-3.6a1.8 1.8 0 1 0 0 3.6z M17 19a1.8 1.8 0 1 0 0-3.6a1.8 1.8 0 1 0 0 3.6z',
  store:
    'M4.5 11v9h15v-9 M3 10l2-5.5h14L21 10 M3 10c0 1.4 1.3 2.5 3 2.5S9 11.4 9 10c0 1.4 1.3 2.5 3 2.5s3-1.1 3-2.5c0 1.4 1.3 2.5 3 2.5s3-1.1 3-2.5 M10 20v-4.5h4V20',
  leaf: 'M5 19.5C5 11 10 5 20 4.5 20 14 14 19.5 5.5 19.5 M5 19.5l8.5-8.5',
  heart: 'M12 20c-5-3.4-9-6.9-9-10.8A4.4 4.4 0 0 1 12 7a4.4 4.4 0 0 1 9 2.2c0 3.9-4 7.4-9 10.8z',
  phone:
    'M5.2 4h3.3l1.6 4-2.1 1.4a11 11 0 0 0 6.6 6.6l1.4-2.1 4 1.6v3.3a1.2 1.2 0 0 1-1.3 1.2C10.3 19.4 4.6 13.7 4 5.3A1.2 1.2 0 0 1 5.2 4z',
  mail: 'M3.5 6h17v12h-17z M3.5 7l8.5 6 8.5-6',
  'map-pin':
    'M12 21s-7-6.1-7-11.3a7 7 0 0 1 14 0C19 14.9 12 21 12 21z M12 12.2a2.5 2.5 0 1 0 0-5a2.5 2.5 0 1 0 0 5z',
  help: 'M12 21a9 9 0 1 0 0-18a9 9 0 1 0 0 18z M9.5 9.5a2.5 2.5 0 1 1 3.6 2.2c-.7.4-1.1 1-1.1 1.7v.4 M12 17v.01',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  external: 'M14 4h6v6 M20 4l-8.5 8.5 M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5',
  shield: 'M12 3l7 3v5c0 4.4-3 8.3-7 10-4-1.7-7-5.6-7-10V6z M9 12l2 2 4-4',
  star: 'M12 3.2l2.7 5.6 6.1.8-4.5 4.2 1.1 6.1L12 17l-5.4 2.9 1.1-6.1-4.5-4.2 6.1-.8z',
  moon: 'M20 14.5A8 8 0 0 1 9.5 4 8 8 0 1 0 20 14.5z',
  play: 'M12 21a9 9 0 1 0 0-18a9 9 0 1 0 0 18z M10 8.5v7l5.5-3.5z',
  clock: 'M12 21a9 9 0 1 0 0-18a9 9 0 1 0 0 18z M12 7.5V12l3 2',
  linkedin:
    'M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z M8 10.5V17 M8 7.2v.01 M12 17v-6.5 M12 13.5a2.5 2.5 0 0 1 5 0V17',
  instagram:
    'M7.5 3h9A4.5 4.5 0 0 1 21 7.5v9a4.5 4.5 0 0 1-4.5 4.5h-9A4.5 4.5 0 0 1 3 16.5v-9A4.5 4.5 0 0 1 7.5 3z M12 16a4 4 0 1 0 0-8a4 4 0 1 0 0 8z M17.2 6.8v.01',
  facebook:
    'M14 21v-7.5h2.7l.4-3.1H14V8.6c0-.9.3-1.5 1.6-1.5h1.6V4.3c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4V10.4H8.4v3.1H11V21',
} as const;

export type IconName = keyof typeof ICONS;

export const ICON_NAMES = Object.keys(ICONS) as IconName[];

/** Icon sizes (px) with a class of components.css (`icon-16`...; 24 is the `icon` class's). */
export const ICON_SIZES: ReadonlySet<number> = new Set([14, 16, 18, 20, 22, 24, 28]);

/** The wishlist heart's outline (WishlistHeart.astro: stroked, filled once pressed). */
const WISHLIST_PATH =
  'M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.9 3.6 4.5 7.1 4.5c2 0 3.6 1.1 4.9 2.9 1.3-1.8 2.9-2.9 4.9-2.9 3.5 0 5.6 3.4 4.4 6.6-1.8 4.8-9.3 9.4-9.3 9.4Z';

/**
 * Icons a page shows several times (the menus' chevrons, the header's and the menu sidebar's
 * links, a heart on each product card): drawn once in the page's sprite (`ICON_SPRITE`,
 * written by BaseLayout before the header) and shown by reference (`<use href>`), where each
 * copy was a whole inline SVG (~300 bytes; 60 on a listing page). Icons shown once stay
 * inline.
 */
export const SPRITE_ICONS = [
  'chevron-down',
  'chevron-right',
  'close',
  'eye-closed',
  'mail',
  'menu',
  'user',
  'heart',
  'bag',
  'help',
] as const satisfies readonly IconName[];

export type SpriteIcon = (typeof SPRITE_ICONS)[number] | 'wishlist';

const SPRITE = new Set<string>(SPRITE_ICONS);

/** Whether `name` is drawn by the sprite. */
export function inSprite(name: string): name is SpriteIcon {
  return SPRITE.has(name) || name === 'wishlist';
}

/** The reference of a sprite icon, for `<use href>`. */
export function iconHref(name: SpriteIcon): string {
  return `#i-${name}`;
}

/**
 * The sprite: one hidden SVG of symbols (24-unit view box, stroke and fill from the SVG that
 * uses them: the `icon` class of components.css). Constant markup of the paths above.
 */
export const ICON_SPRITE = `<svg class="hidden" aria-hidden="true">${[
  ...SPRITE_ICONS.map((name) => [name, ICONS[name]] as const),
  ['wishlist', WISHLIST_PATH] as const,
]
  .map(([name, d]) => `<symbol id="i-${name}" viewBox="0 0 24 24"><path d="${d}"></path></symbol>`)
  .join('')}</svg>`;
