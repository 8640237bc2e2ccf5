import { describe, expect, test } from 'vitest';
import {
  contrastRatio,
  measureText,
  MIN_TEXT_CONTRAST,
  unreadable,
  type Box,
  type RawImage,
  type Rgb,
} from '../e2e/visual/pixels.ts';

const WIDTH = 40;
const HEIGHT = 20;

/** An RGBA image painted by `paint(x, y)`. */
function image(paint: (x: number, y: number) => Rgb): RawImage {
  const data = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      const { r, g, b } = paint(x, y);
      data.set([r, g, b, 255], (y * WIDTH + x) * 4);
    }
  }
  return { data, width: WIDTH, height: HEIGHT, channels: 4 };
}

const navy = { r: 26, g: 36, b: 57 };
const white = { r: 255, g: 255, b: 255 };
const slate = { r: 34, g: 48, b: 75 };
/** A photo-like background: every pixel different. */
const photo = (x: number, y: number): Rgb => ({ r: 90 + x * 3, g: 60 + y * 5, b: 120 + x + y });
/** Glyph pixels: a few strokes inside the box, with one anti-aliased edge column. */
const glyph = (x: number, y: number) => x >= 10 && x < 30 && y >= 5 && y < 15 && x % 4 < 2;
const edge = (x: number, y: number) => x >= 10 && x < 30 && y >= 5 && y < 15 && x % 4 === 2;
const box: Box = { x: 8, y: 3, width: 24, height: 14 };

/** Shown = background with text drawn (edges half-blended); hidden = background only. */
function pair(background: (x: number, y: number) => Rgb, text: Rgb): [RawImage, RawImage] {
  const blend = (a: Rgb, b: Rgb) => ({
    r: Math.round((a.r + b.r) / 2),
    g: Math.round((a.g + b.g) / 2),
    b: Math.round((a.b + b.b) / 2),
  });
  const shown = image((x, y) => {
    if (glyph(x, y)) return text;
    if (edge(x, y)) return blend(text, background(x, y));
    return background(x, y);
  });
  return [shown, image(background)];
}

describe('contrastRatio', () => {
  test.each([
    ['black on white', { r: 0, g: 0, b: 0 }, white, 21],
    ['a colour on itself', navy, navy, 1],
    ['white on navy', white, navy, 15.49],
  ])('%s', (_, a, b, ratio) => {
    expect(contrastRatio(a, b)).toBeCloseTo(ratio, 1);
    expect(contrastRatio(b, a)).toBeCloseTo(ratio, 1);
  });
});

describe('measureText and unreadable', () => {
  test.each<[string, (x: number, y: number) => Rgb, Rgb, string | null]>([
    // Seen on the /les-yeux-fermes title, rgb(26, 36, 57) on rgb(26, 36, 57).
    ['text the colour of its plain box', () => navy, navy, 'no pixel of the text shows'],
    ['text one shade off its box', () => navy, slate, 'contrast 1.17 < 1.5'],
    ['white text on the navy box', () => navy, white, null],
    ['dark text on white', () => white, navy, null],
    ['white text over a photo', photo, white, null],
  ])('%s', (_, background, text, why) => {
    const [shown, hidden] = pair(background, text);
    expect(unreadable(measureText(shown, hidden, [box]))).toBe(why);
  });

  test('text hidden in a photo: every glyph pixel the colour of the photo behind it', () => {
    const hidden = image(photo);
    const shown = image(photo); // the text drawn in exactly what lies behind each glyph
    const pixels = measureText(shown, hidden, [box]);
    expect(pixels).toMatchObject({ changed: 0, contrast: 1, text: null });
    expect(unreadable(pixels)).toBe('no pixel of the text shows');
  });

  test('names the glyph and background colours', () => {
    const [shown, hidden] = pair(() => navy, white);
    const pixels = measureText(shown, hidden, [box]);
    expect(pixels.text).toEqual(white);
    expect(pixels.background).toEqual(navy);
    expect(pixels.contrast).toBeGreaterThan(MIN_TEXT_CONTRAST * 10);
    expect(pixels.area).toBe(box.width * box.height);
  });

  test('text a shade off the photo behind each of its glyphs', () => {
    const shade = (x: number, y: number): Rgb => {
      const { r, g, b } = photo(x, y);
      return { r: r + 12, g: g + 12, b: b + 12 };
    };
    const hidden = image(photo);
    const shown = image((x, y) => (glyph(x, y) ? shade(x, y) : photo(x, y)));
    expect(unreadable(measureText(shown, hidden, [box]))).toMatch(/^contrast 1\.\d\d < 1\.5$/);
  });

  test('one stray pixel does not make text readable', () => {
    const hidden = image(() => navy);
    const shown = image((x, y) => (x === 12 && y === 8 ? white : navy));
    expect(unreadable(measureText(shown, hidden, [box]))).toBe('only 1 of its 336 pixels show');
  });

  test('boxes are clipped to the image; a box wholly outside measures nothing', () => {
    const [shown, hidden] = pair(() => navy, navy);
    const outside = measureText(shown, hidden, [{ x: 50, y: 0, width: 10, height: 10 }]);
    expect(outside.area).toBe(0);
    expect(unreadable(outside)).toBeNull();
    expect(measureText(shown, hidden, [{ x: 30, y: 15, width: 30, height: 30 }]).area).toBe(50);
  });

  test('two screenshots of different sizes are refused', () => {
    const small: RawImage = { data: new Uint8Array(16), width: 2, height: 2, channels: 4 };
    expect(() =>
      measureText(
        image(() => navy),
        small,
        [box],
      ),
    ).toThrow(/differ in size/);
  });
});
