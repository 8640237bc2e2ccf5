/**
 * An icon's markup as a string (Icon.astro renders through it), apart from icons.ts so that the
 * islands, which read the icon paths, do not bundle the escaping of server markup.
 */
import { ICON_SIZES, ICONS, iconHref, inSprite, type IconName } from './icons.ts';
import { attr, classList } from './markup.ts';

export interface IconProps {
  name: IconName;
  /** Width and height in px (default 24). */
  size?: number | undefined;
  /** Accessible name; omit for a decorative icon next to visible text. */
  label?: string | undefined;
  class?: string | undefined;
}

/**
 * An icon's SVG (Icon.astro): a reference to the page's sprite for a sprite icon, else the
 * path inline; the shop's sizes are classes of components.css (`icon` alone is 24 px), others
 * attributes. Decorative (aria-hidden) unless `label` names it as an image.
 */
export function iconHtml({ name, size = 24, label, class: className }: IconProps): string {
  const sized = ICON_SIZES.has(size);
  const sprite = inSprite(name);
  return (
    `<svg${attr('width', sized ? undefined : size)}${attr('height', sized ? undefined : size)}` +
    attr('viewBox', sprite ? undefined : '0 0 24 24') +
    classList('icon', sized && size !== 24 && `icon-${String(size)}`, className) +
    `${attr('role', label ? 'img' : undefined)}${attr('aria-label', label)}` +
    `${attr('aria-hidden', label ? undefined : 'true')}>` +
    (sprite
      ? `<use${attr('href', iconHref(name))}></use>`
      : `<path${attr('d', ICONS[name])}></path>`) +
    '</svg>'
  );
}
