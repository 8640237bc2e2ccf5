import { describe, expect, test } from 'vitest';
import {
  accountSection,
  accountView,
  orderPath,
  parseOrderId,
  type AccountView,
} from '../../src/lib/commerce/account-pages.ts';

describe('accountView (/mon-compte/{pageName}, spec §2)', () => {
  test.each([
    [
      'no page: the default mes-informations',
      undefined,
      { kind: 'redirect', location: '/mon-compte/mes-informations' },
    ],
    ['an empty page', '', { kind: 'redirect', location: '/mon-compte/mes-informations' }],
    ['mes-informations', 'mes-informations', { kind: 'profile' }],
    ['mes-adresses', 'mes-adresses', { kind: 'addresses' }],
    ['mes-commandes', 'mes-commandes', { kind: 'orders' }],
    ['an order', 'mes-commandes/103', { kind: 'order', orderId: 103 }],
    ['an order id with a leading zero', 'mes-commandes/0103', { kind: 'not-found' }],
    ['an order id that is not a number', 'mes-commandes/abc', { kind: 'not-found' }],
    ['an order id too long', 'mes-commandes/12345678901', { kind: 'not-found' }],
    ['a page under the profile', 'mes-informations/x', { kind: 'not-found' }],
    ['a deeper path', 'mes-commandes/103/x', { kind: 'not-found' }],
    ['an unknown page', 'favoris', { kind: 'not-found' }],
  ] as const)('%s', (_, page, expected) => {
    expect(accountView(page)).toEqual(expected);
  });
});

describe('accountSection (the navigation entry of a view)', () => {
  test.each([
    [{ kind: 'profile' }, 'mes-informations'],
    [{ kind: 'addresses' }, 'mes-adresses'],
    [{ kind: 'orders' }, 'mes-commandes'],
    [{ kind: 'order', orderId: 1 }, 'mes-commandes'],
    [{ kind: 'not-found' }, 'mes-informations'],
  ] as [AccountView, string][])('%o → %s', (view, expected) => {
    expect(accountSection(view)).toBe(expected);
  });
});

test('orderPath', () => {
  expect(orderPath(103)).toBe('/mon-compte/mes-commandes/103');
});

describe('parseOrderId (account order pages, /paiement?commande=)', () => {
  test.each([
    ['1', 1],
    ['103', 103],
    ['9999999999', 9_999_999_999],
    ['0', null],
    ['012', null],
    ['-3', null],
    ['+3', null],
    ['1e3', null],
    ['3.0', null],
    [' 3', null],
    ['10000000000', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j → %j', (value, expected) => {
    expect(parseOrderId(value)).toBe(expected);
  });

  test('an order path reads back as its id', () => {
    for (const id of [1, 42, 9_999_999_999]) {
      expect(accountView(orderPath(id).replace('/mon-compte/', ''))).toEqual({
        kind: 'order',
        orderId: id,
      });
    }
  });
});
