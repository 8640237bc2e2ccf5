import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  FEATURE_DEFAULTS,
  FEATURE_VARIABLES,
  isResellerPath,
  pageEnabled,
  pageFeature,
  type Features,
} from '../../src/lib/features.ts';
import { featuresFromEnv, VARIABLES } from '../../src/shop/config/environment.ts';

const ALL_ON: Features = { transactional: true, reviews: true, resellerArea: true };
const flags = fc.record({
  transactional: fc.boolean(),
  reviews: fc.boolean(),
  resellerArea: fc.boolean(),
});

describe('pageFeature / pageEnabled (spec §1, §6 flags)', () => {
  test.each([
    ['/panier', 'transactional'],
    ['/paiement', 'transactional'],
    ['/connexion', 'transactional'],
    ['/inscription', 'transactional'],
    ['/deconnexion', 'transactional'],
    ['/mot-de-passe', 'transactional'],
    ['/login.php', 'transactional'],
    ['/mon-compte', 'transactional'],
    ['/mon-compte/mes-commandes/12', 'transactional'],
    ['/espace-revendeur', 'resellerArea'],
    ['/espace-revendeur/connexion', 'resellerArea'],
    ['/espace-revendeur/panier', 'resellerArea'],
    ['/', null],
    ['/p/101/matelas', null],
    ['/c/matelas', null],
    ['/panier-cadeau', null],
    ['/mon-compte-pro', null],
    ['/espace-revendeurs', null],
    ['/les-yeux-fermes', null],
    ['/404', null],
  ])('%s → %s', (path, feature) => {
    expect(pageFeature(path)).toBe(feature);
  });

  test('every page exists with every flag on', () => {
    for (const path of ['/panier', '/mon-compte', '/espace-revendeur/panier', '/']) {
      expect(pageEnabled(path, ALL_ON)).toBe(true);
    }
  });

  test('transactional off: the cart, checkout, login, registration and account pages are gone', () => {
    const off = { ...ALL_ON, transactional: false };
    for (const path of ['/panier', '/paiement', '/connexion', '/inscription', '/mon-compte/x']) {
      expect(pageEnabled(path, off)).toBe(false);
    }
    // The reseller area fills carts: gone too.
    expect(pageEnabled('/espace-revendeur', off)).toBe(false);
    expect(pageEnabled('/', off)).toBe(true);
  });

  test('reseller area off: every path under its prefix is gone, nothing else', () => {
    fc.assert(
      fc.property(fc.webPath(), flags, (path, features) => {
        const off = { ...features, resellerArea: false };
        if (isResellerPath(path)) expect(pageEnabled(path, off)).toBe(false);
        else
          expect(pageEnabled(path, off)).toBe(
            pageEnabled(path, { ...features, resellerArea: true }),
          );
      }),
    );
  });

  test('a path of no feature exists whatever the flags', () => {
    fc.assert(
      fc.property(fc.webPath(), flags, (path, features) => {
        if (pageFeature(path) === null) expect(pageEnabled(path, features)).toBe(true);
      }),
    );
  });

  test('the reviews flag switches no page off', () => {
    fc.assert(
      fc.property(fc.webPath(), (path) => {
        expect(pageEnabled(path, { ...ALL_ON, reviews: false })).toBe(true);
      }),
    );
  });
});

describe('featuresFromEnv: the flags as astro:env reads them (astro.config.mjs)', () => {
  test('unset: the defaults (transactional and reviews on, reseller area off)', () => {
    expect(featuresFromEnv({})).toEqual(FEATURE_DEFAULTS);
    expect(FEATURE_DEFAULTS).toEqual({ transactional: true, reviews: true, resellerArea: false });
  });

  test("'true' and 'false' set a flag whatever its default", () => {
    fc.assert(
      fc.property(flags, (wanted) => {
        const env = Object.fromEntries(
          Object.entries(FEATURE_VARIABLES).map(([flag, name]) => [
            name,
            String(wanted[flag as keyof Features]),
          ]),
        );
        expect(featuresFromEnv(env)).toEqual(wanted);
      }),
    );
  });

  test('the table of the environment declares each variable, for the browser, with its default from here', () => {
    for (const [flag, name] of Object.entries(FEATURE_VARIABLES)) {
      const variable = VARIABLES[name];
      expect(variable.default, name).toBe(FEATURE_DEFAULTS[flag as keyof Features]);
      expect(variable.check.type, name).toBe('boolean');
      expect(variable.astro, name).toEqual({ context: 'client', access: 'public' });
    }
  });

  test('any other value than true or false is refused, naming the variable', () => {
    expect(() => featuresFromEnv({ FEATURE_REVIEWS: 'yes' })).toThrow(/FEATURE_REVIEWS/);
  });
});
