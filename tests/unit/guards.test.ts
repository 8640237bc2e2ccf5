import { describe, expect, test } from 'vitest';
import { guardRequest, requiresLogin, returnPathCookie } from '../../src/lib/commerce/guards.ts';

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
    [
      'an account path with encoded dots and slashes is kept as a path of the account area',
      '/mon-compte/%2e%2e%2f.%2f%2fevil.example',
      false,
      {
        kind: 'redirect',
        location: '/connexion',
        returnPath: '/mon-compte/%2e%2e%2f.%2f%2fevil.example',
      },
    ],
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
    [
      'the path is kept normalised',
      '/mon-compte/./a/../mes-adresses',
      {},
      'redirect-after-login=%2Fmon-compte%2Fmes-adresses; Max-Age=600; Path=/; SameSite=Lax',
    ],
    [
      'a path that is no way back is forgotten',
      '//evil.example',
      {},
      'redirect-after-login=; Max-Age=0; Path=/; SameSite=Lax',
    ],
    [
      'the login page is no way back',
      '/connexion',
      {},
      'redirect-after-login=; Max-Age=0; Path=/; SameSite=Lax',
    ],
  ] as const)('%s', (_, path, options, expected) => {
    expect(returnPathCookie(path, options)).toBe(expected);
  });
});
