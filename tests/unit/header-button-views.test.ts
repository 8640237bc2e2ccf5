import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountLinkView, cartBadgeView } from '../../src/browser/layout/header-button-views.ts';
import { ACCOUNT_HOME, LOGIN_PATH } from '../../src/lib/commerce/guards.ts';
import { createTranslator, parseMessages } from '../../src/lib/i18n/translate.ts';

const t = createTranslator({
  'header.login': 'Me connecter',
  'header.connected': 'Connecté',
  'header.cartCount_one': '{{count}} article dans le panier',
  'header.cartCount_other': '{{count}} articles dans le panier',
});

describe('accountLinkView (spec §2, §6: the header account link)', () => {
  it.each([
    ['a reseller, area on: the reseller area', true, true, '/espace-revendeur'],
    ['a reseller, area off: the account', true, false, ACCOUNT_HOME],
    ['a customer, area on: the account', false, true, ACCOUNT_HOME],
  ])('%s', (_, isReseller, area, href) => {
    const customer = { firstName: 'Marie', isReseller, shopName: 'Literie Atlantique' };
    expect(accountLinkView(true, customer, t, area).href).toBe(href);
  });

  it('a visitor: "Me connecter" to /connexion, a plain click opens the modal', () => {
    expect(accountLinkView(false, null, t)).toEqual({
      href: LOGIN_PATH,
      label: 'Me connecter',
      opensLoginModal: true,
    });
  });

  it('the marker alone says "Connecté" at once; the name comes with the customer', () => {
    expect(accountLinkView(true, null, t)).toEqual({
      href: ACCOUNT_HOME,
      label: 'Connecté',
      opensLoginModal: false,
    });
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.record({ firstName: fc.string(), shopName: fc.string(), isReseller: fc.boolean() }),
        (marker, customer) => {
          const view = accountLinkView(marker, customer, t);
          const name = (customer.isReseller ? customer.shopName : customer.firstName).trim();
          expect(view.href).toBe(ACCOUNT_HOME);
          expect(view.opensLoginModal).toBe(false);
          expect(view.label).toBe(name === '' ? 'Connecté' : `Connecté ${name}`);
        },
      ),
    );
  });
});

describe('cartBadgeView (spec §2, §3: the item-count badge)', () => {
  it.each([
    [0, null, '0 article dans le panier'],
    [1, '1', '1 article dans le panier'],
    [2, '2', '2 articles dans le panier'],
    [99, '99', '99 articles dans le panier'],
    [100, '99+', '100 articles dans le panier'],
  ])('%i items: badge %s, spoken "%s"', (count, text, label) => {
    expect(cartBadgeView(count, t)).toEqual({ text, label });
  });

  it('no badge for anything but a positive whole count', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double(), fc.integer({ max: 0 }), fc.constant(Number.NaN)),
        (count) => {
          fc.pre(!(Number.isSafeInteger(count) && count > 0));
          expect(cartBadgeView(count, t).text).toBeNull();
        },
      ),
    );
  });
});

describe('parseMessages (texts the page wrote as JSON for a script)', () => {
  it('keeps the string entries of an object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string()), (messages) => {
        expect(parseMessages(JSON.stringify(messages))).toEqual(messages);
      }),
    );
  });

  it('anything else gives no messages, never an error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const messages = parseMessages(text);
        expect(Object.values(messages).every((value) => typeof value === 'string')).toBe(true);
      }),
    );
    for (const text of [null, undefined, '', '[]', '["a"]', 'null', '3', '{"a":1,"b":null}']) {
      expect(parseMessages(text)).toEqual({});
    }
  });
});
