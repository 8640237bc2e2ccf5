import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { svgImages } from '../../scripts/size-budgets.ts';

const noCss = () => null;
const path = fc.stringMatching(/^\/[a-z0-9/_-]{1,20}$/);
const rasterUrl = fc.oneof(
  fc.tuple(path, fc.constantFrom('.webp', '.png', '.jpg', '.avif')).map(([p, ext]) => p + ext),
  fc.constant('data:image/png;base64,iVBORw0KGgo='),
);
const svgUrl = fc.oneof(
  path.map((p) => `${p}.svg`),
  path.map((p) => `${p}.SVG?v=2`),
  fc.constant("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"),
  fc.constant('data:image/svg+xml,%3Csvg%20xmlns=%22http://www.w3.org/2000/svg%22/%3E'),
);
/** Every place a page can have the browser draw an image from a URL. */
const placements: ((url: string) => { html: string; css?: string })[] = [
  (url) => ({ html: `<img src="${url}" alt="">` }),
  (url) => ({ html: `<img src="/a.webp" srcset="/a.webp 1x, ${url} 2x" alt="">` }),
  (url) => ({ html: `<picture><source srcset="${url}"><img src="/a.png" alt=""></picture>` }),
  (url) => ({ html: `<link rel="icon" href="${url}">` }),
  (url) => ({ html: `<style>.x{mask-image:url("${url}")}</style>` }),
  (url) => ({ html: `<div style="background:url(&quot;${url}&quot;)"></div>` }),
  (url) => ({
    html: '<link rel="stylesheet" href="/_astro/a.css">',
    // Single quotes unless the URL holds one (the old star mask did: xmlns='...').
    css: url.includes("'")
      ? `.stars{mask-image:url("${url}")}`
      : `.stars{mask-image:url('${url}')}`,
  }),
];

describe('svgImages (size budgets: no SVG drawn as an image)', () => {
  it('finds an SVG in every place a page can draw an image from', () => {
    fc.assert(
      fc.property(svgUrl, fc.constantFrom(...placements), (url, place) => {
        const page = place(url);
        expect(svgImages(page.html, () => page.css ?? null)).toHaveLength(1);
      }),
    );
  });

  it('accepts raster images, inline SVG and an apple-touch icon', () => {
    fc.assert(
      fc.property(rasterUrl, fc.constantFrom(...placements), (url, place) => {
        const page = place(url);
        expect(svgImages(page.html, () => page.css ?? null)).toEqual([]);
      }),
    );
    const inline =
      '<svg role="img" aria-label="Visa" viewBox="0 0 60 38"><text>VISA</text></svg>' +
      '<link rel="apple-touch-icon" href="/apple-touch-icon.png"><a href="/logo.svg">logo</a>';
    expect(svgImages(inline, noCss)).toEqual([]);
  });
});
