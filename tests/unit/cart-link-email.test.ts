/**
 * The e-mail of a cart a reseller sends to a client, from generated carts and hostile
 * names: a designed HTML e-mail with a text part, every line (name, options, quantity, unit
 * price, line total), the total to pay (cart_amount), who prepared it and the shop with their
 * contact, the link and how long it works; nothing of the names ever reaches the HTML unescaped.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatPrice } from '../../src/lib/commerce/money.ts';
import { CART_LINK_VALID_DAYS } from '../../src/lib/commerce/sent-carts.ts';
import { escapeHtml } from '../../src/lib/commerce/text.ts';
import type { Cart, CartLineItem } from '../../src/lib/commerce/types.ts';
import { cartLinkEmail } from '../../src/shop/mail/cart-link-email.ts';
import { booleanOptionValue } from '../../src/lib/commerce/item-options.ts';

const sender = { email: 'boutique@literie.test', name: 'Literie' };
const link = 'https://www.literie.test/panier?id=6f0b8c1e-4b1a-4c55-9a57-1f2d3c4b5a69&token=n.m';

/** Text a hostile upstream or reseller may send: markup, quotes, entities, any character. */
const hostile = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.constantFrom(
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "Matelas 'Nuit' & Co",
    '&lt;b&gt;',
    '</td></tr></table><a href="javascript:alert(1)">x</a>',
  ),
);

const lineArb = fc
  .record({
    name: hostile,
    quantity: fc.integer({ min: 1, max: 20 }),
    unit: fc.integer({ min: 1, max: 500_000 }),
    sale: fc.integer({ min: 0, max: 50_000 }),
    options: fc.array(fc.record({ name: hostile, value: hostile }), { maxLength: 3 }),
  })
  .map(({ name, quantity, unit, sale, options }): CartLineItem => ({
    id: `line-${String(unit)}`,
    parentId: null,
    productId: 1,
    variantId: 1,
    sku: 'SKU',
    name,
    url: '',
    imageUrl: '',
    quantity,
    // A sale price under the list price: the line shows it, the cart's base_amount does not.
    listPrice: unit + sale,
    salePrice: unit,
    extendedListPrice: (unit + sale) * quantity,
    extendedSalePrice: unit * quantity,
    options: options.map((o, j) => ({ ...o, nameId: j, valueId: j })),
  }));

const cartArb = fc
  .record({
    lines: fc.array(lineArb, { minLength: 1, maxLength: 5 }),
    discount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 })),
  })
  .map(({ lines, discount }): Cart => {
    const base = lines.reduce((sum, l) => sum + l.extendedListPrice, 0);
    const sold = lines.reduce((sum, l) => sum + l.extendedSalePrice, 0);
    return {
      id: '6f0b8c1e-4b1a-4c55-9a57-1f2d3c4b5a69',
      customerId: 0,
      channelId: 1,
      currency: 'EUR',
      baseAmount: base,
      cartAmount: Math.max(0, sold - discount),
      discountAmount: Math.min(sold, discount),
      lineItems: { physicalItems: lines, digitalItems: [], giftCertificates: [], customItems: [] },
      redirectUrls: null,
      createdTime: '',
      updatedTime: '',
    };
  });

const preparedByArb = fc.record({
  seller: hostile,
  reseller: hostile,
  email: fc.constantFrom('', 'revendeur@example.fr', '"x"<y>@example.fr'),
  phone: fc.constantFrom('', '02 40 00 00 00'),
});

/**
 * An option value as the mail shows it: the boolean strings of §9 in French ("NO" is "Non"),
 * anything else escaped as it is.
 */
const shownValue = (value: string) => {
  const boolean = booleanOptionValue(value);
  return boolean === null ? escapeHtml(value) : boolean === 'Yes' ? 'Oui' : 'Non';
};

/** The HTML's text and attribute values, with the tags the builder writes taken out. */
const textOf = (html: string) =>
  html.replace(/<\/?[a-z][a-z0-9]*(?:\s+[a-z-]+="[^"<>]*")*\s*\/?>/g, '');

describe('cartLinkEmail', () => {
  test('every name escaped: the HTML holds only the builder’s own tags and attributes', () => {
    fc.assert(
      fc.property(cartArb, preparedByArb, (cart, preparedBy) => {
        const mail = cartLinkEmail({
          to: 'client@example.fr',
          sender,
          cart,
          preparedBy,
          shopContact: { email: 'contact@literie.test', phone: '01 23 45 67 89' },
          link,
          validDays: CART_LINK_VALID_DAYS,
        });
        // Once the builder's own tags are gone, no markup is left: nothing came through raw.
        expect(textOf(mail.htmlContent.replace(/^<!doctype html>/, ''))).not.toMatch(/[<>]/);
        for (const line of cart.lineItems.physicalItems) {
          expect(mail.htmlContent).toContain(escapeHtml(line.name));
          for (const o of line.options) expect(mail.htmlContent).toContain(shownValue(o.value));
        }
        expect(mail.htmlContent).toContain(escapeHtml(preparedBy.seller));
      }),
      { numRuns: 200 },
    );
  });

  test('the content: lines, total to pay, seller and shop contact, link and validity, in both parts', () => {
    fc.assert(
      fc.property(cartArb, preparedByArb, (cart, preparedBy) => {
        const mail = cartLinkEmail({
          to: 'client@example.fr',
          sender,
          cart,
          preparedBy,
          shopContact: { email: 'contact@literie.test', phone: '01 23 45 67 89' },
          link,
          validDays: CART_LINK_VALID_DAYS,
        });
        const total = formatPrice(cart.cartAmount);
        for (const part of [mail.textContent, mail.htmlContent]) {
          expect(part).toContain(total);
          expect(part).toContain(`${String(CART_LINK_VALID_DAYS)} jours`);
          expect(part).toContain('contact@literie.test');
          expect(part).toContain('01 23 45 67 89');
          if (preparedBy.phone !== '') expect(part).toContain(preparedBy.phone);
        }
        expect(mail.textContent).toContain(link);
        expect(mail.htmlContent).toContain(`href="${escapeHtml(link)}"`);
        expect(mail.textContent).toContain(preparedBy.seller);
        for (const line of cart.lineItems.physicalItems) {
          expect(mail.textContent).toContain(line.name);
          const lineTotal = formatPrice(line.extendedSalePrice);
          expect(mail.textContent).toContain(
            `${String(line.quantity)} × ${formatPrice(line.salePrice)} = ${lineTotal}`,
          );
          expect(mail.htmlContent).toContain(escapeHtml(lineTotal));
        }
        // Only a cart-level discount (beyond the lines' sale prices) is a line of its own.
        const sold = cart.lineItems.physicalItems.reduce((sum, l) => sum + l.extendedSalePrice, 0);
        const discount = sold - cart.cartAmount;
        expect((mail.textContent ?? '').includes('Remise')).toBe(discount > 0);
        if (discount > 0) expect(mail.textContent).toContain(`Remise : −${formatPrice(discount)}`);
      }),
      { numRuns: 100 },
    );
  });

  test('a designed 600 px e-mail, French, tagged, to the client', () => {
    const [cart] = fc.sample(cartArb, { numRuns: 1, seed: 1 });
    if (cart === undefined) throw new Error('no generated cart');
    const mail = cartLinkEmail({
      to: 'client@example.fr',
      sender,
      cart,
      preparedBy: { seller: 'Hugo', reseller: 'Literie Atlantique', email: '', phone: '' },
      shopContact: { email: 'contact@literie.test', phone: '' },
      link,
      validDays: 30,
    });
    expect(mail.to).toEqual([{ email: 'client@example.fr' }]);
    expect(mail.subject).toContain('Literie Atlantique');
    expect(mail.htmlContent).toMatch(/^<!doctype html><html lang="fr">/);
    expect(mail.htmlContent).toContain('width="600"');
    expect(mail.htmlContent).toContain('role="presentation"');
    expect(mail.htmlContent).not.toMatch(/<img|<style|<script/);
    expect(mail.textContent).toContain('Hugo (Literie Atlantique)');
    expect(mail.textContent).toContain('Total TTC');
    expect(mail.tags).toEqual(['cart-link']);
  });
});
