/**
 * The route kind of a request (`src/server/route-kind.ts`), the request metrics' `kind` label:
 * every path gets exactly one kind of the fixed list, and each family of paths its own.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  ACCOUNT_PATH,
  CART_PATH,
  CHECKOUT_PATH,
  LOGIN_PATH,
  LOGOUT_PATH,
  PASSWORD_PATH,
  REGISTER_PATH,
  RESELLER_PATH,
} from '../../src/lib/commerce/routes.ts';
import { ROUTE_KINDS, routeKind } from '../../src/server/route-kind.ts';

/** A path segment without a dot (so no file extension), never empty. */
const segment = fc.stringMatching(/^[a-z0-9-]{1,20}$/);
/** A path below a route: nothing, or `/` and segments. */
const below = fc
  .array(segment, { maxLength: 4 })
  .map((segments) => segments.map((part) => `/${part}`).join(''));
const query = fc.boolean();

/** The shopper's own pages, from the shop's route table (not from the list route-kind.ts keeps). */
const ACCOUNT = [
  ACCOUNT_PATH,
  LOGIN_PATH,
  LOGOUT_PATH,
  REGISTER_PATH,
  PASSWORD_PATH,
  CART_PATH,
  CHECKOUT_PATH,
  RESELLER_PATH,
];

describe('routeKind', () => {
  test('the kinds are the fixed list a dashboard relies on', () => {
    expect(ROUTE_KINDS).toEqual([
      'static',
      'page',
      'listing_view',
      'search',
      'api',
      'account',
      'image',
      'webhook',
      'health',
      'other',
    ]);
  });

  test('every target maps to one kind of the list', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webPath()), query, (path, hasQuery) => {
        expect(ROUTE_KINDS).toContain(routeKind(path, hasQuery));
      }),
      { numRuns: 500 },
    );
  });

  test('API paths are api, whatever follows', () => {
    fc.assert(
      fc.property(below, query, (rest, hasQuery) => {
        expect(routeKind(`/api${rest}`, hasQuery)).toBe('api');
      }),
    );
  });

  test('/_image is image; /_astro/ and files with an extension are static', () => {
    fc.assert(
      fc.property(below, segment, segment, query, (rest, name, extension, hasQuery) => {
        expect(routeKind(`/_image${rest}`, hasQuery)).toBe('image');
        expect(routeKind(`/_astro${rest}/${name}`, hasQuery)).toBe('static');
        expect(routeKind(`${rest}/${name}.${extension}`, hasQuery)).toBe('static');
        // Under a listing, a view or an account page too (a file is never a page).
        for (const route of ['/c', '/vue', '/mon-compte', '/panier']) {
          expect(routeKind(`${route}${rest}/${name}.${extension}`, hasQuery)).toBe('static');
        }
      }),
    );
  });

  test('webhooks, health, search and the account pages', () => {
    fc.assert(
      fc.property(below, segment, fc.constantFrom(...ACCOUNT), query, (rest, name, account, q) => {
        expect(routeKind(`/webhooks/${name}`, q)).toBe('webhook');
        expect(routeKind(`/resultats-de-recherche${rest}`, q)).toBe('search');
        expect(routeKind(`${account}${rest}`, q)).toBe('account');
      }),
    );
    expect(routeKind('/healthz', false)).toBe('health');
    expect(routeKind('/readyz', true)).toBe('health');
  });

  test('a category with a query and the on-demand views are listing views', () => {
    fc.assert(
      fc.property(below, segment, (rest, name) => {
        expect(routeKind(`/c/${name}${rest}`, true)).toBe('listing_view');
        expect(routeKind(`/c/${name}${rest}`, false)).toBe('page');
        expect(routeKind(`/vue/c/${name}${rest}`, false)).toBe('listing_view');
      }),
    );
    expect(routeKind('/les-yeux-fermes', true)).toBe('listing_view');
    expect(routeKind('/les-yeux-fermes', false)).toBe('page');
  });

  test('other pages are page; what is no path is other', () => {
    fc.assert(
      fc.property(segment, below, query, (first, rest, hasQuery) => {
        const kind = routeKind(`/${first}${rest}`, hasQuery);
        // A prefix of another family (a page named `api-x` is still a page).
        expect(['page', 'account', 'search', 'api', 'listing_view']).toContain(kind);
        if (
          !/^(api|vue|c|resultats-de-recherche|mon-compte|connexion|deconnexion|inscription|mot-de-passe|panier|paiement|espace-revendeur)$/.test(
            first,
          )
        ) {
          expect(kind).toBe('page');
        }
      }),
    );
    expect(routeKind('/', false)).toBe('page');
    expect(routeKind('/api-x', false)).toBe('page');
    expect(routeKind('*', false)).toBe('other');
    expect(routeKind('', false)).toBe('other');
  });
});
