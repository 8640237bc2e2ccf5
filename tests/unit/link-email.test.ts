import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EMPTY_CART } from '../../src/lib/commerce/cart.ts';
import { cartLinkEmail } from '../../src/shop/mail/cart-link-email.ts';
import { linkEmail } from '../../src/shop/mail/link-email.ts';
import { passwordResetEmail } from '../../src/shop/mail/password-reset-email.ts';

const sender = { email: 'boutique@literie.test', name: 'Literie' };
/** The HTML without the few tags the builder writes itself. */
const withoutOwnTags = (html: string) =>
  html
    .replace(/^<!doctype html><html lang="fr"><body style="[^"]*">/, '')
    .replace(/<\/body><\/html>$/, '')
    .replace(/<\/?p>/g, '')
    .replace(/<a href="[^"<>]*">/g, '')
    .replace(/<\/a>/g, '');

describe('linkEmail', () => {
  test('every text escaped, in HTML and as plain text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { maxLength: 3 }),
        fc.string(),
        fc.string(),
        (before, text, after) => {
          const mail = linkEmail({
            sender,
            to: { email: 'client@example.fr' },
            subject: 's',
            before,
            action: { text, link: 'https://www.literie.test/panier?id=a&token=b' },
            after: [after],
            tag: 't',
          });
          expect(withoutOwnTags(mail.htmlContent)).not.toMatch(/[<>"]/);
          for (const part of [...before, text, after]) expect(mail.textContent).toContain(part);
        },
      ),
    );
  });
});

describe('the shop’s link e-mails', () => {
  test('the cart sent by a reseller: seller, shop, link; hostile names escaped', () => {
    const mail = cartLinkEmail({
      to: 'client@example.fr',
      preparedBy: {
        seller: '<img src=x onerror=alert(1)>',
        reseller: 'Literie <b>Atlantique</b>',
        email: '',
        phone: '',
      },
      cart: EMPTY_CART,
      shopContact: { email: '', phone: '' },
      link: 'https://www.literie.test/panier?id=abc&token=xyz',
      sender,
      validDays: 30,
    });
    expect(mail.to).toEqual([{ email: 'client@example.fr' }]);
    expect(mail.subject).toContain('Literie <b>Atlantique</b>');
    expect(mail.htmlContent).not.toContain('<img');
    expect(mail.htmlContent).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.htmlContent).toContain(
      'href="https://www.literie.test/panier?id=abc&amp;token=xyz"',
    );
    expect(mail.textContent).toContain('https://www.literie.test/panier?id=abc&token=xyz');
    expect(mail.tags).toEqual(['cart-link']);
  });

  test('password reset: to the customer by name, the link', () => {
    const mail = passwordResetEmail({
      customer: { email: 'marie@example.fr', firstName: 'Marie', lastName: 'Martin' },
      link: 'https://www.literie.test/mot-de-passe?resetToken=t',
      sender,
    });
    expect(mail.to).toEqual([{ email: 'marie@example.fr', name: 'Marie Martin' }]);
    expect(mail.htmlContent).toContain('Bonjour Marie,');
    expect(mail.tags).toEqual(['password-reset']);
  });
});
