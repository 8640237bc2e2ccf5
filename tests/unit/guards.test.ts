import { describe, expect, test } from 'vitest';
import {
  guardRequest,
  requiresLogin,
  returnPathCookie,
  safeReturnPath,
} from '../../src/lib/commerce/guards.ts';

const url = (path: string) => new URL(path, 'https://www.literie.test');

describe('guardRequest (spec §2 route guards)', () => {
  test.each([
    [
      '/login.php goes to logout',
      '/login.php',
      false,
      { kind: 'redirect', location: '/deconnexion' },
    ],
    [
      '/login.php goes to logout when logged in too',
      '/login.php',
      true,
      { kind: 'redirect', location: '/deconnexion' },
    ],
    [
      'password page without resetToken goes home',
      '/mot-de-passe',
      false,
      { kind: 'redirect', location: '/' },
    ],
    [
      'password page with an empty resetToken goes home',
      '/mot-de-passe?resetToken=%20',
      true,
      { kind: 'redirect', location: '/' },
    ],
    [
      'password page with a resetToken is shown',
      '/mot-de-passe?resetToken=abc',
      false,
      { kind: 'next' },
    ],
    [
      'account root for a visitor',
      '/mon-compte',
      false,
      { kind: 'redirect', location: '/connexion', returnPath: '/mon-compte' },
    ],
    [
      'account page for a visitor keeps the full path',
      '/mon-compte/commandes?page=2',
      false,
      { kind: 'redirect', location: '/connexion', returnPath: '/mon-compte/commandes?page=2' },
    ],
    ['account page for a customer', '/mon-compte/adresses', true, { kind: 'next' }],
    ['a path that only starts like the account area', '/mon-compteur', false, { kind: 'next' }],
    [
      'cart with authenticated=true for a visitor',
      '/panier?authenticated=true',
      false,
      { kind: 'redirect', location: '/connexion', returnPath: '/panier' },
    ],
    [
      'cart with authenticated=true for a customer',
      '/panier?authenticated=true',
      true,
      { kind: 'next' },
    ],
    [
      'cart with authenticated=false for a visitor',
      '/panier?authenticated=false',
      false,
      { kind: 'next' },
    ],
    ['cart for a visitor', '/panier', false, { kind: 'next' }],
    ['checkout for a visitor', '/paiement', false, { kind: 'next' }],
    ['login page', '/connexion', false, { kind: 'next' }],
  ] as const)('%s', (_, path, loggedIn, expected) => {
    expect(guardRequest(url(path), loggedIn)).toEqual(expected);
  });
});

describe('requiresLogin', () => {
  test.each([
    ['/mon-compte', true],
    ['/mon-compte/mes-informations', true],
    ['/mon-compte-bis', false],
    ['/panier', false],
  ] as const)('%s → %s', (path, expected) => {
    expect(requiresLogin(path)).toBe(expected);
  });
});

describe('safeReturnPath (same-origin paths only)', () => {
  test.each([
    ['a plain path', '/mon-compte/commandes', '/mon-compte/commandes'],
    ['a path with a query', '/panier?x=1', '/panier?x=1'],
    [
      'an encoded path as stored in the cookie',
      '%2Fmon-compte%2Fadresses%3Fa%3D1',
      '/mon-compte/adresses?a=1',
    ],
    ['dot segments stay inside the shop', '/a/../mon-compte', '/mon-compte'],
    ['missing', undefined, undefined],
    ['null', null, undefined],
    ['empty', '', undefined],
    ['an absolute URL', 'https://evil.example/x', undefined],
    ['a protocol-relative URL', '//evil.example/x', undefined],
    ['an encoded protocol-relative URL', '%2F%2Fevil.example', undefined],
    ['a backslash trick', '/\\evil.example', undefined],
    ['a tab trick', '/\t/evil.example', undefined],
    ['a javascript: URL', 'javascript:alert(1)', undefined],
    ['a relative path', 'mon-compte', undefined],
    ['malformed percent-encoding', '/%E0%A4%A', undefined],
    ['the login page (no loop)', '/connexion', undefined],
    ['the logout page', '/deconnexion', undefined],
    ['a very long path', `/${'a'.repeat(3000)}`, undefined],
  ] as const)('%s', (_, value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });
});

describe('returnPathCookie', () => {
  test.each([
    [
      'keeps a path, encoded, for 10 minutes',
      '/mon-compte?a=1',
      {},
      'redirect-after-login=%2Fmon-compte%3Fa%3D1; Max-Age=600; Path=/; SameSite=Lax',
    ],
    [
      'Secure over https',
      '/panier',
      { secure: true },
      'redirect-after-login=%2Fpanier; Max-Age=600; Path=/; SameSite=Lax; Secure',
    ],
    ['null forgets it', null, {}, 'redirect-after-login=; Max-Age=0; Path=/; SameSite=Lax'],
  ] as const)('%s', (_, path, options, expected) => {
    expect(returnPathCookie(path, options)).toBe(expected);
  });
});
