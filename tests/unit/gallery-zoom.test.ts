/**
 * The product gallery's zoom, its pure part (`zoom-slides.ts`): each picture opens
 * at the widest variant the gallery encodes, the viewer's slides are read back from the page's
 * links in order, opening on the tapped one, and whatever the page holds is read as hostile
 * (a source that is neither a path of the shop nor http(s) is no slide, a size out of bounds
 * is the kind's, an alt text is bounded plain text).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  MAX_ZOOM_ALT,
  widestUrl,
  widestVariant,
  zoomAlt,
  zoomSlides,
  zoomSource,
  type ZoomLinkData,
} from '../../src/browser/catalogue/zoom-slides.ts';
import {
  GALLERY_IMAGE,
  kindVariants,
  PICTURE_KINDS,
  type PictureKind,
} from '../../src/lib/picture-variants.ts';
import { HOSTILE_LINKS } from './hostile-urls.ts';

const FALLBACK = widestVariant(GALLERY_IMAGE);
const link = (overrides: Partial<ZoomLinkData> = {}): ZoomLinkData => ({
  href: '/_astro/matelas.abc123_Z1.webp',
  width: '1024',
  height: '1024',
  alt: 'Matelas Confort',
  ...overrides,
});

describe('the widest encoded variant', () => {
  test('the gallery opens its 1024 px square picture, wider than every other of its variants', () => {
    expect(FALLBACK).toEqual({ width: 1024, height: 1024 });
    for (const size of kindVariants(GALLERY_IMAGE)) {
      expect(size.width).toBeLessThanOrEqual(FALLBACK.width);
    }
  });

  test('of any kind: one of its variants, none wider, at the kind ratio', () => {
    const kind = fc
      .record({
        width: fc.integer({ min: 16, max: 4000 }),
        height: fc.integer({ min: 16, max: 4000 }),
        widths: fc.array(fc.integer({ min: 16, max: 4000 }), { maxLength: 6 }),
      })
      .map((k): PictureKind => k);
    fc.assert(
      fc.property(fc.oneof(kind, fc.constantFrom(...PICTURE_KINDS)), (k) => {
        const widest = widestVariant(k);
        const variants = kindVariants(k);
        expect(variants).toContainEqual(widest);
        expect(Math.max(...variants.map((v) => v.width))).toBe(widest.width);
      }),
    );
  });

  test('the URL of the widest encoded variant, whatever their order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 6 }),
        (widths) => {
          const variants = widths.map((width) => ({ url: `/_astro/p_${width}.webp`, width }));
          expect(widestUrl(variants)).toBe(`/_astro/p_${Math.max(...widths)}.webp`);
        },
      ),
    );
    expect(widestUrl([])).toBeUndefined();
    expect(widestUrl([{ url: '', width: 900 }])).toBeUndefined();
  });
});

describe('the viewer’s slides', () => {
  test('every picture, in order, at its stated size, opening on the tapped one', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.stringMatching(/^[a-z0-9-]{1,20}$/),
            width: fc.integer({ min: 1, max: 8192 }),
            height: fc.integer({ min: 1, max: 8192 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.nat(),
        (pictures, tap) => {
          const tapped = tap % pictures.length;
          const links = pictures.map((p) =>
            link({
              href: `/_astro/${p.name}.webp`,
              width: String(p.width),
              height: String(p.height),
            }),
          );
          const { slides, index, positions } = zoomSlides(links, tapped, FALLBACK);
          expect(slides.map((s) => [s.src, s.width, s.height])).toEqual(
            pictures.map((p) => [`/_astro/${p.name}.webp`, p.width, p.height]),
          );
          expect(index).toBe(tapped);
          expect(positions).toEqual(pictures.map((_, i) => i));
        },
      ),
    );
  });

  test('a picture of the picture proxy or of an image host is a slide', () => {
    const proxy = '/_image?href=https%3A%2F%2Fcdn.example%2Fa.jpg&w=1024&h=1024&f=webp';
    const { slides } = zoomSlides(
      [link({ href: proxy }), link({ href: 'https://cdn11.bigcommerce.com/s-x/a.jpg' })],
      0,
      FALLBACK,
    );
    expect(slides.map((s) => s.src)).toEqual([proxy, 'https://cdn11.bigcommerce.com/s-x/a.jpg']);
  });

  test('a hostile source is no slide; the tap on a kept link still opens that one', () => {
    for (const hostile of HOSTILE_LINKS) {
      if (typeof hostile !== 'string') continue;
      // A local path or an http(s) URL the rules accept is a picture source, not a hostile one.
      const links = [
        link({ href: '/_astro/a.webp' }),
        link({ href: hostile }),
        link({ href: '/_astro/c.webp' }),
      ];
      const { slides, index, positions } = zoomSlides(links, 2, FALLBACK);
      for (const slide of slides) {
        expect(new URL(slide.src, 'https://www.literie.test').protocol).toMatch(/^https?:$/);
      }
      expect(slides.at(index)?.src).toBe('/_astro/c.webp');
      expect(positions.at(index)).toBe(2);
    }
    const { slides } = zoomSlides(
      [link({ href: 'javascript:alert(1)' }), link({ href: null })],
      0,
      FALLBACK,
    );
    expect(slides).toEqual([]);
  });

  test('a size that is not a whole number of pixels within bounds is the kind’s widest', () => {
    const bad = ['', '0', '-5', '1e3', '12.5', '99999', '8193', 'NaN', ' ', 'abc', null, undefined];
    for (const width of bad) {
      const { slides } = zoomSlides([link({ width })], 0, FALLBACK);
      expect(slides[0]).toMatchObject({ width: FALLBACK.width, height: FALLBACK.height });
      const other = zoomSlides([link({ height: width })], 0, FALLBACK).slides[0];
      expect(other).toMatchObject({ width: FALLBACK.width, height: FALLBACK.height });
    }
  });

  test('an alt text stays plain text: no control characters, bounded, markup kept as text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 1000 }), (alt) => {
        const { slides } = zoomSlides([link({ alt })], 0, FALLBACK);
        const shown = slides[0]?.alt ?? '';
        expect(shown).toBe(zoomAlt(alt));
        // eslint-disable-next-line no-control-regex -- control characters are what is looked for
        expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        expect(shown.length).toBeLessThanOrEqual(MAX_ZOOM_ALT);
        // Never half a surrogate pair.
        expect(shown).not.toMatch(/[\uD800-\uDBFF]$/);
        expect(shown).toBe(shown.trim());
      }),
    );
    const markup = '"><img src=x onerror=alert(1)>';
    expect(zoomSlides([link({ alt: markup })], 0, FALLBACK).slides[0]?.alt).toBe(markup);
    expect(zoomAlt('Matelas\u0000 Confort\n\n160x200')).toBe('Matelas Confort 160x200');
    expect(zoomAlt(null)).toBe('');
  });

  test('a tap outside the links opens the first slide', () => {
    const links = [link({ href: '/_astro/a.webp' }), link({ href: '/_astro/b.webp' })];
    expect(zoomSlides(links, -1, FALLBACK).index).toBe(0);
    expect(zoomSlides(links, 7, FALLBACK).index).toBe(0);
  });
});

describe('zoomSource: where a zoom link may send the browser when the viewer cannot open', () => {
  test('no hostile link is ever a target', () => {
    for (const hostile of HOSTILE_LINKS) {
      expect(zoomSource(typeof hostile === 'string' ? hostile : null)).toBeNull();
    }
  });

  test('any text: null, a path of the shop, or an http(s) URL', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath()), (text) => {
        const target = zoomSource(text);
        if (target === null) return;
        expect(target.startsWith('/') || /^https?:\/\//.test(target)).toBe(true);
        expect(target.startsWith('//')).toBe(false);
      }),
    );
  });

  test('the shop’s own picture is kept', () => {
    expect(zoomSource('/_astro/matelas.abc123_Z1.webp')).toBe('/_astro/matelas.abc123_Z1.webp');
  });
});
