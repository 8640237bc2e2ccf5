/**
 * The product gallery's zoom, its pure part: which encoded picture each zoom link
 * opens (the widest variant the gallery already encodes, so no new encode and the same framing
 * as the gallery), and the slide list the full-screen viewer (PhotoSwipe, `gallery-zoom.ts`)
 * is given, read back from those links. What the page holds is read as hostile: a source that
 * is neither a path of the shop nor an http(s) URL is no slide, a size that is not a whole
 * number of pixels within bounds is the picture kind's, an alt text is plain text, bounded.
 */
import { httpUrl, localPath } from '../../lib/url-safety.ts';
import { kindVariants, type PictureKind, type PictureSize } from '../../lib/picture-variants.ts';

/** One picture of the viewer: PhotoSwipe's `src`, `width`, `height` and `alt`. */
export interface ZoomSlide {
  src: string;
  width: number;
  height: number;
  alt: string;
}

/** An encoded variant of a picture: its URL and width (`getImage`'s `src` and srcset). */
export interface EncodedVariant {
  url: string;
  width: number;
}

/** What a zoom link of the page says (its `href`, `data-zoom-width`, `-height`, its alt). */
export interface ZoomLinkData {
  href: string | null | undefined;
  width: string | null | undefined;
  height: string | null | undefined;
  alt: string | null | undefined;
}

/** Longest alt text the viewer shows; longer texts are cut (a hostile catalogue). */
export const MAX_ZOOM_ALT = 300;
/** Largest side in pixels a slide may claim (the picture proxy encodes far less). */
const MAX_SIDE = 8_192;

/** The widest variant of `kind` (width, then its height at the kind's ratio). */
export function widestVariant(kind: PictureKind): PictureSize {
  return kindVariants(kind).reduce((widest, size) => (size.width > widest.width ? size : widest));
}

/**
 * The URL of the widest of a picture's encoded variants (the displayed `src` and the
 * srcset's), or undefined when there is none.
 */
export function widestUrl(variants: readonly EncodedVariant[]): string | undefined {
  let widest: EncodedVariant | undefined;
  for (const variant of variants) {
    if (variant.url !== '' && (widest === undefined || variant.width > widest.width)) {
      widest = variant;
    }
  }
  return widest?.url;
}

function side(value: string | null | undefined): number | null {
  if (typeof value !== 'string' || !/^\d{1,5}$/.test(value.trim())) return null;
  const pixels = Number(value.trim());
  return pixels >= 1 && pixels <= MAX_SIDE ? pixels : null;
}

/**
 * An alt text as plain text: control characters out, spaces collapsed, at most MAX_ZOOM_ALT
 * UTF-16 units (never half a surrogate pair).
 */
export function zoomAlt(value: string | null | undefined): string {
  if (typeof value !== 'string') return '';
  // eslint-disable-next-line no-control-regex -- removing controls is the point
  const text = value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ');
  let cut = text.trim().slice(0, MAX_ZOOM_ALT);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.trimEnd();
}

/**
 * Where a slide's picture may come from, and the one place a zoom link may send the browser
 * when the viewer cannot open: a path of the shop or an http(s) URL, else null.
 */
export function zoomSource(href: string | null | undefined): string | null {
  return localPath(href) ?? httpUrl(href);
}

/**
 * The viewer's slides from the page's zoom links, in order; the index of the tapped one among
 * them (`tapped` is its index among the links; a link that is no slide is left out, and a tap
 * on it opens the first slide); and each slide's index among the links (`positions`, for the
 * gallery to show the picture last viewed). `fallback` is the size of a link that states none
 * (the gallery kind's widest variant).
 */
export function zoomSlides(
  links: readonly ZoomLinkData[],
  tapped: number,
  fallback: PictureSize,
): { slides: ZoomSlide[]; index: number; positions: number[] } {
  const slides: ZoomSlide[] = [];
  const positions: number[] = [];
  let index = 0;
  links.forEach((link, position) => {
    const src = zoomSource(link.href);
    if (src === null) return;
    const width = side(link.width);
    const height = side(link.height);
    const size = width !== null && height !== null ? { width, height } : fallback;
    if (position === tapped) index = slides.length;
    slides.push({ src, width: size.width, height: size.height, alt: zoomAlt(link.alt) });
    positions.push(position);
  });
  return { slides, index, positions };
}

/** The texts of the viewer (its buttons, its counter and its error), from fr.json. */
export const ZOOM_MESSAGES = [
  'product.zoomDialog',
  'product.showImage',
  'common.close',
  'product.zoomIn',
  'product.zoomPrevious',
  'product.zoomNext',
  'product.zoomError',
] as const;

/** Id of the JSON script holding the viewer's texts (ProductGallery.astro). */
export const ZOOM_MESSAGES_ID = 'gallery-zoom-messages';
