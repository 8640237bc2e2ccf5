/**
 * Pure pixel rules of the visual check: how visible a text is, measured on two
 * screenshots of the same layout, one as shown and one with every glyph made transparent. A
 * pixel that differs between the two belongs to the text; the same pixel in the second image is
 * what lies behind it (a colour, a gradient or a photo alike, where axe gives up).
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** A decoded screenshot: `channels` bytes per pixel (RGB or RGBA), rows of `width` pixels. */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** A rectangle in image pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextPixels {
  /** Pixels of the boxes (clipped to the image). */
  area: number;
  /** Pixels that change when the text is hidden: the glyphs. */
  changed: number;
  /** The text as drawn: the changed pixel of the 90th-percentile contrast (null: no change). */
  text: Rgb | null;
  /** The most frequent colour behind the text (of the hidden image, within the boxes). */
  background: Rgb;
  /** WCAG contrast ratio between glyph and background pixels, 90th percentile; 1 if none. */
  contrast: number;
}

/** Below this, text is taken for the colour of what lies behind it (WCAG AA asks 4.5). */
export const MIN_TEXT_CONTRAST = 1.5;

/** Fewer changed pixels than this (and this share of the boxes' area) cannot be a text. */
const MIN_GLYPH_PIXELS = 3;
const MIN_GLYPH_SHARE = 0.005;

/** Channel difference under which two screenshots' pixels count as the same (encoder noise). */
const SAME_PIXEL = 2;

// Linear light of each 8-bit sRGB value (the scan calls it for every pixel of every text).
const LINEAR = Array.from({ length: 256 }, (_, value) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

function channel(value: number): number {
  return LINEAR[Math.round(Math.min(255, Math.max(0, value)))] ?? 0;
}

/** WCAG 2 relative luminance of an sRGB colour. */
export function relativeLuminance({ r, g, b }: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio, 1 (same luminance) to 21 (black on white). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export function formatRgb({ r, g, b }: Rgb): string {
  return `rgb(${r}, ${g}, ${b})`;
}

function pixelAt(image: RawImage, x: number, y: number): Rgb {
  const i = (y * image.width + x) * image.channels;
  return { r: image.data[i] ?? 0, g: image.data[i + 1] ?? 0, b: image.data[i + 2] ?? 0 };
}

function clip(box: Box, image: RawImage): Box | null {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(image.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(image.height, Math.ceil(box.y + box.height));
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/**
 * Compares the text's pixels with those behind them, within `boxes` (the text's line boxes).
 * Throws when the two images differ in size: they must be two renderings of one layout.
 */
export function measureText(shown: RawImage, hidden: RawImage, boxes: readonly Box[]): TextPixels {
  if (shown.width !== hidden.width || shown.height !== hidden.height) {
    throw new Error(
      `The screenshots differ in size: ${shown.width}×${shown.height} and ${hidden.width}×${hidden.height}`,
    );
  }
  let area = 0;
  const glyphs: { contrast: number; text: Rgb }[] = [];
  const behind = new Map<number, number>();
  for (const box of boxes) {
    const inside = clip(box, shown);
    if (!inside) continue;
    for (let y = inside.y; y < inside.y + inside.height; y += 1) {
      for (let x = inside.x; x < inside.x + inside.width; x += 1) {
        area += 1;
        const a = pixelAt(shown, x, y);
        const b = pixelAt(hidden, x, y);
        const key = (b.r << 16) | (b.g << 8) | b.b;
        behind.set(key, (behind.get(key) ?? 0) + 1);
        const diff = Math.max(Math.abs(a.r - b.r), Math.abs(a.g - b.g), Math.abs(a.b - b.b));
        if (diff > SAME_PIXEL) glyphs.push({ contrast: contrastRatio(a, b), text: a });
      }
    }
  }
  let dominant = 0;
  let most = -1;
  for (const [key, count] of behind) {
    if (count > most) {
      most = count;
      dominant = key;
    }
  }
  const background = { r: (dominant >> 16) & 255, g: (dominant >> 8) & 255, b: dominant & 255 };
  if (glyphs.length === 0) return { area, changed: 0, text: null, background, contrast: 1 };
  // Anti-aliased edges blend into the background: the glyphs' cores, the upper decile, say
  // how the text reads; a percentile, not the maximum, so that one stray pixel does not.
  glyphs.sort((p, q) => p.contrast - q.contrast);
  const core = glyphs[Math.min(glyphs.length - 1, Math.floor(glyphs.length * 0.9))];
  return {
    area,
    changed: glyphs.length,
    text: core?.text ?? null,
    background,
    contrast: core?.contrast ?? 1,
  };
}

/** Why a measured text cannot be read, or null when it can. */
export function unreadable(pixels: TextPixels): string | null {
  if (pixels.area === 0) return null;
  if (pixels.changed === 0) return 'no pixel of the text shows';
  // A glyph covers a tenth to a third of its line box: a handful of changed pixels is a
  // speck (a text nearly all under something else), not a text one can read.
  if (pixels.changed < Math.max(MIN_GLYPH_PIXELS, pixels.area * MIN_GLYPH_SHARE)) {
    return `only ${pixels.changed} of its ${pixels.area} pixels show`;
  }
  if (pixels.contrast < MIN_TEXT_CONTRAST) {
    return `contrast ${pixels.contrast.toFixed(2)} < ${MIN_TEXT_CONTRAST}`;
  }
  return null;
}
