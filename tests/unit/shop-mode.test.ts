import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CONSUMER_ONLY_END,
  CONSUMER_ONLY_START,
  hasResellerMode,
  RESELLER_BADGE_CLASS,
  RESELLER_REF_CLASS,
  resellerBadgeMarker,
  resellerPage,
  resellerRefMarker,
} from '../../src/lib/commerce/shop-mode.ts';

const consumerOnly = (html: string) => `${CONSUMER_ONLY_START}${html}${CONSUMER_ONLY_END}`;

describe('resellerPage (spec §6 reseller mode of the whole shop)', () => {
  test.each([
    [
      'a page without markers gains the document flag',
      '<html lang="fr"><p>x</p></html>',
      '<html data-reseller lang="fr"><p>x</p></html>',
    ],
    [
      'the document flag is set once',
      '<html data-reseller lang="fr"></html>',
      '<html data-reseller lang="fr"></html>',
    ],
    [
      'a consumer-only part goes',
      `<html><p>a</p>${consumerOnly('<form>newsletter</form>')}<p>b</p>`,
      '<html data-reseller><p>a</p><p>b</p>',
    ],
    ['several parts go', `${consumerOnly('x')}keep${consumerOnly('y')}`, 'keep'],
    ['an unclosed part runs to the end', `keep${CONSUMER_ONLY_START}<p>newsletter`, 'keep'],
    [
      'nested parts go whole',
      `a${consumerOnly(`<ul>${consumerOnly('<li>x</li>')}<li>y</li></ul>`)}b`,
      'ab',
    ],
    ['a stray end goes', `a${CONSUMER_ONLY_END}b`, 'ab'],
    [
      'cards are flagged',
      '<article data-card class="c">',
      '<article data-card data-reseller class="c">',
    ],
    [
      'a card flagged once',
      '<article data-card data-reseller class="c">',
      '<article data-card data-reseller class="c">',
    ],
    [
      'the reference shows',
      `<h3>Matelas</h3>${resellerRefMarker('Réf. MAT-01')}`,
      `<h3>Matelas</h3><p class="${RESELLER_REF_CLASS}">Réf. MAT-01</p>`,
    ],
    [
      'the reference is escaped',
      resellerRefMarker('<img src=x onerror=alert(1)>'),
      `<p class="${RESELLER_REF_CLASS}">&lt;img src=x onerror=alert(1)&gt;</p>`,
    ],
    [
      "the header's badge shows",
      `<a>Logo</a>${resellerBadgeMarker('Espace revendeur')}`,
      `<a>Logo</a><span class="${RESELLER_BADGE_CLASS}">Espace revendeur</span>`,
    ],
    [
      'the badge is escaped and cannot end its comment',
      resellerBadgeMarker('--><script>x</script>'),
      `<span class="${RESELLER_BADGE_CLASS}">--&gt;&lt;script&gt;x&lt;/script&gt;</span>`,
    ],
    [
      'cart links open the reseller cart',
      '<a href="/panier" data-cart-link>',
      '<a href="/espace-revendeur/panier" data-cart-link>',
    ],
    ['with a query', '<a href="/panier?x=1">', '<a href="/espace-revendeur/panier?x=1">'],
    ['not another page', '<a href="/panier-garni">', '<a href="/panier-garni">'],
  ])('%s', (_, html, expected) => {
    expect(resellerPage(html)).toBe(expected);
  });

  test('no consumer-only text survives, everything else does, and it is idempotent', () => {
    const text = fc
      .string({ maxLength: 20 })
      .filter((s) => !s.includes('<!--') && !s.includes('-->'));
    fc.assert(
      fc.property(
        fc.array(fc.record({ hidden: fc.boolean(), nested: fc.boolean(), text }), {
          maxLength: 8,
        }),
        (parts) => {
          const secret = 'NEWSLETTER_SECRET';
          const html = parts
            .map((part) =>
              part.hidden
                ? consumerOnly(
                    `${secret}${part.nested ? consumerOnly(`${secret}${part.text}`) : ''}${part.text}`,
                  )
                : part.text,
            )
            .join('');
          const once = resellerPage(html);
          expect(once).not.toContain(secret);
          expect(once).not.toContain('consumer-only');
          expect(once).toBe(
            parts
              .filter((p) => !p.hidden)
              .map((p) => resellerPage(p.text))
              .join(''),
          );
          expect(resellerPage(once)).toBe(once);
        },
      ),
    );
  });

  test('a reference marker never ends its comment early, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const marker = resellerRefMarker(text);
        expect(marker.indexOf('-->')).toBe(marker.length - 3);
        expect(marker.slice(4, -3)).not.toMatch(/--|!/);
        const shown = resellerPage(marker);
        expect(shown).not.toContain('<!--');
        if (text !== '') expect(shown).not.toMatch(/<(?!\/?p[ >])/);
      }),
    );
  });
});

describe('hasResellerMode', () => {
  test.each([
    ['no cookie', undefined, false],
    ['the mode cookie', 'a=1; mode-revendeur=1; b=2', true],
    ['alone', 'mode-revendeur=1', true],
    ['another value', 'mode-revendeur=0', false],
    ['a longer name', 'xmode-revendeur=1', false],
    ['another cookie holding it', 'x=mode-revendeur=1', false],
  ])('%s', (_, header, expected) => {
    expect(hasResellerMode(header)).toBe(expected);
  });
});
