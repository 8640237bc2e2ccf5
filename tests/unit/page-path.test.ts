/**
 * One spelling per page: every spelling Astro's router takes for a route (tried on a
 * build: `.html`, `/index.html`, `/.html`, `//`, dot segments, a backslash, escaped letters,
 * escapes decoded again and again, `/index`) answers 301 to the canonical path or not found,
 * so the guards and flags after it only ever see the canonical spelling.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalPath, pagePathDecision } from '../../src/lib/commerce/page-path.ts';
import { respelled } from './path-spellings.ts';

describe('pagePathDecision', () => {
  test.each([
    ['the root', '/', '', { kind: 'canonical' }],
    ['a page', '/panier', '', { kind: 'canonical' }],
    ['a nested page', '/c/matelas/ressorts', '?page=2', { kind: 'canonical' }],
    ['an escaped accent', '/p/1/lit-%C3%A9t%C3%A9', '', { kind: 'canonical' }],
    ['a file', '/logo.svg', '', { kind: 'canonical' }],
    [
      'a trailing slash (spec §2)',
      '/mon-compte/',
      '',
      { kind: 'redirect', location: '/mon-compte' },
    ],
    ['query kept', '/c/matelas/', '?page=2', { kind: 'redirect', location: '/c/matelas?page=2' }],
    ['.html', '/panier.html', '?a=1', { kind: 'redirect', location: '/panier?a=1' }],
    ['/index.html', '/paiement/index.html', '', { kind: 'redirect', location: '/paiement' }],
    ['/.html', '/connexion/.html', '', { kind: 'redirect', location: '/connexion' }],
    ['the home as index', '/index', '', { kind: 'redirect', location: '/' }],
    ['the home as index.html', '/index.html', '', { kind: 'redirect', location: '/' }],
    ['escaped dot', '/inscription%2ehtml', '', { kind: 'redirect', location: '/inscription' }],
    ['escaped letter', '/pan%69er', '', { kind: 'redirect', location: '/panier' }],
    ['escaped twice', '/panier%252ehtml', '', { kind: 'redirect', location: '/panier' }],
    ['escaped escape', '/%25%37%30anier', '', { kind: 'redirect', location: '/panier' }],
    ['double slash', '//espace-revendeur', '', { kind: 'redirect', location: '/espace-revendeur' }],
    ['dot segment', '/x/../deconnexion', '', { kind: 'redirect', location: '/deconnexion' }],
    ['escaped dots', '/x/%2e%2e/panier', '', { kind: 'redirect', location: '/panier' }],
    ['backslash', '/\\mot-de-passe', '', { kind: 'redirect', location: '/mot-de-passe' }],
    [
      'escaped slash',
      '/espace-revendeur%2Fpanier',
      '',
      { kind: 'redirect', location: '/espace-revendeur/panier' },
    ],
    [
      'protocol-relative lookalike',
      '//evil.example/',
      '',
      { kind: 'redirect', location: '/evil.example' },
    ],
    ['malformed escape', '/panier%', '', { kind: 'not-found' }],
    ['truncated UTF-8', '/panier%C3', '', { kind: 'not-found' }],
    ['NUL', '/panier%00', '', { kind: 'not-found' }],
    ['line break', '/panier%0a', '', { kind: 'not-found' }],
  ])('%s', (_case, pathname, search, expected) => {
    expect(pagePathDecision(pathname, search)).toEqual(expected);
  });
});

/** Pages behind a guard or a flag (spec §1, §2, §6). */
const GUARDED = [
  '/panier',
  '/paiement',
  '/connexion',
  '/inscription',
  '/deconnexion',
  '/mot-de-passe',
  '/login.php',
  '/mon-compte',
  '/mon-compte/mes-informations',
  '/mon-compte/mes-commandes/12',
  '/espace-revendeur',
  '/espace-revendeur/panier',
  '/espace-revendeur/connexion',
] as const;

describe('property: a guarded page has one spelling', () => {
  test('any respelling answers 301 to the page itself or not found, never goes on', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...GUARDED).chain((page) => fc.tuple(fc.constant(page), respelled(page))),
        fc.constantFrom('', '?id=1&token=t', '?authenticated=true'),
        ([page, spelled], search) => {
          const decision = pagePathDecision(spelled, search);
          if (spelled === page) {
            expect(decision).toEqual({ kind: 'canonical' });
            return;
          }
          expect(decision.kind).not.toBe('canonical');
          if (decision.kind === 'redirect') expect(decision.location).toBe(page + search);
        },
      ),
      { numRuns: 5000 },
    );
  });

  test('the canonical spelling is a fixed point: one 301 reaches it', () => {
    fc.assert(
      fc.property(fc.webPath(), fc.string({ maxLength: 12 }), (path, noise) => {
        const spelled = `/${path}${noise}`.replace(/[?#].*$/, '');
        const decision = pagePathDecision(spelled);
        if (decision.kind !== 'redirect') return;
        expect(decision.location.startsWith('/')).toBe(true);
        expect(decision.location.startsWith('//')).toBe(false);
        expect(pagePathDecision(decision.location)).toEqual({ kind: 'canonical' });
        expect(canonicalPath(decision.location)).toBe(decision.location);
      }),
      { numRuns: 500 },
    );
  }, 30_000);
});

describe('canonicalPath of the file a static build asks for', () => {
  const segment = fc.stringMatching(/^[a-z0-9-]{1,20}$/);
  const shopPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`);

  test('is the path a server gets for the same page', () => {
    fc.assert(
      fc.property(shopPath, (path) => {
        fc.pre(!path.endsWith('/index'));
        expect(canonicalPath(`${path}.html`)).toBe(path);
        expect(canonicalPath(path)).toBe(path);
      }),
    );
    expect(canonicalPath('/index.html')).toBe('/');
  });
});
