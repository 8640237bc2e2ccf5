import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bannerIsOffer } from '../../src/shop/view-models/layout/top-bar.ts';
import { sanitizeHtml } from '../../src/shop/html/sanitize-html.ts';
import { HOSTILE_HTML } from '@literie/sandbox/fixtures';

// The top bar's "recevez 10 %" could not be tapped. A banner without a link of its
// own becomes the newsletter offer's link; one with links keeps them (no link in a link).
describe('bannerIsOffer (the top bar offer)', () => {
  const offer =
    '<p>Inscrivez-vous à la lettre et recevez <strong>10 %</strong> sur votre première commande.</p>';

  test('the shop’s offer is a link; a banner with a link, the hostile one, or an empty one is not', () => {
    expect(bannerIsOffer(sanitizeHtml(offer))).toBe(true);
    expect(bannerIsOffer(sanitizeHtml('<p>Soldes : <a href="/c/matelas">voir</a></p>'))).toBe(
      false,
    );
    expect(bannerIsOffer(sanitizeHtml('<p><A HREF="/aide">Aide</A></p>'))).toBe(false);
    // The hostile banner's anchors are defused, not removed: still its own, never wrapped.
    expect(bannerIsOffer(sanitizeHtml(HOSTILE_HTML))).toBe(false);
    expect(bannerIsOffer('')).toBe(false);
    expect(bannerIsOffer('   ')).toBe(false);
  });

  const word = fc.stringMatching(/^[A-Za-zÀ-ÿ0-9 %,.!]{1,20}$/);
  const inline = fc.oneof(
    word,
    word.map((text) => `<strong>${text}</strong>`),
    word.map((text) => `<em>${text}</em>`),
  );
  const link = fc
    .tuple(fc.constantFrom('a', 'A'), fc.webPath(), word)
    .map(([tag, href, text]) => `<${tag} href="/${href.replace(/^\//, '')}">${text}</${tag}>`);

  test('property: any banner of text and emphasis is the offer', () => {
    fc.assert(
      fc.property(fc.array(inline, { minLength: 1, maxLength: 6 }), (parts) => {
        fc.pre(parts.join('').trim() !== '');
        expect(bannerIsOffer(sanitizeHtml(`<p>${parts.join(' ')}</p>`))).toBe(true);
      }),
    );
  });

  test('property: a banner holding a link of its own is never the offer', () => {
    fc.assert(
      fc.property(
        fc.array(inline, { maxLength: 4 }),
        link,
        fc.array(inline, { maxLength: 4 }),
        (before, anchor, after) => {
          const html = sanitizeHtml(`<p>${[...before, anchor, ...after].join(' ')}</p>`);
          expect(bannerIsOffer(html)).toBe(false);
        },
      ),
    );
  });
});
